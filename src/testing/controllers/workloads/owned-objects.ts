/** What the simulated controllers read from the store (an object by uid that is not being deleted, its Pods) and the Pods' view. */
import type { Cluster } from '../../cluster.js';
import { isDeleting } from '../../operations/object-rules.js';
import { PODS_KEY } from '../../resources/builtin-resources.js';
import type { ResourceView } from '../../resources/resource-type.js';
import type { StoredRecord } from '../../store/record.js';
import { storageViewOf } from '../storage-view.js';

export { PODS_KEY };

/** The field manager of the simulated controllers' writes, as kube-controller-manager's. */
export const MANAGER = 'kube-controller-manager';
/** The field manager of a Pod's status writes, as the kubelet's. */
export const KUBELET = 'kubelet';

/** The object with this uid and its resource key, unless it is gone or being deleted. */
export function liveObject(cluster: Cluster, uid: string): { key: string; record: StoredRecord } | undefined {
  const located = cluster.store.byUid(uid);
  return located === undefined || isDeleting(located.record.object) ? undefined : located;
}

/** The objects of one resource that name `uid` as an owner. */
export function dependentsOf(cluster: Cluster, uid: string, key: string): StoredRecord[] {
  return cluster.store
    .dependentsOf(uid)
    .filter((d) => d.key === key)
    .map((d) => d.record);
}

/** The view the simulated controllers write Pods through (undefined once the type is gone). */
export function podView(cluster: Cluster): ResourceView | undefined {
  return storageViewOf(cluster, PODS_KEY);
}
