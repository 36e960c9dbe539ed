/**
 * Validation rules (Orkestra's `validation.rules`) compiled for one CRD, evaluated against an object: every rule
 * whose conditions hold is checked, every violation is reported (denials and warnings), in declaration order.
 * Pure: no I/O, no logging. Templates in `field`, `value` and `message` render against the object.
 */
import { compileConditions, compileTemplate, type CompiledConditions, type CompiledTemplate, type TemplateDialect, type UserNote } from '../template/index.js';
import type { ValidationRule } from '../definition/index.js';
import { readField } from './object-fields.js';

/** One failed rule: the field as written and the rule's (rendered) message. Never the field's value. */
export interface Violation {
  readonly field: string;
  readonly message: string;
  /**
   * The message as the definition writes it: equal to `message` unless it is a template, whose rendering may
   * quote the object. Texts that leave the object (errors, logs, the inspection API) use this one.
   */
  readonly messageAsWritten: string;
  readonly operator: ValidationRule['operator'];
}

export interface ValidationResult {
  readonly denials: readonly Violation[];
  readonly warnings: readonly Violation[];
}

export type Moment = 'admission' | 'reconcile';

/**
 * The other custom resources of the CRD, for `operator: unique` (the runtime's cache of the CRD). The object under
 * evaluation is recognised by its namespace and name and never counts as its own duplicate.
 */
export type Peers = () => Iterable<Record<string, unknown>>;

interface CompiledRule {
  readonly rule: ValidationRule;
  readonly conditions: CompiledConditions;
  readonly field: CompiledTemplate | undefined;
  readonly value: CompiledTemplate | undefined;
  readonly message: CompiledTemplate | undefined;
}

interface RuleOptions {
  readonly dialect?: TemplateDialect;
  readonly notes?: readonly UserNote[];
  readonly now?: () => number;
}

function maybeTemplate(source: string, name: string, options: RuleOptions): CompiledTemplate | undefined {
  return source.includes('{{') ? compileTemplate(source, { name, ...options }) : undefined;
}

/**
 * Compiles a CRD's rules once; throws a TemplateError naming the rule when a template does not compile. `now` is
 * the clock the templates' clock notes read (`timeAgo`, `isExpired`...): the runtime's or the router's `clock`;
 * default `Date.now`.
 */
export function compileValidation(
  rules: readonly ValidationRule[],
  dialect?: TemplateDialect,
  notes?: readonly UserNote[],
  now?: () => number,
): (object: Record<string, unknown>, moment: Moment, peers?: Peers) => ValidationResult {
  const options: RuleOptions = { ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) };
  const compiled: CompiledRule[] = rules.map((rule) => ({
    rule,
    conditions: compileConditions({ when: rule.when, anyOf: rule.anyOf }, { name: rule.path, ...options }),
    field: maybeTemplate(rule.field, `${rule.path}.field`, options),
    value: maybeTemplate(rule.value, `${rule.path}.value`, options),
    message: maybeTemplate(rule.message, `${rule.path}.message`, options),
  }));
  return (object, moment, peers) => {
    const denials: Violation[] = [];
    const warnings: Violation[] = [];
    for (const item of compiled) {
      const { rule } = item;
      if (moment === 'admission' ? !rule.atAdmission : !rule.atReconcile) continue;
      if (!item.conditions.evaluate(object).ok) continue;
      const actual = valueOf(item, object);
      const expected = item.value === undefined ? rule.value : item.value.renderString(object);
      if (rule.operator === 'unique' ? isUnique(item, object, actual, peers) : passes(rule.operator, actual, expected)) continue;
      const message = item.message === undefined ? rule.message : item.message.renderString(object);
      const violation = { field: rule.field, message, messageAsWritten: rule.message, operator: rule.operator };
      (rule.action === 'warn' ? warnings : denials).push(violation);
    }
    return { denials, warnings };
  };
}

function valueOf(item: CompiledRule, object: Record<string, unknown>): string | undefined {
  return item.field === undefined ? readField(object, item.rule.field) : nonEmpty(item.field.renderString(object));
}

/**
 * `operator: unique` (Orkestra's): the field is set and no other custom resource of the CRD has the same value.
 * Without peers (a router mounted without the runtime's cache) only the first half is checked.
 */
function isUnique(item: CompiledRule, object: Record<string, unknown>, actual: string | undefined, peers: Peers | undefined): boolean {
  if (actual === undefined || actual === '') return false;
  if (peers === undefined) return true;
  const self = identity(object);
  for (const peer of peers()) {
    if (identity(peer) !== self && valueOf(item, peer) === actual) return false;
  }
  return true;
}

function identity(object: Record<string, unknown>): string {
  const metadata = object.metadata;
  if (typeof metadata !== 'object' || metadata === null) return '';
  const { namespace, name } = metadata as { namespace?: unknown; name?: unknown };
  return `${typeof namespace === 'string' ? namespace : ''}/${typeof name === 'string' ? name : ''}`;
}

function nonEmpty(text: string): string | undefined {
  return text === '' ? undefined : text;
}

function inList(value: string, list: string): boolean {
  return list.split(',').some((item) => item.trim() === value);
}

function numberOf(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text.trim());
  return Number.isFinite(value) ? value : undefined;
}

function range(text: string): [number, number] | undefined {
  const parts = text.split(',').map((part) => numberOf(part));
  const [low, high] = parts;
  return parts.length === 2 && low !== undefined && high !== undefined ? [low, high] : undefined;
}

/**
 * Orkestra's comparison table: a missing field fails every comparison except notExists and notEquals; a numeric
 * comparison whose field is not a number fails; a rule whose own value is unusable (bad number, bad regex) passes.
 */
export function passes(operator: ValidationRule['operator'], actual: string | undefined, expected: string): boolean {
  const found = actual !== undefined && actual !== '';
  const text = actual ?? '';
  switch (operator) {
    case 'exists':
      return found;
    case 'notExists':
      return !found;
    case 'equals':
      return actual !== undefined && text === expected;
    case 'notEquals':
      return actual === undefined || text !== expected;
    case 'contains':
      return actual !== undefined && text.includes(expected);
    case 'notContains':
      return actual !== undefined && !text.includes(expected);
    case 'prefix':
      return actual !== undefined && text.startsWith(expected);
    case 'notPrefix':
      return actual !== undefined && !text.startsWith(expected);
    case 'suffix':
      return actual !== undefined && text.endsWith(expected);
    case 'notSuffix':
      return actual !== undefined && !text.endsWith(expected);
    case 'in':
      return actual !== undefined && inList(text, expected);
    case 'notIn':
      return actual !== undefined && !inList(text, expected);
    case 'regex': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(expected, 'u');
      } catch {
        return true;
      }
      return actual !== undefined && pattern.test(text);
    }
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte': {
      const bound = numberOf(expected);
      if (bound === undefined) return true;
      const value = numberOf(actual);
      if (value === undefined) return false;
      return operator === 'gt' ? value > bound : operator === 'lt' ? value < bound : operator === 'gte' ? value >= bound : value <= bound;
    }
    case 'unique':
      return found; // the peers are compared by compileValidation's caller; see isUnique
    case 'between':
    case 'notBetween': {
      const bounds = range(expected);
      if (bounds === undefined) return true;
      const value = numberOf(actual);
      if (value === undefined) return false;
      const inside = value >= bounds[0] && value <= bounds[1];
      return operator === 'between' ? inside : !inside;
    }
  }
}
