/**
 * `constructor.external` (a katalog extension; docs/orkestra-compatibility.md#constructor-external-calls): the
 * calls of a constructor-owned CRD (`default: false`), made before each reconcile of a live object with the
 * external calls' client, limits, cache and credentials (external-calls.ts). Their templates see the custom
 * resource and the calls before them; the results reach the reconciler as `ctx.external`.
 *
 * A failed call without `continueOnError` fails the cycle before the reconciler runs: the error names the call
 * (never the URL, a header or the body), Ready=False says so and the runtime retries with backoff. With
 * `continueOnError` the reconciler runs and reads `.error` of the result; the failure is logged as a warning.
 */
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { TemplateDialect } from '../template/index.js';
import type { ExternalCalls, ExternalResult } from './external-calls.js';
import { templateData } from './template-data.js';

export interface ConstructorCallsOptions {
  readonly crd: string;
  readonly calls: ExternalCalls;
  readonly dialect?: TemplateDialect | undefined;
  readonly logger: Logger;
}

export class ConstructorCalls {
  constructor(private readonly options: ConstructorCallsOptions) {}

  /** The results for `object`, by call name; throws the failed call's ExternalCallError (see the module comment). */
  async run(key: string, object: KubeObject, signal: AbortSignal): Promise<Readonly<Record<string, ExternalResult>>> {
    const { calls, dialect, logger, crd } = this.options;
    return calls.run(object, templateData(object, {}, {}, dialect), signal, {}, (error) =>
      // continueOnError: the user asked for the reconciler to run anyway; the result's .error tells it.
      logger.warn('constructor external call failed (continueOnError: the reconciler runs)', { crd, key, call: error.call, reason: error.reason }),
    );
  }
}
