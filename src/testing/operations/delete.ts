/**
 * DELETE, in kube-apiserver's order: preconditions; a graceful deletion (graceful-deletion.ts: a Pod is marked with
 * its grace period and removed later, a pending one only shortened); the garbage collector's finalizers
 * (deletion-finalizers.ts: `orphan` and `foregroundDeletion`, which the garbage collector acts on and removes);
 * then the object is marked (deletionTimestamp, MODIFIED) while finalizers or a grace period hold it, or removed
 * with a DELETED event carrying its last state. A dry run answers what the request would have done.
 */
import type { Cluster } from '../cluster.js';
import { startNamespaceDeletion } from '../controllers/namespace-lifecycle.js';
import { behaviourOf } from '../kinds/kind-behaviour.js';
import { NAMESPACES_KEY } from '../resources/builtin-resources.js';
import type { ResourceView } from '../resources/resource-type.js';
import { conflict, forbidden, notFound } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import type { DeleteOptions } from './delete-options.js';
import { deletionFinalizers } from './deletion-finalizers.js';
import { startDeletion, type DeletionStart } from './graceful-deletion.js';
import { finalizersOf, isDeleting, sameContent, unstoredRecord } from './object-rules.js';

/** The outcome: the object as it is now (the last state, when removed), and whether it is gone (or would be). */
export interface DeleteResult {
  readonly record: StoredRecord;
  readonly removed: boolean;
}

/** Namespaces a real server refuses to delete. */
const PROTECTED_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/** A DELETE's preconditions against the stored object: 409 in kube-apiserver's words when one fails. */
export function checkPreconditions(view: ResourceView, prev: StoredRecord, options: DeleteOptions): void {
  const { type } = view;
  const pre = options.preconditions;
  // kube-apiserver's BeforeDelete names the kind here, not the resource (`Operation cannot be fulfilled on ConfigMap "x"`).
  const byKind = { group: type.group, plural: type.kind };
  if (pre?.uid !== undefined && pre.uid !== prev.uid) {
    throw conflict(byKind, prev.name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${prev.uid}). The object might have been deleted and then recreated`);
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== String(prev.rv)) {
    throw conflict(byKind, prev.name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${prev.rv}). The object might have been modified`);
  }
}

/**
 * The marked object: a graceful deletion's timestamp and period (the generation moves on with the first mark), or,
 * held by finalizers alone, a mark of now with a period of 0 (kube's markAsDeleting); the finalizers as decided.
 */
function marked(cluster: Cluster, view: ResourceView, prev: StoredRecord, start: DeletionStart, finalizers: string[]): KubeObject {
  const metadata = { ...metadataOf(prev.object) };
  const next: KubeObject = { ...prev.object, metadata };
  const now = cluster.now();
  const generation = metadata['generation'];
  const first = !isDeleting(prev.object);
  if (start.kind === 'graceful') {
    metadata['deletionTimestamp'] = start.timestamp;
    metadata['deletionGracePeriodSeconds'] = start.period;
    if (start.first && typeof generation === 'number' && generation > 0) metadata['generation'] = generation + 1;
  } else {
    if (first && typeof generation === 'number' && generation > 0) metadata['generation'] = generation + 1;
    const existing = metadata['deletionTimestamp'];
    if (typeof existing !== 'string' || Date.parse(existing) > cluster.clock.now()) metadata['deletionTimestamp'] = now;
    metadata['deletionGracePeriodSeconds'] = 0;
  }
  if (finalizers.length > 0) metadata['finalizers'] = finalizers;
  else delete metadata['finalizers'];
  if (first) behaviourOf(view.type.key)?.prepareDelete?.(next, prev, { registry: cluster.registry, store: cluster.store, now });
  return next;
}

/** Deletes one object (Namespaces start terminating and are removed by the namespace controller). */
export function deleteObject(cluster: Cluster, view: ResourceView, namespace: string, name: string, options: DeleteOptions): DeleteResult {
  const { type } = view;
  const prev = cluster.store.get(type.key, namespace, name);
  if (prev === undefined) throw notFound(type, name);
  checkPreconditions(view, prev, options);
  if (type.key === NAMESPACES_KEY) {
    if (PROTECTED_NAMESPACES.has(name)) throw forbidden(type, name, 'this namespace may not be deleted');
    if (isDeleting(prev.object)) return { record: prev, removed: false };
    const { finalizers } = deletionFinalizers(finalizersOf(prev.object), options);
    return { record: startNamespaceDeletion(cluster, view, prev, finalizers, options.dryRun === true), removed: false };
  }
  const start = startDeletion(prev.object, behaviourOf(type.key)?.gracePeriod, options.gracePeriodSeconds, cluster.clock.now());
  // A pending graceful deletion is left as it is, finalizers included.
  if (start.kind === 'pending') return { record: prev, removed: false };
  const gc = deletionFinalizers(finalizersOf(prev.object), options);
  const held = gc.finalizers.length > 0;
  let last = prev;
  if (start.kind === 'graceful' || held) {
    const next = marked(cluster, view, prev, start, gc.finalizers);
    if (options.dryRun === true) last = unstoredRecord(view, next);
    else if (!sameContent(prev.object, next)) last = cluster.commit(type, 'MODIFIED', next, prev);
    if (held || (start.kind === 'graceful' && start.period > 0)) return { record: last, removed: false };
  }
  // Removed now: without finalizers (the garbage collector's dropped by this request included) and grace period.
  if (options.dryRun === true) return { record: last, removed: true };
  const gone: KubeObject = { ...last.object, metadata: { ...metadataOf(last.object) } };
  return { record: cluster.commit(type, 'DELETED', gone, last), removed: true };
}
