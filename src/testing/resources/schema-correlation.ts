/**
 * How an update's new value finds its old one, for ratcheting (the schema walk) and for `oldSelf` and CEL's
 * ratcheting (the CEL rule walk), as Kubernetes correlates them: an object's field by its key, an item of an
 * `x-kubernetes-list-type: map` list by its key fields wherever it moved; items of other lists have no old value of
 * their own.
 */
import { jsonEqual } from '../patch/json-value.js';
import { listMapKeys, listType, type SchemaNode } from './schema-keywords.js';

/** A value's correlated old value, when an update has one: `undefined` when there is none. */
export type Old = { readonly value: unknown } | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The old value of the field `key` of an object whose old value is `old`. */
export function oldField(old: Old, key: string): Old {
  return old !== undefined && isObject(old.value) && Object.hasOwn(old.value, key) ? { value: old.value[key] } : undefined;
}

/** The old value of `item`, an item of the list `node` describes whose old value is `old`. */
export function oldItem(node: SchemaNode, old: Old, item: unknown): Old {
  if (old === undefined || !Array.isArray(old.value) || listType(node) !== 'map' || !isObject(item)) return undefined;
  const keys = listMapKeys(node);
  if (keys.length === 0) return undefined;
  const match = (old.value as unknown[]).find((candidate) => isObject(candidate) && keys.every((key) => jsonEqual(candidate[key], item[key])));
  return match === undefined ? undefined : { value: match };
}
