import { KatalogError } from '../../errors.js';

/**
 * A patch could not be applied: the patch document is malformed, a JSON Patch operation failed (missing path,
 * failed `test`), or a strategic merge patch is inconsistent with the list merge keys. The test API server
 * answers 422 Invalid with {@link PatchError.reason} as the message, or, for an `internal` one, the 500 without a
 * reason that kube-apiserver answers for the strategic-merge errors it does not classify (a missing merge key).
 * A JSON patch's errors say more: whether the patch could not even be decoded (kube-apiserver's 400), and whether
 * kube-apiserver's patch library panics there instead of failing (it then cuts the connection without an answer).
 */
export class PatchError extends KatalogError {
  /** What failed, without a prefix, for the `Status.message` of the 422 answer. */
  readonly reason: string;
  /** Whether kube-apiserver answers it as a 500 without a reason rather than a 422. */
  readonly internal: boolean;
  /** Whether the JSON patch itself could not be decoded (`DecodePatch`), before it was applied. */
  readonly decoding: boolean;
  /** Whether kube-apiserver's JSON patch library panics here: `reason` is Go's panic message. */
  readonly panics: boolean;

  constructor(reason: string, options?: { cause?: unknown; internal?: boolean; decoding?: boolean; panics?: boolean }) {
    super('E_PATCH', `patch failed: ${reason}`, options);
    this.reason = reason;
    this.internal = options?.internal === true;
    this.decoding = options?.decoding === true;
    this.panics = options?.panics === true;
  }
}
