/**
 * Notifications of a CRD (Orkestra's `notify:`, docs/notifications.md): after each reconcile of a live object,
 * success or failure, every rule whose conditions hold against the data the status fields see asks the runtime's
 * notifier to tell its teams. The notifier throttles (per condition and team, as Orkestra), renders, queues and
 * delivers; this layer never waits for a delivery, and nothing it does changes the cycle's result. A gated cycle
 * (preReconcile) and the delete path notify nobody, as Orkestra's condition evaluation does not run there.
 */
import type { NotifyRule } from '../definition/notification-types.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { compileConditions, compileTemplate, compileValue, type CompiledConditions, type CompiledTemplate, type CompiledValue, type TemplateData, type TemplateDialect, type UserNote } from '../template/index.js';
import { hasTemplateInputs } from './template-set.js';
import type { BoxInput, BoxOutput, DeleteOutput, OperatorBoxStage } from './stage.js';

/** One condition of one CRD holding for one object: what the notifier needs to tell each team. */
export interface NotifyRequest {
  readonly crd: string;
  /** Orkestra's key of the condition (`field|operator|value`): the throttle is per key and team. */
  readonly conditionKey: string;
  /** The field the condition reads (the subject line of a notification). */
  readonly field: string;
  readonly teams: readonly string[];
  /** The rule's own message template, over the team's. */
  readonly message: string | undefined;
  readonly object: KubeObject;
  /** Renders a message template against the data the conditions saw (throws a TemplateError when it cannot). */
  readonly render: (template: string) => string;
}

/** The runtime's notifier, as a box layer sees it: it takes requests and never throws. */
export interface NotificationSender {
  submit(request: NotifyRequest): void;
}

export interface NotifyBoxOptions {
  readonly crd: string;
  readonly rules: readonly NotifyRule[];
  readonly sender: NotificationSender;
  readonly dialect?: TemplateDialect | undefined;
  /** The definition's user-defined notes the conditions may call. */
  readonly notes?: readonly UserNote[] | undefined;
  readonly logger: Logger;
  /** The template data of the object (what the status fields see); `failed` tells the outcome. */
  readonly data: (object: KubeObject, failed: boolean) => TemplateData;
  /** The runtime's clock, for the clock notes (default Date.now). */
  readonly now?: (() => number) | undefined;
}

interface CompiledRule {
  readonly rule: NotifyRule;
  readonly conditions: CompiledConditions;
  readonly key: string;
  readonly field: string;
  /** `.inputs` of a rule imported from a Motif: plain, or compiled when some are templates (Orkestra dialect). */
  readonly inputs: Readonly<Record<string, unknown>> | CompiledValue | undefined;
}

export class NotifyBox implements OperatorBoxStage {
  private readonly compiled: readonly CompiledRule[];
  /** Message templates by text, compiled on first use (the teams' messages are the notifier's to choose). */
  private readonly messages = new Map<string, CompiledTemplate>();

  /** Compiles the rules' conditions; throws a TemplateError when one does not compile. */
  constructor(
    private readonly inner: OperatorBoxStage,
    private readonly options: NotifyBoxOptions,
  ) {
    const { dialect, notes, now } = options;
    this.compiled = options.rules.map((rule) => ({
      rule,
      conditions: compileConditions({ when: rule.when, anyOf: rule.anyOf }, { name: rule.path, ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) }),
      key: [...rule.when, ...rule.anyOf].map((c) => `${c.field}|${c.operator}|${c.value === undefined ? '' : typeof c.value === 'string' ? c.value : JSON.stringify(c.value)}`).join('&'),
      field: [...rule.when, ...rule.anyOf].map((c) => c.field).join(', '),
      inputs: dialect === 'orkestra' && hasTemplateInputs(rule.inputs) ? compileValue(rule.inputs, { name: `${rule.path}.inputs`, dialect, ...(notes === undefined ? {} : { notes }) }) : rule.inputs,
    }));
  }

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    let output: BoxOutput;
    try {
      output = await this.inner.reconcile(input);
    } catch (error) {
      this.check(input.object, true);
      throw error;
    }
    this.check(output.object ?? input.object, false);
    return output;
  }

  delete(input: BoxInput): Promise<DeleteOutput> {
    return this.inner.delete(input);
  }

  notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    return this.inner.notFound(key, signal);
  }

  private check(object: KubeObject, failed: boolean): void {
    let data: TemplateData;
    try {
      data = this.options.data(object, failed);
    } catch (error) {
      // A report of the outcome, never part of it (as Events are): the cycle's result stands, the log says why.
      this.options.logger.warn('notifications: the template data could not be built; no condition checked', { crd: this.options.crd, error: error instanceof Error ? error.message : String(error) });
      return;
    }
    for (const { rule, conditions, key, field, inputs } of this.compiled) {
      const scope = this.scope(data, rule, inputs);
      if (scope === undefined) continue;
      const verdict = conditions.evaluate(scope);
      for (const warning of verdict.warnings) this.options.logger.warn('notification condition', { crd: this.options.crd, rule: rule.path, warning });
      if (!verdict.ok) continue;
      const render = (template: string): string => String(this.message(template).render(scope));
      this.options.sender.submit({ crd: this.options.crd, conditionKey: key, field, teams: rule.teams, message: rule.message, object, render });
    }
  }

  /** The data a rule sees: with its Motif's `.inputs` when it came from one; undefined when they do not render. */
  private scope(data: TemplateData, rule: NotifyRule, inputs: CompiledRule['inputs']): TemplateData | undefined {
    if (inputs === undefined) return data;
    if (!isCompiledValue(inputs)) return { ...data, inputs };
    try {
      return { ...data, inputs: inputs.render(data) };
    } catch (error) {
      // As for the data above: a notification reports the outcome and never changes it; the log says which rule.
      this.options.logger.warn('notifications: the Motif inputs of a rule could not be rendered; rule not checked', { crd: this.options.crd, rule: rule.path, error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }

  private message(template: string): CompiledTemplate {
    let compiled = this.messages.get(template);
    if (compiled === undefined) {
      const { dialect, notes, now } = this.options;
      compiled = compileTemplate(template, { name: `notification message of ${this.options.crd}`, ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) });
      this.messages.set(template, compiled);
    }
    return compiled;
  }
}

function isCompiledValue(value: Readonly<Record<string, unknown>> | CompiledValue): value is CompiledValue {
  return typeof (value as { render?: unknown }).render === 'function';
}
