/**
 * The keywords kube-apiserver refuses or constrains in a CRD's OpenAPI schema, node by node (apiextensions-apiserver's
 * `ValidateCustomResourceDefinitionOpenAPISchema`, read in 1.37.2 and probed on it): types outside OpenAPI's six,
 * JSON-schema features it does not support (`$ref`, `id`, `definitions`, `dependencies`, `patternProperties`,
 * `additionalItems`, `items` as a list, `uniqueItems: true`), `additionalProperties` beside `properties`, defaults
 * on the root's `metadata`/`apiVersion`/`kind`, `x-kubernetes-preserve-unknown-fields: false`, the list and map type
 * extensions and their keys, and each `x-kubernetes-validations` rule: its static parts, then what its compilation
 * refuses that the test server can tell (an undeclared field, a result that is not a bool, `oldSelf` where it cannot
 * be correlated). A rule whose CEL the test server cannot parse, or that kube-apiserver would refuse for another
 * compile error or its cost, is not judged at CRD creation (docs/testing.md, "Limits").
 * The schema problems of a node and all below it come first; the CEL problems follow, and are only looked for when a
 * subtree has no schema problem, as kube-apiserver does.
 */
import { CelSyntaxError } from '../cel/lexer.js';
import { readsVariable } from '../cel/expr-tree.js';
import { CelUnsupported, parseCel, type Expr } from '../cel/parser.js';
import { compileErrorText, notBool, schemaType, syntaxErrorText, typeOf, type CelIssue } from '../cel/type-check.js';
import { asSchema, itemsSchema, keyword, listMapKeys, propertiesOf, type SchemaNode } from '../resources/schema-keywords.js';
import { fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, type FieldProblem } from '../status-errors.js';
import { goRuleDump } from './go-schema-dump.js';
import { resolveFieldPath } from './schema-field-path.js';
import { str } from './crd-types.js';

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const RULE_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const RESOURCE_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** Unsupported JSON-schema keywords, with kube-apiserver's words for each. */
const UNSUPPORTED: ReadonlyArray<readonly [string, string]> = [
  ['id', 'id is not supported'],
  ['additionalItems', 'additionalItems is not supported'],
  ['patternProperties', 'patternProperties is not supported'],
  ['definitions', 'definitions is not supported'],
  ['dependencies', 'dependencies is not supported'],
  ['$ref', '$ref is not supported'],
];

/** What the walk carries down: where defaults are forbidden, whether inside a resource's metadata, and so on. */
interface Context {
  readonly root: boolean;
  /** Why a default is refused here, or undefined where defaults are allowed. */
  readonly noDefaults: string | undefined;
  readonly insideMeta: boolean;
  /** The highest node below which old values cannot be correlated (`oldSelf` is refused there). */
  readonly uncorrelatable: string | undefined;
  /** Whether the CEL rules of this node are looked at (the schema is structural, and not under a junctor). */
  readonly cel: boolean;
}

export interface KeywordProblems {
  readonly schema: FieldProblem[];
  readonly cel: FieldProblem[];
}

/** The keyword problems of a version's root schema at `path`; `cel` is whether its schema is structural. */
export function keywordProblems(schema: SchemaNode, path: string, cel: boolean): KeywordProblems {
  return walk(schema, path, { root: true, noDefaults: undefined, insideMeta: false, uncorrelatable: undefined, cel });
}

function text(node: SchemaNode, name: string): string | undefined {
  const value = keyword(node, name);
  return typeof value === 'string' ? value : undefined;
}

