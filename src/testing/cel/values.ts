/**
 * CEL's values in JavaScript: int is a `bigint` (int64, overflow checked), uint a {@link CelUint}, double a `number`,
 * string, bytes (`Uint8Array`), bool, null, list (array), map (`Map`), duration and timestamp (nanoseconds). An
 * object of a custom resource becomes a map from field names to values converted by the field's schema, as
 * Kubernetes converts it: `integer` is int, `number` is double (even when written `2`), `date`/`date-time` strings are
 * timestamps, `duration` strings durations, `byte` strings bytes, int-or-string and open parts by their JSON type.
 */
import { fieldSchema, itemsSchema, keyword, type SchemaNode } from '../resources/schema-keywords.js';

export class CelUint {
  constructor(readonly value: bigint) {}
}

export class CelDuration {
  constructor(readonly nanos: bigint) {}
}

export class CelTimestamp {
  constructor(readonly nanos: bigint) {}
}

/** A type as a value (`type(self) == string`), by its CEL name. */
export class CelType {
  constructor(readonly name: string) {}
}

/** An optional value (`oldSelf` of an `optionalOldSelf` rule): `value` undefined is `optional.none()`. */
export class CelOptional {
  constructor(readonly value: CelValue | undefined) {}
}

/**
 * A value of a message type constructed by an expression (`Object.spec{replicas: 3}`, `JSONPatch{op: 'add', ...}`):
 * the only message types here are the ones kube-apiserver declares for a MutatingAdmissionPolicy (patch-types.ts).
 */
export class CelObject {
  constructor(
    readonly typeName: string,
    readonly fields: ReadonlyMap<string, CelValue>,
  ) {}
}

export type CelValue = bigint | number | string | boolean | null | Uint8Array | CelUint | CelDuration | CelTimestamp | CelType | CelOptional | CelObject | readonly CelValue[] | CelMap;
export type CelMap = ReadonlyMap<CelKey, CelValue>;
export type CelKey = string | bigint | boolean;

/** A failure while evaluating (`no such key: x`, `division by zero`...): the rule's error, not a verdict. */
export class CelEvalError extends Error {}

/** The error of a call no overload fits (for rules kube-apiserver's type checker would have let through dynamically). */
export function noOverload(name: string, args: readonly CelValue[]): CelEvalError {
  return new CelEvalError(`no such overload: ${name}(${args.map(typeName).join(', ')})`);
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;

export function checkedInt(value: bigint): bigint {
  if (value < INT64_MIN || value > INT64_MAX) throw new CelEvalError('integer overflow');
  return value;
}

export function checkedUint(value: bigint): CelUint {
  if (value < 0n || value > UINT64_MAX) throw new CelEvalError('unsigned integer overflow');
  return new CelUint(value);
}

export function isList(value: CelValue): value is readonly CelValue[] {
  return Array.isArray(value);
}

export function isMap(value: CelValue): value is CelMap {
  return value instanceof Map;
}

/** CEL's name of a value's type, as its messages print it. */
export function typeName(value: CelValue): string {
  if (value === null) return 'null_type';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof CelUint) return 'uint';
  if (value instanceof CelDuration) return 'google.protobuf.Duration';
  if (value instanceof CelTimestamp) return 'google.protobuf.Timestamp';
  if (value instanceof CelType) return 'type';
  if (value instanceof CelOptional) return 'optional_type';
  if (value instanceof CelObject) return value.typeName;
  return isList(value) ? 'list' : 'map';
}

/** The type names an expression may write as values. */
export const TYPE_NAMES = new Set(['int', 'uint', 'double', 'string', 'bool', 'bytes', 'list', 'map', 'null_type', 'type']);

/** A number of any of CEL's three numeric types as a JavaScript number (for cross-type comparison), or undefined. */
function numeric(value: CelValue): { readonly exact: bigint | undefined; readonly approx: number } | undefined {
  if (typeof value === 'bigint') return { exact: value, approx: Number(value) };
  if (value instanceof CelUint) return { exact: value.value, approx: Number(value.value) };
  if (typeof value === 'number') return { exact: Number.isInteger(value) ? BigInt(value) : undefined, approx: value };
  return undefined;
}

/** CEL's equality: numbers across types by value, lists and maps element by element, other types never equal. */
export function celEqual(a: CelValue, b: CelValue): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) {
    if (x === undefined || y === undefined) return false;
    if (Number.isNaN(x.approx) || Number.isNaN(y.approx)) return false;
    return x.exact !== undefined && y.exact !== undefined ? x.exact === y.exact : x.approx === y.approx;
  }
  if (a === null || b === null) return a === b;
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((byte, i) => byte === b[i]);
  }
  if (a instanceof CelDuration || a instanceof CelTimestamp) return b.constructor === a.constructor && (b as CelDuration).nanos === a.nanos;
  if (a instanceof CelType) return b instanceof CelType && a.name === b.name;
  if (a instanceof CelOptional) {
    if (!(b instanceof CelOptional)) return false;
    return a.value === undefined || b.value === undefined ? a.value === b.value : celEqual(a.value, b.value);
  }
  if (a instanceof CelObject) return b instanceof CelObject && a.typeName === b.typeName && celEqual(a.fields, b.fields);
  if (isList(a)) return isList(b) && a.length === b.length && a.every((item, i) => celEqual(item, b[i] ?? null));
  if (isMap(a)) {
    if (!isMap(b) || a.size !== b.size) return false;
    for (const [key, value] of a) {
      const other = mapGet(b, key);
      if (other === undefined || !celEqual(value, other)) return false;
    }
    return true;
  }
  return false;
}

