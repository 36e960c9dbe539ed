/**
 * Values printed the way kube-apiserver's Go code prints them in validation messages: `%v` of a float64 (Go's
 * shortest `%g`, so 1000000 is `1e+06`), `%q` of a string, and a field error's bad value (numbers and booleans bare,
 * strings quoted, anything else as Go's `encoding/json` writes it: object keys sorted, `<`, `>` and `&` escaped), and
 * `%+v` of a decoded JSON value (`map[a:1 b:[x y]]`).
 */

/** Go's `%v` of a float64 (strconv's shortest `%g`): exponent form when the decimal exponent is below -4 or 6 and more. */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  // JavaScript's toExponential() without digits is the shortest round-trip form, as Go's strconv uses.
  const [mantissa = '0', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(value);
}

/** Go's `%v` of a JSON number as Kubernetes decodes it: an integer within int64 as int64, anything else as a float64. */
export function goNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? BigInt(value).toString() : goFloat(value);
}

/** Go's `%+v` of a JSON value decoded into `map[string]interface{}` with integers kept: `map[k:v]` (keys sorted), `[a b]`, `<nil>`, strings bare. */
export function goMapValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return goNumber(value);
  if (Array.isArray(value)) return `[${value.map(goMapValue).join(' ')}]`;
  if (typeof value !== 'object') return String(value);
  const object = value as Record<string, unknown>;
  return `map[${Object.keys(object)
    .sort()
    .map((key) => `${key}:${goMapValue(object[key])}`)
    .join(' ')}]`;
}

const GO_ESCAPES: Readonly<Record<string, string>> = { '\u0007': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u000b': '\\v' };

/** Go's `%q` of a string: double-quoted, with Go's escapes for control characters (`\x01`, not JSON's `\u0001`). */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (GO_ESCAPES[char] !== undefined) out += GO_ESCAPES[char];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** JSON text with `<`, `>`, `&`, U+2028 and U+2029 escaped as `encoding/json` escapes them (only strings hold them). */
export function goHtmlEscaped(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

/** Go's `encoding/json` of a JSON value: object keys sorted, HTML characters escaped, numbers as Go writes them. */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : goJsonFloat(value);
  if (typeof value === 'string') return goHtmlEscaped(JSON.stringify(value));
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  const object = value as Record<string, unknown>;
  return `{${Object.keys(object)
    .sort()
    .map((key) => `${goJson(key)}:${goJson(object[key])}`)
    .join(',')}}`;
}

/** `encoding/json`'s float64: plain notation unless the exponent is below -6 or at least 21. */
function goJsonFloat(value: number): string {
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    const [mantissa = '0', exponentText = '0'] = value.toExponential().split('e');
    const exponent = Number(exponentText);
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(value);
}

/** How a field error prints its bad value (`field.Error.ErrorBody`): numbers and booleans bare, strings `%q`, the rest as JSON. */
export function goBadValue(value: unknown): string {
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return goQuote(value);
  return goJson(value);
}
