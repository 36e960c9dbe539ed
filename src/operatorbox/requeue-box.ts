/**
 * `operatorBox.requeue` (Orkestra's requeue rule): after a successful cycle of a live object whose hooks or
 * constructor asked for no delay, when the rule's conditions hold, the object is reconciled again after `after`.
 * As in Orkestra the rule is fail-open: a value that does not render to a duration (or renders to `0s` or nothing)
 * means no requeue; the reconcile itself succeeded, so the rule's failure is logged as a warning and the object
 * waits for its next change or resync instead of failing a cycle that did its work.
 */
import type { RequeueRule } from '../definition/types.js';
import type { Logger } from '../observe/logger.js';
import { compileConditions, compileTemplate, type CompiledConditions, type CompiledTemplate, type TemplateDialect, type UserNote } from '../template/index.js';
import { parseDuration } from '../util/duration.js';
import type { BoxInput, BoxOutput, DeleteOutput, OperatorBoxStage } from './stage.js';
import { templateData } from './template-data.js';

export interface RequeueBoxOptions {
  readonly crd: string;
  readonly rule: RequeueRule;
  readonly dialect?: TemplateDialect | undefined;
  /** User-defined notes the templates may call (the CRD's `notes`). */
  readonly notes?: readonly UserNote[] | undefined;
  readonly logger: Logger;
  /** The runtime's clock, for the clock notes (default Date.now). */
  readonly now?: (() => number) | undefined;
}

export class RequeueBox implements OperatorBoxStage {
  private readonly conditions: CompiledConditions;
  private readonly after: CompiledTemplate;

  /** Compiles the rule; throws a TemplateError when it does not compile. */
  constructor(
    private readonly inner: OperatorBoxStage,
    private readonly options: RequeueBoxOptions,
  ) {
    const name = `spec.crds.${options.crd}.operatorBox.requeue`;
    const dialect = { ...(options.dialect === undefined ? {} : { dialect: options.dialect }), ...(options.notes === undefined ? {} : { notes: options.notes }), ...(options.now === undefined ? {} : { now: options.now }) };
    this.conditions = compileConditions({ when: options.rule.when, anyOf: options.rule.anyOf }, { name, ...dialect });
    this.after = compileTemplate(options.rule.after, { name: `${name}.after`, ...dialect });
  }

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    const output = await this.inner.reconcile(input);
    if (output.requeueAfterMs !== undefined) return output;
    const delay = this.delayFor(output.object ?? input.object);
    return delay === undefined ? output : { ...output, requeueAfterMs: delay };
  }

  delete(input: BoxInput): Promise<DeleteOutput> {
    return this.inner.delete(input);
  }

  notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    return this.inner.notFound(key, signal);
  }

  private delayFor(object: BoxInput['object']): number | undefined {
    const data = templateData(object, {});
    const verdict = this.conditions.evaluate(data);
    for (const warning of verdict.warnings) this.options.logger.warn('requeue condition', { crd: this.options.crd, warning });
    if (!verdict.ok) return undefined;
    let rendered: unknown;
    try {
      rendered = this.after.render(data);
    } catch (error) {
      this.options.logger.warn('requeue.after did not render: no requeue (fail-open, as in Orkestra)', { crd: this.options.crd, error });
      return undefined;
    }
    const text = typeof rendered === 'string' ? rendered.trim() : String(rendered as number);
    const ms = parseDuration(text);
    if (ms === undefined) {
      // The value came from the custom resource: its text stays out of the log.
      this.options.logger.warn('requeue.after is not a duration: no requeue (fail-open, as in Orkestra)', { crd: this.options.crd });
      return undefined;
    }
    return ms > 0 ? ms : undefined;
  }
}
