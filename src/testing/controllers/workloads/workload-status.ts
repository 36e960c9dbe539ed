/**
 * The status kube-controller-manager writes on Deployments, StatefulSets, DaemonSets and ReplicaSets, computed from
 * the workload and its Pods: replica counts, `observedGeneration`, and a Deployment's `Available` and `Progressing`
 * conditions (a condition keeps its `lastTransitionTime` while its status does not change). Pure.
 */
import type { KubeObject } from '../../store/record.js';
import { desiredReplicas, podReady, templateHash } from './pod-manifests.js';

interface Condition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function condition(previous: unknown, type: string, status: string, reason: string, message: string, now: string): Condition {
  const list = record(previous)['conditions'];
  const old = Array.isArray(list) ? list.map(record).find((c) => c['type'] === type) : undefined;
  const same = old !== undefined && old['status'] === status;
  const transition = same && typeof old['lastTransitionTime'] === 'string' ? old['lastTransitionTime'] : now;
  const update = same && old['reason'] === reason && typeof old['lastUpdateTime'] === 'string' ? old['lastUpdateTime'] : now;
  return { type, status, lastUpdateTime: update, lastTransitionTime: transition, reason, message };
}

/** What the controller knows about a workload's rollout. */
export interface RolloutState {
  /** Pods exist for every replica and their delay has passed (ready, or crashing when failing). */
  readonly settled: boolean;
  readonly failing: boolean;
  readonly now: string;
}

/** The workload's status from its Pods. */
export function workloadStatus(kind: string, object: KubeObject, pods: readonly KubeObject[], state: RolloutState): Record<string, unknown> {
  const metadata = record(object['metadata']);
  const name = String(metadata['name']);
  const generation = metadata['generation'];
  const desired = desiredReplicas(kind, object);
  const current = pods.length;
  const ready = pods.filter(podReady).length;
  const previous = object['status'];
  if (kind === 'DaemonSet') {
    return {
      currentNumberScheduled: current,
      desiredNumberScheduled: desired,
      numberMisscheduled: 0,
      numberReady: ready,
      numberAvailable: ready,
      ...(desired - ready > 0 ? { numberUnavailable: desired - ready } : {}),
      updatedNumberScheduled: current,
      observedGeneration: generation,
    };
  }
  if (kind === 'StatefulSet') {
    const revision = `${name}-${templateHash(object)}`;
    return {
      observedGeneration: generation,
      replicas: current,
      readyReplicas: ready,
      currentReplicas: current,
      updatedReplicas: current,
      availableReplicas: ready,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
    };
  }
  if (kind === 'ReplicaSet') {
    return { replicas: current, fullyLabeledReplicas: current, readyReplicas: ready, availableReplicas: ready, observedGeneration: generation };
  }
  const available = ready >= desired;
  const progressing = state.failing && state.settled
    ? condition(previous, 'Progressing', 'False', 'ProgressDeadlineExceeded', `ReplicaSet "${name}-${templateHash(object)}" has timed out progressing.`, state.now)
    : state.settled && available
      ? condition(previous, 'Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${name}-${templateHash(object)}" has successfully progressed.`, state.now)
      : condition(previous, 'Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}-${templateHash(object)}" is progressing.`, state.now);
  const availability = available
    ? condition(previous, 'Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', state.now)
    : condition(previous, 'Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', state.now);
  return {
    observedGeneration: generation,
    replicas: current,
    updatedReplicas: current,
    readyReplicas: ready,
    availableReplicas: ready,
    ...(desired - ready > 0 ? { unavailableReplicas: desired - ready } : {}),
    conditions: [availability, progressing],
  };
}
