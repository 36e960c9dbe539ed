/**
 * Reading a custom resource's structural schema: the keywords by their JSON names, or by the names client-node's
 * models give them (`_default`, `_enum`, `x_kubernetes_int_or_string`), since `applyCrd` may be handed a CRD
 * straight from client-node's `loadYaml`.
 */

/** A schema node: an object of keywords. */
export type SchemaNode = Readonly<Record<string, unknown>>;

const ALIASES: Readonly<Record<string, string>> = {
  default: '_default',
  enum: '_enum',
  'x-kubernetes-int-or-string': 'x_kubernetes_int_or_string',
  'x-kubernetes-list-type': 'x_kubernetes_list_type',
  'x-kubernetes-list-map-keys': 'x_kubernetes_list_map_keys',
  'x-kubernetes-preserve-unknown-fields': 'x_kubernetes_preserve_unknown_fields',
  'x-kubernetes-embedded-resource': 'x_kubernetes_embedded_resource',
  'x-kubernetes-map-type': 'x_kubernetes_map_type',
  'x-kubernetes-validations': 'x_kubernetes_validations',
  $ref: 'ref',
  $schema: 'schema',
};

const CANONICAL: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(ALIASES).map(([name, alias]) => [alias, name]));

/** A keyword's JSON name, for a key that may be client-node's (`_default` → `default`). */
export function canonicalKeyword(key: string): string {
  return CANONICAL[key] ?? key;
}

/** The keywords whose value holds schemas: a map of them, a list of them, or one (a boolean or a list of names kept). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'items']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'additionalItems', 'not']);

/**
 * `schema` with every keyword under its JSON name (client-node's `_default` as `default`...), as client-node would
 * send it: what a cluster stores, and what Go's encoding of a CRD keeps (it drops keys it does not know).
 */
export function withJsonKeywords(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const name = canonicalKeyword(key);
    if (SCHEMA_MAPS.has(name) && asSchema(value) !== undefined) {
      out[name] = Object.fromEntries(Object.entries(value as SchemaNode).map(([field, node]) => [field, withJsonKeywords(node)]));
    } else if (SCHEMA_LISTS.has(name) && Array.isArray(value)) {
      out[name] = value.map(withJsonKeywords);
    } else {
      out[name] = SCHEMA_VALUES.has(name) ? withJsonKeywords(value) : value;
    }
  }
  return out;
}

/** Whether a keyword's value is absent once kube-apiserver decodes it (unset, null, false or ""). */
export function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === '';
}

/** A schema node, or undefined for anything else. */
export function asSchema(value: unknown): SchemaNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SchemaNode) : undefined;
}

/** The keyword's value under its JSON name or client-node's name (undefined when neither is set). */
export function keyword(node: SchemaNode, name: string): unknown {
  if (Object.hasOwn(node, name)) return node[name];
  const alias = ALIASES[name];
  return alias !== undefined && Object.hasOwn(node, alias) ? node[alias] : undefined;
}

/** The schema of the property `key` (a declared property, else `additionalProperties` when it is a schema). */
export function fieldSchema(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (node === undefined) return undefined;
  const properties = asSchema(node['properties']);
  if (properties !== undefined && Object.hasOwn(properties, key)) return asSchema(properties[key]) ?? {};
  return asSchema(node['additionalProperties']);
}

/** The declared properties (own keys only). */
export function propertiesOf(node: SchemaNode): SchemaNode | undefined {
  return asSchema(node['properties']);
}

/** The schema of an array's items. */
export function itemsSchema(node: SchemaNode | undefined): SchemaNode | undefined {
  return node === undefined ? undefined : asSchema(node['items']);
}

/** A number keyword (`minimum`, `maxLength`...), or undefined. */
export function numberKeyword(node: SchemaNode, name: string): number | undefined {
  const value = node[name];
  return typeof value === 'number' ? value : undefined;
}

/** `x-kubernetes-list-type`, or '' (atomic). */
export function listType(node: SchemaNode | undefined): string {
  if (node === undefined) return '';
  const value = keyword(node, 'x-kubernetes-list-type');
  return typeof value === 'string' ? value : '';
}

/** `x-kubernetes-list-map-keys`. */
export function listMapKeys(node: SchemaNode): readonly string[] {
  const value = keyword(node, 'x-kubernetes-list-map-keys');
  return Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : [];
}
