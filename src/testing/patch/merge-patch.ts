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
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  return merge(target, patch);
}

/** Merges without copying `target` up front: only the objects on the patch's paths are copied. */
function merge(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result: JsonObject = {};
  if (isJsonObject(target)) {
    for (const key of Object.keys(target)) setOwn(result, key, hasOwn(patch, key) ? target[key] : cloneJson(target[key]));
  }
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      deleteOwn(result, key);
    } else {
      setOwn(result, key, merge(getOwn(result, key), value));
    }
  }
  return result;
}
