/**
 * Logic and comparison functions: default, coalesce, ternary, empty, not, and, or, eq, ne, lt, le, gt, ge.
 */
import { FunctionFailure } from './failure.js';
import { fixed, variadic, type TemplateFunction } from './function-type.js';
import { isTruthy, kindOf, valuesEqual } from './values.js';

type Order = (a: number | string, b: number | string) => boolean;

/** Orders two numbers or two strings; anything else cannot be ordered and fails. */
function ordered(name: string, test: Order): TemplateFunction {
  return fixed(2, ([a, b]) => {
    const an = typeof a === 'bigint' ? Number(a) : a;
    const bn = typeof b === 'bigint' ? Number(b) : b;
    if ((typeof an === 'number' && typeof bn === 'number') || (typeof an === 'string' && typeof bn === 'string')) {
      return test(an, bn);
    }
    throw new FunctionFailure(`${name}: cannot compare a ${kindOf(a)} with a ${kindOf(b)}`);
  });
}

export const LOGIC_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  /** Sprig: `default fallback given` returns `given` unless it is empty. */
  default: { minArgs: 1, maxArgs: 2, call: (args) => (args.length > 1 && isTruthy(args[1]) ? args[1] : args[0]) },
  coalesce: variadic(1, (args) => args.find(isTruthy)),
  ternary: fixed(3, ([whenTrue, whenFalse, condition]) => (isTruthy(condition) ? whenTrue : whenFalse)),
  empty: fixed(1, ([value]) => !isTruthy(value)),
  not: fixed(1, ([value]) => !isTruthy(value)),
  and: { minArgs: 1, maxArgs: Infinity, lazy: 'and', call: (args) => args.find((a) => !isTruthy(a)) ?? args[args.length - 1] },
  or: { minArgs: 1, maxArgs: Infinity, lazy: 'or', call: (args) => args.find(isTruthy) ?? args[args.length - 1] },
  eq: variadic(2, (args, context) => {
    // A plain loop: `eq` sits in most `if`s, and a rest parameter would copy the arguments on every call.
    const first = args[0];
    for (let i = 1; i < args.length; i++) if (valuesEqual(first, args[i], context.maxDepth)) return true;
    return false;
  }),
  ne: fixed(2, ([a, b], context) => !valuesEqual(a, b, context.maxDepth)),
  lt: ordered('lt', (a, b) => a < b),
  le: ordered('le', (a, b) => a <= b),
  gt: ordered('gt', (a, b) => a > b),
  ge: ordered('ge', (a, b) => a >= b),
};
