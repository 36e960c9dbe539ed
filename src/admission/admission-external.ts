/**
 * One webhook request's external calls (admission-calls.ts) and what their outcome does to the decision:
 *
 * - The calls run only when the decision evaluates rules: CREATE or UPDATE of a CRD whose validation (resp.
 *   mutation) rules are served by this webhook. The rules then read `.external.<name>` in the object they see.
 * - A failed call becomes a warning of the AdmissionReview response (`katalog: external call "<name>" failed:
 *   <reason>`), which kubectl prints, and is named in the router's `onDecision`. Never the URL, a header or a body.
 * - `externalFailure: 'rules'` (the default, Orkestra's `pkg/gateway/webhook/admission_evaluation.go`: the
 *   failure is logged and the rules are evaluated with what the calls gave): the rules decide, reading `.error`.
 *   `'deny'`: a call that failed without `continueOnError` refuses the request (code 503, naming the call), on
 *   either webhook; fail closed without writing a rule for it.
 */
import type { CompiledCrdRules } from './crd-rules.js';
import type { AdmissionRequest, AdmissionResponse } from './review.js';

/** What a failed admission call does: the rules decide (Orkestra), or the request is refused. */
export type ExternalFailurePolicy = 'rules' | 'deny';

export interface ExternalStep {
  /** The request the decision reads: its object with `.external` when calls ran. */
  readonly request: AdmissionRequest;
  /** The response when the policy refuses; undefined: decide as usual. */
  readonly refusal: AdmissionResponse | undefined;
  readonly warnings: readonly string[];
  readonly failedCalls: readonly string[];
}

const NONE = { refusal: undefined, warnings: [], failedCalls: [] } as const;

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Runs the calls `webhook` needs for `request` (none when no rule will be evaluated). */
export async function externalStep(
  webhook: 'validate' | 'mutate',
  request: AdmissionRequest,
  rules: CompiledCrdRules | undefined,
  policy: ExternalFailurePolicy,
): Promise<ExternalStep> {
  const admission = rules?.crd.admission;
  const calls = webhook === 'validate' ? rules?.validationCalls : rules?.mutationCalls;
  if (admission === undefined || calls === undefined || (request.operation !== 'CREATE' && request.operation !== 'UPDATE')) return { request, ...NONE };
  const serves = webhook === 'validate' ? admission.validate && admission.validation.length > 0 : admission.mutate && admission.mutation.length > 0;
  if (!serves) return { request, ...NONE };
  const object = isMap(request.object) ? request.object : {};
  const outcome = await calls.run(withNamespace(object, request.namespace));
  const warnings = outcome.failed.map((failure) => `katalog: external call "${failure.call}" failed: ${failure.reason}`);
  const failedCalls = outcome.failed.map((failure) => failure.call);
  const stopped = outcome.failed.find((failure) => failure.stopped);
  if (policy === 'deny' && stopped !== undefined) {
    const kind = rules?.crd.apiTypes.kind ?? '';
    return {
      request,
      refusal: {
        uid: request.uid,
        allowed: false,
        warnings,
        status: { code: 503, reason: 'ServiceUnavailable', message: `katalog: ${kind} admission needs external call "${stopped.call}", which failed: ${stopped.reason}` },
      },
      warnings,
      failedCalls,
    };
  }
  return { request: { ...request, object: { ...object, external: outcome.external } }, refusal: undefined, warnings, failedCalls };
}

/**
 * The object the calls see: with the request's namespace when the object does not carry one, so that a URL template
 * and the default namespace of `auth.secretRef` read it on CREATE too.
 */
function withNamespace(object: Record<string, unknown>, namespace: string | undefined): Record<string, unknown> {
  const metadata = isMap(object.metadata) ? object.metadata : {};
  if (namespace === undefined || namespace === '' || typeof metadata.namespace === 'string') return object;
  return { ...object, metadata: { ...metadata, namespace } };
}

/** `response` with the calls' warnings first. */
export function withWarnings(response: AdmissionResponse, warnings: readonly string[]): AdmissionResponse {
  if (warnings.length === 0) return response;
  return { ...response, warnings: [...warnings, ...(response.warnings ?? [])] };
}
