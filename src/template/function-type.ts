/**
 * The contract of a built-in template function.
 */

/** What a function may know about the render: the bounds it must respect, and the time. */
export interface FunctionContext {
  /** Largest string a function may build, in UTF-16 code units (the output limit). */
  readonly maxLength: number;
  /** Deepest value a function may print, compare or copy. */
  readonly maxDepth: number;
  /** The current time in milliseconds since the epoch: what Orkestra's clock notes read (`timeAgo`, `weekday`...). */
  readonly now: () => number;
}

/**
 * A built-in function. `call` receives evaluated arguments (a piped value is the last one) and throws a
 * `FunctionFailure` on bad input. Arity is checked at compile time. `lazy` marks `and`/`or`, whose
 * arguments the evaluator evaluates one by one and which never reach `call` that way.
 */
export interface TemplateFunction {
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly call: (args: readonly unknown[], context: FunctionContext) => unknown;
  readonly lazy?: 'and' | 'or';
}

/** Shorthand for a function with a fixed number of arguments. */
export function fixed(count: number, call: TemplateFunction['call']): TemplateFunction {
  return { minArgs: count, maxArgs: count, call };
}

/** Shorthand for a function taking `min` or more arguments. */
export function variadic(min: number, call: TemplateFunction['call']): TemplateFunction {
  return { minArgs: min, maxArgs: Infinity, call };
}
