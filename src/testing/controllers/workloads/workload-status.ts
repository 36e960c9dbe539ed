/**
 * The status kube-controller-manager writes on StatefulSets, DaemonSets and ReplicaSets, computed from the workload
 * and its Pods: replica counts and `observedGeneration`, counts that are 0 left out where Go's `omitempty` leaves
 * them out (a Deployment's status comes from its ReplicaSets: deployment-status.ts). Pure.
 */
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';
import { statusOf, withoutZeros, type Json } from './object-fields.js';
import { desiredReplicas, podReady, templateHash } from './pod-manifests.js';

/** The workload's status from its Pods that are not being deleted, and how many are (a ReplicaSet counts them). */
export function workloadStatus(kind: string, object: KubeObject, pods: readonly KubeObject[], terminating: number): Json {
  const metadata = asObject(object['metadata']);
  const name = String(metadata['name']);
  const generation = metadata['generation'];
  const desired = desiredReplicas(kind, object);
  const current = pods.length;
  const ready = pods.filter(podReady).length;
  if (kind === 'DaemonSet') {
    const status = {
      currentNumberScheduled: current,
      numberMisscheduled: 0,
      desiredNumberScheduled: desired,
      numberReady: ready,
      observedGeneration: generation,
      updatedNumberScheduled: current,
      numberAvailable: ready,
      numberUnavailable: Math.max(0, desired - ready),
    };
    return withoutZeros(status, ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable']);
  }
  if (kind === 'StatefulSet') {
    const revision = `${name}-${templateHash(object)}`;
    const status = {
      observedGeneration: generation,
      replicas: current,
      readyReplicas: ready,
      currentReplicas: current,
      updatedReplicas: current,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
      availableReplicas: ready,
    };
    return withoutZeros(status, ['observedGeneration', 'readyReplicas', 'currentReplicas', 'updatedReplicas']);
  }
  // A ReplicaSet: every Pod made from the template carries its labels.
  const conditions = statusOf(object)['conditions'];
  const status = {
    replicas: current,
    fullyLabeledReplicas: current,
    readyReplicas: ready,
    availableReplicas: ready,
    terminatingReplicas: terminating,
    observedGeneration: generation,
    ...(Array.isArray(conditions) && conditions.length > 0 ? { conditions } : {}),
  };
  return withoutZeros(status, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']);
}
