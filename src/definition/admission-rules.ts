/**
 * A CRD entry's `validation`, `mutation`, `webhooks` and `deletionProtection` → the frozen {@link AdmissionRules}.
 * What can be checked offline is checked here, at the rule's file:line:column: an operator that needs a value has
 * one, a numeric comparison has a number, `between` has "min,max", a regex compiles, a mutation has a value.
 */
import type { AdmissionCall, AdmissionOperation, AdmissionRules, MutationRule, ValidationOperator, ValidationRule } from './types.js';
import type { Field } from './crd-entries.js';
import type { ProblemList } from './problems.js';
import { normalizeConditions } from './conditions.js';
import { formatPath } from './path.js';
import { isMap } from './schema-check.js';
import { VALIDATION_OPERATOR_ALIASES, type MutationRuleInput, type ValidationRuleInput } from './schema-admission.js';
import { normalizeExternalCalls } from './external-calls.js';

const NUMERIC: ReadonlySet<ValidationOperator> = new Set(['gt', 'lt', 'gte', 'lte']);
const RANGE: ReadonlySet<ValidationOperator> = new Set(['between', 'notBetween']);
const NO_VALUE: ReadonlySet<ValidationOperator> = new Set(['exists', 'notExists', 'unique']);

/** Reads the admission fields of one entry; `undefined` when it declares none. */
export function normalizeAdmission(get: (name: string) => Field | undefined, problems: ProblemList): AdmissionRules | undefined {
  const validationField = get('validation');
  const mutationField = get('mutation');
  const webhooksField = get('webhooks');
  const protectionField = get('deletionProtection');
  if (validationField === undefined && mutationField === undefined && protectionField === undefined) return undefined;
  const validation = rulesOf(validationField).map((rule, index) => validationRule(rule as Partial<ValidationRuleInput>, validationField, index, problems));
  const mutation = rulesOf(mutationField).map((rule, index) => mutationRule(rule as Partial<MutationRuleInput>, mutationField, index, problems));
  const webhooks = isMap(webhooksField?.value) ? webhooksField.value : {};
  const protection = isMap(protectionField?.value) ? protectionField.value : undefined;
  const operations = Array.isArray(webhooks.operations) && webhooks.operations.length > 0 ? (webhooks.operations as AdmissionOperation[]) : (['CREATE', 'UPDATE'] as const);
  const validationExternal = callsOf(validationField, problems);
  const mutationExternal = callsOf(mutationField, problems);
  return {
    validation: validation.filter((rule): rule is ValidationRule => rule !== undefined),
    mutation: mutation.filter((rule): rule is MutationRule => rule !== undefined),
    ...(validationExternal === undefined ? {} : { validationExternal }),
    ...(mutationExternal === undefined ? {} : { mutationExternal }),
    operations: [...new Set(operations)],
    validate: webhooks.validation !== false,
    mutate: webhooks.mutation !== false,
    protectDelete: protection !== undefined && protection.protectCRs !== false,
  };
}

/** The block's `external` calls, each with its `fires.reconcile` (default true); undefined when none. */
function callsOf(field: Field | undefined, problems: ProblemList): AdmissionCall[] | undefined {
  const list = isMap(field?.value) && Array.isArray(field.value.external) ? (field.value.external as unknown[]) : undefined;
  if (field === undefined || list === undefined) return undefined;
  const calls = normalizeExternalCalls(list as Parameters<typeof normalizeExternalCalls>[0], field.origin, [...field.path, 'external'], problems) ?? [];
  const fires = new Map(list.map((input) => [isMap(input) ? input.name : undefined, isMap(input) && isMap(input.fires) ? input.fires.reconcile !== false : true]));
  return calls.length === 0 ? undefined : calls.map((call) => ({ ...call, atReconcile: fires.get(call.name) ?? true }));
}

function rulesOf(field: Field | undefined): unknown[] {
  return isMap(field?.value) && Array.isArray(field.value.rules) ? field.value.rules : [];
}

function validationRule(rule: Partial<ValidationRuleInput>, field: Field | undefined, index: number, problems: ProblemList): ValidationRule | undefined {
  if (field === undefined || !isMap(rule) || typeof rule.field !== 'string' || typeof rule.message !== 'string') return undefined;
  const path = [...field.path, 'rules', index];
  const written = rule.operator ?? 'exists';
  const operator = (VALIDATION_OPERATOR_ALIASES[written] ?? written) as ValidationOperator;
  const value = rule.value === undefined ? '' : String(rule.value);
  const template = value.includes('{{');
  if (!NO_VALUE.has(operator) && rule.value === undefined) {
    problems.add(field.origin, [...path, 'operator'], 'missing-field', `operator "${written}" needs a value`);
  } else if (!template && NUMERIC.has(operator) && !Number.isFinite(Number(value.trim()))) {
    problems.add(field.origin, [...path, 'value'], 'invalid-value', `operator "${written}" compares numbers; ${JSON.stringify(value)} is not a number`);
  } else if (!template && RANGE.has(operator) && parseRange(value) === undefined) {
    problems.add(field.origin, [...path, 'value'], 'invalid-value', `operator "${written}" needs "min,max" (two numbers); got ${JSON.stringify(value)}`);
  } else if (!template && operator === 'regex') {
    try {
      new RegExp(value, 'u');
    } catch (error) {
      problems.add(field.origin, [...path, 'value'], 'invalid-value', `not a valid regular expression: ${(error as Error).message}`);
    }
  }
  return {
    field: rule.field,
    operator,
    value,
    message: rule.message,
    action: rule.action ?? 'deny',
    when: normalizeConditions(rule.when, field.origin, [...path, 'when'], problems),
    anyOf: normalizeConditions(rule.anyOf, field.origin, [...path, 'anyOf'], problems),
    atAdmission: rule.fires?.admission !== false,
    atReconcile: rule.fires?.reconcile !== false,
    path: formatPath(path),
  };
}

function mutationRule(rule: Partial<MutationRuleInput>, field: Field | undefined, index: number, problems: ProblemList): MutationRule | undefined {
  if (field === undefined || !isMap(rule) || typeof rule.field !== 'string') return undefined;
  const path = [...field.path, 'rules', index];
  const value = rule.override ?? rule.default;
  if (value === undefined) {
    problems.add(field.origin, path, 'missing-field', 'a mutation rule needs default or override');
    return undefined;
  }
  return {
    field: rule.field,
    change: rule.override === undefined ? 'default' : 'override',
    value,
    ...(rule.valueType === undefined ? {} : { valueType: rule.valueType }),
    when: normalizeConditions(rule.when, field.origin, [...path, 'when'], problems),
    anyOf: normalizeConditions(rule.anyOf, field.origin, [...path, 'anyOf'], problems),
    atAdmission: rule.fires?.admission !== false,
    atReconcile: rule.fires?.reconcile !== false,
    path: formatPath(path),
  };
}

/** "min,max" → the two numbers, or undefined. */
export function parseRange(text: string): [number, number] | undefined {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length !== 2 || parts.some((part) => part === '')) return undefined;
  const [low, high] = parts.map(Number);
  return low === undefined || high === undefined || !Number.isFinite(low) || !Number.isFinite(high) ? undefined : [low, high];
}
