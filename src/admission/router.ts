/**
 * The admission webhook router: a plain Hono sub-app (like the inspection router) serving AdmissionReview v1 for
 * one loaded definition. It reads only the frozen definition and the template evaluator, so it runs without a
 * runtime (a webhook server scales apart from the operator) and is mounted with `app.route('/admission', router)`.
 *
 * - `POST /validate`: validation rules and deletion protection (decide.ts); the rules' external calls first, within
 *   a bounded budget (admission-external.ts), the only time the router waits on another service.
 * - `POST /mutate`: mutation rules and the deletion-protection label, as a base64 JSONPatch.
 * - A body that is not an AdmissionReview v1 is a 400 JSON error; a resource the definition has no rules for is
 *   allowed unchanged; any other path is a JSON 404, any other method on the two paths a 405.
 * - Nothing of the object is logged or echoed beyond the kind, name, namespace and the rules' own messages.
 *
 * TLS is the host's: kube-apiserver calls webhooks over https only (docs/admission.md).
 */
import { Hono, type Context } from 'hono';
import type { Definition } from '../definition/index.js';
import { compileDefinitionRules, rulesFor } from './crd-rules.js';
import { DEFAULT_ADMISSION_CALL_BUDGET_MS } from './admission-calls.js';
import { externalStep, withWarnings, type ExternalFailurePolicy } from './admission-external.js';
import type { SecretReader } from '../operatorbox/external-calls.js';
import type { ExternalProtocolClient } from '../operatorbox/external-protocol.js';
import { ExternalProtocols, missingProtocolClients } from '../operatorbox/external-protocols.js';
import { decideMutation, decideValidation } from './decide.js';
import { readReview, reviewOf, type AdmissionRequest, type AdmissionResponse } from './review.js';
import { errorBody, finishWebhookRoutes, json, readJsonBody } from './webhook-http.js';

export interface AdmissionRouterOptions {
  /** Told about an unexpected error while answering (the caller gets a 500 JSON body without its text). */
  readonly onError?: (error: Error, request: { readonly method: string; readonly path: string }) => void;
  /**
   * Told about every decision: the operation, the resource, the object's namespace and name, whether it was
   * allowed, and how many patch operations were sent. Never the object.
   */
  readonly onDecision?: (decision: AdmissionDecision) => void;
  /**
   * The custom resources of a CRD (by its name in the definition), for `operator: unique`: usually the embedded
   * runtime's cache, `(crd) => cachedObjects(runtime, crd)`. Required when a rule uses `unique` at admission.
   */
  readonly peers?: (crd: string) => Iterable<Record<string, unknown>>;
  /**
   * Reads one key of a Secret as text (undefined when missing), for `auth.secretRef` of the rules' external
   * calls (`validation.external`, `mutation.external`); required when one has it. A rejection answers 500.
   */
  readonly readSecret?: SecretReader;
  /**
   * Time all external calls of one request may take together, in ms (default 4,000: the webhook configurations'
   * default `timeoutSeconds` of 5 minus a margin of 1 s). Keep it below your configurations' timeoutSeconds × 1000.
   */
  readonly externalBudgetMs?: number;
  /**
   * What a call that failed without `continueOnError` does: `'rules'` (default, as Orkestra) evaluates the rules
   * with the results so far (the failed call's `.error` set); `'deny'` refuses the request, naming the call.
   */
  readonly externalFailure?: ExternalFailurePolicy;
  /** The clock of the calls' `cacheFor` and budget (ms); default Date.now. */
  readonly now?: () => number;
  /**
   * Clients of the rules' calls with a stateful protocol (`redis`, `postgres`, `mongo`, `kafka`), as
   * `createRuntime`'s option of the same name: each replaces the built-in one; a call whose protocol has none makes
   * `createAdmissionRouter` throw. `router.close()` closes them.
   */
  readonly externalProtocols?: Readonly<Record<string, ExternalProtocolClient>>;
}

/** The admission router: a Hono app to mount, and `close()` for the protocol clients its calls opened. */
export type AdmissionRouter = Hono & {
  /** Closes the external calls' protocol clients (pooled connections); the router stays usable (they reopen). */
  close(): Promise<void>;
};

export interface AdmissionDecision {
  readonly webhook: 'validate' | 'mutate';
  readonly operation: AdmissionRequest['operation'];
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly allowed: boolean;
  readonly warnings: number;
  /** The rules' external calls that failed for this request, by name. */
  readonly failedCalls: readonly string[];
}

/** The paths, relative to the mount point. */
export const ADMISSION_PATHS = Object.freeze(['/validate', '/mutate'] as const);

/**
 * Builds the admission router for `definition`. Compiles every rule's templates now: a template that does not
 * compile throws a TemplateError naming the rule, before anything is served; a `unique` rule without `peers`
 * throws too.
 */
export function createAdmissionRouter(definition: Definition, options: AdmissionRouterOptions = {}): AdmissionRouter {
  const budgetMs = options.externalBudgetMs ?? DEFAULT_ADMISSION_CALL_BUDGET_MS;
  if (!Number.isFinite(budgetMs) || budgetMs <= 0) throw new Error(`createAdmissionRouter: externalBudgetMs must be a positive number of milliseconds, got ${String(options.externalBudgetMs)}`);
  const { protocols, problems } = ExternalProtocols.of(options.externalProtocols, 'externalProtocols');
  const missing = [...problems, ...missingProtocolClients(definition, protocols, 'admission', 'externalProtocols')];
  if (missing.length > 0) throw new Error(`createAdmissionRouter:\n${missing.map((line) => `  - ${line}`).join('\n')}`);
  const rules = compileDefinitionRules(definition, options.peers, { readSecret: options.readSecret, now: options.now ?? (() => Date.now()), budgetMs, protocols });
  const app = new Hono();

  const serve = (webhook: 'validate' | 'mutate', decide: typeof decideValidation) => async (c: Context) => {
    const read = await readJsonBody(c);
    if (read instanceof Response) return read;
    const request = readReview(read.body);
    if (typeof request === 'string') return json(c, 400, errorBody(400, 'bad_request', `not an AdmissionReview: ${request}`));
    const crdRules = rulesFor(rules, request.resource);
    const step = await externalStep(webhook, request, crdRules, options.externalFailure ?? 'rules');
    const response: AdmissionResponse = step.refusal ?? withWarnings(decide(step.request, crdRules), step.warnings);
    options.onDecision?.({
      webhook,
      operation: request.operation,
      resource: `${request.resource.resource}${request.resource.group === '' ? '' : `.${request.resource.group}`}`,
      namespace: request.namespace ?? '',
      name: request.name ?? '',
      allowed: response.allowed,
      warnings: response.warnings?.length ?? 0,
      failedCalls: step.failedCalls,
    });
    return json(c, 200, reviewOf(response));
  };

  app.post('/validate', serve('validate', decideValidation));
  app.post('/mutate', serve('mutate', decideMutation));
  finishWebhookRoutes(app, ADMISSION_PATHS, 'admission', options.onError);
  return Object.assign(app, { close: () => protocols.close() });
}
