/**
 * The calls of Kubernetes' CEL environment that custom resource rules use, dispatched by name and receiver: the
 * operators (operators.ts), conversions (`int`, `uint`, `double`, `string`, `bool`, `bytes`, `duration`,
 * `timestamp`, `dyn`, `type`), string functions (functions-strings.ts), list functions (functions-lists.ts), the sets
 * extension, `matches`, the duration and timestamp accessors (UTC) and an optional's `hasValue`/`value`/`orValue`.
 * Anything else (quantities, URLs, IPs, semver, format, authorization) throws {@link CelUnsupported}: the rule is
 * then not evaluated.
 */
import { goFloat } from '../go/go-values.js';
import { listFunction } from './functions-lists.js';
import { regexp, stringFunction } from './functions-strings.js';
import { arithmetic, asString, compare, contains, size } from './operators.js';
import { CelUnsupported } from './parser.js';
import { escapeKey } from './patch-types.js';
import {
  CelDuration,
  CelEvalError,
  CelOptional,
  CelTimestamp,
  CelType,
  CelUint,
  INT64_MAX,
  INT64_MIN,
  celEqual,
  checkedInt,
  checkedUint,
  isList,
  isMap,
  noOverload,
  parseDuration,
  parseTimestamp,
  typeName,
  type CelValue,
} from './values.js';

const NANOS_PER_SECOND = 1_000_000_000n;

function timestampText(value: CelTimestamp): string {
  const seconds = value.nanos / NANOS_PER_SECOND;
  const nanos = value.nanos % NANOS_PER_SECOND;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  const fraction = nanos === 0n ? '' : `.${nanos.toString().padStart(9, '0').replace(/0+$/, '')}`;
  return `${base}${fraction}Z`;
}

function toInt(value: CelValue): bigint {
  if (typeof value === 'bigint') return value;
  if (value instanceof CelUint) return checkedRange(value.value, 'int');
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= -9.223372036854776e18 || value >= 9.223372036854776e18) throw new CelEvalError('range error converting double to int');
    return BigInt(Math.trunc(value));
  }
  if (typeof value === 'string') {
    if (!/^[+-]?\d+$/.test(value)) throw new CelEvalError(`type conversion error from 'string' to 'int'`);
    return checkedRange(BigInt(value), 'int');
  }
  if (value instanceof CelTimestamp) return value.nanos / NANOS_PER_SECOND - (value.nanos < 0n && value.nanos % NANOS_PER_SECOND !== 0n ? 1n : 0n);
  if (value instanceof CelDuration) return value.nanos;
  throw noOverload('int', [value]);
}

function checkedRange(value: bigint, type: 'int'): bigint {
  if (value < INT64_MIN || value > INT64_MAX) throw new CelEvalError(`range error converting to ${type}`);
  return value;
}

function toUint(value: CelValue): CelUint {
  if (value instanceof CelUint) return value;
  if (typeof value === 'bigint') {
    if (value < 0n) throw new CelEvalError('range error converting int to uint');
    return new CelUint(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value >= 1.8446744073709552e19) throw new CelEvalError('range error converting double to uint');
    return new CelUint(BigInt(Math.trunc(value)));
  }
  if (typeof value === 'string') {
    if (!/^\d+$/.test(value)) throw new CelEvalError(`type conversion error from 'string' to 'uint'`);
    return checkedUint(BigInt(value));
  }
  throw noOverload('uint', [value]);
}

function toDouble(value: CelValue): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof CelUint) return Number(value.value);
  if (typeof value === 'string') {
    const parsed = Number(value);
    if (value.trim() === '' || Number.isNaN(parsed)) throw new CelEvalError(`type conversion error from 'string' to 'double'`);
    return parsed;
  }
  throw noOverload('double', [value]);
}

function toText(value: CelValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof CelUint) return value.value.toString();
  if (typeof value === 'number') return goFloat(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  if (value instanceof CelTimestamp) return timestampText(value);
  if (value instanceof CelDuration) return `${goFloat(Number(value.nanos) / 1e9)}s`;
  throw noOverload('string', [value]);
}

function toBool(value: CelValue): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
    throw new CelEvalError(`type conversion error from 'string' to 'bool'`);
  }
  throw noOverload('bool', [value]);
}

