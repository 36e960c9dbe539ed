/**
 * kube-apiserver's answers to a JSON patch (`handlers/patch.go`, `jsonPatcher.applyJSPatch`): a patch its library
 * cannot decode is a 400 in the library's words; one of more than 10000 operations a 413; one that does not apply
 * the bare 422 `errors.NewGenericServerResponse(422, ...)` builds, which drops the library's words (reason Invalid,
 * empty details); one where the library panics gets no answer at all.
 */
import { applyDecodedJsonPatch, decodeJsonPatch, PatchError, type JsonPatch } from '../patch/json-patch.js';
import { badRequest, NoAnswer, StatusError } from '../status-errors.js';

/** kube-apiserver's `maxJSONPatchOperations`. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** `patch` (parsed from `text`, when there is one) decoded by the library; 400 or 413 as kube-apiserver answers. */
export function decodedJsonPatch(patch: unknown, text?: string): JsonPatch {
  let decoded: JsonPatch;
  try {
    decoded = decodeJsonPatch(patch, text);
  } catch (error) {
    if (error instanceof PatchError) throw badRequest(error.reason);
    throw error;
  }
  if (decoded.length > MAX_JSON_PATCH_OPERATIONS) {
    const message = `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${decoded.length}`;
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'RequestEntityTooLarge', code: 413 });
  }
  return decoded;
}

/** The bare 422 of a patch that does not apply. */
export function unappliedPatch(): StatusError {
  const message = 'the server rejected our request due to an error in our request';
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Invalid', details: {}, code: 422 });
}

/** `target` after `patch`; the 422 when it does not apply, no answer where the library panics. */
export function jsonPatched(target: unknown, patch: JsonPatch): unknown {
  try {
    return applyDecodedJsonPatch(target, patch);
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    throw error.panics ? new NoAnswer(error.reason) : unappliedPatch();
  }
}
