/**
 * Orkestra's arithmetic and `len`, for the Orkestra dialect: the names of Orkestra's catalog (domains math and
 * types) that katalog's own table also defines, where Orkestra's meaning differs from katalog's.
 * - `add sub mul min max`: a boolean counts as 1 or 0 (Orkestra's math.go converts `true` to 1; katalog's
 *   arithmetic refuses a boolean). Everything else is katalog's arithmetic, which accepts more than Orkestra:
 *   more than two arguments, and a missing value or "" as 0 where Orkestra's template fails.
 * - `mod`: both operands are cut to whole numbers first and the remainder is whole (Go's `int64(a) % int64(b)`),
 *   so `mod 7.5 2` is 1; a divisor that cuts to 0 is a division by zero, as in Orkestra.
 * - `len`: a text counts its UTF-8 bytes (Go's `len` of a string), a list its items, a map its keys; anything
 *   else (a number, a boolean, missing) is 0, where katalog's `len` fails on a number.
 * Pure: no I/O, no clock.
 */
import { FunctionFailure } from './failure.js';
import { fixed, type TemplateFunction } from './function-type.js';
import { arithmeticFunctions } from './functions-math.js';
import { finite, toArithmetic } from './numbers.js';
import { isForbiddenKey, isMap, utf8Length } from './values.js';

/** One operand as Orkestra's anyToFloat reads it: a boolean is 1 or 0; the rest as katalog's arithmetic. */
function operand(value: unknown, name: string, position: number): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return toArithmetic(value, name, position);
}

function operands(args: readonly unknown[], name: string): number[] {
  return args.map((value, i) => operand(value, name, i + 1));
}

/** A whole number as Go's int64(f) gives it (truncated toward zero); -0 is 0. */
function whole(value: number): number {
  return Math.trunc(value) || 0;
}

export const ORKESTRA_MATH_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  ...arithmeticFunctions(operands),
  mod: fixed(2, (args) => {
    const [a = 0, b = 0] = operands(args, 'mod').map((n) => finite(n, 'mod'));
    const divisor = whole(b);
    if (divisor === 0) throw new FunctionFailure('mod: division by zero');
    return whole(whole(a) % divisor);
  }),
  len: fixed(1, ([value]) => {
    if (typeof value === 'string') return utf8Length(value);
    if (Array.isArray(value)) return value.length;
    if (isMap(value)) return Object.keys(value).filter((key) => !isForbiddenKey(key)).length;
    return 0;
  }),
};
