/**
 * The uniqueness kube-apiserver asks of `x-kubernetes-list-type: set` and `map` lists in a custom resource
 * (apiextensions-apiserver's `ValidateListSetsAndMaps`): a value twice in a set, or two items of a map list with
 * the same key values, is `<path>[i]: Duplicate value: <value>` at the second occurrence (once per value); an item
 * of a map list that is not an object is `Invalid value: ...: must be an object for an array of list-type map`.
 */
import type { FieldProblem } from '../status-errors.js';
import { goBadValue, goJson } from '../go/go-values.js';
import { asSchema, itemsSchema, listMapKeys, listType, propertiesOf, type SchemaNode } from './schema-keywords.js';

/** The list-type problems of `object` (a whole custom resource) under its root schema. */
export function listTypeProblems(schema: SchemaNode, object: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  walkObject(schema, object, '', problems);
  return problems;
}

function walkObject(schema: SchemaNode, object: Record<string, unknown>, path: string, out: FieldProblem[]): void {
  const additional = asSchema(schema['additionalProperties']);
  if (additional !== undefined) for (const key of Object.keys(object)) walkValue(additional, object[key], `${path}[${key}]`, out);
  const properties = propertiesOf(schema);
  if (properties === undefined) return;
  for (const key of Object.keys(object)) {
    if (!Object.hasOwn(properties, key)) continue;
    const property = asSchema(properties[key]);
    if (property !== undefined) walkValue(property, object[key], path === '' ? key : `${path}.${key}`, out);
  }
}

function walkValue(schema: SchemaNode, value: unknown, path: string, out: FieldProblem[]): void {
  if (Array.isArray(value)) walkList(schema, value, path, out);
  else if (typeof value === 'object' && value !== null) walkObject(schema, value as Record<string, unknown>, path, out);
}

function walkList(schema: SchemaNode, items: readonly unknown[], path: string, out: FieldProblem[]): void {
  const type = listType(schema);
  if (type === 'set') {
    for (const index of secondOccurrences(items)) out.push(duplicate(`${path}[${index}]`, items[index]));
  } else if (type === 'map') {
    out.push(...mapListProblems(schema, items, path));
  }
  const itemSchema = itemsSchema(schema);
  if (itemSchema !== undefined) items.forEach((item, index) => walkValue(itemSchema, item, `${path}[${index}]`, out));
}

function mapListProblems(schema: SchemaNode, items: readonly unknown[], path: string): FieldProblem[] {
  for (const [index, item] of items.entries()) {
    if (item !== null && (typeof item !== 'object' || Array.isArray(item))) {
      return [{ field: `${path}[${index}]`, reason: 'FieldValueInvalid', message: `Invalid value: ${goBadValue(item)}: must be an object for an array of list-type map` }];
    }
  }
  const names = listMapKeys(schema);
  const keys = items.map((item) => {
    const key: Record<string, unknown> = {};
    if (item === null) return key;
    for (const name of names) if (Object.hasOwn(item as object, name)) key[name] = (item as Record<string, unknown>)[name];
    return key;
  });
  return secondOccurrences(keys).map((index) => duplicate(`${path}[${index}]`, keys[index]));
}

/** The index of each value's second occurrence (values compared as Go's JSON encoding writes them). */
function secondOccurrences(values: readonly unknown[]): number[] {
  if (values.length <= 1) return [];
  const times = new Map<string, number>();
  const indices: number[] = [];
  values.forEach((value, index) => {
    const key = goJson(value);
    const seen = times.get(key) ?? 0;
    if (seen === 1) indices.push(index);
    times.set(key, seen + 1);
  });
  return indices;
}

function duplicate(field: string, value: unknown): FieldProblem {
  return { field, reason: 'FieldValueDuplicate', message: `Duplicate value: ${goBadValue(value)}` };
}
