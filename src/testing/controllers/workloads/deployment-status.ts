/**
 * A Deployment's status as kube-controller-manager computes it from its ReplicaSets (`calculateStatus`), and its
 * conditions: `Available` from the unavailability allowance, `Progressing` through a rollout (`syncRolloutStatus`)
 * and while paused. Conditions keep their times while their status and reason stay (`SetDeploymentCondition`); a
 * changed one goes to the end of the list. Counts that are 0 are left out, as Go's `omitempty` leaves them. Pure.
 */
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';
import { hasProgressDeadline, maxUnavailable, specTotal, statusTotal } from './deployment-replicas.js';
import { count, replicasOf, statusOf, withoutZeros, type Json } from './object-fields.js';
import { nameOf, type ReplicaSetState } from './replica-sets.js';

export type Condition = Json;
const OMIT_EMPTY = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'];

export function conditionsOf(status: Json): Condition[] {
  const list = status['conditions'];
  return Array.isArray(list) ? list.map(asObject) : [];
}

export function findCondition(status: Json, type: string): Condition | undefined {
  return conditionsOf(status).find((c) => c['type'] === type);
}

export function newCondition(type: string, status: string, reason: string, message: string, now: string): Condition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/** `SetDeploymentCondition`: nothing when status and reason are the same; the old transition time when the status is. */
export function setCondition(status: Json, condition: Condition): void {
  const current = findCondition(status, String(condition['type']));
  if (current !== undefined && current['status'] === condition['status'] && current['reason'] === condition['reason']) return;
  const next = current !== undefined && current['status'] === condition['status'] ? { ...condition, lastTransitionTime: current['lastTransitionTime'] } : condition;
  status['conditions'] = [...conditionsOf(status).filter((c) => c['type'] !== condition['type']), next];
}

export function removeCondition(status: Json, type: string): void {
  status['conditions'] = conditionsOf(status).filter((c) => c['type'] !== type);
}

/** What the status is computed from: the Deployment, its status as this sync has it, its ReplicaSets, the new one. */
export interface StatusInput {
  readonly deployment: KubeObject;
  readonly current: Json;
  readonly replicaSets: readonly ReplicaSetState[];
  readonly newRS: ReplicaSetState | undefined;
  readonly now: string;
}

/** `calculateStatus`: counts from the ReplicaSets, the current conditions, and `Available`. */
export function calculateStatus({ deployment, current, replicaSets, newRS, now }: StatusInput): Json {
  const objects = replicaSets.map((rs) => rs.object);
  const available = statusTotal(objects, 'availableReplicas');
  const status: Json = {
    observedGeneration: asObject(deployment['metadata'])['generation'],
    replicas: statusTotal(objects, 'replicas'),
    updatedReplicas: newRS === undefined ? 0 : statusTotal([newRS.object], 'replicas'),
    readyReplicas: statusTotal(objects, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specTotal(objects) - available),
  };
  const terminating = terminatingReplicas(replicaSets);
  if (terminating !== undefined) status['terminatingReplicas'] = terminating;
  status['conditions'] = conditionsOf(current);
  if (current['collisionCount'] !== undefined) status['collisionCount'] = current['collisionCount'];
  const enough = available >= replicasOf(deployment) - maxUnavailable(deployment);
  setCondition(
    status,
    enough
      ? newCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now)
      : newCondition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', now),
  );
  return status;
}

/** `GetTerminatingReplicaCountForReplicaSets`: unknown while a ReplicaSet that has been synced does not say. */
function terminatingReplicas(replicaSets: readonly ReplicaSetState[]): number | undefined {
  let total = 0;
  for (const rs of replicaSets) {
    const status = statusOf(rs.object);
    if (status['terminatingReplicas'] === undefined) {
      if (count(status['observedGeneration'], 0) === 0) continue;
      return undefined;
    }
    total += count(status['terminatingReplicas'], 0);
  }
  return total;
}

/** `DeploymentComplete`: every replica updated and available, the generation observed. */
export function deploymentComplete(deployment: KubeObject, status: Json): boolean {
  const replicas = replicasOf(deployment);
  return (
    count(status['updatedReplicas'], 0) === replicas &&
    count(status['replicas'], 0) === replicas &&
    count(status['availableReplicas'], 0) === replicas &&
    count(status['observedGeneration'], 0) >= count(asObject(deployment['metadata'])['generation'], 0)
  );
}

