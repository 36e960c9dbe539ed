/**
 * `when` (all must hold) and `anyOf` (one must hold) conditions on template entries and status fields.
 * Malformed conditions (unknown operator, bad field path, missing value, bad template) fail at compile
 * time with a {@link TemplateError}; data that does not fit a comparison makes the condition false with a
 * warning, never an error.
 */
import { TemplateError } from '../errors.js';
import type { TemplateDialect } from './dialect.js';
import type { UserNote } from './notes.js';
import { compileInternal, hasTemplateActions, type CompileOptions, type TemplateData } from './compile-template.js';
import { childPath } from './compile-value.js';
import { convert, equalAs, textOf, type ValueType } from './condition-compare.js';
import { parseFieldPath, resolvePath } from './condition-path.js';
import { resolveLimits, type TemplateLimits } from './limits.js';
import { getKey, isMap, isTruthy } from './values.js';

/** One condition. `field` is a dotted path from the data root, or a template. */
export interface Condition {
  field: string;
  operator: 'eq' | 'neq' | 'gt' | 'lt' | 'gte' | 'lte' | 'contains' | 'prefix' | 'suffix' | 'exists' | 'notExists' | 'in';
  value?: unknown;
  valueType?: 'string' | 'int' | 'float' | 'bool';
}

/** A `when`/`anyOf` pair. Both empty or absent: the conditions hold. */
export interface ConditionSpec {
  when?: readonly Condition[] | undefined;
  anyOf?: readonly Condition[] | undefined;
}

export interface ConditionResult {
  ok: boolean;
  warnings: string[];
}

/** Compiled conditions: evaluate many times. */
export interface CompiledConditions {
  evaluate(data: TemplateData): ConditionResult;
  readonly conditionCount: number;
}

export const CONDITION_OPERATORS: readonly Condition['operator'][] = Object.freeze([
  'eq', 'neq', 'gt', 'lt', 'gte', 'lte', 'contains', 'prefix', 'suffix', 'exists', 'notExists', 'in',
] as const);

/** Longer spellings accepted for operators. */
export const CONDITION_OPERATOR_ALIASES: Readonly<Record<string, Condition['operator']>> = Object.freeze({
  equals: 'eq',
  notEquals: 'neq',
  greaterThan: 'gt',
  lessThan: 'lt',
  min: 'gte',
  max: 'lte',
});

const VALUE_TYPES: readonly string[] = ['string', 'int', 'float', 'bool'];

/** The canonical operator for an operator or alias; `undefined` when unknown. */
export function normalizeOperator(operator: string): Condition['operator'] | undefined {
  if ((CONDITION_OPERATORS as readonly string[]).includes(operator)) return operator as Condition['operator'];
  return Object.hasOwn(CONDITION_OPERATOR_ALIASES, operator) ? CONDITION_OPERATOR_ALIASES[operator] : undefined;
}

type Check = (data: TemplateData, warn: (message: string) => void) => boolean;
type Produce = (data: TemplateData) => unknown;

/** A non-empty value: not missing, not null, not "", not an empty list or map. `false` and `0` exist. */
function isPresent(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value) || isMap(value)) return isTruthy(value);
  return true;
}

/**
 * Compiles conditions. Throws the first {@link TemplateError}, or reports every one to `onError` when given
 * (a condition that failed to compile then evaluates to false with a warning). Templates are named
 * `${name}.when[0].value` and so on.
 */
export function compileConditions(
  spec: ConditionSpec,
  options?: CompileOptions,
  onError?: (error: TemplateError) => void,
): CompiledConditions {
  const report = (error: TemplateError): void => {
    if (onError === undefined) throw error;
    onError(error);
  };
  let limits: TemplateLimits;
  try {
    limits = resolveLimits(options?.limits, options?.name);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    report(error);
    limits = resolveLimits(undefined, options?.name);
  }
  const base = options?.name ?? '';
  const compileList = (list: readonly Condition[] | undefined, key: 'when' | 'anyOf'): Check[] => {
    if (list !== undefined && !Array.isArray(list)) {
      report(new TemplateError('E_TEMPLATE_SYNTAX', `${key} must be a list of conditions`, { template: childPath(base, key) || undefined, line: 1, column: 1 }));
      return [() => false];
    }
    return (list ?? []).map((condition, i) => {
      const path = childPath(childPath(base, key), i);
      try {
        return compileCondition(condition, path, `${key}[${i}]`, limits, options?.dialect, options?.notes, options?.now);
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        report(error);
        return (_data, warn) => {
          warn(`${key}[${i}]: the condition did not compile: ${error.reason}`);
          return false;
        };
      }
    });
  };
  const when = compileList(spec.when, 'when');
  const anyOf = compileList(spec.anyOf, 'anyOf');
  return {
    conditionCount: when.length + anyOf.length,
    evaluate(data: TemplateData): ConditionResult {
      const warnings: string[] = [];
      const warn = (message: string): void => {
        warnings.push(message);
      };
      const ok = when.every((check) => check(data, warn)) && (anyOf.length === 0 || anyOf.some((check) => check(data, warn)));
      return { ok, warnings };
    },
  };
}

