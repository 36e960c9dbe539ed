/**
 * The table of built-in functions. It is frozen and has no prototype, so no name such as
 * `constructor` or `toString` resolves to anything but a listed function.
 */
import { DATA_FUNCTIONS } from './functions-data.js';
import { LOGIC_FUNCTIONS } from './functions-logic.js';
import { MATH_FUNCTIONS } from './functions-math.js';
import { TEXT_FUNCTIONS } from './functions-text.js';
import type { TemplateFunction } from './function-type.js';
import { dialectFunction, type TemplateDialect } from './dialect.js';

const BUILTINS: Readonly<Record<string, TemplateFunction>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, TemplateFunction>, LOGIC_FUNCTIONS, MATH_FUNCTIONS, TEXT_FUNCTIONS, DATA_FUNCTIONS),
);

/** The names of every built-in function, sorted. */
export const TEMPLATE_FUNCTION_NAMES: readonly string[] = Object.freeze(Object.keys(BUILTINS).sort());

/** The built-in function called `name` in `dialect` (default katalog), or `undefined`. */
export function lookupFunction(name: string, dialect?: TemplateDialect): TemplateFunction | undefined {
  return dialectFunction(name, dialect) ?? (Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined);
}

/** A near miss for an unknown function name (same letters ignoring case), for error messages. */
export function suggestFunction(name: string): string | undefined {
  const lower = name.toLowerCase();
  return TEMPLATE_FUNCTION_NAMES.find((candidate) => candidate.toLowerCase() === lower);
}

/** What an "unknown function" message adds for `name`: a near miss; empty when there is none. */
export function unknownFunctionHint(name: string): string {
  const suggestion = suggestFunction(name);
  return suggestion === undefined ? '' : ` (did you mean ${JSON.stringify(suggestion)}?)`;
}
