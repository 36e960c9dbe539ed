/**
 * What a mutating webhook's answer does to the object it was sent, checked in kube-apiserver's order
 * (webhook/request/admissionreview.go VerifyAdmissionResponse, then mutating/dispatcher.go): a `patch` without a
 * `patchType` (or the reverse) is an invalid answer; a patch that is not a JSON patch is undecodable; an empty one
 * changes nothing. These are failed calls, which the webhook's failurePolicy decides on (a {@link WebhookCallError}).
 * A patch that does not apply, a result that does not decode, or a patch of a DELETE (which has no object) fail the
 * request with a 500 whatever the policy, as there.
 */
import { applyDecodedJsonPatch, decodeJsonPatch, PatchError, type JsonPatch } from '../patch/index.js';
import { internalError } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { WebhookCallError, type WebhookAnswer } from './call-webhook.js';

/** The answer's `patch`, base64-decoded ('' when there is none). */
function patchText(answer: WebhookAnswer): string {
  return typeof answer.patch === 'string' ? Buffer.from(answer.patch, 'base64').toString('utf8') : '';
}

/** VerifyAdmissionResponse's checks of a mutating webhook's answer, before its `allowed` is looked at. */
export function checkMutatingAnswer(answer: WebhookAnswer): void {
  const hasPatch = patchText(answer) !== '';
  const hasType = answer.patchType !== undefined && answer.patchType !== null;
  const invalid = (why: string): WebhookCallError => new WebhookCallError(`received invalid webhook response: ${why}`);
  if (hasPatch && !hasType) throw invalid('webhook returned response.patch but not response.patchType');
  if (!hasPatch && hasType) throw invalid('webhook returned response.patchType but not response.patch');
  if (hasType && answer.patchType === '') throw invalid('webhook returned invalid response.patchType of ""');
}

/**
 * The document an allowing webhook's patch makes of `sent` (what the webhook was sent; undefined for a DELETE), not
 * yet decoded (review-object.ts decodedMutation); undefined when the answer changes nothing.
 */
export function patchedDocument(webhook: { readonly name: string }, sent: KubeObject | undefined, answer: WebhookAnswer): unknown {
  const text = patchText(answer);
  if (text === '') return undefined;
  let operations: JsonPatch;
  try {
    // With its text: a `test` compares a scalar by the text the webhook sent.
    operations = decodeJsonPatch(parsed(text), text);
  } catch (error) {
    if (error instanceof PatchError) throw new WebhookCallError(`received undecodable patch in webhook response: ${error.reason}`);
    throw error;
  }
  if (operations.length === 0) return undefined;
  if (sent === undefined) throw internalError(`admission webhook "${webhook.name}" attempted to modify the object, which is not supported for this operation`);
  if (answer.patchType !== 'JSONPatch') throw new WebhookCallError(`unsupported patch type "${String(answer.patchType)}"`);
  try {
    return applyDecodedJsonPatch(sent, operations);
  } catch (error) {
    if (error instanceof PatchError) throw internalError(error.reason);
    throw error;
  }
}

/** The patch's JSON; text that is not JSON is a patch that does not decode. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PatchError(`the patch is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
