/**
 * Raw JSON texts, as Go's `json.RawMessage` holds them: the members of an object and the elements of an array cut
 * out of a text as they were written, and Go's `json.Compact` of a text. kube-apiserver's JSON patch library keeps a
 * patch's values this way and compares scalars by their text, so `1.0` is not `1` there. Every text here is already
 * known to be valid JSON (the request body was parsed first). Pure.
 */

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The index of the first character at or after `at` that is not white space. */
export function skipSpace(text: string, at: number): number {
  let i = at;
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string literal opening at `at`. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  for (let c = text.charCodeAt(i); c !== 0x22; c = text.charCodeAt(i)) i += c === 0x5c ? 2 : 1;
  return i + 1;
}

/** The index just past the JSON value starting at `at` (no white space before it). */
export function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === 0x22) return stringEnd(text, at);
  if (first !== 0x7b && first !== 0x5b) {
    let i = at;
    for (let c = text.charCodeAt(i); i < text.length && c !== 0x2c && c !== 0x7d && c !== 0x5d && !isSpace(c); c = text.charCodeAt(i)) i++;
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The members of the object `text` (which starts with `{`), keys decoded, values as written; repeated keys repeated. */
export function rawMembers(text: string): Array<[key: string, raw: string]> {
  const members: Array<[string, string]> = [];
  let i = skipSpace(text, 1);
  if (text.charCodeAt(i) === 0x7d) return members;
  for (;;) {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    members.push([key, text.slice(start, end)]);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== 0x2c) return members;
    i = skipSpace(text, i + 1);
  }
}

/** The elements of the array `text` (which starts with `[`), as written. */
export function rawElements(text: string): string[] {
  const elements: string[] = [];
  let i = skipSpace(text, 1);
  if (text.charCodeAt(i) === 0x5d) return elements;
  for (;;) {
    const end = valueEnd(text, i);
    elements.push(text.slice(i, end));
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== 0x2c) return elements;
    i = skipSpace(text, i + 1);
  }
}

/** Go's `json.Compact`: the text without the white space between its tokens (strings untouched). */
export function compactJson(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i) - 1;
    } else if (isSpace(c)) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}
