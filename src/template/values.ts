/**
 * How the template language sees values: missing fields, truthiness, safe property reads, printing,
 * JSON, equality and copying. Data is JSON-like; anything that is not a list or an object with own
 * properties is a scalar. Keys `__proto__`, `constructor` and `prototype` never exist.
 */
import { failTooLarge, FunctionFailure } from './failure.js';

/** A key the template language never reads or writes. */
export function isForbiddenKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

/** A map: any non-null object that is neither a list nor a Date. Its entries are its own enumerable string keys. */
export function isMap(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Reads an own property of a map; anything else (a list, a scalar, a missing or forbidden key) is `undefined`. */
export function getKey(container: unknown, key: string): unknown {
  if (typeof container !== 'object' || container === null || Array.isArray(container) || isForbiddenKey(key)) return undefined;
  return Object.hasOwn(container, key) ? (container as Record<string, unknown>)[key] : undefined;
}

/** The keys a map shows to templates: own enumerable string keys minus the forbidden ones, sorted. */
export function mapKeys(map: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(map)
    .filter((k) => !isForbiddenKey(k))
    .sort(compareStrings);
}

/** Orders strings by code unit, like Go orders map keys by byte for ASCII. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Go's truth: false, 0, nil/missing, "", and empty lists and maps are false; everything else is true. */
export function isTruthy(value: unknown): boolean {
  switch (typeof value) {
    case 'undefined':
      return false;
    case 'boolean':
      return value;
    case 'number':
      return value !== 0;
    case 'string':
      return value.length > 0;
    case 'bigint':
      return value !== 0n;
    case 'object':
      if (value === null) return false;
      if (Array.isArray(value)) return value.length > 0;
      if (value instanceof Date) return true;
      for (const key in value) if (Object.hasOwn(value, key) && !isForbiddenKey(key)) return true;
      return false;
    default:
      return true;
  }
}

/** A short description of a value's kind, for messages. */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'missing value';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Date) return 'timestamp';
  if (typeof value === 'object') return 'map';
  return typeof value;
}

/** Prints a Date as Kubernetes does (RFC 3339, milliseconds only when not zero); an invalid Date is empty. */
export function printDate(date: Date): string {
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const iso = date.toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** Prints a number: integers plainly (no exponent below 1e21), others as JavaScript's shortest form. */
export function printNumber(value: number): string {
  if (Object.is(value, -0)) return '0';
  if (Number.isFinite(value)) return String(value);
  return Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
}

/**
 * Prints a value as text output does: strings as they are, numbers and booleans plainly, missing and
 * null as empty, lists and maps as compact JSON with sorted keys. Fails past `maxLength` or `maxDepth`.
 */
export function printValue(value: unknown, maxLength: number, maxDepth: number): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return printNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'undefined':
      return '';
    case 'object':
      if (value === null) return '';
      if (value instanceof Date) return printDate(value);
      return toJson(value, maxLength, maxDepth);
    default:
      return '';
  }
}

/**
 * Serialises to compact JSON with map keys sorted (as Go's encoding/json does), forbidden keys left out,
 * missing map values left out, missing list items as `null`, non-finite numbers as `null`, Dates as strings.
 * HTML characters are not escaped. Fails with `E_TEMPLATE_LIMIT` past `maxLength` code units or `maxDepth` levels.
 */
export function toJson(value: unknown, maxLength: number, maxDepth: number): string {
  const parts: string[] = [];
  let length = 0;
  const emit = (text: string): void => {
    length += text.length;
    if (length > maxLength) failTooLarge('the JSON text', maxLength);
    parts.push(text);
  };
  const write = (v: unknown, depth: number): void => {
    switch (typeof v) {
      case 'string':
        emit(JSON.stringify(v));
        return;
      case 'number':
        emit(Number.isFinite(v) ? String(v) : 'null');
        return;
      case 'boolean':
        emit(v ? 'true' : 'false');
        return;
      case 'bigint':
        emit(v.toString());
        return;
      case 'object':
        break;
      default:
        emit('null');
        return;
    }
    if (v === null) return emit('null');
    if (v instanceof Date) return emit(JSON.stringify(printDate(v)));
    if (depth >= maxDepth) throw new FunctionFailure(`value nested deeper than the limit of ${maxDepth}`, 'E_TEMPLATE_LIMIT');
    if (Array.isArray(v)) {
      emit('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) emit(',');
        write(v[i] as unknown, depth + 1);
      }
      emit(']');
      return;
    }
    const map = v as Record<string, unknown>;
    emit('{');
    let first = true;
    for (const key of mapKeys(map)) {
      const item = map[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      emit(first ? JSON.stringify(key) + ':' : ',' + JSON.stringify(key) + ':');
      first = false;
      write(item, depth + 1);
    }
    emit('}');
  };
  write(value, 0);
  return parts.join('');
}

/**
 * Equality as `eq` sees it: numbers by value, strings and booleans exactly, missing equals null,
 * lists and maps element by element; values of different kinds are unequal (never an error).
 */
export function valuesEqual(a: unknown, b: unknown, maxDepth: number, depth = 0): boolean {
  if (a === b) return true;
  if (a === undefined || a === null) return b === undefined || b === null;
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    return (typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint') && Number(a) === Number(b);
  }
  if (typeof a !== 'object' || typeof b !== 'object' || b === null) return false;
  if (depth >= maxDepth) throw new FunctionFailure(`value nested deeper than the limit of ${maxDepth}`, 'E_TEMPLATE_LIMIT');
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i], maxDepth, depth + 1)) return false;
    return true;
  }
  const ka = mapKeys(a as Record<string, unknown>).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = mapKeys(b as Record<string, unknown>).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const key = ka[i] ?? '';
    if (key !== kb[i]) return false;
    if (!valuesEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], maxDepth, depth + 1)) return false;
  }
  return true;
}

/**
 * Copies a value for output, so that a rendered tree never shares objects with the data: lists and maps
 * are copied (maps become plain objects without forbidden keys or missing values; missing list items
 * become `null`), Dates are copied, functions and symbols become `undefined`, scalars are returned as they are.
 */
export function copyValue(value: unknown, maxDepth: number, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
  }
  if (value instanceof Date) return new Date(value.getTime());
  if (depth >= maxDepth) throw new FunctionFailure(`value nested deeper than the limit of ${maxDepth}`, 'E_TEMPLATE_LIMIT');
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i], maxDepth, depth + 1) ?? null;
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (isForbiddenKey(key)) continue;
    const item = copyValue((value as Record<string, unknown>)[key], maxDepth, depth + 1);
    if (item !== undefined) out[key] = item;
  }
  return out;
}

/** Counts Unicode code points (what people call characters) in a string. */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) count++;
    else {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      count++;
    }
  }
  return count;
}

/** Go's strconv.Quote for a JavaScript string: double quotes, Go escapes, non-printable characters escaped. */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if ((cp >= 0x80 && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0x2028 || cp === 0x2029 || cp === 0xfeff) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return out + '"';
}

/** UTF-8 length of a string: a plain loop for short strings (cheaper than a native call), Buffer for long ones. */
export function utf8Length(text: string): number {
  const n = text.length;
  if (n > 128) return Buffer.byteLength(text, 'utf8');
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c >= 0xd800 && c <= 0xdfff) return Buffer.byteLength(text, 'utf8');
    bytes += c < 0x800 ? 1 : 2;
  }
  return bytes;
}
