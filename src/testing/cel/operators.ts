/**
 * CEL's operators on values: arithmetic (int64 and uint64 overflow checked, division and modulus by zero errors,
 * strings, lists, bytes, durations and timestamps), ordering (numbers across int, uint and double), `in` and `size`.
 */
import {
  CelDuration,
  CelEvalError,
  CelTimestamp,
  CelUint,
  celCompare,
  celEqual,
  checkedInt,
  checkedUint,
  isList,
  isMap,
  mapGet,
  noOverload,
  type CelValue,
} from './values.js';

/** A string's characters (code points, as CEL counts them). */
export function codePoints(text: string): string[] {
  return [...text];
}

export function asString(name: string, value: CelValue | undefined, args: readonly CelValue[]): string {
  if (typeof value !== 'string') throw noOverload(name, args);
  return value;
}

export function asInt(name: string, value: CelValue | undefined, args: readonly CelValue[]): bigint {
  if (typeof value !== 'bigint') throw noOverload(name, args);
  return value;
}

export function arithmetic(op: string, a: CelValue, b: CelValue): CelValue {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+':
        return checkedInt(a + b);
      case '-':
        return checkedInt(a - b);
      case '*':
        return checkedInt(a * b);
      case '/':
        if (b === 0n) throw new CelEvalError('division by zero');
        return checkedInt(a / b);
      case '%':
        if (b === 0n) throw new CelEvalError('modulus by zero');
        return a % b;
    }
  }
  if (a instanceof CelUint && b instanceof CelUint) {
    switch (op) {
      case '+':
        return checkedUint(a.value + b.value);
      case '-':
        return checkedUint(a.value - b.value);
      case '*':
        return checkedUint(a.value * b.value);
      case '/':
        if (b.value === 0n) throw new CelEvalError('division by zero');
        return new CelUint(a.value / b.value);
      case '%':
        if (b.value === 0n) throw new CelEvalError('modulus by zero');
        return new CelUint(a.value % b.value);
    }
  }
  if (typeof a === 'number' && typeof b === 'number') {
    switch (op) {
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      case '/':
        return a / b;
    }
  }
  if (op === '+') {
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (isList(a) && isList(b)) return [...a, ...b];
    if (a instanceof Uint8Array && b instanceof Uint8Array) return Uint8Array.from([...a, ...b]);
    if (a instanceof CelDuration && b instanceof CelDuration) return new CelDuration(checkedInt(a.nanos + b.nanos));
    if (a instanceof CelTimestamp && b instanceof CelDuration) return new CelTimestamp(a.nanos + b.nanos);
    if (a instanceof CelDuration && b instanceof CelTimestamp) return new CelTimestamp(a.nanos + b.nanos);
  }
  if (op === '-') {
    if (a instanceof CelDuration && b instanceof CelDuration) return new CelDuration(checkedInt(a.nanos - b.nanos));
    if (a instanceof CelTimestamp && b instanceof CelDuration) return new CelTimestamp(a.nanos - b.nanos);
    if (a instanceof CelTimestamp && b instanceof CelTimestamp) return new CelDuration(checkedInt(a.nanos - b.nanos));
  }
  throw noOverload(`_${op}_`, [a, b]);
}

export function compare(op: string, a: CelValue, b: CelValue): boolean {
  const order = celCompare(a, b);
  if (order === undefined) throw noOverload(`_${op}_`, [a, b]);
  if (Number.isNaN(order)) return false;
  switch (op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    default:
      return order >= 0;
  }
}

export function contains(container: CelValue, element: CelValue): boolean {
  if (isList(container)) return container.some((item) => celEqual(item, element));
  if (isMap(container)) return mapGet(container, element) !== undefined;
  throw noOverload('@in', [element, container]);
}

export function size(value: CelValue): bigint {
  if (typeof value === 'string') return BigInt(codePoints(value).length);
  if (value instanceof Uint8Array) return BigInt(value.length);
  if (isList(value)) return BigInt(value.length);
  if (isMap(value)) return BigInt(value.size);
  throw noOverload('size', [value]);
}
