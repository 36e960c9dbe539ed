/**
 * The CRD controllers: a stored CRD makes its resource servable at once when Established (and replaces it on update, ending
 * watches on versions no longer served, and filling a changed schema's defaults into the objects already stored); a deleted CRD first deletes its custom resources (each respecting its
 * finalizers), then loses its cleanup finalizer, then disappears with its resource and the resource's watches.
 */
import type { Cluster } from '../cluster.js';
import { CRD_CLEANUP_FINALIZER, crdNameOf } from '../kinds/crd-rules.js';
import { established, recheckCrdNames } from '../kinds/crd-status.js';
import { typeFromCrd } from '../kinds/crd-types.js';
import { deleteObject } from '../operations/delete.js';
import { isDeleting } from '../operations/object-rules.js';
import { removeFinalizer, systemUpdate } from '../operations/system-write.js';
import { CRDS_KEY } from '../resources/builtin-resources.js';
import { storageView } from './storage-view.js';
import { defaultStoredObjects } from './stored-defaults.js';

function deleteCustomResources(cluster: Cluster, crdUid: string): void {
  const crd = cluster.store.byUid(crdUid);
  if (crd === undefined || !isDeleting(crd.record.object)) return;
  const type = cluster.registry.byKey(typeFromCrd(crd.record.object).key);
  const view = type === undefined ? undefined : storageView(type);
  if (type !== undefined && view !== undefined) {
    for (const record of cluster.store.list(type.key)) {
      if (!isDeleting(record.object)) deleteObject(cluster, view, record.namespace, record.name, {});
    }
  }
  finishCrd(cluster, crdUid);
}

function finishCrd(cluster: Cluster, crdUid: string): void {
  const crd = cluster.store.byUid(crdUid);
  if (crd === undefined || !isDeleting(crd.record.object)) return;
  if (cluster.store.count(typeFromCrd(crd.record.object).key) > 0) return;
  removeFinalizer(cluster, crdUid, CRD_CLEANUP_FINALIZER);
}

/** The CRDs of `group` waiting for names another CRD held get them now, if it was the one that went. */
function recheckNames(cluster: Cluster, group: string): void {
  for (const record of cluster.store.list(CRDS_KEY)) {
    const spec = record.object['spec'];
    if (typeof spec !== 'object' || spec === null || (spec as Record<string, unknown>)['group'] !== group) continue;
    const status = recheckCrdNames(record.object, cluster.registry, cluster.now());
    if (status !== undefined) systemUpdate(cluster, CRDS_KEY, record, (next) => void (next['status'] = status));
  }
}

/** Subscribes the CRD controllers to the cluster's commits. */
export function runCrdController(cluster: Cluster): void {
  cluster.onCommit((type, event) => {
    if (type.key === CRDS_KEY) {
      const crdType = typeFromCrd(event.record.object);
      if (event.type === 'DELETED') {
        cluster.registry.remove(crdType.key);
        cluster.hub.endAll({ key: crdType.key });
        cluster.store.dropBucket(crdType.key);
        cluster.defer(() => recheckNames(cluster, crdType.group));
        return;
      }
      // A CRD whose names another CRD of its group holds is not served (NamesAccepted=False), as there.
      if (!established(event.record.object)) return;
      const previous = cluster.registry.byKey(crdType.key);
      cluster.registry.put(crdType);
      defaultStoredObjects(cluster, previous, crdType);
      const served = new Set(crdType.versions.map((v) => (crdType.group === '' ? v.name : `${crdType.group}/${v.name}`)));
      cluster.hub.endWhere((watcher) => watcher.target.key === crdType.key && !served.has(watcher.target.apiVersion));
      if (isDeleting(event.record.object)) {
        const uid = event.record.uid;
        cluster.defer(() => deleteCustomResources(cluster, uid));
      }
      return;
    }
    if (type.builtin || event.type !== 'DELETED') return;
    const crd = cluster.store.get(CRDS_KEY, '', crdNameOf(type));
    if (crd !== undefined && isDeleting(crd.object)) {
      const uid = crd.uid;
      cluster.defer(() => finishCrd(cluster, uid));
    }
  });
}