/** The value of `key` in a map (int and uint keys that are equal numbers find each other). */
export function mapGet(map: CelMap, key: CelValue): CelValue | undefined {
  const normalized = mapKey(key);
  return normalized === undefined ? undefined : map.get(normalized);
}

/** A value as a map key: strings, ints (uints as ints), bools; undefined for a type that cannot be a key. */
export function mapKey(value: CelValue): CelKey | undefined {
  if (typeof value === 'string' || typeof value === 'bigint' || typeof value === 'boolean') return value;
  if (value instanceof CelUint) return value.value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return undefined;
}

/** CEL's ordering of two values of comparable types (numbers across types), or undefined when there is none. */
export function celCompare(a: CelValue, b: CelValue): number | undefined {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined && y !== undefined) {
    if (x.exact !== undefined && y.exact !== undefined) return x.exact < y.exact ? -1 : x.exact > y.exact ? 1 : 0;
    if (Number.isNaN(x.approx) || Number.isNaN(y.approx)) return Number.NaN;
    return x.approx < y.approx ? -1 : x.approx > y.approx ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return compareUtf8(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
    return a.length - b.length;
  }
  if ((a instanceof CelDuration && b instanceof CelDuration) || (a instanceof CelTimestamp && b instanceof CelTimestamp)) {
    return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
  }
  return undefined;
}

/** Strings compared as Go compares them: by their UTF-8 bytes, which is code point order. */
function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]?.codePointAt(0) ?? 0;
    const q = y[i]?.codePointAt(0) ?? 0;
    if (p !== q) return p - q;
  }
  return x.length - y.length;
}

const DURATION_UNITS: Readonly<Record<string, bigint>> = { ns: 1n, us: 1000n, µs: 1000n, μs: 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

/** Go's `time.ParseDuration` (what CEL's `duration()` reads). */
export function parseDuration(text: string): CelDuration {
  const fail = (): never => {
    throw new CelEvalError(`type conversion error from 'string' to 'google.protobuf.Duration'`);
  };
  let rest = text;
  let sign = 1n;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1n : 1n;
    rest = rest.slice(1);
  }
  if (rest === '0') return new CelDuration(0n);
  if (rest === '') fail();
  let total = 0n;
  const part = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== '') {
    const match = part.exec(rest);
    if (match === null || (match[1] === '' && (match[2] ?? '') === '')) return fail();
    const unit = DURATION_UNITS[match[3] ?? ''] ?? 1n;
    const whole = BigInt(match[1] === '' ? '0' : (match[1] ?? '0'));
    const fraction = match[2] ?? '';
    total += whole * unit + (fraction === '' ? 0n : (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length));
    rest = rest.slice(match[0].length);
  }
  return new CelDuration(sign * total);
}

/** An RFC 3339 timestamp (what CEL's `timestamp()` reads, and a `date-time` field holds). */
export function parseTimestamp(text: string): CelTimestamp {
  const match = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/.exec(text);
  if (match === null) throw new CelEvalError(`type conversion error from 'string' to 'google.protobuf.Timestamp'`);
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  const millis = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (Number.isNaN(millis)) throw new CelEvalError(`type conversion error from 'string' to 'google.protobuf.Timestamp'`);
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const nanos = BigInt(millis - offsetMinutes * 60_000) * 1_000_000n + BigInt(fraction.padEnd(9, '0') || '0');
  return new CelTimestamp(nanos);
}

/** A `date` field's value (`2024-01-02`) as a timestamp at midnight UTC. */
function parseDate(text: string): CelTimestamp {
  return parseTimestamp(`${text}T00:00:00Z`);
}

function decodeBase64(text: string): Uint8Array {
  return Uint8Array.from(Buffer.from(text, 'base64'));
}

/** A JSON value of a custom resource as CEL sees it, by its schema (undefined: an open part, by JSON type). */
export function fromJson(value: unknown, schema: SchemaNode | undefined): CelValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  const type = schema === undefined ? '' : keyword(schema, 'x-kubernetes-int-or-string') === true ? '' : typeof schema['type'] === 'string' ? schema['type'] : '';
  if (typeof value === 'number') {
    if (type === 'number') return value;
    return Number.isInteger(value) ? BigInt(value) : value;
  }
  if (typeof value === 'string') {
    if (type !== 'string' || schema === undefined) return value;
    switch (schema['format']) {
      case 'byte':
        return decodeBase64(value);
      case 'duration':
        return parseDuration(value);
      case 'date':
        return parseDate(value);
      case 'date-time':
        return parseTimestamp(value);
      default:
        return value;
    }
  }
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    return value.map((item) => fromJson(item, items));
  }
  const object = value as Record<string, unknown>;
  const map = new Map<CelKey, CelValue>();
  for (const key of Object.keys(object)) map.set(key, fromJson(object[key], fieldSchema(schema, key)));
  return map;
}
