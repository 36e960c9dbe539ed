/**
 * Mutation rules (Orkestra's `mutation.rules`) compiled for one CRD, applied to a copy of an object: `default`
 * sets a field that is absent or "", `override` always sets it; templates render against the object as it is
 * when the rule runs. The result is the changed object and the RFC 6902 operations that make it from the original.
 * Pure: no I/O, no logging.
 */
import { compileConditions, compileTemplate, type CompiledConditions, type CompiledTemplate, type TemplateDialect, type UserNote } from '../template/index.js';
import type { MutationRule } from '../definition/index.js';
import { readField, setField, type JsonPatchOperation } from '../rules/object-fields.js';
import type { Moment } from '../rules/validation.js';

export interface MutationResult {
  readonly object: Record<string, unknown>;
  readonly patch: readonly JsonPatchOperation[];
  /** The fields that changed, in rule order. */
  readonly fields: readonly string[];
}

interface CompiledRule {
  readonly rule: MutationRule;
  readonly conditions: CompiledConditions;
  readonly value: CompiledTemplate | undefined;
}

/**
 * Compiles a CRD's mutation rules once; throws a TemplateError naming the rule when a template does not compile.
 * `now` is the clock the templates' clock notes read (the router's `clock`); default `Date.now`.
 */
export function compileMutation(
  rules: readonly MutationRule[],
  dialect?: TemplateDialect,
  notes?: readonly UserNote[],
  now?: () => number,
): (object: Record<string, unknown>, moment: Moment) => MutationResult {
  const options = { ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) };
  const compiled: CompiledRule[] = rules.map((rule) => ({
    rule,
    conditions: compileConditions({ when: rule.when, anyOf: rule.anyOf }, { name: rule.path, ...options }),
    value: typeof rule.value === 'string' && rule.value.includes('{{') ? compileTemplate(rule.value, { name: `${rule.path}.${rule.change}`, ...options }) : undefined,
  }));
  return (original, moment) => {
    const object = structuredClone(original);
    const patch: JsonPatchOperation[] = [];
    const fields: string[] = [];
    for (const { rule, conditions, value } of compiled) {
      if (moment === 'admission' ? !rule.atAdmission : !rule.atReconcile) continue;
      if (!conditions.evaluate(object).ok) continue;
      const current = readField(object, rule.field);
      if (rule.change === 'default' && current !== undefined && current !== '') continue;
      const next = typed(value === undefined ? rule.value : value.renderString(object), rule.valueType);
      if (next === undefined) continue;
      if (current !== undefined && String(next) === current) continue;
      patch.push(...setField(object, rule.field, next));
      fields.push(rule.field);
    }
    return { object, patch, fields };
  };
}

/**
 * The value written: a literal keeps its YAML type unless `valueType` says otherwise; a rendered text is a string
 * unless `valueType` converts it. A text that does not convert skips the rule (as Orkestra does).
 */
function typed(value: string | number | boolean, type: MutationRule['valueType']): string | number | boolean | undefined {
  const text = String(value).trim();
  switch (type) {
    case 'int':
      return /^[-+]?\d+$/.test(text) ? Number(text) : undefined;
    case 'float':
      return text !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined;
    case 'bool':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'string':
      return String(value);
    default:
      return value;
  }
}
