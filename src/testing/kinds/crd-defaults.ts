/**
 * kube-apiserver refuses a CustomResourceDefinition whose schema has a `default` that a custom resource could not
 * hold (apiextensions-apiserver's `ValidateDefaults`, probed on 1.37.2): at every node with a default, the default
 * must be left as it is by pruning (`must not have unknown fields`), an embedded resource's must name its
 * `apiVersion` and `kind`, and it must pass the node's own schema and CEL rules, each reported under
 * `<schema path>.default` with the validators' messages. A default on the root's `metadata`, `apiVersion` or `kind`
 * is forbidden (crd-schema-keywords.ts), so not checked here. kube-apiserver checks defaults only in a structural
 * schema (crd-schemas.ts). `default: null` is no default (and is dropped from the stored CRD: crd-schemas.ts). Not checked: the
 * metadata an embedded resource's default carries.
 */
import { celOutcome } from '../cel/validation-rules.js';
import { extension, hasUnknown } from '../resources/known-fields.js';
import { goBadValue } from '../go/go-values.js';
import { asSchema, itemsSchema, keyword, propertiesOf, type SchemaNode } from '../resources/schema-keywords.js';
import { schemaProblems } from '../resources/schema-validation.js';
import type { FieldProblem } from '../status-errors.js';

/** The problems of every default under `schema` (a CRD version's root schema), whose own path is `path`. */
export function defaultProblems(schema: SchemaNode, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  walk(schema, path, true, problems);
  return problems;
}

/** The fields of a resource's root whose default kube-apiserver forbids (crd-schema-keywords.ts), so never checks. */
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
