/**
 * The garbage collector, through ownerReferences (by owner uid): when every owner of an object is gone, the
 * object is deleted in the background (respecting its own finalizers); references to owners that are gone while
 * others remain are removed. Owners deleted in the foreground (`foregroundDeletion` finalizer) have every dependent
 * deleted, and disappear when none is left that blocks them: as kube-controller-manager's collector, an owner waits
 * only for the dependents whose reference to it says `blockOwnerDeletion: true` (the others are deleted too, but may
 * outlive it, held by finalizers of their own). Owners deleted with the `orphan` finalizer first have their
 * references removed from every dependent, then lose the finalizer.
 */
import type { Cluster } from '../cluster.js';
import { deleteObject } from '../operations/delete.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../operations/deletion-finalizers.js';
import { finalizersOf, isDeleting } from '../operations/object-rules.js';
import { removeFinalizer, systemUpdate } from '../operations/system-write.js';
import { ownerUids } from '../store/object-store.js';
import { isJsonObject } from '../patch/json-value.js';
import { metadataOf, type StoredRecord } from '../store/record.js';
import { storageViewOf } from './storage-view.js';

function exists(cluster: Cluster, uid: string): boolean {
  return cluster.store.byUid(uid) !== undefined;
}

/** Deletes the object with `uid` when all its owners are gone; drops references to missing owners otherwise. */
function collect(cluster: Cluster, uid: string): void {
  const located = cluster.store.byUid(uid);
  if (located === undefined || isDeleting(located.record.object)) return;
  const owners = ownerUids(located.record);
  const missing = owners.filter((owner) => !exists(cluster, owner));
  if (missing.length === 0) return;
  if (missing.length === owners.length) {
    const view = storageViewOf(cluster, located.key);
    if (view !== undefined) deleteObject(cluster, view, located.record.namespace, located.record.name, { propagationPolicy: 'Background' });
    return;
  }
  systemUpdate(cluster, located.key, located.record, (_next, metadata) => {
    const refs = (metadataOf(located.record.object)['ownerReferences'] as unknown[] | undefined) ?? [];
    metadata['ownerReferences'] = refs.filter((ref) => !missing.includes(String((ref as { uid?: unknown } | null)?.uid)));
  });
}

function waitsInForeground(cluster: Cluster, uid: string): boolean {
  const owner = cluster.store.byUid(uid);
  return owner !== undefined && isDeleting(owner.record.object) && finalizersOf(owner.record.object).includes(FOREGROUND_FINALIZER);
}

/** Whether `record`'s reference to `ownerUid` blocks that owner's foreground deletion. */
function blocks(record: StoredRecord, ownerUid: string): boolean {
  const refs = metadataOf(record.object)['ownerReferences'];
  return Array.isArray(refs) && refs.some((ref) => isJsonObject(ref) && ref['uid'] === ownerUid && ref['blockOwnerDeletion'] === true);
}

/** Deletes the dependents of an owner being deleted in the foreground, and releases it when none blocks it. */
function deleteForeground(cluster: Cluster, ownerUid: string): void {
  if (!waitsInForeground(cluster, ownerUid)) return;
  for (const dependent of cluster.store.dependentsOf(ownerUid)) {
    if (isDeleting(dependent.record.object)) continue;
    const view = storageViewOf(cluster, dependent.key);
    if (view !== undefined) deleteObject(cluster, view, dependent.record.namespace, dependent.record.name, { propagationPolicy: 'Foreground' });
  }
  if (!cluster.store.dependentsOf(ownerUid).some((dependent) => blocks(dependent.record, ownerUid))) removeFinalizer(cluster, ownerUid, FOREGROUND_FINALIZER);
}

/** Removes the owner reference to `ownerUid` from every dependent. */
function orphanDependents(cluster: Cluster, ownerUid: string): void {
  for (const dependent of cluster.store.dependentsOf(ownerUid)) {
    systemUpdate(cluster, dependent.key, dependent.record, (_next, metadata) => {
      const refs = (metadataOf(dependent.record.object)['ownerReferences'] as unknown[] | undefined) ?? [];
      const kept = refs.filter((ref) => (ref as { uid?: unknown } | null)?.uid !== ownerUid);
      if (kept.length === 0) delete metadata['ownerReferences'];
      else metadata['ownerReferences'] = kept;
    });
  }
}

/** Orphans the dependents of an owner being deleted with the `orphan` finalizer, then removes the finalizer. */
function orphanThenRelease(cluster: Cluster, ownerUid: string): void {
  const owner = cluster.store.byUid(ownerUid);
  if (owner === undefined || !isDeleting(owner.record.object) || !finalizersOf(owner.record.object).includes(ORPHAN_FINALIZER)) return;
  orphanDependents(cluster, ownerUid);
  removeFinalizer(cluster, ownerUid, ORPHAN_FINALIZER);
}

/** Subscribes the garbage collector to the cluster's commits. */
export function runGarbageCollector(cluster: Cluster): void {
  cluster.onCommit((_type, event) => {
    const { record } = event;
    if (event.type === 'DELETED') {
      for (const dependent of cluster.store.dependentsOf(record.uid)) {
        const uid = dependent.record.uid;
        cluster.defer(() => collect(cluster, uid));
      }
      for (const owner of ownerUids(record)) {
        if (waitsInForeground(cluster, owner)) cluster.defer(() => deleteForeground(cluster, owner));
      }
      return;
    }
    const owners = ownerUids(record);
    if (owners.length > 0 && owners.some((owner) => !exists(cluster, owner))) cluster.defer(() => collect(cluster, record.uid));
    // A dependent that stops blocking an owner waiting in the foreground (its reference dropped or no longer
    // blockOwnerDeletion) may release it.
    for (const owner of event.prev === undefined ? [] : ownerUids(event.prev)) {
      if (blocks(event.prev as StoredRecord, owner) && !blocks(record, owner) && waitsInForeground(cluster, owner)) cluster.defer(() => deleteForeground(cluster, owner));
    }
    if (isDeleting(record.object) && finalizersOf(record.object).includes(FOREGROUND_FINALIZER)) {
      cluster.defer(() => deleteForeground(cluster, record.uid));
    }
    if (isDeleting(record.object) && finalizersOf(record.object).includes(ORPHAN_FINALIZER)) {
      cluster.defer(() => orphanThenRelease(cluster, record.uid));
    }
  });
}
