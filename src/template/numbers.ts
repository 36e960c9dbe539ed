/**
 * Number conversions shared by the arithmetic and conversion functions and by conditions.
 */
import { FunctionFailure } from './failure.js';
import { kindOf } from './values.js';

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** Parses a decimal number written as text (surrounding white space allowed); `undefined` when it is not one. */
export function parseNumeric(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMERIC.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/** Parses a decimal integer written as text; `undefined` when it is not one. */
export function parseInteger(text: string): number | undefined {
  const trimmed = text.trim();
  return INTEGER.test(trimmed) ? Number(trimmed) : undefined;
}

/** Go's strconv.ParseBool; `undefined` for anything else. */
export function parseBoolean(text: string): boolean | undefined {
  switch (text.trim()) {
    case '1': case 't': case 'T': case 'true': case 'TRUE': case 'True':
      return true;
    case '0': case 'f': case 'F': case 'false': case 'FALSE': case 'False':
      return false;
    default:
      return undefined;
  }
}

/**
 * An argument of an arithmetic function as a number: numbers as they are, numeric strings parsed,
 * missing, null and "" as 0. Anything else fails, naming the function and the argument.
 */
export function toArithmetic(value: unknown, name: string, position: number): number {
  switch (typeof value) {
    case 'number':
      return value;
    case 'bigint':
      return Number(value);
    case 'undefined':
      return 0;
    case 'string': {
      if (value.trim() === '') return 0;
      const parsed = parseNumeric(value);
      if (parsed !== undefined) return parsed;
      throw new FunctionFailure(`${name}: argument ${position} is a text (${value.length} characters) that is not a number`);
    }
    default:
      if (value === null) return 0;
      throw new FunctionFailure(`${name}: argument ${position} is a ${kindOf(value)}, not a number`);
  }
}

/** Fails unless an arithmetic result is finite. */
export function finite(value: number, name: string): number {
  if (!Number.isFinite(value)) throw new FunctionFailure(`${name}: the result is not a finite number`);
  return value;
}
