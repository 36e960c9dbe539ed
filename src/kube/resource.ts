/**
 * Naming of Kubernetes resources: which URL serves a kind, and how an object is keyed.
 */

/** Everything needed to address a resource over HTTP. */
export interface ResourceRef {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

/** A Kubernetes object as plain JSON. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

/** `group/version`, or `version` for the core group. */
export function apiVersionOf(ref: Pick<ResourceRef, 'group' | 'version'>): string {
  return ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
}

/** The collection path: `/api/v1/namespaces/ns/configmaps`, `/apis/g/v/plural` (all namespaces or cluster scope). */
export function collectionPath(ref: ResourceRef, namespace?: string): string {
  const base = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
  const scope = ref.namespaced && namespace !== undefined && namespace !== '' ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${scope}/${ref.plural}`;
}

/** The object path, with an optional subresource (`status`). */
export function objectPath(ref: ResourceRef, name: string, namespace?: string, subresource?: string): string {
  const path = `${collectionPath(ref, namespace)}/${encodeURIComponent(name)}`;
  return subresource === undefined ? path : `${path}/${subresource}`;
}

/** The queue key of an object: `namespace/name`, or `name` for cluster-scoped objects. */
export function keyOf(object: KubeObject): string {
  const name = object.metadata?.name ?? '';
  const namespace = object.metadata?.namespace;
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

/** Splits a queue key back into namespace and name. */
export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: undefined, name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
