/**
 * JSON Merge Patch (RFC 7386), the `application/merge-patch+json` PATCH of the test API server.
 */
import { cloneJson, deleteOwn, getOwn, hasOwn, isJsonObject, setOwn, type JsonObject } from './json-value.js';

/**
 * Applies a JSON merge patch to `target` and returns the result; neither argument is modified.
 *
 * A patch that is not an object replaces the target. An object patch is merged key by key: `null` removes the
 * key, an object value is merged recursively (into `{}` when the target value is missing or not an object), any
 * other value (arrays included) replaces. Keys such as `__proto__` are ordinary data.
 */
export function applyMergePatch(target: unknown, patch: unknown, options: MergeOptions = {}): unknown {
  return merge(target, patch, options.shareUntouched === true);
}

export interface MergeOptions {
  /**
   * Values of `target` the patch does not reach are put in the result as they are, not copied: for a caller that
   * changes neither `target` nor those parts of the result (the status subresource, which keeps only the
   * patched `status` and takes everything else from the stored object). The objects on the patch's paths are new.
   */
  readonly shareUntouched?: boolean;
}

/** Merges without copying `target` up front: the objects on the patch's paths are new, the rest copied or shared. */
function merge(target: unknown, patch: unknown, share: boolean): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result: JsonObject = {};
  if (isJsonObject(target)) {
    for (const key of Object.keys(target)) setOwn(result, key, share || hasOwn(patch, key) ? target[key] : cloneJson(target[key]));
  }
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      deleteOwn(result, key);
    } else {
      setOwn(result, key, merge(getOwn(result, key), value, share));
    }
  }
  return result;
}
