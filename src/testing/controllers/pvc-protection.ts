/**
 * The pvc-protection controller of kube-controller-manager: a claim being deleted keeps the
 * `kubernetes.io/pvc-protection` finalizer (kinds/builtin/registry-behaviours.ts puts it on every claim, as
 * kube-apiserver's admission does) while a Pod that has not finished mounts it, and loses it, and so goes, once none
 * does. Without it a deleted claim would stay Terminating for ever here.
 */
import type { Cluster } from '../cluster.js';
import { objectAt, objectsAt, textAt } from '../kinds/builtin/fields.js';
import { PVC_PROTECTION_FINALIZER } from '../kinds/builtin/registry-behaviours.js';
import { isDeleting } from '../operations/object-rules.js';
import { removeFinalizer } from '../operations/system-write.js';
import { PODS_KEY } from '../resources/builtin-resources.js';
import type { KubeObject } from '../store/record.js';

const CLAIMS_KEY = '/persistentvolumeclaims';

/** The claims a Pod mounts, unless it has finished (Succeeded or Failed). */
function claimsOf(pod: KubeObject): string[] {
  const phase = objectAt(pod, 'status')?.['phase'];
  if (phase === 'Succeeded' || phase === 'Failed') return [];
  return objectsAt(objectAt(pod, 'spec') ?? {}, 'volumes').map((volume) => textAt(objectAt(volume, 'persistentVolumeClaim') ?? {}, 'claimName')).filter((name) => name !== '');
}

/** Removes the finalizer of every claim of `namespace` being deleted that no Pod mounts. */
function release(cluster: Cluster, namespace: string): void {
  const deleting = cluster.store.list(CLAIMS_KEY, namespace).filter((claim) => isDeleting(claim.object));
  if (deleting.length === 0) return;
  const used = new Set(cluster.store.list(PODS_KEY, namespace).flatMap((pod) => claimsOf(pod.object)));
  for (const claim of deleting) if (!used.has(claim.name)) removeFinalizer(cluster, claim.uid, PVC_PROTECTION_FINALIZER);
}

/** Watches claims being deleted and Pods going away or finishing. */
export function runPvcProtection(cluster: Cluster): void {
  cluster.onCommit((type, event) => {
    if (type.key !== CLAIMS_KEY && type.key !== PODS_KEY) return;
    if (type.key === CLAIMS_KEY && !isDeleting(event.record.object)) return;
    const namespace = event.record.namespace;
    cluster.defer(() => release(cluster, namespace));
  });
}
