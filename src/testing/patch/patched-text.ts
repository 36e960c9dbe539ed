/**
 * The JSON text of a patched object as kube-apiserver's patch library (evanphx/json-patch v4) writes it, which
 * kube-apiserver quotes when the patched object cannot be decoded (`patch: Invalid value: "<text>": json: ...`).
 * The library parses only what a patch reaches: the top level and every object on the way to a change are Go maps
 * (keys sorted); the rest is the stored object's own text (Go's struct order). A merge patch's new objects are
 * parsed whole (sorted at every level); a JSON patch's values are written as they were sent.
 */
import { goHtmlEscaped } from '../go/go-values.js';
import { isJsonObject } from './json-value.js';
import { parsePointer } from './json-pointer.js';

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

/** The text of a JSON patch's result: the top level and the objects on the way to each operation's target sorted. */
export function jsonPatchedText(patched: unknown, operations: unknown): string {
  // Every container an operation walks through: the prefixes of its target's parent (of `path` and `from`).
  const reached = new Set<string>(['']);
  for (const operation of Array.isArray(operations) ? operations : []) {
    for (const key of ['path', 'from']) {
      const pointer = isJsonObject(operation) ? operation[key] : undefined;
      if (typeof pointer !== 'string') continue;
      const tokens = parsePointer(pointer);
      for (let length = 1; length < tokens.length; length++) reached.add(tokens.slice(0, length).join('\u0000'));
    }
  }
  const order = (value: unknown, at: string): unknown => {
    if (!reached.has(at)) return value;
    const below = (key: string): string => (at === '' ? key : `${at}\u0000${key}`);
    if (Array.isArray(value)) return value.map((item, index) => order(item, below(String(index))));
    return isJsonObject(value) ? sortedLevel(value, (key, child) => order(child, below(key))) : value;
  };
  return goHtmlEscaped(JSON.stringify(order(patched, '')));
}
