import { KatalogError } from '../../errors.js';

/**
 * A patch could not be applied: the patch document is malformed, a JSON Patch operation failed (missing path,
 * failed `test`), or a strategic merge patch is inconsistent with the list merge keys. The test API server
 * answers 422 Invalid with {@link PatchError.reason} as the message.
 */
export class PatchError extends KatalogError {
  /** What failed, without a prefix, for the `Status.message` of the 422 answer. */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super('E_PATCH', `patch failed: ${reason}`, options);
    this.reason = reason;
  }
}
