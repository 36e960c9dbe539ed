/**
 * kube-apiserver defaults a custom resource whenever it reads one from etcd, with the schema of the moment: a CRD that
 * gains a `default` shows it on objects stored before, without a write. The in-process server defaults on writes
 * (operations/schema-rules.ts), so when a CRD's storage schema changes it fills the new defaults into the objects it
 * already holds, in place: same resourceVersion, no watch event, as a read of etcd would show them.
 */
import type { Cluster } from '../cluster.js';
import { jsonEqual } from '../patch/json-value.js';
import { decodedObject } from '../resources/schema-defaults.js';
import { asSchema } from '../resources/schema-keywords.js';
import type { ResourceType } from '../resources/resource-type.js';
import { storedRecord } from '../resources/stored-record.js';

/** Fills the defaults of `type`'s storage schema into its stored objects, when that schema differs from `previous`'s. */
export function defaultStoredObjects(cluster: Cluster, previous: ResourceType | undefined, type: ResourceType): void {
  const schema = asSchema(type.schemas?.[type.storageVersion]);
  if (previous === undefined || schema === undefined) return;
  if (jsonEqual(previous.schemas?.[previous.storageVersion], schema)) return;
  for (const record of cluster.store.list(type.key)) {
    const object = decodedObject(record.object, schema);
    if (object !== record.object) cluster.store.put(type.key, storedRecord(type, object), record);
  }
}
