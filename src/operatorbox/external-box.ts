/**
 * `operatorBox.external` at reconcile time: before the box runs for a live object, its calls run
 * (external-calls.ts) and their results are kept for that key, so that the templates and the status fields of
 * the cycle read them as `.external.<name>` (through {@link ExternalStage.data}). A failed call (without
 * `continueOnError`) fails the cycle before any child is written: the runtime retries it with backoff and the
 * Ready condition names the call. The delete path makes no calls.
 */
import { keyOf, type KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { TemplateDialect } from '../template/index.js';
import { ExternalCallError, type ExternalCalls, type ExternalResult } from './external-calls.js';
import { wrapStage, type BoxInput, type BoxOutput, type OperatorBoxStage } from './stage.js';
import { templateData } from './template-data.js';

export interface ExternalStageOptions {
  readonly crd: string;
  readonly calls: ExternalCalls;
  readonly dialect?: TemplateDialect | undefined;
  readonly logger: Logger;
}

export class ExternalStage {
  /** The last results of each key: what this cycle's templates and status fields read. */
  private readonly results = new Map<string, Readonly<Record<string, ExternalResult>>>();

  constructor(private readonly options: ExternalStageOptions) {}

  /** `{ external }` for the templates of `object` (empty results when no cycle ran for it yet). */
  data(object: KubeObject): { readonly external: Readonly<Record<string, ExternalResult>> } {
    return { external: this.results.get(keyOf(object)) ?? {} };
  }

  /** The box that runs the calls before `inner`. */
  wrap(inner: OperatorBoxStage): OperatorBoxStage {
    return wrapStage(inner, { before: (input) => this.reconcile(inner, input), forget: (key) => this.results.delete(key) });
  }

  private async reconcile(inner: OperatorBoxStage, input: BoxInput): Promise<BoxOutput> {
    const { calls, dialect, logger, crd } = this.options;
    const data = templateData(input.object, {}, {}, dialect);
    try {
      const results = await calls.run(input.object, data, input.signal, {}, (error) =>
        // continueOnError: the user asked for the cycle to go on; the result's .error tells the templates.
        logger.warn('external call failed (continueOnError: the cycle goes on)', { crd, key: input.key, call: error.call, reason: error.reason }),
      );
      this.results.set(input.key, results);
    } catch (error) {
      if (error instanceof ExternalCallError) this.results.set(input.key, error.results);
      throw error;
    }
    return inner.reconcile(input);
  }
}
