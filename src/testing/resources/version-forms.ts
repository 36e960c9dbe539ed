/**
 * A custom resource at one of its versions, as kube-apiserver's converter for a CRD leaves it
 * (apiextensions-apiserver's schemaCoercingConverter): whatever converts it (the `None` strategy's new apiVersion, or
 * the CRD's conversion webhook), the result is pruned to the schema of the version it is now at. So a write in a
 * version whose schema declares a field the storage version's does not loses that field when it is stored, and a read
 * in a version that does not declare a stored field does not show it. A stored object is decoded with the storage
 * version's defaults.
 *
 * When the two versions' schemas are the same, the conversion is the new apiVersion alone (the fast path). A CRD
 * that converts through a webhook is converted by its callers (conversion/), which prune with {@link prunedTo}.
 */
import { decodedObject } from './schema-defaults.js';
import { asSchema } from './schema-keywords.js';
import { pruneUnknown, rootNode } from './known-fields.js';
import { apiVersionOf, viewOf, type ResourceType, type ResourceView } from './resource-type.js';
import type { KubeObject } from '../store/record.js';
import { isDeepStrictEqual } from 'node:util';

interface Compared {
  readonly a: unknown;
  readonly b: unknown;
  readonly differs: boolean;
}

const compared = new WeakMap<ResourceType, Map<string, Compared>>();

/** Whether the schemas of versions `a` and `b` of `type` differ (so a conversion between them prunes). */
export function schemasDiffer(type: ResourceType, a: string, b: string): boolean {
  if (type.builtin || a === b) return false;
  const schemaA = type.schemas?.[a];
  const schemaB = type.schemas?.[b];
  let byPair = compared.get(type);
  if (byPair === undefined) {
    byPair = new Map();
    compared.set(type, byPair);
  }
  const pair = a < b ? `${a} ${b}` : `${b} ${a}`;
  const known = byPair.get(pair);
  const [first, second] = a < b ? [schemaA, schemaB] : [schemaB, schemaA];
  if (known !== undefined && known.a === first && known.b === second) return known.differs;
  const differs = !isDeepStrictEqual(schemaA, schemaB);
  byPair.set(pair, { a: first, b: second, differs });
  return differs;
}

/** Whether `version`'s schema differs from the storage version's. */
export function differsFromStorage(type: ResourceType, version: string): boolean {
  return schemasDiffer(type, version, type.storageVersion);
}

/** `object` (owned by the caller) pruned in place to the schema of `version`, a version of `type`. */
export function prunedTo(type: ResourceType, version: string, object: KubeObject): KubeObject {
  const view = viewOf(type, version) ?? { type, version, apiVersion: apiVersionOf(type.group, version), statusSubresource: false, scale: undefined, fieldLabels: [] };
  pruneUnknown(object, rootNode(view));
  return object;
}

/** `object` converted by the `None` strategy to `version`: a copy with that apiVersion, pruned to its schema. */
export function convertedWithoutWebhook(type: ResourceType, object: KubeObject, version: string): KubeObject {
  const from = String(object['apiVersion']).slice(type.group.length + 1);
  const copy = structuredClone(object);
  copy['apiVersion'] = apiVersionOf(type.group, version);
  return schemasDiffer(type, from, version) ? prunedTo(type, version, copy) : copy;
}

/**
 * The stored `object` (at the storage version, whatever apiVersion it is labelled with, or, for a CRD converting
 * through a webhook, already converted to `view`'s version) as a write or read at `view` holds it under the `None`
 * strategy: at `view`'s apiVersion, pruned to its schema when that differs from the
 * storage version's. `object` itself when it is at `view`'s apiVersion, a shallow copy when only the apiVersion
 * changes: not to be modified.
 */
export function heldAtView(view: ResourceView, object: KubeObject): KubeObject {
  if (view.type.webhookConversion === true || !differsFromStorage(view.type, view.version)) return object['apiVersion'] === view.apiVersion ? object : { ...object, apiVersion: view.apiVersion };
  return prunedTo(view.type, view.version, { ...structuredClone(object), apiVersion: view.apiVersion });
}

/**
 * `object`, written at `version` and checked there, in the form it is stored in: at the storage version, pruned to
 * its schema and decoded with its defaults, as kube-apiserver stores it and reads it back. `object` itself when the
 * two versions' schemas are the same, or when the CRD converts through a webhook (the write's caller converts it).
 */
export function storedFormAt(type: ResourceType, version: string, object: KubeObject): KubeObject {
  if (type.webhookConversion === true || !differsFromStorage(type, version)) return object;
  // A copy: what the write did not reach may be shared with the stored object.
  return withStorageDefaults(type, prunedTo(type, type.storageVersion, { ...structuredClone(object), apiVersion: apiVersionOf(type.group, type.storageVersion) }));
}

/** `object`, converted to the storage version, as it is stored: decoded with the storage version's defaults. */
export function withStorageDefaults(type: ResourceType, object: KubeObject): KubeObject {
  const schema = asSchema(type.schemas?.[type.storageVersion]);
  return schema === undefined ? object : decodedObject(object, schema);
}
