/**
 * The status kube-controller-manager writes on DaemonSets and ReplicaSets, computed from the workload
 * and its Pods: replica counts and `observedGeneration`, counts that are 0 left out where Go's `omitempty` leaves
 * them out (a Deployment's status comes from its ReplicaSets: deployment-status.ts). Pure.
 */
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';
import { statusOf, withoutZeros, type Json } from './object-fields.js';
import { desiredReplicas, podReady } from './pod-manifests.js';

/**
 * What a sync of the Pods found: the first create the API server refused (its message), or none. A status written
 * without one (a Pod became ready) leaves a ReplicaSet's `ReplicaFailure` as it was.
 */
export interface PodSync {
  readonly refused: string | undefined;
  readonly now: string;
}

/** The workload's status from its Pods that are not being deleted, and how many are (a ReplicaSet counts them). */
export function workloadStatus(kind: string, object: KubeObject, pods: readonly KubeObject[], terminating: number, sync?: PodSync): Json {
  const metadata = asObject(object['metadata']);
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
  // A ReplicaSet: every Pod made from the template carries its labels.
  const conditions = replicaFailure(statusOf(object)['conditions'], sync);
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

/**
 * The ReplicaSet controller's `ReplicaFailure` (`calculateStatus`): set, True `FailedCreate` with the API server's
 * refusal, by a sync whose create was refused when there is none yet (a later refusal leaves the first one's
 * message and time); removed by a sync that made every Pod it wanted.
 */
function replicaFailure(conditions: unknown, sync: PodSync | undefined): unknown {
  if (sync === undefined) return conditions;
  const list: unknown[] = Array.isArray(conditions) ? conditions : [];
  const present = list.some((condition) => asObject(condition)['type'] === 'ReplicaFailure');
  if (sync.refused !== undefined) return present ? conditions : [...list, failedCreate(sync.refused, sync.now)];
  return present ? list.filter((condition) => asObject(condition)['type'] !== 'ReplicaFailure') : conditions;
}

function failedCreate(message: string, now: string): Json {
  return { type: 'ReplicaFailure', status: 'True', lastTransitionTime: now, reason: 'FailedCreate', message };
}
