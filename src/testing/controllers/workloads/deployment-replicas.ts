/**
 * The replica arithmetic of kube-controller-manager's Deployment controller (`deployment/util`): a Deployment's
 * wanted replicas, its surge and unavailability allowances (`ResolveFenceposts`), how far a new ReplicaSet may grow
 * (`NewRSNewReplicas`), and each ReplicaSet's share of a scaling (`GetReplicaSetProportion`). Pure.
 */
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';
import { annotationsOf, count, replicasOf, specOf, statusOf } from './object-fields.js';

export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
const MAX_INT32 = 2147483647;

export function isRollingUpdate(deployment: KubeObject): boolean {
  return asObject(specOf(deployment)['strategy'])['type'] !== 'Recreate';
}

/** `intstr.GetScaledValueFromIntOrPercent`: an integer as it is, a percentage of `total` rounded up or down. */
export function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !value.endsWith('%')) return 0; // validation refuses anything else
  const percent = Number.parseInt(value.slice(0, -1), 10);
  if (!Number.isFinite(percent)) return 0;
  const scaled = (percent * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** `ResolveFenceposts`: the surge and unavailability allowed at `desired` replicas (never both 0). */
function fenceposts(deployment: KubeObject, desired: number): { surge: number; unavailable: number } {
  const rolling = asObject(asObject(specOf(deployment)['strategy'])['rollingUpdate']);
  const surge = scaledValue(rolling['maxSurge'] ?? 0, desired, true);
  const unavailable = scaledValue(rolling['maxUnavailable'] ?? 0, desired, false);
  return surge === 0 && unavailable === 0 ? { surge, unavailable: 1 } : { surge, unavailable };
}

export function maxSurge(deployment: KubeObject): number {
  return isRollingUpdate(deployment) ? fenceposts(deployment, replicasOf(deployment)).surge : 0;
}

export function maxUnavailable(deployment: KubeObject): number {
  const replicas = replicasOf(deployment);
  if (!isRollingUpdate(deployment) || replicas === 0) return 0;
  return Math.min(fenceposts(deployment, replicas).unavailable, replicas);
}

/** Whether a progress deadline is set (`progressDeadlineSeconds`, MaxInt32 meaning none). */
export function hasProgressDeadline(deployment: KubeObject): boolean {
  const seconds = specOf(deployment)['progressDeadlineSeconds'];
  return typeof seconds === 'number' && seconds !== MAX_INT32;
}

/** `spec.revisionHistoryLimit`, or undefined when old ReplicaSets are kept without limit. */
export function revisionHistoryLimit(deployment: KubeObject): number | undefined {
  const limit = specOf(deployment)['revisionHistoryLimit'];
  return typeof limit === 'number' && limit !== MAX_INT32 ? limit : undefined;
}

/** A non-negative int32 annotation (`getNonNegativeInt32FromAnnotation`), undefined when absent or unreadable. */
export function annotationCount(object: KubeObject, key: string): number | undefined {
  const text = annotationsOf(object)[key];
  if (typeof text !== 'string' || !/^\+?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_INT32 ? value : undefined;
}

/** Sum of `spec.replicas` over ReplicaSets. */
export function specTotal(replicaSets: readonly KubeObject[]): number {
  return replicaSets.reduce((sum, rs) => sum + replicasOf(rs), 0);
}

/** Sum of one status count over ReplicaSets (`replicas`, `readyReplicas`, `availableReplicas`). */
export function statusTotal(replicaSets: readonly KubeObject[], field: string): number {
  return replicaSets.reduce((sum, rs) => sum + count(statusOf(rs)[field], 0), 0);
}

/** `NewRSNewReplicas`: the size the new ReplicaSet may grow to now. */
export function newReplicaSetReplicas(deployment: KubeObject, all: readonly KubeObject[], newRS: KubeObject): number {
  const replicas = replicasOf(deployment);
  if (!isRollingUpdate(deployment)) return replicas;
  const surge = scaledValue(asObject(asObject(specOf(deployment)['strategy'])['rollingUpdate'])['maxSurge'] ?? 0, replicas, true);
  const current = specTotal(all);
  const maxTotal = replicas + surge;
  if (current >= maxTotal) return replicasOf(newRS);
  return replicasOf(newRS) + Math.min(maxTotal - current, replicas - replicasOf(newRS));
}

/** `IsSaturated`: the new ReplicaSet runs all the Deployment's replicas, available, at its current size. */
export function isSaturated(deployment: KubeObject, rs: KubeObject | undefined): boolean {
  if (rs === undefined) return false;
  const replicas = replicasOf(deployment);
  return replicasOf(rs) === replicas && annotationCount(rs, DESIRED_REPLICAS_ANNOTATION) === replicas && count(statusOf(rs)['availableReplicas'], 0) === replicas;
}

/** `GetReplicaSetProportion`: how many of the replicas to add (or remove, when negative) go to `rs`. */
export function replicaSetProportion(rs: KubeObject, deployment: KubeObject, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, deployment);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

function replicaSetFraction(rs: KubeObject, deployment: KubeObject): number {
  const replicas = replicasOf(deployment);
  if (replicas === 0) return -replicasOf(rs);
  const maxReplicas = replicas + maxSurge(deployment);
  let before = annotationCount(rs, MAX_REPLICAS_ANNOTATION) ?? 0;
  if (before === 0) before = count(statusOf(deployment)['replicas'], 0);
  if (before === 0) return 0;
  const size = (replicasOf(rs) * maxReplicas) / before;
  // Go's math.Round: halves away from zero.
  return Math.sign(size) * Math.round(Math.abs(size)) - replicasOf(rs);
}
