/**
 * What kube-apiserver's decoder does to a custom resource after pruning, before anything else sees it: a `null` at a
 * field whose schema is not `nullable` and has no `default` is dropped (apiextensions-apiserver's
 * `PruneNonNullableNullsWithoutDefaults`), then every `default` of the schema is filled in where its field is
 * missing, or `null` and not nullable (`structuraldefaulting.Default`): inside objects that are there, not by making
 * the objects that hold them, and again inside what a default brought.
 *
 * Both answer a new value only where something changed and share the rest, so a stored object is never changed
 * through a value that shares parts with it.
 */
import { cloneJson } from '../patch/json-value.js';
import { asSchema, fieldSchema, itemsSchema, keyword, propertiesOf, type SchemaNode } from './schema-keywords.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nullable(schema: SchemaNode): boolean {
  return schema['nullable'] === true;
}

/** A default worth filling in: declared and not null (Go's `Default.Object == nil` is no default). */
function defaultOf(schema: SchemaNode): unknown {
  const value = keyword(schema, 'default');
  return value === null ? undefined : value;
}

/** `value` without the nulls of non-nullable fields that have no default. */
export function withoutNonNullableNulls(value: unknown, schema: SchemaNode | undefined): unknown {
  // Below a field without a schema (an open part of it) there is nothing to drop.
  if (schema === undefined) return value;
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    return mapItems(value, (item) => withoutNonNullableNulls(item, items));
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const field = fieldSchema(schema, key);
    const current = value[key];
    if (current === null && field !== undefined && !nullable(field) && defaultOf(field) === undefined) {
      out ??= { ...value };
      delete out[key];
      continue;
    }
    const next = withoutNonNullableNulls(current, field);
    if (next !== current) {
      out ??= { ...value };
      out[key] = next;
    }
  }
  return out ?? value;
}

/** `value` with the schema's defaults filled in. */
export function withDefaults(value: unknown, schema: SchemaNode | undefined): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    if (items === undefined) return value;
    return mapItems(value, (item) => withDefaults(item === null && !nullable(items) && defaultOf(items) !== undefined ? cloneJson(defaultOf(items)) : item, items));
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  const properties = propertiesOf(schema);
  if (properties !== undefined) {
    for (const key of Object.keys(properties)) {
      const property = asSchema(properties[key]);
      const fallback = property === undefined ? undefined : defaultOf(property);
      if (property === undefined || fallback === undefined) continue;
      const missing = !Object.hasOwn(value, key) || (value[key] === null && !nullable(property));
      if (!missing) continue;
      out ??= { ...value };
      out[key] = cloneJson(fallback);
    }
  }
  const source = out ?? value;
  const additional = asSchema(schema['additionalProperties']);
  for (const key of Object.keys(source)) {
    const declared = properties !== undefined && Object.hasOwn(properties, key) ? (asSchema(properties[key]) ?? {}) : undefined;
    const field = declared ?? additional;
    if (field === undefined) continue;
    let current = source[key];
    if (declared === undefined && current === null && !nullable(field) && defaultOf(field) !== undefined) current = cloneJson(defaultOf(field));
    const next = withDefaults(current, field);
    if (next !== source[key]) {
      out ??= { ...value };
      out[key] = next;
    }
  }
  return out ?? value;
}

function mapItems(items: readonly unknown[], map: (item: unknown) => unknown): readonly unknown[] {
  let out: unknown[] | undefined;
  items.forEach((item, index) => {
    const next = map(item);
    if (next === item) return;
    out ??= [...items];
    out[index] = next;
  });
  return out ?? items;
}

/** A custom resource as the decoder leaves it: non-nullable nulls without defaults dropped, then defaults filled in. */
export function decodedObject<T>(object: T, schema: SchemaNode): T {
  return withDefaults(withoutNonNullableNulls(object, schema), schema) as T;
}
