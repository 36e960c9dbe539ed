/**
 * Cuts `metadata.managedFields` out of an object's JSON text before it is parsed, so that the cache (which drops the
 * field anyway, cache-slim.ts) does not pay for building it: managedFields are server-side apply's bookkeeping, often
 * half of an object's JSON, and parse into many small objects (every `f:` key of FieldsV1 is one) that die at once.
 *
 * The cut is made only where it is certain to remove that field and nothing else: the text is scanned as JSON (strings
 * and their escapes, nesting) from its start up to the `"managedFields":` found, which must be a key of the object at
 * `path` (an event's `object.metadata`, or an answer's `metadata`), and its value must be an array or `null`, scanned
 * to its end. Anything else (the key written with an escape, whitespace before its colon, the text found inside a
 * string or under another object, a value of another type, text that is not JSON) leaves the text as it is: it is
 * parsed whole and the field dropped after parsing, as before. A key given twice keeps its second value in
 * `JSON.parse`; the cut removes the first, and the second is dropped after parsing.
 */

/** Where the field is cut: under `metadata` of an object, or of the `object` of a watch event. */
export type ManagedFieldsPath = 'object' | 'event';

const KEY = '"managedFields":';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** `text` without its `metadata.managedFields` (at `path`) when that can be cut safely, else `text` itself. */
export function withoutManagedFields(text: string, path: ManagedFieldsPath): string {
  const at = keyAt(text, path);
  if (at === -1) return text;
  const valueEnd = skipValue(text, skipSpace(text, at + KEY.length));
  if (valueEnd === -1) return text;
  const after = skipSpace(text, valueEnd);
  if (text.charCodeAt(after) === COMMA) return text.slice(0, at) + text.slice(after + 1);
  let before = at - 1;
  while (isSpace(text.charCodeAt(before))) before--;
  if (text.charCodeAt(before) === COMMA) return text.slice(0, before) + text.slice(valueEnd);
  // The only key of metadata (`{"managedFields":[…]}`): the braces stay.
  return text.slice(0, at) + text.slice(valueEnd);
}

/**
 * Where the key `"managedFields":` of the metadata at `path` starts, or -1. Scans from the start, keeping for each
 * open object or array where the key that opened it starts (-1 for none), and jumps over strings.
 */
function keyAt(text: string, path: ManagedFieldsPath): number {
  let candidate = text.indexOf(KEY);
  if (candidate === -1) return -1;
  const opened: number[] = [];
  let lastKey = -1;
  let i = 0;
  for (;;) {
    while (i < candidate) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const end = stringEnd(text, i);
        if (end === -1) return -1;
        const next = skipSpace(text, end + 1);
        lastKey = text.charCodeAt(next) === COLON ? i : -1;
        i = end + 1;
        continue;
      }
      if (c === OPEN_BRACE) {
        opened.push(lastKey);
        lastKey = -1;
      } else if (c === OPEN_BRACKET) {
        opened.push(-1);
        lastKey = -1;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        opened.pop();
      }
      i++;
    }
    // Landed on the candidate's quote: it is outside any string, so it opens the key. Otherwise it was inside a
    // string just skipped: look for the next one from here.
    if (i === candidate && inMetadata(text, opened, path)) return candidate;
    candidate = text.indexOf(KEY, Math.max(i, candidate + 1));
    if (candidate === -1) return -1;
  }
}

/** Whether the open objects are exactly the top level, (for an event) its `object`, and its `metadata`. */
function inMetadata(text: string, opened: readonly number[], path: ManagedFieldsPath): boolean {
  if (path === 'object') return opened.length === 2 && opened[0] === -1 && isKey(text, opened[1], 'metadata');
  return opened.length === 3 && opened[0] === -1 && isKey(text, opened[1], 'object') && isKey(text, opened[2], 'metadata');
}

function isKey(text: string, start: number | undefined, name: string): boolean {
  return start !== undefined && start !== -1 && text.startsWith(name, start + 1) && text.charCodeAt(start + 1 + name.length) === QUOTE;
}

/** The index of the quote that closes the string opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let end = start;
  for (;;) {
    end = text.indexOf('"', end + 1);
    if (end === -1) return -1;
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return end;
  }
}

/** The end (exclusive) of an array or `null` value starting at `start`, or -1 for anything else or no end. */
function skipValue(text: string, start: number): number {
  if (text.startsWith('null', start)) return start + 4;
  if (text.charCodeAt(start) !== OPEN_BRACKET) return -1;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
