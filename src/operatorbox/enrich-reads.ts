/**
 * The reads Orkestra's enrich targets make beside the children (operatorbox/enrich-targets.ts): bounded list calls
 * in one namespace with a label or field selector, and gets by name. Each list reads one page of at most
 * {@link ENRICH_LIST_LIMIT} objects; a get of a missing object gives `undefined` (the data is left out, as in
 * Orkestra); any other failure throws, so the status write fails and the reconcile is retried with backoff.
 *
 * Why calls and no informers: an informer per target would keep every Event, ReplicaSet, Job, EndpointSlice or Node
 * of the watched namespaces in the operator's memory, and need list/watch on all of them, for a summary in a status
 * field; these calls run only for CRDs that declare the target, at status time (docs/orkestra-compatibility.md#enrich).
 */
import type { KubeClient } from '../kube/client.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';

/** At most this many objects are read by one list call (one page). */
export const ENRICH_LIST_LIMIT = 500;

export interface Selectors {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export interface EnrichReads {
  /** One page of objects in `namespace` matching the selectors. */
  list(ref: ResourceRef, namespace: string, selectors: Selectors, signal: AbortSignal): Promise<readonly KubeObject[]>;
  /** The object, or `undefined` when it does not exist. `namespace` is ignored for a cluster-scoped kind. */
  get(ref: ResourceRef, name: string, namespace: string, signal: AbortSignal): Promise<KubeObject | undefined>;
}

/** The reads through a client. */
export function clientReads(client: Pick<KubeClient, 'list' | 'get'>): EnrichReads {
  return {
    list: async (ref, namespace, selectors, signal) => (await client.list(ref, { namespace, ...selectors, limit: ENRICH_LIST_LIMIT, signal })).items,
    get: async (ref, name, namespace, signal) => client.get(ref, name, ref.namespaced ? namespace : undefined, signal),
  };
}

const core = (kind: string, plural: string, namespaced = true): ResourceRef => ({ group: '', version: 'v1', kind, plural, namespaced });

export const PODS = core('Pod', 'pods');
export const EVENTS = core('Event', 'events');
export const NODES = core('Node', 'nodes', false);
export const SECRETS = core('Secret', 'secrets');
export const PERSISTENT_VOLUMES = core('PersistentVolume', 'persistentvolumes', false);
export const PERSISTENT_VOLUME_CLAIMS = core('PersistentVolumeClaim', 'persistentvolumeclaims');
export const REPLICA_SETS: ResourceRef = { group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true };
export const JOBS: ResourceRef = { group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true };
export const ENDPOINT_SLICES: ResourceRef = { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true };
export const STORAGE_CLASSES: ResourceRef = { group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass', plural: 'storageclasses', namespaced: false };
