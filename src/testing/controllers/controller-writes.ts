/**
 * A simulated controller's creates and deletes, admitted as kube-apiserver admits kube-controller-manager's: the
 * mutating and validating policies and webhooks see them, made by the controller's service account
 * (`system:serviceaccount:kube-system:<controller>`, as with kube-controller-manager's default
 * `--use-service-account-credentials`), and a refusal is the error the controller gets. Without admission configured
 * the write is made at once (the promise is already settled).
 */
import type { Cluster } from '../cluster.js';
import { admitWrite, hasAdmission, type AdmissionUser } from '../admission/admit.js';
import { createObject } from '../operations/create.js';
import { deleteObject } from '../operations/delete.js';
import type { ResourceView } from '../resources/resource-type.js';
import { copyObject, metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { MANAGER } from './workloads/owned-objects.js';

/** The user kube-controller-manager's `controller` writes as. */
export function controllerUser(controller: string): AdmissionUser {
  return { username: `system:serviceaccount:kube-system:${controller}`, groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] };
}

/** Creates `manifest` in `namespace` as `controller` (field manager kube-controller-manager). */
export async function controllerCreate(cluster: Cluster, controller: string, view: ResourceView, manifest: KubeObject, namespace: string): Promise<StoredRecord> {
  const name = String(metadataOf(manifest)['name'] ?? '');
  const request = { operation: 'CREATE', view, namespace, name, subresource: undefined, object: manifest, oldObject: undefined, dryRun: false, options: { fieldManager: MANAGER }, user: controllerUser(controller) } as const;
  const admitted = await admitWrite(cluster, request, (object, dryRun, managedFields) =>
    createObject(cluster, view, object ?? {}, namespace, { manager: MANAGER, dryRun, ...(managedFields === undefined ? {} : { managedFields }) }),
  );
  return admitted.record;
}

/** Deletes `record` as `controller`, with the DeleteOptions it sends (a propagation policy, or none). */
export async function controllerDelete(cluster: Cluster, controller: string, view: ResourceView, record: StoredRecord, options: { readonly propagationPolicy?: 'Background' } = {}): Promise<void> {
  const oldObject = hasAdmission(cluster) ? copyObject(record, view.apiVersion, view.type.kind) : undefined;
  const request = { operation: 'DELETE', view, namespace: record.namespace, name: record.name, subresource: undefined, object: undefined, oldObject, dryRun: false, options: { ...options }, user: controllerUser(controller) } as const;
  await admitWrite(cluster, request, () => deleteObject(cluster, view, record.namespace, record.name, options).record);
}
