/**
 * Orkestra's JSON notes, for the Orkestra dialect: `toJSON` (domain data), `toJson` (domain types) and `asString`
 * (domain collections) encode with Go's encoding/json, which escapes `<`, `>` and `&` (and U+2028, U+2029) inside
 * strings as `\u003c`, `\u003e`, `\u0026`... katalog's own `toJson` leaves them as they are. The escaped text
 * parses to the same value; it matters where the text itself is compared or hashed (a checksum annotation).
 * `asString` gives a text as it is and encodes anything else, a missing value too (Go's `json.Marshal(nil)` is
 * `null`). Map keys are sorted, as Go sorts them. Pure: no I/O, no clock; bounded by the output limit.
 */
import { FunctionFailure } from './failure.js';
import { fixed, type FunctionContext, type TemplateFunction } from './function-type.js';
import { toJson } from './values.js';

const ESCAPED: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * JSON as Go's json.Marshal writes it. The five characters can only occur inside strings of the JSON text
 * (no JSON token is made of them), so escaping them in the whole text escapes exactly the strings.
 */
export function goJson(value: unknown, context: FunctionContext, name: string): string {
  const text = toJson(value ?? null, context.maxLength, context.maxDepth).replace(/[<>&\u2028\u2029]/g, (c) => ESCAPED[c] ?? c);
  if (text.length > context.maxLength) throw new FunctionFailure(`${name}: the result is longer than ${context.maxLength} characters`, 'E_TEMPLATE_LIMIT');
  return text;
}

export const ORKESTRA_JSON_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  toJSON: fixed(1, ([value], c) => goJson(value, c, 'toJSON')),
  toJson: fixed(1, ([value], c) => goJson(value, c, 'toJson')),
  asString: fixed(1, ([value], c) => (typeof value === 'string' ? value : goJson(value, c, 'asString'))),
};
