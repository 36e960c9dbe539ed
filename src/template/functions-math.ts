/**
 * Arithmetic and conversion functions: add sub mul div mod min max, toInt toFloat toBool toString.
 * Arithmetic accepts numbers, numeric strings, and treats missing, null and "" as 0.
 */
import { FunctionFailure } from './failure.js';
import { fixed, variadic, type TemplateFunction } from './function-type.js';
import { finite, parseBoolean, parseNumeric, toArithmetic } from './numbers.js';
import { kindOf, printValue } from './values.js';

function numbers(args: readonly unknown[], name: string): number[] {
  return args.map((a, i) => toArithmetic(a, name, i + 1));
}

function toNumber(value: unknown, name: string): number {
  switch (typeof value) {
    case 'number':
      if (Number.isNaN(value)) throw new FunctionFailure(`${name}: NaN is not a number`);
      return value;
    case 'bigint':
      return Number(value);
    case 'boolean':
      return value ? 1 : 0;
    case 'undefined':
      return 0;
    case 'string': {
      if (value.trim() === '') return 0;
      const parsed = parseNumeric(value);
      if (parsed === undefined) throw new FunctionFailure(`${name}: the text (${value.length} characters) is not a number`);
      return parsed;
    }
    default:
      if (value === null) return 0;
      throw new FunctionFailure(`${name}: cannot convert a ${kindOf(value)} to a number`);
  }
}

/**
 * `add mul sub min max` over the operands as `convert` reads them: katalog's reading here, Orkestra's (a boolean is
 * 1 or 0) in functions-orkestra-math.ts. The arithmetic itself is the same for both dialects.
 */
export function arithmeticFunctions(convert: (args: readonly unknown[], name: string) => number[]): Readonly<Record<string, TemplateFunction>> {
  return {
    add: variadic(1, (args) => finite(convert(args, 'add').reduce((s, n) => s + n, 0), 'add')),
    mul: variadic(1, (args) => finite(convert(args, 'mul').reduce((s, n) => s * n, 1), 'mul')),
    sub: fixed(2, (args) => {
      const [a = 0, b = 0] = convert(args, 'sub');
      return finite(a - b, 'sub');
    }),
    min: variadic(1, (args) => Math.min(...convert(args, 'min'))),
    max: variadic(1, (args) => Math.max(...convert(args, 'max'))),
  };
}

export const MATH_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  ...arithmeticFunctions(numbers),
  div: fixed(2, (args) => {
    const [a = 0, b = 0] = numbers(args, 'div');
    if (b === 0) throw new FunctionFailure('div: division by zero');
    const q = a / b;
    return finite(Number.isInteger(a) && Number.isInteger(b) ? Math.trunc(q) : q, 'div');
  }),
  mod: fixed(2, (args) => {
    const [a = 0, b = 0] = numbers(args, 'mod');
    if (b === 0) throw new FunctionFailure('mod: division by zero');
    return finite(a % b, 'mod');
  }),
  toInt: fixed(1, ([value]) => Math.trunc(toNumber(value, 'toInt')) || 0),
  toFloat: fixed(1, ([value]) => toNumber(value, 'toFloat')),
  toBool: fixed(1, ([value]) => {
    switch (typeof value) {
      case 'boolean':
        return value;
      case 'number':
        return value !== 0 && !Number.isNaN(value);
      case 'bigint':
        return value !== 0n;
      case 'undefined':
        return false;
      case 'string': {
        if (value.trim() === '') return false;
        const parsed = parseBoolean(value);
        if (parsed === undefined) throw new FunctionFailure(`toBool: the text (${value.length} characters) is not a boolean`);
        return parsed;
      }
      default:
        if (value === null) return false;
        throw new FunctionFailure(`toBool: cannot convert a ${kindOf(value)} to a boolean`);
    }
  }),
  toString: fixed(1, ([value], context) => printValue(value, context.maxLength, context.maxDepth)),
};
