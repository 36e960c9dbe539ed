/**
 * The JSON text of a patched object as kube-apiserver's patch library (evanphx/json-patch v4) writes it, which
 * kube-apiserver quotes when the patched object cannot be decoded (`patch: Invalid value: "<text>": json: ...`).
 * The library parses only what a patch reaches: the top level and every object on the way to a change are Go maps
 * (keys sorted); the rest is the stored object's own text (Go's struct order). A merge patch's new objects are
 * parsed whole (sorted at every level). A JSON patch's document is parsed where its operations walk and `test`
 * compares, and its values are written as they were sent.
 */
import { goHtmlEscaped } from '../go/go-values.js';
import { patchedRoot, type JsonPatch } from './json-patch.js';
import { marshal } from './json-patch-nodes.js';
import { isJsonObject } from './json-value.js';

type JsonObject = Record<string, unknown>;

function sortedLevel(object: JsonObject, child: (key: string, value: unknown) => unknown = (_key, value) => value): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(object).sort()) out[key] = child(key, object[key]);
  return out;
}

function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  return isJsonObject(value) ? sortedLevel(value, (_key, child) => sortedDeep(child)) : value;
}

/** `patched` (what merge patch `patch` made of `base`) ordered as the library writes it. */
function mergeOrdered(base: unknown, patch: unknown, patched: unknown): unknown {
  // A new value, or one that replaces what is not an object, is the patch's, parsed whole; an object replaced by a
  // list or a scalar is the patch's as sent.
  if (!isJsonObject(base)) return sortedDeep(patched);
  if (!isJsonObject(patch) || !isJsonObject(patched)) return patched;
  return sortedLevel(patched, (key, value) => (Object.hasOwn(patch, key) ? mergeOrdered(base[key], patch[key], value) : value));
}

/** The text of a merge patch's result. */
export function mergePatchedText(base: unknown, patch: unknown, patched: unknown): string {
  return goHtmlEscaped(JSON.stringify(mergeOrdered(base, patch, patched)));
}

/**
 * The text of `target` after JSON patch `patch`, as the library writes it: it re-applies the patch (only a refused
 * patch needs its text) to know what the library parsed on the way, which it writes sorted (json-patch-nodes.ts).
 */
export function jsonPatchedText(target: unknown, patch: JsonPatch): string {
  return marshal(patchedRoot(target, patch));
}
