/**
 * The hash of a rendered manifest, stored on the child in the annotation `katalog.dev/template-hash` when it is
 * applied. It tells the two reasons for a re-apply apart: the template (or the parent's spec) changed, so the hash
 * differs; or someone edited the child, so the hash is the same but the child no longer holds the manifest. Only
 * the second is drift, counted in `controller_drift_corrections_total`.
 *
 * The text and the hash never change between versions of katalog for the same manifest (a new text would look like
 * a template change on every child after an upgrade): `test/registry/subset.test.ts` pins them.
 */
import * as crypto from 'node:crypto';

export const TEMPLATE_HASH_ANNOTATION = 'katalog.dev/template-hash';

/** JSON with map keys sorted, so that equal values have equal text. Undefined map entries are left out, undefined array items are `null`. */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  // One pass that appends to a string: no entry arrays, filters, maps or joins (this runs for every child apply).
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      const item: unknown = value[i];
      text += item === undefined ? 'null' : canonicalJson(item);
    }
    return `${text}]`;
  }
  const map = value as Record<string, unknown>;
  const keys = Object.keys(map);
  sortKeys(keys);
  let text = '{';
  let first = true;
  for (const key of keys) {
    const item = map[key];
    if (item === undefined) continue;
    if (!first) text += ',';
    first = false;
    text += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${text}}`;
}

/**
 * Sorts in place, as `Array.prototype.sort()` does for strings (UTF-16 code units). An insertion sort: a manifest's
 * maps have a handful of keys, often already in order, and V8's sort allocates its work space on every call.
 */
function sortKeys(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
}

/**
 * `crypto.hash` (Node 20.12 and later) hashes in one call, without building a Hash object and its stream; older
 * Node 20 releases build one.
 */
const sha256Hex: (text: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (text) => (crypto as unknown as { hash(algorithm: string, data: string): string }).hash('sha256', text)
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** 16 hex digits of the SHA-256 of the manifest's canonical JSON. */
export function manifestHash(manifest: unknown): string {
  return sha256Hex(canonicalJson(manifest)).slice(0, 16);
}
