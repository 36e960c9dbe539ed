/**
 * Whether a CRD version's schema is structural, as kube-apiserver requires of every v1 CRD (apiextensions-apiserver's
 * structural-schema rules, read in 1.37.2 and probed on it):
 * - every node that holds values says its `type` (unless it is int-or-string or preserves unknown fields); the root is
 *   an object, an array has `items`, the root has no `additionalProperties`;
 * - the root's `metadata` may only restrict `name` and `generateName`; an embedded resource is an object with
 *   properties or preserved fields, and its `kind`/`apiVersion` are strings;
 * - the logical junctors (`allOf`, `anyOf`, `oneOf`, `not`) only validate: no type, default, description, nullable,
 *   extension or metadata inside them, and every field they name is also declared outside them (at the root);
 * - a `pattern` is a regular expression Go can compile.
 * The problems are sorted as kube-apiserver sorts them (by their whole text).
 */
import { re2SyntaxError } from '../resources/re2-syntax.js';
import { asSchema, canonicalKeyword, isUnset, itemsSchema, keyword, propertiesOf, type SchemaNode } from '../resources/schema-keywords.js';
import { fieldForbidden, fieldInvalid, fieldRequired, type FieldProblem } from '../status-errors.js';

type Level = 'root' | 'item' | 'field';

const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;

const EMPTY_TYPE: Readonly<Record<Level, string>> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

function text(node: SchemaNode, name: string): string {
  const value = keyword(node, name);
  return typeof value === 'string' ? value : '';
}

const flag = (node: SchemaNode, name: string): boolean => keyword(node, name) === true;

function junctorItems(node: SchemaNode, name: (typeof JUNCTORS)[number]): SchemaNode[] {
  const list = node[name];
  return Array.isArray(list) ? list.map((item) => asSchema(item) ?? {}) : [];
}

