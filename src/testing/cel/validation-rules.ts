/**
 * The CEL rules of a custom resource's schema (`x-kubernetes-validations`), evaluated as kube-apiserver evaluates
 * them: at every node of the object that is there, the node's rules in order with `self` its value (and `oldSelf`
 * the stored one on an update; a rule that reads `oldSelf` is a transition rule and is skipped when there is none),
 * then the nodes below. A rule that is false is a field error at the node (or at its `fieldPath`) with its
 * `message`, its `messageExpression`'s value or `failed rule: <rule>`, shaped by its `reason`; a rule that fails to
 * evaluate is `<error> evaluating rule: <rule>`. On an update, a rule without `oldSelf` that fails on a value left as
 * it was is ratcheted: a warning, not a refusal.
 *
 * Not evaluated (the rule passes unjudged, rather than being judged wrongly): rules using a part of CEL the
 * evaluator in this folder does not implement (optional types, quantities, URLs, IPs, semver, format,
 * authorization), `optionalOldSelf`. Not checked: compile errors and cost limits (kube-apiserver refuses such a CRD
 * when it is created; the in-process server accepts it).
 */
import { evaluate } from './evaluate.js';
import { CelSyntaxError } from './lexer.js';
import { readsVariable } from './expr-tree.js';
import { CelUnsupported, parseCel, type Expr } from './parser.js';
import { CelEvalError, CelOptional, fromJson, type CelValue } from './values.js';
import { jsonEqual } from '../patch/json-value.js';
import type { FieldProblem } from '../status-errors.js';
import { goBadValue } from '../go/go-values.js';
import { oldField, oldItem, type Old } from '../resources/schema-correlation.js';
import { asSchema, itemsSchema, keyword, propertiesOf, type SchemaNode } from '../resources/schema-keywords.js';

/** One `x-kubernetes-validations` entry, compiled (or not, when unsupported or not parseable). */
interface CompiledRule {
  readonly rule: string;
  readonly expr: Expr | undefined;
  readonly message: Expr | undefined;
  readonly usesOldSelf: boolean;
  /** `oldSelf` is an optional, none where there is no old value, and the rule runs on create too. */
  readonly optionalOldSelf: boolean;
  readonly entry: Readonly<Record<string, unknown>>;
}

/** What evaluating the rules found: problems refuse the write, warnings (ratcheted failures) ride on its answer. */
export interface CelOutcome {
  readonly problems: FieldProblem[];
  readonly warnings: string[];
}


/** Compiled rules by the schema node that holds them: compiled once per CRD schema, gone with it. */
const compiled = new WeakMap<SchemaNode, readonly CompiledRule[]>();

function compile(text: string): Expr | undefined {
  try {
    return parseCel(text);
  } catch (error) {
    // A rule that does not parse here is not judged: kube-apiserver would have refused the CRD (a syntax error) or
    // parses a part of CEL this evaluator does not (CelUnsupported); either way a verdict here could be wrong.
    if (error instanceof CelSyntaxError || error instanceof CelUnsupported) return undefined;
    throw error;
  }
}


function rulesOf(node: SchemaNode): readonly CompiledRule[] {
  const known = compiled.get(node);
  if (known !== undefined) return known;
  const entries = keyword(node, 'x-kubernetes-validations');
  const rules: CompiledRule[] = [];
  if (Array.isArray(entries)) {
    for (const raw of entries) {
      const entry = asSchema(raw);
      if (entry === undefined || typeof entry['rule'] !== 'string') continue;
      const expr = compile(entry['rule']);
      const message = typeof entry['messageExpression'] === 'string' ? compile(entry['messageExpression']) : undefined;
      rules.push({ rule: entry['rule'], expr, message, usesOldSelf: expr !== undefined && readsVariable(expr, 'oldSelf'), optionalOldSelf: entry['optionalOldSelf'] === true, entry });
    }
  }
  compiled.set(node, rules);
  return rules;
}

/** Whether each root schema has CEL rules anywhere: asked on every write, walked once per CRD schema. */
const withRules = new WeakMap<SchemaNode, boolean>();