function walk(node: SchemaNode, path: string, context: Context): KeywordProblems {
  const out: KeywordProblems = { schema: standard(node, path, context), cel: [] };
  const add = (more: KeywordProblems): void => {
    out.schema.push(...more.schema);
    out.cel.push(...more.cel);
  };
  const child = { ...context, root: false };
  const junctorChild = { ...child, cel: false };
  if (keyword(node, 'uniqueItems') === true) out.schema.push(fieldForbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const properties = propertiesOf(node) ?? {};
  const additional = node['additionalProperties'];
  if (additional !== undefined && additional !== null) {
    if (Object.keys(properties).length > 0 && (additional === false || asSchema(additional) !== undefined)) {
      out.schema.push(fieldForbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    }
    const schema = asSchema(additional);
    const noDefaults = context.insideMeta ? 'inside additionalProperties applying to object metadata' : context.noDefaults;
    if (schema !== undefined) add(walk(schema, `${path}.additionalProperties`, { ...child, noDefaults }));
  }
  const embedded = keyword(node, 'x-kubernetes-embedded-resource') === true;
  for (const [name, value] of Object.entries(properties)) {
    // Every map is correlatable by its keys, atomic or not (probed): only lists other than map lists are not.
    let next: Context = child;
    if ((context.root || embedded) && RESOURCE_FIELDS.has(name)) next = { ...next, insideMeta: true, noDefaults: context.root ? `in top-level ${name}` : next.noDefaults };
    add(walk(asSchema(value) ?? {}, `${path}.properties[${name}]`, next));
  }
  const not = asSchema(node['not']);
  if (not !== undefined) add(walk(not, `${path}.not`, junctorChild));
  for (const junctor of ['allOf', 'oneOf', 'anyOf']) {
    const list = node[junctor];
    if (Array.isArray(list)) list.forEach((item, i) => add(walk(asSchema(item) ?? {}, `${path}.${junctor}[${i}]`, junctorChild)));
  }
  for (const [name, value] of Object.entries(asSchema(node['definitions']) ?? {})) add(walk(asSchema(value) ?? {}, `${path}.definitions[${name}]`, junctorChild));
  const items = node['items'];
  const itemsContext = text(node, 'x-kubernetes-list-type') === 'map' ? child : { ...child, uncorrelatable: context.uncorrelatable ?? path };
  if (Array.isArray(items)) items.forEach((item, i) => add(walk(asSchema(item) ?? {}, `${path}.items[${i}]`, itemsContext)));
  else if (asSchema(items) !== undefined) add(walk(asSchema(items) ?? {}, `${path}.items`, itemsContext));
  for (const [name, value] of Object.entries(asSchema(node['dependencies']) ?? {})) {
    const schema = asSchema(value);
    if (schema !== undefined) add(walk(schema, `${path}.dependencies[${name}]`, junctorChild));
  }
  out.schema.push(...extensionProblems(node, path));
  out.schema.push(...ruleProblems(node, path));
  if (out.schema.length === 0 && context.cel) out.cel.push(...celProblems(node, path, context));
  return out;
}

/** The checks of every node: its type, a forbidden default, unsupported keywords. */
function standard(node: SchemaNode, path: string, context: Context): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const type = text(node, 'type') ?? '';
  if (type !== '' && !OPENAPI_TYPES.includes(type)) problems.push(fieldNotSupported(`${path}.type`, type, OPENAPI_TYPES));
  const value = keyword(node, 'default');
  if (value !== undefined && value !== null && context.noDefaults !== undefined) problems.push(fieldForbidden(`${path}.default`, `must not be set ${context.noDefaults}`));
  for (const [name, detail] of UNSUPPORTED) {
    const value = keyword(node, name);
    if (value !== undefined && value !== null && value !== '' && !(typeof value === 'object' && Object.keys(value).length === 0)) problems.push(fieldForbidden(`${path}.${name}`, detail));
  }
  if (type === 'null') problems.push(fieldForbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(node['items']) && node['items'].length > 0) problems.push(fieldForbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (context.insideMeta && keyword(node, 'x-kubernetes-embedded-resource') === true) problems.push(fieldForbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  return problems;
}

/** `x-kubernetes-preserve-unknown-fields: false` and the map and list type extensions. */
function extensionProblems(node: SchemaNode, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const type = text(node, 'type') ?? '';
  if (keyword(node, 'x-kubernetes-preserve-unknown-fields') === false) problems.push(fieldInvalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  const mapType = text(node, 'x-kubernetes-map-type');
  if (mapType !== undefined && type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    problems.push(type === '' ? fieldRequired(`${path}.type`, detail) : fieldInvalid(`${path}.type`, type, detail));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') problems.push(fieldNotSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  const listType = text(node, 'x-kubernetes-list-type');
  const items = itemsSchema(node);
  if (listType !== undefined && type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    problems.push(type === '' ? fieldRequired(`${path}.type`, detail) : fieldInvalid(`${path}.type`, type, detail));
  } else if (listType === 'set' && items !== undefined) {
    const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemListType = text(items, 'x-kubernetes-list-type');
    if (items['type'] === 'array' && itemListType !== undefined && itemListType !== 'atomic') problems.push(fieldInvalid(`${path}.items.x-kubernetes-list-type`, itemListType, detail));
    // kube-apiserver prints the items' list type here (unset: null), not their map type.
    if (items['type'] === 'object' && text(items, 'x-kubernetes-map-type') !== 'atomic') problems.push(fieldInvalid(`${path}.items.x-kubernetes-map-type`, itemListType ?? null, detail));
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') problems.push(fieldNotSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  const keys = listMapKeys(node);
  if (keys.length > 0 && listType === undefined) problems.push(fieldRequired(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  else if (keys.length > 0 && listType !== 'map') problems.push(fieldInvalid(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  if (listType === 'map') problems.push(...mapListProblems(node, items, keys, path));
  if (items !== undefined && (listType === 'set' || listType === 'map')) problems.push(...mapSetItemProblems(items, keys, listType, path));
  return problems;
}

function mapListProblems(node: SchemaNode, items: SchemaNode | undefined, keys: readonly string[], path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (keys.length === 0) problems.push(fieldRequired(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  if (node['items'] === undefined) problems.push(fieldRequired(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
  if (items === undefined) return problems;
  const itemType = text(items, 'type') ?? '';
  if (itemType !== 'object') {
    problems.push(fieldInvalid(`${path}.items.type`, itemType, "must be object if parent array's x-kubernetes-list-type is map"));
    return problems;
  }
  const properties = propertiesOf(items) ?? {};
  const seen = new Set<string>();
  for (const key of keys) {
    const property = asSchema(properties[key]);
    if (property === undefined) {
      problems.push(fieldInvalid(`${path}.x-kubernetes-list-map-keys`, keys, 'entries must all be names of item properties'));
    } else if (property['type'] === 'array' || property['type'] === 'object') {
      problems.push(fieldInvalid(`${path}.items.properties[${key}].type`, itemType, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    }
    if (seen.has(key)) problems.push(fieldInvalid(`${path}.x-kubernetes-list-map-keys`, keys, 'must not contain duplicate entries'));
    seen.add(key);
  }
  return problems;
}

/** Items of a set or map list are never null; a map list's keys are required or defaulted, and never null. */
function mapSetItemProblems(items: SchemaNode, keys: readonly string[], listType: string, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (items['nullable'] === true) problems.push(fieldForbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return problems;
  const required = Array.isArray(items['required']) ? items['required'] : [];
  const properties = propertiesOf(items) ?? {};
  for (const key of keys) {
    const property = asSchema(properties[key]);
    if (property === undefined) continue;
    const defaulted = keyword(property, 'default') !== undefined && keyword(property, 'default') !== null;
    if (!required.includes(key) && !defaulted) {
      problems.push(fieldRequired(`${path}.items.properties[${key}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (property['nullable'] === true) problems.push(fieldForbidden(`${path}.items.properties[${key}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return problems;
}

function rules(node: SchemaNode): Array<Readonly<Record<string, unknown>>> {
  const list = keyword(node, 'x-kubernetes-validations');
  return Array.isArray(list) ? list.map((rule) => asSchema(rule) ?? {}) : [];
}

const hasLineBreak = (value: string): boolean => /[\n\r]/.test(value);

/** The static checks of each `x-kubernetes-validations` rule: its text, message, reason and fieldPath. */
function ruleProblems(node: SchemaNode, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  rules(node).forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const text = str(rule['rule']).trim();
    const message = str(rule['message']);
    if (text === '') problems.push(fieldRequired(`${at}.rule`, 'rule is not specified'));
    else if (message !== '' && message.trim() === '') problems.push(fieldInvalid(`${at}.message`, message, 'must be non-empty if specified'));
    else if (hasLineBreak(message.trim())) problems.push(fieldInvalid(`${at}.message`, message, 'must not contain line breaks'));
    else if (hasLineBreak(text) && message.trim() === '') problems.push(fieldRequired(`${at}.message`, 'message must be specified if rule contains line breaks'));
    const messageExpression = str(rule['messageExpression']);
    if (messageExpression !== '' && messageExpression.trim() === '') problems.push(fieldRequired(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'));
    const reason = rule['reason'];
    if (typeof reason === 'string' && !RULE_REASONS.includes(reason)) problems.push(fieldNotSupported(`${at}.reason`, reason, RULE_REASONS));
    const fieldPath = str(rule['fieldPath']);
    if (fieldPath !== '' && fieldPath.trim() === '') problems.push(fieldInvalid(`${at}.fieldPath`, fieldPath, 'must be non-empty if specified'));
    if (hasLineBreak(fieldPath)) problems.push(fieldInvalid(`${at}.fieldPath`, fieldPath, 'must not contain line breaks'));
    if (fieldPath !== '' && !resolveFieldPath(node, fieldPath).ok) problems.push(fieldInvalid(`${at}.fieldPath`, fieldPath, 'must be a valid path'));
  });
  return problems;
}

/**
 * What kube-apiserver's compilation of each rule refuses, as far as the test server can tell without doubt
 * (cel/type-check.ts): a field the schema does not declare, a result that is not a bool. Then, for a rule that
 * compiles, `oldSelf` where old values cannot be correlated (under the items of a list other than a map list) is
 * refused, and so is `optionalOldSelf` on a rule that does not read `oldSelf`. A syntax error is refused; a rule
 * using a part of CEL the parser here does not read is skipped.
 */
function celProblems(node: SchemaNode, path: string, context: Context): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const selfType = schemaType(node, context.root || keyword(node, 'x-kubernetes-embedded-resource') === true);
  rules(node).forEach((rule, i) => {
    const text = str(rule['rule']);
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const compiled = (detail: string): FieldProblem => ({ field: `${at}.rule`, reason: 'FieldValueInvalid', message: `Invalid value: ${goRuleDump(rule)}: ${detail}` });
    let expr: Expr;
    try {
      expr = parseCel(text);
    } catch (error) {
      // A syntax error refuses the CRD (in cel-go's words where the parser knows them); a part of CEL the parser here
      // does not read is not judged.
      if (error instanceof CelSyntaxError) problems.push(compiled(syntaxErrorText(text, error)));
      else if (!(error instanceof CelUnsupported)) throw error;
      return;
    }
    const issues: CelIssue[] = [];
    const vars = new Map([
      ['self', selfType],
      ['oldSelf', rule['optionalOldSelf'] === true ? { t: 'dyn' as const } : selfType],
    ]);
    const result = typeOf(expr, vars, issues);
    if (issues.length > 0) {
      problems.push(compiled(compileErrorText(text, issues)));
      return;
    }
    if (notBool(result)) {
      problems.push(compiled('cel expression must evaluate to a bool'));
      return;
    }
    const usesOldSelf = readsVariable(expr, 'oldSelf');
    if (usesOldSelf && context.uncorrelatable !== undefined) {
      problems.push(fieldInvalid(`${at}.rule`, text, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${context.uncorrelatable}`));
    } else if (!usesOldSelf && typeof rule['optionalOldSelf'] === 'boolean') {
      problems.push(fieldInvalid(`${at}.optionalOldSelf`, rule['optionalOldSelf'], 'may not be set if oldSelf is not used in rule'));
    }
  });
  return problems;
}
