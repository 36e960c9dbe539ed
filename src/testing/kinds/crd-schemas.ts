/**
 * The checks kube-apiserver makes of a v1 CRD's schemas (apiextensions-apiserver's CRD validation, read in 1.37.2 and
 * probed on it), in its order: every version has a schema; then, per schema, the root's limits when the status
 * subresource is on, a nullable root, whether it is structural (crd-schema-structure.ts), and only when it is, its
 * defaults (crd-defaults.ts); then its keywords node by node (crd-schema-keywords.ts).
 * A schema every version shares is checked once, at `spec.validation.openAPIV3Schema`: kube-apiserver's internal form
 * holds it there (as it holds other shared parts: crd-version-rules.ts); otherwise each at
 * `spec.versions[i].schema.openAPIV3Schema`.
 */
import { goQuote } from '../go/go-values.js';
import { asSchema, canonicalKeyword, isUnset, itemsSchema, keyword, propertiesOf, type SchemaNode } from '../resources/schema-keywords.js';
import { fieldForbidden, fieldInvalid, fieldRequired, type FieldProblem } from '../status-errors.js';
import { defaultProblems } from './crd-defaults.js';
import { goSchemaDump } from './go-schema-dump.js';
import { keywordProblems } from './crd-schema-keywords.js';
import { structureProblems } from './crd-schema-structure.js';
import { sharedPart } from './crd-version-rules.js';

type Version = Readonly<Record<string, unknown>>;

/** A version's `schema.openAPIV3Schema`. */
export const schemaOf = (version: Version): SchemaNode | undefined => asSchema(asSchema(version['schema'])?.['openAPIV3Schema']);

const statusOn = (version: Version): boolean => asSchema(asSchema(version['subresources'])?.['status']) !== undefined;

/** The versions' schemas are all present: kube-apiserver requires one of every version of a v1 CRD. */
export function missingSchemaProblems(versions: readonly Version[]): FieldProblem[] {
  return versions.flatMap((version, i) => (schemaOf(version) === undefined ? [fieldRequired(`spec.versions[${i}].schema.openAPIV3Schema`)] : []));
}

