/** JSON with map keys sorted, so that equal values have equal text. Undefined map entries are left out, undefined array items are `null`. */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  // The pieces go into one list joined at the end (this runs for every child apply): the keys and most strings of
  // the manifest are pushed as they are, so no intermediate text is built per key or per level.
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

/** Characters JSON.stringify escapes in a string: quote, backslash, control characters, and (lone) surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

function writeString(text: string, parts: string[]): void {
  if (ESCAPED.test(text)) parts.push(JSON.stringify(text));
  else parts.push('"', text, '"');
}

function write(value: unknown, parts: string[]): void {
  if (typeof value === 'string') return writeString(value, parts);
  if (typeof value !== 'object' || value === null) {
    parts.push(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(',');
      const item: unknown = value[i];
      if (item === undefined) parts.push('null');
      else write(item, parts);
    }
    parts.push(']');
    return;
  }
  const map = value as Record<string, unknown>;
  const keys = Object.keys(map);
  sortKeys(keys);
  parts.push('{');
  let first = true;
  for (const key of keys) {
    const item = map[key];
    if (item === undefined) continue;
    if (!first) parts.push(',');
    first = false;
    writeString(key, parts);
    parts.push(':');
    write(item, parts);
  }
  parts.push('}');
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
