/**
 * The template language of katalog: Go text/template syntax with Sprig-style functions, evaluated
 * safely (no code, no prototype access, bounded work) against a custom resource. Pure, no I/O.
 * See docs/templates.md.
 */
export { DEFAULT_TEMPLATE_LIMITS } from './limits.js';
export type { TemplateLimits } from './limits.js';
export { compileTemplate, hasTemplateActions } from './compile-template.js';
export type { CompileOptions, CompiledTemplate, TemplateData } from './compile-template.js';
export { compileValue, compileValueCollect } from './compile-value.js';
export type { CompiledValue } from './compile-value.js';
export {
  CONDITION_OPERATORS,
  CONDITION_OPERATOR_ALIASES,
  compileConditions,
  evaluateConditions,
  normalizeOperator,
} from './conditions.js';
export type { CompiledConditions, Condition, ConditionResult, ConditionSpec } from './conditions.js';
export { TEMPLATE_FUNCTION_NAMES } from './functions.js';
export { ORKESTRA_FUNCTION_NAMES } from './dialect.js';
export type { TemplateDialect } from './dialect.js';
export { checkNotes, isBuiltinFunction } from './notes.js';
export type { NoteProblem, UserNote } from './notes.js';
export { parseFieldPath } from './condition-path.js';
export { forEachScopes } from './for-each.js';
export type { ForEachScope, ForEachSpec } from './for-each.js';