/** The problems of one version's schema (`versionIndex`), or of the shared one (undefined), in kube-apiserver's order. */
export function schemaProblemsOf(versions: readonly Version[], versionIndex: number | undefined): FieldProblem[] {
  const version = versions[versionIndex ?? 0];
  const schema = version === undefined ? undefined : schemaOf(version);
  if (schema === undefined) return [];
  const path = versionIndex === undefined ? 'spec.validation.openAPIV3Schema' : `spec.versions[${versionIndex}].schema.openAPIV3Schema`;
  // The shared schema is under the status subresource when any version has it; a version's, when that one has it.
  const status = versionIndex === undefined ? versions.some(statusOn) : version !== undefined && statusOn(version);
  const problems: FieldProblem[] = [];
  if (status) problems.push(...statusRootProblems(schema, path));
  if (keyword(schema, 'nullable') === true) problems.push(fieldForbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  const unconvertible = unconvertibleReason(schema);
  let structural = false;
  if (unconvertible === undefined) {
    const structure = structureProblems(schema, path);
    const defaults = structure.length === 0 ? defaultProblems(schema, path) : [];
    problems.push(...structure, ...defaults);
    structural = structure.length === 0 && defaults.length === 0;
  }
  const keywords = keywordProblems(schema, path, structural);
  problems.push(...keywords.schema, ...keywords.cel);
  // kube-apiserver only shows why it could not read the schema as structural when nothing else is wrong.
  if (problems.length === 0 && unconvertible !== undefined) problems.push(fieldInvalid(path, '', unconvertible));
  return problems;
}

/** The string formats kube-apiserver 1.37 knows (compared without dashes: `date-time` is `datetime`). */
const STRING_FORMATS = new Set([
  'bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5', 'isbn', 'isbn10', 'isbn13',
  'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password', 'date', 'duration', 'datetime', 'k8sshortname', 'k8slongname',
]);

/** Whether kube-apiserver knows `format` for a value of `type` (integers: int32, int64; numbers: float, double). */
function knownFormat(type: unknown, format: string): boolean {
  if (type === undefined || type === '' || type === 'string') return STRING_FORMATS.has(format.replaceAll('-', ''));
  if (type === 'integer') return format === 'int32' || format === 'int64';
  if (type === 'number') return format === 'float' || format === 'double';
  return false;
}

/** Every node of a schema, in the order kube-apiserver walks it. */
function nodesOf(node: SchemaNode): SchemaNode[] {
  return [node, ...childSchemas(node).flatMap(nodesOf)];
}

/** The CRD's schemas as kube-apiserver holds them: one when every version shares it, else each version's. */
function schemasOf(versions: readonly Version[]): SchemaNode[] {
  return (sharedPart(versions, 'schema') ? versions.slice(0, 1) : versions).map(schemaOf).filter((schema): schema is SchemaNode => schema !== undefined);
}

function formatsUnknown(versions: readonly Version[]): string[] {
  return schemasOf(versions)
    .flatMap((schema) => nodesOf(schema))
    .flatMap((node) => {
      const format = keyword(node, 'format');
      return typeof format === 'string' && format !== '' && !knownFormat(keyword(node, 'type'), format) ? [format] : [];
    });
}

/** A `set` list whose items are objects or arrays: server-side apply and CEL rules cannot tell its items apart. */
function setWarnings(versions: readonly Version[]): string[] {
  const warnings = new Set<string>();
  for (const node of schemasOf(versions).flatMap((schema) => nodesOf(schema))) {
    const items = itemsSchema(node);
    const itemType = items === undefined ? undefined : keyword(items, 'type');
    if (keyword(node, 'x-kubernetes-list-type') === 'set' && (itemType === 'object' || itemType === 'array')) {
      warnings.add(`x-kubernetes-list-type: set for items of type "${itemType}" is not supported by server-side apply or CEL validation rules`);
    }
  }
  return [...warnings].sort();
}

/**
 * kube-apiserver's warnings on a CRD write: each `format` it does not know (`unrecognized format "x"`), then each
 * `set` of objects or arrays. On update (`previous`: the stored CRD's versions) only what is new: a format no schema
 * of the stored CRD had, a set warning it did not earn.
 */
export function schemaWarnings(versions: readonly Version[], previous?: readonly Version[]): string[] {
  const formerFormats = new Set(previous === undefined ? [] : formatsUnknown(previous));
  const formerSets = new Set(previous === undefined ? [] : setWarnings(previous));
  return [
    ...formatsUnknown(versions).filter((format) => !formerFormats.has(format)).map((format) => `unrecognized format ${goQuote(format)}`),
    ...setWarnings(versions).filter((warning) => !formerSets.has(warning)),
  ];
}

/**
 * The keywords a root schema may have when the status subresource is on (status is validated as
 * `properties.status` alone, so nothing at the root may constrain it); the first other one is refused.
 */
const STATUS_ROOT_KEYWORDS = new Set([
  'description', 'type', 'format', 'title', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems',
  'minItems', 'uniqueItems', 'multipleOf', 'required', 'items', 'properties', 'externalDocs', 'example', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-validations',
]);

/** The same keywords by the Go names kube-apiserver lists them with. */
const STATUS_ROOT_GO_NAMES =
  'Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations';

function statusRootProblems(schema: SchemaNode, path: string): FieldProblem[] {
  const type = keyword(schema, 'type');
  if (typeof type === 'string' && type !== '' && type !== 'object') {
    return [fieldInvalid(`${path}.type`, type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
  }
  const other = Object.keys(schema).find((key) => !STATUS_ROOT_KEYWORDS.has(canonicalKeyword(key)) && !isUnset(schema[key]));
  if (other === undefined) return [];
  const message = `Invalid value: ${goSchemaDump(schema)}: only [${STATUS_ROOT_GO_NAMES}] fields are allowed at the root of the schema if the status subresource is enabled`;
  return [{ field: path, reason: 'FieldValueInvalid', message }];
}

/** Keywords kube-apiserver cannot turn into a structural schema, with its words for each (`$schema` is `schema` there). */
const UNCONVERTIBLE: ReadonlyArray<readonly [string, string]> = [
  ['id', 'id'],
  ['$schema', 'schema'],
  ['$ref', '$ref'],
  ['patternProperties', 'patternProperties'],
  ['dependencies', 'dependencies'],
  ['additionalItems', 'additionalItems'],
  ['definitions', 'definitions'],
];

/** Why kube-apiserver cannot read `node` as a structural schema at all, or undefined when it can. */
function unconvertibleReason(node: SchemaNode): string | undefined {
  if (Array.isArray(node['items'])) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  if (keyword(node, 'x-kubernetes-preserve-unknown-fields') === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  for (const [name, shown] of UNCONVERTIBLE) if (!isUnset(keyword(node, name))) return `OpenAPIV3Schema '${shown}' is not supported`;
  for (const child of childSchemas(node)) {
    const reason = unconvertibleReason(child);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/**
 * The schemas directly under `node`, in the order kube-apiserver's `SchemaHas` walks them: items (a list of them too),
 * the junctors, `not`, the properties, `additionalProperties`.
 */
function childSchemas(node: SchemaNode): SchemaNode[] {
  const items = node['items'];
  const children: unknown[] = Array.isArray(items) ? [...items] : [items];
  for (const junctor of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[junctor])) children.push(...(node[junctor] as unknown[]));
  children.push(node['not'], ...Object.values(propertiesOf(node) ?? {}), node['additionalProperties']);
  return children.map(asSchema).filter((child): child is SchemaNode => child !== undefined);
}

/** Keywords Go leaves out of the stored CRD when they hold their zero value (`omitempty`), and that value. */
const OMITTED_WHEN_EMPTY: ReadonlyArray<readonly [string, 'false' | 'empty string' | 'empty list' | 'empty map']> = [
  ['nullable', 'false'], ['exclusiveMaximum', 'false'], ['exclusiveMinimum', 'false'], ['uniqueItems', 'false'],
  ['x-kubernetes-embedded-resource', 'false'], ['x-kubernetes-int-or-string', 'false'],
  ['id', 'empty string'], ['$schema', 'empty string'], ['description', 'empty string'], ['type', 'empty string'], ['format', 'empty string'],
  ['title', 'empty string'], ['pattern', 'empty string'],
  ['required', 'empty list'], ['enum', 'empty list'], ['allOf', 'empty list'], ['anyOf', 'empty list'], ['oneOf', 'empty list'],
  ['x-kubernetes-list-map-keys', 'empty list'], ['x-kubernetes-validations', 'empty list'], ['properties', 'empty map'],
];

function emptyAs(value: unknown, empty: (typeof OMITTED_WHEN_EMPTY)[number][1]): boolean {
  switch (empty) {
    case 'false':
      return value === false;
    case 'empty string':
      return value === '';
    case 'empty list':
      return Array.isArray(value) && value.length === 0;
    default:
      return asSchema(value) !== undefined && Object.keys(value as object).length === 0;
  }
}

/**
 * Removes from the schemas of a CRD being written, in place, what kube-apiserver does not store: `default: null` (no
 * default) and keywords at their zero value (`nullable: false`, `properties: {}`). Only the request's own schema
 * objects are touched: a stored CRD holds none.
 */
export function dropUnsetKeywords(versions: readonly Version[]): void {
  for (const version of versions) {
    const schema = schemaOf(version);
    if (schema !== undefined) dropIn(schema);
  }
}

function dropIn(node: SchemaNode): void {
  const writable = node as Record<string, unknown>;
  if (Object.hasOwn(node, 'default') && node['default'] === null) delete writable['default'];
  for (const [name, empty] of OMITTED_WHEN_EMPTY) if (Object.hasOwn(node, name) && emptyAs(node[name], empty)) delete writable[name];
  for (const child of childSchemas(node)) dropIn(child);
}
