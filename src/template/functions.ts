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
import { refusedOrkestraFunction } from './functions-orkestra-refused.js';

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

/**
 * What an "unknown function" message adds for `name`: in the Orkestra dialect, why katalog refuses an Orkestra
 * note it does not define; else a near miss. Empty when there is nothing to add.
 */
export function unknownFunctionHint(name: string, dialect?: TemplateDialect): string {
  const refused = dialect === 'orkestra' ? refusedOrkestraFunction(name) : undefined;
  if (refused !== undefined) return ` (an Orkestra note katalog does not support: ${refused}; see docs/orkestra-compatibility.md#template-dialect)`;
  const suggestion = suggestFunction(name);
  return suggestion === undefined ? '' : ` (did you mean ${JSON.stringify(suggestion)}?)`;
}
