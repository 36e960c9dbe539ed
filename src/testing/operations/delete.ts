/**
 * DELETE: preconditions, propagation policy (Background: the garbage collector removes dependents afterwards;
 * Foreground: the owner waits with the `foregroundDeletion` finalizer until no dependent blocks it; Orphan:
 * dependents lose their owner reference first), finalizers (deletionTimestamp, MODIFIED, the object stays) and
 * removal with a DELETED event carrying the last state.
 */
import type { Cluster } from '../cluster.js';
import { behaviourOf } from '../kinds/kind-behaviour.js';
import { NAMESPACES_KEY } from '../resources/builtin-resources.js';
import type { ResourceView } from '../resources/resource-type.js';
import { badRequest, conflict, forbidden, notFound } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { startNamespaceDeletion } from '../controllers/namespace-lifecycle.js';
import { finalizersOf, isDeleting } from './object-rules.js';
import { systemUpdate } from './system-write.js';

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

/** The parts of `DeleteOptions` the server honours. */
export interface DeleteOptions {
  readonly propagationPolicy?: PropagationPolicy;
  readonly orphanDependents?: boolean;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly dryRun?: boolean;
}

/** The outcome: the object as it is now (deleted or marked), and whether it is gone. */
export interface DeleteResult {
  readonly record: StoredRecord;
  readonly removed: boolean;
}

export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** Namespaces a real server refuses to delete. */
const PROTECTED_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/** Reads and checks a DeleteOptions body (any JSON value; undefined when there was none). */
export function parseDeleteOptions(body: unknown): DeleteOptions {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the DeleteOptions body must be an object');
  const options = body as Record<string, unknown>;
  const policy = options['propagationPolicy'];
  if (policy !== undefined && policy !== null && policy !== 'Background' && policy !== 'Foreground' && policy !== 'Orphan') {
    throw badRequest(`propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan"`);
  }
  const preconditions = options['preconditions'];
  const result: {
    propagationPolicy?: PropagationPolicy;
    orphanDependents?: boolean;
    preconditions?: { uid?: string; resourceVersion?: string };
    dryRun?: boolean;
  } = {};
  if (typeof policy === 'string') result.propagationPolicy = policy as PropagationPolicy;
  if (typeof options['orphanDependents'] === 'boolean') result.orphanDependents = options['orphanDependents'];
  if (typeof preconditions === 'object' && preconditions !== null) {
    const p = preconditions as Record<string, unknown>;
    result.preconditions = {
      ...(typeof p['uid'] === 'string' ? { uid: p['uid'] } : {}),
      ...(typeof p['resourceVersion'] === 'string' ? { resourceVersion: p['resourceVersion'] } : {}),
    };
  }
  if (Array.isArray(options['dryRun']) && options['dryRun'].includes('All')) result.dryRun = true;
  return result;
}

/** Removes the owner reference to `ownerUid` from every dependent. */
export function orphanDependents(cluster: Cluster, ownerUid: string): void {
  for (const dependent of cluster.store.dependentsOf(ownerUid)) {
    systemUpdate(cluster, dependent.key, dependent.record, (_next, metadata) => {
      const refs = (metadataOf(dependent.record.object)['ownerReferences'] as unknown[] | undefined) ?? [];
      const kept = refs.filter((ref) => (ref as { uid?: unknown } | null)?.uid !== ownerUid);
      if (kept.length === 0) delete metadata['ownerReferences'];
      else metadata['ownerReferences'] = kept;
    });
  }
}

/** Marks an object as being deleted (deletionTimestamp, grace 0, generation+1, extra finalizers). */
export function markDeleting(cluster: Cluster, view: ResourceView, prev: StoredRecord, finalizers: string[]): StoredRecord {
  return systemUpdate(cluster, view.type.key, prev, (next, metadata) => {
    const now = cluster.now();
    metadata['deletionTimestamp'] = now;
    metadata['deletionGracePeriodSeconds'] = 0;
    metadata['finalizers'] = finalizers;
    if (typeof metadata['generation'] === 'number') metadata['generation'] = metadata['generation'] + 1;
    behaviourOf(view.type.key)?.prepareDelete?.(next, prev, { registry: cluster.registry, store: cluster.store, now });
  });
}

/** Deletes one object (Namespaces start terminating and are removed by the namespace controller). */
export function deleteObject(cluster: Cluster, view: ResourceView, namespace: string, name: string, options: DeleteOptions): DeleteResult {
  const { type } = view;
  const prev = cluster.store.get(type.key, namespace, name);
  if (prev === undefined) throw notFound(type, name);
  const pre = options.preconditions;
  // kube-apiserver's BeforeDelete names the kind here, not the resource (`Operation cannot be fulfilled on ConfigMap "x"`).
  const byKind = { group: type.group, plural: type.kind };
  if (pre?.uid !== undefined && pre.uid !== prev.uid) {
    throw conflict(byKind, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${prev.uid}). The object might have been deleted and then recreated`);
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== String(prev.rv)) {
    throw conflict(byKind, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${prev.rv}). The object might have been modified`);
  }
  if (type.key === NAMESPACES_KEY && PROTECTED_NAMESPACES.has(name)) throw forbidden(type, name, 'this namespace may not be deleted');
  if (options.dryRun === true) return { record: prev, removed: false };
  if (isDeleting(prev.object)) return { record: prev, removed: false };
  if (type.key === NAMESPACES_KEY) return { record: startNamespaceDeletion(cluster, view, prev), removed: false };

  const policy = options.propagationPolicy ?? (options.orphanDependents === true ? 'Orphan' : 'Background');
  if (policy === 'Orphan') orphanDependents(cluster, prev.uid);
  const finalizers = finalizersOf(prev.object);
  // As kube-apiserver does, whether or not it has dependents: the garbage collector releases it.
  if (policy === 'Foreground' && !finalizers.includes(FOREGROUND_FINALIZER)) finalizers.push(FOREGROUND_FINALIZER);
  if (finalizers.length > 0) {
    const record = markDeleting(cluster, view, prev, finalizers);
    return { record, removed: false };
  }
  const last: KubeObject = { ...prev.object, metadata: { ...metadataOf(prev.object) } };
  return { record: cluster.commit(type, 'DELETED', last, prev), removed: true };
}