/** Whether any node of the schema has CEL rules (kube-apiserver then reports rules it could not check). */
export function hasCelRules(schema: SchemaNode): boolean {
  let known = withRules.get(schema);
  if (known === undefined) {
    known = anyRules(schema);
    withRules.set(schema, known);
  }
  return known;
}

function anyRules(schema: SchemaNode | undefined): boolean {
  if (schema === undefined) return false;
  if (Array.isArray(keyword(schema, 'x-kubernetes-validations'))) return true;
  const properties = propertiesOf(schema);
  if (properties !== undefined && Object.values(properties).some((property) => anyRules(asSchema(property)))) return true;
  const allOf = schema['allOf'];
  if (Array.isArray(allOf) && allOf.some((part) => anyRules(asSchema(part)))) return true;
  return anyRules(asSchema(schema['additionalProperties'])) || anyRules(itemsSchema(schema));
}

/**
 * The CEL rules' verdict on `object` (the whole custom resource) under its root schema; `old`: the stored object.
 * `at`: for a value that is not a whole resource (a CRD's default), its field path, and its rules see it as it is.
 */
export function celOutcome(schema: SchemaNode, object: unknown, old: Old, at?: string): CelOutcome {
  const outcome: CelOutcome = { problems: [], warnings: [] };
  walk(schema, object, old, at ?? '', { root: at === undefined, parentUnchanged: false }, outcome);
  return outcome;
}

/**
 * Where a node sits: at the resource's root or not, and whether its nearest ancestor with an old value is unchanged
 * (a node without an old value of its own, such as an item of an atomic list, is ratcheted by it).
 */
interface Place {
  readonly root: boolean;
  readonly parentUnchanged: boolean;
}

function walk(node: SchemaNode, value: unknown, old: Old, path: string, place: Place, out: CelOutcome): void {
  if (value === null || value === undefined) return;
  const unchanged = old === undefined ? place.parentUnchanged : jsonEqual(old.value, value);
  checkRules(node, value, old, path, place.root, unchanged, out);
  const allOf = node['allOf'];
  if (Array.isArray(allOf)) for (const part of allOf) if (asSchema(part) !== undefined) checkRules(asSchema(part) ?? {}, value, old, path, false, unchanged, out);
  const below: Place = { root: false, parentUnchanged: unchanged };
  if (Array.isArray(value)) {
    const items = itemsSchema(node);
    if (items === undefined) return;
    value.forEach((item, i) => walk(items, item, oldItem(node, old, item), `${path}[${i}]`, below, out));
    return;
  }
  if (typeof value !== 'object') return;
  const object = value as Record<string, unknown>;
  const properties = propertiesOf(node);
  const additional = asSchema(node['additionalProperties']);
  if (additional !== undefined) {
    for (const key of Object.keys(object)) walk(additional, object[key], oldField(old, key), `${path}[${key}]`, below, out);
  }
  if (properties !== undefined) {
    for (const key of Object.keys(object)) {
      if (!Object.hasOwn(properties, key)) continue;
      walk(asSchema(properties[key]) ?? {}, object[key], oldField(old, key), path === '' ? key : `${path}.${key}`, below, out);
    }
  }
}

/** The schema's type name kube-apiserver shows for a rule's runtime error (`"object"`, `"string"`...). */
function typeOf(node: SchemaNode): string {
  return typeof node['type'] === 'string' ? node['type'] : '';
}

function checkRules(node: SchemaNode, value: unknown, old: Old, path: string, root: boolean, unchanged: boolean, out: CelOutcome): void {
  const rules = rulesOf(node);
  if (rules.length === 0) return;
  const field = path === '' ? '<nil>' : path;
  let self: CelValue | undefined;
  let oldSelf: CelValue | undefined;
  for (const rule of rules) {
    if (rule.expr === undefined) continue;
    if (rule.usesOldSelf && old === undefined && !rule.optionalOldSelf) continue;
    self ??= fromJson(value, root ? { ...node, type: 'object' } : node);
    if (rule.usesOldSelf && old !== undefined) oldSelf ??= fromJson(old.value, node);
    const vars = new Map<string, CelValue>([['self', self]]);
    if (rule.optionalOldSelf) vars.set('oldSelf', new CelOptional(oldSelf));
    else if (oldSelf !== undefined) vars.set('oldSelf', oldSelf);
    let result: CelValue;
    try {
      result = evaluate(rule.expr, vars);
    } catch (error) {
      // A call this evaluator does not implement: the rule is left unjudged (documented), never judged wrongly.
      if (error instanceof CelUnsupported) continue;
      if (!(error instanceof CelEvalError)) throw error;
      const shown = error.message.startsWith('no such overload')
        ? `'${error.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(rule)}`
        : `${error.message} evaluating rule: ${ruleText(rule)}`;
      out.problems.push({ field, reason: 'FieldValueInvalid', message: `Invalid value: ${goBadValue(typeOf(node))}: ${shown}` });
      continue;
    }
    if (result === true) continue;
    const problem = failure(rule, node, value, path, vars);
    if (!rule.usesOldSelf && unchanged) out.warnings.push(`${problem.field}: ${problem.message}`);
    else out.problems.push(problem);
  }
}