/** `DeploymentProgressing`: more updated, ready or available replicas than before, or fewer old ones. */
function progressing(previous: Json, next: Json): boolean {
  const n = (status: Json, field: string): number => count(status[field], 0);
  return (
    n(next, 'updatedReplicas') > n(previous, 'updatedReplicas') ||
    n(next, 'replicas') - n(next, 'updatedReplicas') < n(previous, 'replicas') - n(previous, 'updatedReplicas') ||
    n(next, 'readyReplicas') > n(previous, 'readyReplicas') ||
    n(next, 'availableReplicas') > n(previous, 'availableReplicas')
  );
}

/**
 * `syncRolloutStatus`: the status with `Progressing` moved on: `NewReplicaSetAvailable` once complete,
 * `ReplicaSetUpdated` while it progresses, `ProgressDeadlineExceeded` when `timedOut` says the rollout is stuck.
 * `ReplicaFailure` follows the ReplicaSets' own.
 */
export function rolloutStatus(input: StatusInput, timedOut: () => boolean): Json {
  const { deployment, current, newRS, now } = input;
  const status = calculateStatus(input);
  if (!hasProgressDeadline(deployment)) removeCondition(status, 'Progressing');
  const currentCondition = findCondition(current, 'Progressing');
  const complete = count(status['replicas'], 0) === count(status['updatedReplicas'], 0) && currentCondition?.['reason'] === 'NewReplicaSetAvailable';
  const subject = newRS === undefined ? `Deployment "${String(asObject(deployment['metadata'])['name'])}"` : `ReplicaSet "${nameOf(newRS)}"`;
  if (hasProgressDeadline(deployment) && !complete) {
    if (deploymentComplete(deployment, status)) {
      setCondition(status, newCondition('Progressing', 'True', 'NewReplicaSetAvailable', `${subject} has successfully progressed.`, now));
    } else if (progressing(statusOf(deployment), status)) {
      const condition = newCondition('Progressing', 'True', 'ReplicaSetUpdated', `${subject} is progressing.`, now);
      if (currentCondition !== undefined) {
        if (currentCondition['status'] === 'True') condition['lastTransitionTime'] = currentCondition['lastTransitionTime'];
        removeCondition(status, 'Progressing');
      }
      setCondition(status, condition);
    } else if (deadlineExceeded(status, timedOut)) {
      setCondition(status, newCondition('Progressing', 'False', 'ProgressDeadlineExceeded', `${subject} has timed out progressing.`, now));
    }
  }
  const failure = replicaFailure(input.replicaSets, newRS);
  if (failure !== undefined) setCondition(status, failure);
  else removeCondition(status, 'ReplicaFailure');
  return finish(status);
}

function deadlineExceeded(status: Json, timedOut: () => boolean): boolean {
  const condition = findCondition(status, 'Progressing');
  if (condition === undefined || condition['reason'] === 'NewReplicaSetAvailable') return false;
  return condition['reason'] === 'ProgressDeadlineExceeded' || timedOut();
}

/** `getReplicaFailures`: the new ReplicaSet's `ReplicaFailure` condition, else the first of any other's. */
function replicaFailure(replicaSets: readonly ReplicaSetState[], newRS: ReplicaSetState | undefined): Condition | undefined {
  const failureOf = (rs: ReplicaSetState): Condition | undefined => conditionsOf(statusOf(rs.object)).find((c) => c['type'] === 'ReplicaFailure');
  const found = (newRS === undefined ? undefined : failureOf(newRS)) ?? replicaSets.map(failureOf).find((c) => c !== undefined);
  if (found === undefined) return undefined;
  return { type: 'ReplicaFailure', status: found['status'], lastUpdateTime: found['lastTransitionTime'], lastTransitionTime: found['lastTransitionTime'], reason: found['reason'], message: found['message'] };
}

/** `calculateStatus` alone (a paused or scaled Deployment's sync), in stored form. */
export function plainStatus(input: StatusInput): Json {
  return finish(calculateStatus(input));
}

/** The status as a controller's write stores it: zero counts and an empty condition list left out. */
function finish(status: Json): Json {
  const out = withoutZeros(status, OMIT_EMPTY);
  if (conditionsOf(out).length === 0) delete out['conditions'];
  return out;
}
