/**
 * kube-apiserver refuses a CustomResourceDefinition whose schema has a `default` that a custom resource could not
 * hold (apiextensions-apiserver's `ValidateDefaults`, probed on 1.37.2): at every node with a default, the default
 * must be left as it is by pruning (`must not have unknown fields`), an embedded resource's must name its
 * `apiVersion` and `kind`, and it must pass the node's own schema and CEL rules, each reported under
 * `<schema path>.default` with the validators' messages. A default on the root's `metadata`, `apiVersion` or `kind`
 * is forbidden. `default: null` is no default (and is dropped from the stored CRD: crd-rules.ts). Not checked: the
 * metadata an embedded resource's default carries.
 */
import { jsonEqual } from '../patch/json-value.js';
import { celOutcome } from '../cel/validation-rules.js';
import { extension, hasUnknown } from '../resources/known-fields.js';
import { goBadValue } from '../resources/go-values.js';
import { asSchema, itemsSchema, keyword, propertiesOf, type SchemaNode } from '../resources/schema-keywords.js';
import { schemaProblems } from '../resources/schema-validation.js';
import type { FieldProblem } from '../status-errors.js';

/**
 * The problems of the defaults of a CRD's versions. kube-apiserver checks its internal form, where a schema that
 * every version shares sits once at `spec.validation` (as for `selectableFields`, crd-rules.ts); otherwise each
 * version's is at `spec.versions[i].schema`.
 */
export function versionDefaultProblems(versions: readonly Readonly<Record<string, unknown>>[]): FieldProblem[] {
  const schemaOf = (version: Readonly<Record<string, unknown>>): SchemaNode | undefined => asSchema(asSchema(version['schema'])?.['openAPIV3Schema']);
  const first = versions[0];
  if (first !== undefined && versions.every((v) => jsonEqual(v['schema'], first['schema']))) {
    const shared = schemaOf(first);
    return shared === undefined ? [] : defaultProblems(shared, 'spec.validation.openAPIV3Schema');
  }
  return versions.flatMap((version, i) => {
    const schema = schemaOf(version);
    return schema === undefined ? [] : defaultProblems(schema, `spec.versions[${i}].schema.openAPIV3Schema`);
  });
}

/** The problems of every default under `schema` (a CRD version's root schema), whose own path is `path`. */
export function defaultProblems(schema: SchemaNode, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const properties = propertiesOf(schema);
  for (const name of TYPE_AND_METADATA) {
    const property = properties === undefined ? undefined : asSchema(properties[name]);
    if (property !== undefined && defaultOf(property) !== undefined) {
      problems.push({ field: `${path}.properties[${name}].default`, reason: 'FieldValueForbidden', message: `Forbidden: must not be set in top-level ${name}` });
    }
  }
  walk(schema, path, true, problems);
  return problems;
}

/** The fields of a resource's root whose default kube-apiserver forbids. */
const TYPE_AND_METADATA = ['metadata', 'apiVersion', 'kind'] as const;

function defaultOf(node: SchemaNode): unknown {
  const value = keyword(node, 'default');
  return value === null ? undefined : value;
}

function walk(node: SchemaNode, path: string, root: boolean, out: FieldProblem[]): void {
  const value = defaultOf(node);
  if (value !== undefined) out.push(...problemsOf(node, value, `${path}.default`));
  const items = itemsSchema(node);
  if (items !== undefined) walk(items, `${path}.items`, false, out);
  const properties = propertiesOf(node);
  if (properties === undefined) return;
  for (const key of Object.keys(properties)) {
    const property = asSchema(properties[key]);
    if (property === undefined || (root && (TYPE_AND_METADATA as readonly string[]).includes(key))) continue;
    walk(property, `${path}.properties[${key}]`, false, out);
  }
}

/**
 * One default's problems, in kube-apiserver's order: pruning would change it; else an embedded resource without
 * `apiVersion` or `kind`; else the schema's checks (int-or-string untyped, as in the structural schema they run on);
 * else the node's CEL rules.
 */
function problemsOf(node: SchemaNode, value: unknown, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (hasUnknown(value, node)) problems.push({ field: at, reason: 'FieldValueInvalid', message: `Invalid value: ${goBadValue(value)}: must not have unknown fields` });
  if (extension(node, 'embedded-resource') && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const missing = ['apiVersion', 'kind'].filter((field) => typeof (value as Record<string, unknown>)[field] !== 'string' || (value as Record<string, unknown>)[field] === '');
    if (missing.length > 0) return [...problems, ...missing.map((field) => ({ field: `${at}.${field}`, reason: 'FieldValueRequired', message: 'Required value' }))];
  }
  const schemaFound = schemaProblems(node, value, undefined, at, false);
  if (schemaFound.length > 0) return [...problems, ...schemaFound];
  return [...problems, ...celOutcome(node, value, undefined, at).problems];
}

/**
 * Removes every `default: null` from the schemas of a CRD being written, in place, as kube-apiserver stores the CRD
 * (a null default is no default). Only the request's own schema objects are touched: a stored CRD holds none.
 */
export function dropNullDefaults(versions: readonly Readonly<Record<string, unknown>>[]): void {
  for (const version of versions) dropIn(asSchema(version['schema'])?.['openAPIV3Schema']);
}

function dropIn(value: unknown): void {
  const node = asSchema(value);
  if (node === undefined) return;
  if (Object.hasOwn(node, 'default') && node['default'] === null) delete (node as Record<string, unknown>)['default'];
  const properties = propertiesOf(node);
  if (properties !== undefined) for (const key of Object.keys(properties)) dropIn(properties[key]);
  dropIn(node['items']);
  dropIn(node['additionalProperties']);
  dropIn(node['not']);
  for (const combinator of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[combinator];
    if (Array.isArray(list)) for (const item of list) dropIn(item);
  }
}