/** `rule`'s own text in messages: its message when it has one, else the rule. */
function ruleText(rule: CompiledRule): string {
  const message = rule.entry['message'];
  return typeof message === 'string' && message.trim() !== '' ? message.trim() : rule.rule.trim();
}

/**
 * The field of a rule's error: the node's, with the rule's `fieldPath` (`.a.b`, `['a.b']`, `.m['key']`) followed
 * through the schema: a declared property is a child (`.a.b`), a key of a map a subscript (`[key]`), as
 * kube-apiserver normalizes it.
 */
function errorField(node: SchemaNode, path: string, fieldPath: unknown): string {
  let at = path;
  if (typeof fieldPath === 'string') {
    let schema: SchemaNode | undefined = node;
    for (const [, dotted, quoted] of fieldPath.matchAll(/\.([^.[]+)|\[\s*'((?:[^'\\]|\\.)*)'\s*\]/g)) {
      const name = dotted ?? quoted ?? '';
      const properties = schema === undefined ? undefined : propertiesOf(schema);
      if (properties !== undefined && Object.hasOwn(properties, name)) {
        at = at === '' ? name : `${at}.${name}`;
        schema = asSchema(properties[name]);
      } else {
        at = `${at}[${name}]`;
        schema = schema === undefined ? undefined : asSchema(schema['additionalProperties']);
      }
    }
  }
  return at === '' ? '<nil>' : at;
}

function failure(rule: CompiledRule, node: SchemaNode, value: unknown, path: string, vars: ReadonlyMap<string, CelValue>): FieldProblem {
  const at = errorField(node, path, rule.entry['fieldPath']);
  const detail = messageOf(rule, vars) ?? (typeof rule.entry['message'] === 'string' && rule.entry['message'].trim() !== '' ? rule.entry['message'].trim() : `failed rule: ${rule.rule.trim()}`);
  const compound = Array.isArray(value) || (typeof value === 'object' && value !== null) || typeOf(node) === 'object' || typeOf(node) === 'array';
  const shown = compound ? 'Invalid value' : `Invalid value: ${goBadValue(value)}`;
  switch (rule.entry['reason']) {
    case 'FieldValueForbidden':
      return { field: at, reason: 'FieldValueForbidden', message: `Forbidden: ${detail}` };
    case 'FieldValueRequired':
      return { field: at, reason: 'FieldValueRequired', message: `Required value: ${detail}` };
    case 'FieldValueDuplicate':
      return { field: at, reason: 'FieldValueDuplicate', message: compound ? 'Duplicate value' : `Duplicate value: ${goBadValue(value)}` };
    default:
      return { field: at, reason: 'FieldValueInvalid', message: `${shown}: ${detail}` };
  }
}

/** The value of the rule's `messageExpression`, when it evaluates to a non-empty string on one line. */
function messageOf(rule: CompiledRule, vars: ReadonlyMap<string, CelValue>): string | undefined {
  if (rule.message === undefined) return undefined;
  try {
    const message = evaluate(rule.message, vars);
    if (typeof message !== 'string' || message.trim() === '' || /\n/.test(message)) return undefined;
    return message.trim();
  } catch (error) {
    // A messageExpression that fails to evaluate falls back to the rule's message, as kube-apiserver does (it logs it).
    if (error instanceof CelEvalError || error instanceof CelUnsupported) return undefined;
    throw error;
  }
}
