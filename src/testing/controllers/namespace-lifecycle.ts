/**
 * The namespace controller: deleting a Namespace marks it Terminating (deletionTimestamp, `status.phase`), then
 * deletes every object in it (each respecting its own finalizers); once the namespace is empty its `kubernetes`
 * finalizer is removed and the Namespace disappears (after its own metadata finalizers, if any).
 */
import type { Cluster } from '../cluster.js';
import { NAMESPACE_FINALIZER } from '../kinds/kind-behaviour.js';
import { NAMESPACES_KEY } from '../resources/builtin-resources.js';
import type { ResourceView } from '../resources/resource-type.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { deleteObject } from '../operations/delete.js';
import { isDeleting, unstoredRecord } from '../operations/object-rules.js';
import { systemUpdate } from '../operations/system-write.js';
import { storageView } from './storage-view.js';

/**
 * Marks a Namespace Terminating (a deletionTimestamp without a grace period, `status.phase`, the garbage collector's
 * finalizers the request asks for) and schedules the removal of its content; a dry run only answers the mark.
 */
export function startNamespaceDeletion(cluster: Cluster, view: ResourceView, prev: StoredRecord, finalizers: readonly string[], dryRun: boolean): StoredRecord {
  const metadata = { ...metadataOf(prev.object) };
  const next: KubeObject = { ...prev.object, metadata };
  metadata['deletionTimestamp'] = cluster.now();
  if (finalizers.length > 0) metadata['finalizers'] = [...finalizers];
  else delete metadata['finalizers'];
  const status = typeof next['status'] === 'object' && next['status'] !== null ? (next['status'] as Record<string, unknown>) : {};
  next['status'] = { ...status, phase: 'Terminating' };
  if (dryRun) return unstoredRecord(view, next);
  const record = cluster.commit(view.type, 'MODIFIED', next, prev);
  cluster.defer(() => sweepNamespace(cluster, prev.name));
  return record;
}

function sweepNamespace(cluster: Cluster, namespace: string): void {
  const ns = cluster.store.get(NAMESPACES_KEY, '', namespace);
  if (ns === undefined || !isDeleting(ns.object)) return;
  for (const type of cluster.registry.all()) {
    if (!type.namespaced) continue;
    const view = storageView(type);
    if (view === undefined) continue;
    for (const record of cluster.store.list(type.key, namespace)) {
      if (!isDeleting(record.object)) deleteObject(cluster, view, namespace, record.name, {});
    }
  }
  finishNamespace(cluster, namespace);
}

function finishNamespace(cluster: Cluster, namespace: string): void {
  const ns = cluster.store.get(NAMESPACES_KEY, '', namespace);
  if (ns === undefined || !isDeleting(ns.object)) return;
  for (const key of cluster.store.keys()) {
    if (key !== NAMESPACES_KEY && cluster.store.count(key, namespace) > 0) return;
  }
  systemUpdate(cluster, NAMESPACES_KEY, ns, (next) => {
    const spec = typeof next['spec'] === 'object' && next['spec'] !== null ? (next['spec'] as Record<string, unknown>) : {};
    const finalizers = Array.isArray(spec['finalizers']) ? spec['finalizers'].filter((f) => f !== NAMESPACE_FINALIZER) : [];
    next['spec'] = { ...spec, finalizers };
  });
}

/** Watches removals in terminating namespaces, to finish them when they become empty. */
export function runNamespaceController(cluster: Cluster): void {
  cluster.onCommit((type, event) => {
    if (event.type !== 'DELETED' || !type.namespaced) return;
    const namespace = event.record.namespace;
    const ns = cluster.store.get(NAMESPACES_KEY, '', namespace);
    if (ns !== undefined && isDeleting(ns.object)) cluster.defer(() => finishNamespace(cluster, namespace));
  });
}
