/**
 * Typed comparison of condition subjects and values. A conversion that fails yields `undefined`
 * together with a warning; a missing subject fails silently (a missing field is not a data error).
 */
import { parseBoolean, parseInteger, parseNumeric } from './numbers.js';
import { printValue } from './values.js';

export type ValueType = 'string' | 'int' | 'float' | 'bool';

/** Bounds for printing containers to text during comparisons. */
const PRINT_LIMIT = 64 * 1024;
const PRINT_DEPTH = 64;

/** The text form of a value for string comparisons (missing and null are ""; lists and maps are JSON). */
export function textOf(value: unknown): string {
  try {
    return printValue(value, PRINT_LIMIT, PRINT_DEPTH);
  } catch {
    return '';
  }
}

/** The type used when a condition has no `valueType`: numbers compare as floats, booleans as bools, else strings. */
export function inferType(value: unknown): ValueType {
  return typeof value === 'number' || typeof value === 'bigint' ? 'float' : typeof value === 'boolean' ? 'bool' : 'string';
}

/** Converts to `type`; `undefined` on failure, after calling `warn` unless the value is missing. */
export function convert(value: unknown, type: ValueType, what: string, warn: (message: string) => void): string | number | boolean | undefined {
  if (type === 'string') return textOf(value);
  if (value === undefined || value === null) return undefined;
  let result: number | boolean | undefined;
  if (typeof value === 'object') result = undefined;
  else if (type === 'bool') result = typeof value === 'boolean' ? value : parseBoolean(textOf(value));
  else if (typeof value === 'number') result = type === 'int' && !Number.isInteger(value) ? undefined : value;
  else if (typeof value === 'bigint') result = Number(value);
  else if (typeof value === 'string') result = type === 'int' ? parseInteger(value) : parseNumeric(value);
  if (result === undefined || (typeof result === 'number' && Number.isNaN(result))) {
    const shown = typeof value === 'object' ? (Array.isArray(value) ? 'a list' : 'a map') : JSON.stringify(textOf(value).slice(0, 60));
    warn(`${what} ${shown} is not ${type === 'int' ? 'an int' : `a ${type}`}`);
    return undefined;
  }
  return result;
}

/** Equality of subject and value under `type` (inferred from the value when not given); `undefined` when not comparable. */
export function equalAs(subject: unknown, value: unknown, type: ValueType | undefined, warn: (message: string) => void): boolean | undefined {
  const as = type ?? inferType(value);
  const a = convert(subject, as, 'the field value', warn);
  const b = convert(value, as, 'the condition value', warn);
  if (a === undefined || b === undefined) return undefined;
  return a === b;
}