/** A duration's or timestamp's accessor (UTC; a time zone argument is not supported). */
function accessor(name: string, target: CelValue, args: readonly CelValue[]): CelValue {
  if (args.length > 0) throw new CelUnsupported(`${name} with a time zone`);
  if (target instanceof CelDuration) {
    const divisors: Readonly<Record<string, bigint>> = { getHours: 3_600_000_000_000n, getMinutes: 60_000_000_000n, getSeconds: NANOS_PER_SECOND, getMilliseconds: 1_000_000n };
    const divisor = divisors[name];
    if (divisor === undefined) throw noOverload(name, [target]);
    return name === 'getMilliseconds' ? (target.nanos % NANOS_PER_SECOND) / divisor : target.nanos / divisor;
  }
  if (target instanceof CelTimestamp) {
    const date = new Date(Number(target.nanos / 1_000_000n));
    const startOfYear = Date.UTC(date.getUTCFullYear(), 0, 1);
    const values: Readonly<Record<string, number>> = {
      getFullYear: date.getUTCFullYear(),
      getMonth: date.getUTCMonth(),
      getDate: date.getUTCDate(),
      getDayOfMonth: date.getUTCDate() - 1,
      getDayOfWeek: date.getUTCDay(),
      getDayOfYear: Math.floor((date.getTime() - startOfYear) / 86_400_000),
      getHours: date.getUTCHours(),
      getMinutes: date.getUTCMinutes(),
      getSeconds: date.getUTCSeconds(),
      getMilliseconds: date.getUTCMilliseconds(),
    };
    const value = values[name];
    if (value === undefined) throw noOverload(name, [target]);
    return BigInt(value);
  }
  throw noOverload(name, [target]);
}

const CONVERSIONS: Readonly<Record<string, (value: CelValue) => CelValue>> = {
  int: toInt,
  uint: toUint,
  double: toDouble,
  string: toText,
  bool: toBool,
  dyn: (value) => value,
  bytes: (value) => {
    if (value instanceof Uint8Array) return value;
    if (typeof value === 'string') return new TextEncoder().encode(value);
    throw noOverload('bytes', [value]);
  },
  duration: (value) => {
    if (value instanceof CelDuration) return value;
    if (typeof value === 'string') return parseDuration(value);
    throw noOverload('duration', [value]);
  },
  timestamp: (value) => {
    if (value instanceof CelTimestamp) return value;
    if (typeof value === 'string') return parseTimestamp(value);
    if (typeof value === 'bigint') return new CelTimestamp(value * NANOS_PER_SECOND);
    throw noOverload('timestamp', [value]);
  },
};

/** Calls `name` on `target` (a receiver-style call) or globally, with evaluated arguments. */
export function callFunction(name: string, target: CelValue | undefined, args: readonly CelValue[]): CelValue {
  if (target === undefined) return globalFunction(name, args);
  if (typeof target === 'string') return stringFunction(name, target, args);
  if (isList(target)) return listFunction(name, target, args);
  if (isMap(target) && name === 'size') return size(target);
  if (target instanceof Uint8Array && name === 'size') return size(target);
  if (target instanceof CelDuration || target instanceof CelTimestamp) return accessor(name, target, args);
  if (target instanceof CelOptional) return optionalFunction(name, target, args);
  throw noOverload(name, [target, ...args]);
}

/** `hasValue()`, `value()` and `orValue(x)` of an optional (an `optionalOldSelf` rule's `oldSelf`). */
function optionalFunction(name: string, target: CelOptional, args: readonly CelValue[]): CelValue {
  switch (name) {
    case 'hasValue':
      return target.value !== undefined;
    case 'value':
      if (target.value === undefined) throw new CelEvalError('optional.none() dereference');
      return target.value;
    case 'orValue':
      return target.value ?? args[0] ?? null;
    default:
      throw new CelUnsupported(`optional function ${name}`);
  }
}

function globalFunction(name: string, args: readonly CelValue[]): CelValue {
  const [a = null, b = null] = args;
  switch (name) {
    case '_==_':
      return celEqual(a, b);
    case '_!=_':
      return !celEqual(a, b);
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return compare(name.slice(1, -1), a, b);
    case '_+_':
    case '_-_':
    case '_*_':
    case '_/_':
    case '_%_':
      return arithmetic(name.slice(1, -1), a, b);
    case '_@in_':
      return contains(b, a);
    case '!_':
      if (typeof a !== 'boolean') throw noOverload('!_', [a]);
      return !a;
    case '-_':
      if (typeof a === 'bigint') return checkedInt(-a);
      if (typeof a === 'number') return -a;
      if (a instanceof CelDuration) return new CelDuration(-a.nanos);
      throw noOverload('-_', [a]);
    case 'size':
      return size(a);
    case 'type':
      return new CelType(typeName(a));
    case 'matches':
      return regexp(asString(name, b, args)).test(asString(name, a, args));
    case 'sets.contains':
    case 'sets.equivalent':
    case 'sets.intersects': {
      if (!isList(a) || !isList(b)) throw noOverload(name, args);
      const containsAll = (x: readonly CelValue[], y: readonly CelValue[]): boolean => y.every((item) => x.some((other) => celEqual(other, item)));
      if (name === 'sets.contains') return containsAll(a, b);
      if (name === 'sets.equivalent') return containsAll(a, b) && containsAll(b, a);
      return b.some((item) => a.some((other) => celEqual(other, item)));
    }
    case 'jsonpatch.escapeKey':
      return escapeKey(asString(name, a, args));
    default: {
      const conversion = CONVERSIONS[name];
      if (conversion !== undefined && args.length === 1) return conversion(a);
      throw new CelUnsupported(`function ${name}`);
    }
  }
}