/** Compiles and evaluates in one go. Throws a {@link TemplateError} only for malformed conditions. */
export function evaluateConditions(spec: ConditionSpec, data: TemplateData): ConditionResult {
  return compileConditions(spec).evaluate(data);
}

function invalid(reason: string, path: string): never {
  throw new TemplateError('E_TEMPLATE_SYNTAX', reason, { template: path === '' ? undefined : path, line: 1, column: 1 });
}

function produce(value: unknown, path: string, limits: TemplateLimits, dialect?: TemplateDialect, notes?: readonly UserNote[], now?: () => number): Produce {
  if (typeof value === 'string' && hasTemplateActions(value)) {
    const template = compileInternal(value, path, limits, undefined, dialect, notes, now);
    return (data) => template.render(data);
  }
  return () => value;
}

function compileCondition(condition: Condition, path: string, label: string, limits: TemplateLimits, dialect?: TemplateDialect, notes?: readonly UserNote[], now?: () => number): Check {
  if (typeof condition !== 'object' || condition === null) invalid('a condition must be an object', path);
  const operator = typeof condition.operator === 'string' ? normalizeOperator(condition.operator) : undefined;
  if (operator === undefined) invalid(`unknown operator ${JSON.stringify(condition.operator)}; use one of ${CONDITION_OPERATORS.join(', ')}`, childPath(path, 'operator'));
  const type = condition.valueType;
  if (type !== undefined && !VALUE_TYPES.includes(type)) invalid(`unknown valueType ${JSON.stringify(type)}; use string, int, float or bool`, childPath(path, 'valueType'));
  if (typeof condition.field !== 'string') invalid('a condition needs a field', childPath(path, 'field'));
  let subject: Produce;
  if (hasTemplateActions(condition.field)) subject = produce(condition.field, childPath(path, 'field'), limits, dialect, notes, now);
  else {
    const segments = parseFieldPath(condition.field);
    if (segments === undefined) invalid(`invalid field path ${JSON.stringify(condition.field)}`, childPath(path, 'field'));
    subject = (data) => resolvePath(data, segments);
  }
  const where = `${label} (${condition.field} ${operator})`;
  if (operator === 'exists') return (data) => isPresent(subject(data));
  if (operator === 'notExists') return (data) => !isPresent(subject(data));
  if (condition.value === undefined) invalid(`operator ${operator} needs a value`, childPath(path, 'value'));
  const valuePath = childPath(path, 'value');
  const items = operator === 'in' && Array.isArray(condition.value) ? condition.value.map((item: unknown, i) => produce(item, childPath(valuePath, i), limits, dialect, notes, now)) : undefined;
  const value = produce(condition.value, valuePath, limits, dialect, notes, now);
  const compare = comparison(operator, type, where);
  return (data, warn) => {
    const rendered = items === undefined ? value(data) : items.map((item) => item(data));
    return compare(subject(data), rendered, warn);
  };
}

function comparison(
  operator: Exclude<Condition['operator'], 'exists' | 'notExists'>,
  type: ValueType | undefined,
  where: string,
): (subject: unknown, value: unknown, warn: (message: string) => void) => boolean {
  const tell = (warn: (message: string) => void) => (message: string) => warn(`${where}: ${message}`);
  switch (operator) {
    case 'eq':
      return (s, v, warn) => equalAs(s, v, type, tell(warn)) === true;
    case 'neq':
      return (s, v, warn) => equalAs(s, v, type, tell(warn)) === false;
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte':
      return (s, v, warn) => {
        const as = type ?? 'float';
        if (as !== 'int' && as !== 'float') {
          warn(`${where}: ${operator} compares numbers; valueType ${as} cannot be ordered`);
          return false;
        }
        const a = convert(s, as, 'the field value', tell(warn));
        const b = convert(v, as, 'the condition value', tell(warn));
        if (typeof a !== 'number' || typeof b !== 'number') return false;
        return operator === 'gt' ? a > b : operator === 'lt' ? a < b : operator === 'gte' ? a >= b : a <= b;
      };
    case 'contains':
      return (s, v, warn) => {
        if (Array.isArray(s)) return s.some((item: unknown) => equalAs(item, v, type, tell(warn)) === true);
        if (isMap(s)) return getKey(s, textOf(v)) !== undefined;
        return textOf(s).includes(textOf(v));
      };
    case 'prefix':
      return (s, v) => textOf(s).startsWith(textOf(v));
    case 'suffix':
      return (s, v) => textOf(s).endsWith(textOf(v));
    case 'in':
      return (s, v, warn) => {
        const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',').map((item) => item.trim()) : [v];
        return list.some((item: unknown) => equalAs(s, item, type, tell(warn)) === true);
      };
  }
}
