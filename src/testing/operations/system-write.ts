/**
 * Writes the server makes on its own behalf (garbage collector, namespace and CRD controllers, the simulated
 * workload controllers): a change of a stored object, with the same finalizer rule as client writes
 * (commit-change.ts). Managed fields are left as they are, unless the write is a controller's status write, which
 * is recorded as that controller's `/status` write would be.
 */
import type { Cluster } from '../cluster.js';
import { apiVersionOf } from '../resources/resource-type.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { commitChange } from './commit-change.js';
import { finalizersOf, sameContent } from './object-rules.js';
import { managedFieldsOfUpdate } from './update-managed-fields.js';

/**
 * Changes the object stored under `key` as `record` (which must be the current version). `mutate` receives a copy
 * whose top-level fields and metadata may be replaced (nested values are shared with the stored object and must
 * not be mutated in place). Returns the new record, or the old one when nothing changed or the type is gone.
 * `statusWriter` names the field manager of a controller's status write (`kube-controller-manager`, `kubelet`): its
 * `Update` entry of subresource `status` then owns what the write changed, as kube-apiserver records it.
 */
export function systemUpdate(
  cluster: Cluster,
  key: string,
  record: StoredRecord,
  mutate: (next: KubeObject, metadata: Record<string, unknown>) => void,
  statusWriter?: string,
): StoredRecord {
  const type = cluster.registry.byKey(key);
  if (type === undefined) return record;
  const metadata = { ...metadataOf(record.object) };
  const next: KubeObject = { ...record.object, metadata };
  mutate(next, metadata);
  if (sameContent(record.object, next)) return record;
  if (statusWriter !== undefined) {
    const write = { manager: statusWriter, now: cluster.now(), subresource: 'status' } as const;
    const managed = managedFieldsOfUpdate(type, apiVersionOf(type.group, type.storageVersion), record.object, next, write);
    if (managed.length > 0) metadata['managedFields'] = managed;
    else delete metadata['managedFields'];
  }
  return commitChange(cluster, type, next, record);
}

/** Removes one finalizer (if present) from the current version of the object with this uid. */
export function removeFinalizer(cluster: Cluster, uid: string, finalizer: string): void {
  const located = cluster.store.byUid(uid);
  if (located === undefined) return;
  systemUpdate(cluster, located.key, located.record, (_next, metadata) => {
    const remaining = finalizersOf(located.record.object).filter((f) => f !== finalizer);
    if (remaining.length === 0) delete metadata['finalizers'];
    else metadata['finalizers'] = remaining;
  });
}