/** The problems that make `schema` (a version's root, at `path`) not structural, sorted as kube-apiserver sorts them. */
export function structureProblems(schema: SchemaNode, path: string): FieldProblem[] {
  const problems = [...invariants(schema, 'root', path), ...completeness(schema, path)];
  const key = (problem: FieldProblem): string => `${problem.field}: ${problem.message}`;
  return problems.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function invariants(node: SchemaNode, level: Level, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const type = text(node, 'type');
  const items = itemsSchema(node);
  if (type === 'array' && items === undefined) problems.push(fieldRequired(`${path}.items`, 'must be specified'));
  if (items !== undefined) problems.push(...invariants(items, 'item', `${path}.items`));
  const properties = propertiesOf(node) ?? {};
  for (const [name, property] of Object.entries(properties)) problems.push(...invariants(asSchema(property) ?? {}, 'field', `${path}.properties[${name}]`));
  const additional = node['additionalProperties'];
  if (additional !== undefined) {
    if (level === 'root') problems.push(fieldForbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    const schema = asSchema(additional);
    if (schema !== undefined) problems.push(...invariants(schema, 'field', `${path}.additionalProperties`));
  }
  const intOrString = flag(node, 'x-kubernetes-int-or-string');
  const preserve = flag(node, 'x-kubernetes-preserve-unknown-fields');
  const embedded = flag(node, 'x-kubernetes-embedded-resource');
  if (intOrString && preserve) problems.push(fieldInvalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) problems.push(fieldInvalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  problems.push(...valueValidation(node, path, isIntOrStringAnyOf(node), isIntOrStringAllOf(node)));
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    problems.push(type === '' ? fieldRequired(`${path}.type`, detail) : fieldInvalid(`${path}.type`, type, detail));
  } else if (type === '' && !intOrString && !preserve) {
    problems.push(fieldRequired(`${path}.type`, EMPTY_TYPE[level]));
  }
  if (embedded && additional !== undefined) problems.push(fieldForbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (level === 'root' && type !== '' && type !== 'object') problems.push(fieldInvalid(`${path}.type`, type, 'must be object at the root'));
  const resource = level === 'root' || embedded;
  for (const name of ['kind', 'apiVersion']) {
    const property = asSchema(properties[name]);
    if (resource && property !== undefined && text(property, 'type') !== 'string') {
      problems.push(fieldInvalid(`${path}.properties[${name}].type`, text(property, 'type'), 'must be string'));
    }
  }
  const metadata = asSchema(properties['metadata']);
  if (metadata !== undefined) problems.push(...metadataInvariants(metadata, resource, level, `${path}.properties[metadata]`));
  if (embedded && !preserve && Object.keys(properties).length === 0) {
    problems.push(fieldRequired(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return problems;
}

/** The keywords the root's `metadata` may have once a `properties` of only `name`/`generateName` is set aside. */
const ROOT_METADATA_KEYWORDS = new Set(['type', 'default']);

function metadataInvariants(metadata: SchemaNode, resource: boolean, level: Level, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (resource && text(metadata, 'type') !== 'object') problems.push(fieldInvalid(`${path}.type`, text(metadata, 'type'), 'must be object'));
  if (level !== 'root') return problems;
  const names = Object.keys(propertiesOf(metadata) ?? {});
  const onlyNames = names.length > 0 && names.every((name) => name === 'name' || name === 'generateName');
  const other = Object.keys(metadata).filter((key) => !ROOT_METADATA_KEYWORDS.has(canonicalKeyword(key)) && !(key === 'properties' && onlyNames) && !isUnset(metadata[key]));
  if (other.length > 0) problems.push(fieldForbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  return problems;
}

/** `anyOf: [{type: integer}, {type: string}]`, exactly: kube-apiserver's int-or-string form. */
function isIntOrStringPair(list: unknown): boolean {
  if (!Array.isArray(list) || list.length !== 2) return false;
  const [a, b] = list.map((item) => asSchema(item));
  const only = (item: SchemaNode | undefined, type: string): boolean => item !== undefined && Object.keys(item).length === 1 && item['type'] === type;
  return only(a, 'integer') && only(b, 'string');
}

const isIntOrStringAnyOf = (node: SchemaNode): boolean => isIntOrStringPair(node['anyOf']);

function isIntOrStringAllOf(node: SchemaNode): boolean {
  const first = junctorItems(node, 'allOf')[0];
  return first !== undefined && isIntOrStringPair(first['anyOf']);
}

function valueValidation(node: SchemaNode, path: string, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!skipAnyOf) junctorItems(node, 'anyOf').forEach((item, i) => problems.push(...nested(item, `${path}.anyOf[${i}]`, false, false)));
  junctorItems(node, 'allOf').forEach((item, i) => problems.push(...nested(item, `${path}.allOf[${i}]`, skipFirstAllOfAnyOf && i === 0, false)));
  junctorItems(node, 'oneOf').forEach((item, i) => problems.push(...nested(item, `${path}.oneOf[${i}]`, false, false)));
  const not = asSchema(node['not']);
  if (not !== undefined) problems.push(...nested(not, `${path}.not`, false, false));
  const pattern = node['pattern'];
  if (typeof pattern === 'string' && pattern !== '') {
    const error = re2SyntaxError(pattern);
    if (error !== undefined) problems.push(fieldInvalid(`${path}.pattern`, pattern, `must be a valid regular expression, but isn't: ${error}`));
  }
  return problems;
}

/** The keywords a node under a junctor must not have, with the detail of each refusal. */
const NESTED_FORBIDDEN: ReadonlyArray<readonly [string, string]> = [
  ['type', 'must be empty to be structural'],
  ['additionalProperties', 'must be undefined to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['externalDocs', 'must be undefined to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

/** A node under a junctor (and its items and properties, still under it). */
function nested(node: SchemaNode, path: string, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean): FieldProblem[] {
  const problems = valueValidation(node, path, skipAnyOf, skipFirstAllOfAnyOf);
  const items = itemsSchema(node);
  if (items !== undefined) problems.push(...nested(items, `${path}.items`, false, false));
  const properties = propertiesOf(node) ?? {};
  for (const [name, property] of Object.entries(properties)) problems.push(...nested(asSchema(property) ?? {}, `${path}.properties[${name}]`, false, false));
  for (const [name, detail] of NESTED_FORBIDDEN) {
    const value = keyword(node, name);
    if (!isUnset(value) && !(Array.isArray(value) && value.length === 0)) problems.push(fieldForbidden(`${path}.${name}`, detail));
  }
  if (Object.hasOwn(properties, 'metadata')) problems.push(fieldForbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  return problems;
}

/**
 * Every field or items a junctor at the root names must be declared outside the junctors too ("because it is
 * defined in …"); kube-apiserver checks this from the root's junctors only.
 */
function completeness(root: SchemaNode, path: string): FieldProblem[] {
  return junctorCompleteness(root, root, path, path);
}

function junctorCompleteness(validation: SchemaNode, structure: SchemaNode | undefined, structurePath: string, validationPath: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const not = asSchema(validation['not']);
  if (not !== undefined) problems.push(...nestedCompleteness(not, structure, structurePath, `${validationPath}.not`));
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    junctorItems(validation, junctor).forEach((item, i) => problems.push(...nestedCompleteness(item, structure, structurePath, `${validationPath}.${junctor}[${i}]`)));
  }
  return problems;
}

function nestedCompleteness(validation: SchemaNode, structure: SchemaNode | undefined, structurePath: string, validationPath: string): FieldProblem[] {
  if (structure === undefined) return [fieldRequired(structurePath, `because it is defined in ${validationPath}`)];
  const problems = junctorCompleteness(validation, structure, structurePath, validationPath);
  const items = itemsSchema(validation);
  if (items !== undefined) problems.push(...nestedCompleteness(items, itemsSchema(structure), `${structurePath}.items`, `${validationPath}.items`));
  const declared = propertiesOf(structure) ?? {};
  for (const [name, property] of Object.entries(propertiesOf(validation) ?? {})) {
    const at = `${structurePath}.properties[${name}]`;
    if (!Object.hasOwn(declared, name)) problems.push(fieldRequired(at, `because it is defined in ${validationPath}.properties[${name}]`));
    else problems.push(...nestedCompleteness(asSchema(property) ?? {}, asSchema(declared[name]) ?? {}, at, `${validationPath}.properties[${name}]`));
  }
  return problems;
}
