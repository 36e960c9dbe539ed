/**
 * Commits a change of a stored object (a client's update or patch, a controller's write), with kube-apiserver's
 * store rule for objects being deleted: a change that leaves one without finalizers, once no grace period holds
 * it, removes it instead of storing it. Its DELETED event then carries the last stored state (the finalizers still
 * in it), and the writer is answered what it wrote, at the resourceVersion it had.
 */
import type { Cluster } from '../cluster.js';
import { apiVersionOf, type ResourceType } from '../resources/resource-type.js';
import { storedRecord } from '../resources/stored-record.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { isDeleting, pendingFinalizers } from './object-rules.js';

/** kube's shouldDeleteDuringUpdate: no finalizers left, and the object was marked without a running grace period. */
function releases(prev: KubeObject, next: KubeObject): boolean {
  if (pendingFinalizers(next).length > 0 || !isDeleting(prev)) return false;
  const period = metadataOf(prev)['deletionGracePeriodSeconds'];
  return typeof period !== 'number' || period === 0;
}

/** Stores `next` as the new state of `prev` (MODIFIED), or removes the object when the change releases it. */
export function commitChange(cluster: Cluster, type: ResourceType, next: KubeObject, prev: StoredRecord): StoredRecord {
  if (!releases(prev.object, next)) return cluster.commit(type, 'MODIFIED', next, prev);
  cluster.commit(type, 'DELETED', { ...prev.object, metadata: { ...metadataOf(prev.object) } }, prev);
  metadataOf(next)['resourceVersion'] = String(prev.rv);
  next['apiVersion'] = apiVersionOf(type.group, type.storageVersion);
  next['kind'] = type.kind;
  return storedRecord(type, next);
}
