/**
 * The status the Job controller writes, its fields in Go's order: `startTime`, `active` and `ready` while its Pods
 * run; once they end, the Pods in `uncountedTerminatedPods` with the first condition of the end; then, counted,
 * `Complete` (with `completionTime` and `succeeded`) or `Failed` (`BackoffLimitExceeded`, `failed`). A Pod deleted
 * while it runs is listed and counted `failed` the same way, and `terminating` counts those still going. The counters
 * a Job has (`succeeded`, `failed`) are kept by every status. Pure.
 */
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';
import { count } from './object-fields.js';

/** The reason and message of a failed Job's conditions, and of the Job controller's Warning Event then. */
export const BACKOFF_LIMIT = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' } as const;

/** How the Job finished: the type of its Complete or Failed condition that is True; undefined while it has not. */
export function jobEnd(job: KubeObject): 'Complete' | 'Failed' | undefined {
  const end = conditionsOf(job).map(asObject).find((c) => (c['type'] === 'Complete' || c['type'] === 'Failed') && c['status'] === 'True');
  return end?.['type'] as 'Complete' | 'Failed' | undefined;
}

/** Whether the Job has finished (a Complete or Failed condition that is True). */
export function jobFinished(job: KubeObject): boolean {
  return jobEnd(job) !== undefined;
}

/** Whether the Job is suspended (`spec.suspend: true`): it does not run. */
export function jobSuspended(job: KubeObject): boolean {
  return asObject(job['spec'])['suspend'] === true;
}

/** The Pods a status counts; `active`, `succeeded` and `failed` are left out at 0 (Go's omitempty), the others written. */
interface JobCounts {
  readonly active?: number;
  readonly succeeded?: number;
  readonly failed?: number;
  readonly terminating?: number;
  /** An Indexed Job's completed indexes (`0-2,4`); left out when none. */
  readonly completedIndexes?: string;
  readonly uncounted?: { readonly succeeded?: readonly string[]; readonly failed?: readonly string[] };
  readonly ready?: number;
}

/**
 * A Job's status in Go's field order, as every sync of kube's Job controller writes it: `terminating`,
 * `uncountedTerminatedPods` (kept as `{}`) and `ready` always there.
 */
function jobStatus(conditions: readonly unknown[], startTime: string | undefined, completionTime: string | undefined, counts: JobCounts): Record<string, unknown> {
  return {
    ...(conditions.length > 0 ? { conditions } : {}),
    ...(startTime === undefined ? {} : { startTime }),
    ...(completionTime === undefined ? {} : { completionTime }),
    ...(counts.active ? { active: counts.active } : {}),
    ...(counts.succeeded ? { succeeded: counts.succeeded } : {}),
    ...(counts.failed ? { failed: counts.failed } : {}),
    terminating: counts.terminating ?? 0,
    ...(counts.completedIndexes ? { completedIndexes: counts.completedIndexes } : {}),
    uncountedTerminatedPods: counts.uncounted ?? {},
    ready: counts.ready ?? 0,
  };
}

/**
 * A Job's Pods as its status counts them: `active` (not deleted, not ended), `ready` of those, `terminating` (deleted,
 * not ended).
 */
export interface PodCounts {
  readonly active: number;
  readonly ready?: number;
  readonly terminating?: number;
}

/** The Job's counters so far: what its status keeps whatever it writes. */
function kept(job: KubeObject): { succeeded: number; failed: number; completedIndexes?: string } {
  const status = asObject(job['status']);
  const completedIndexes = status['completedIndexes'];
  return { succeeded: count(status['succeeded'], 0), failed: count(status['failed'], 0), ...(typeof completedIndexes === 'string' && completedIndexes !== '' ? { completedIndexes } : {}) };
}

/** How many of its Pods the Job has counted failed. */
export function jobFailedCount(job: KubeObject): number {
  return kept(job).failed;
}

/**
 * The status of a Job whose Pods run: `active` of them, `ready` of those Ready, `terminating` deleted but still going;
 * it keeps its start time (a Job whose Pods were refused started then) and its conditions, but for a `Suspended` one,
 * which it turns False (`JobResumed`).
 */
export function runningJobStatus(job: KubeObject, now: string, counts: PodCounts): Record<string, unknown> {
  const conditions = conditionsOf(job).map((c) => (isSuspended(c) ? condition('Suspended', now, 'JobResumed', 'Job resumed', 'False') : c));
  return jobStatus(conditions, startTimeOf(job) ?? now, undefined, { ...kept(job), ...counts });
}

/**
 * The status of a running Job some of whose Pods (`uids`) were deleted, as kube's Job controller writes it before it
 * counts them: listed failed in `uncountedTerminatedPods`, no longer active.
 */
export function lostPodsJobStatus(job: KubeObject, now: string, counts: PodCounts, uids: readonly string[]): Record<string, unknown> {
  return jobStatus(conditionsOf(job), startTimeOf(job) ?? now, undefined, { ...kept(job), ...counts, uncounted: { failed: [...uids] } });
}

/** The status once the Job has counted `added` more of its Pods (their finalizer taken off). */
export function countedJobStatus(job: KubeObject, now: string, counts: PodCounts, added: { readonly succeeded?: number; readonly failed?: number }): Record<string, unknown> {
  const held = kept(job);
  return jobStatus(conditionsOf(job), startTimeOf(job) ?? now, undefined, { ...held, succeeded: held.succeeded + (added.succeeded ?? 0), failed: held.failed + (added.failed ?? 0), ...counts });
}

/**
 * The status of a Job whose deleted Pods took it past its backoffLimit, as kube's Job controller writes it before it
 * counts them: `FailureTarget`, and every Pod it had (`uids`: those deleted, and its active ones, which it deletes)
 * listed failed; `terminating` those still going. It says `Failed` only once they are gone.
 */
export function failingJobStatus(job: KubeObject, now: string, terminating: number, uids: readonly string[]): Record<string, unknown> {
  const conditions = [...conditionsOf(job), condition('FailureTarget', now, BACKOFF_LIMIT.reason, BACKOFF_LIMIT.message)];
  return jobStatus(conditions, startTimeOf(job) ?? now, undefined, { ...kept(job), terminating, uncounted: { failed: [...uids] } });
}

/**
 * How an ending Job ends: `failed` with a `FailureTarget` condition, `succeeded` with `SuccessCriteriaMet`; it says
 * `Failed` or `Complete` once its Pods are counted and gone. Undefined when it is not ending (or has ended).
 */
export function jobEnding(job: KubeObject): 'failed' | 'succeeded' | undefined {
  if (jobFinished(job)) return undefined;
  const interim = conditionsOf(job).map(asObject).find((c) => (c['type'] === 'FailureTarget' || c['type'] === 'SuccessCriteriaMet') && c['status'] === 'True');
  if (interim === undefined) return undefined;
  return interim['type'] === 'FailureTarget' ? 'failed' : 'succeeded';
}

/** The status of an ending Job ({@link jobEnding}) whose Pods are going: `terminating` of them still there. */
export function terminatingJobStatus(job: KubeObject, now: string, terminating: number): Record<string, unknown> {
  return jobStatus(conditionsOf(job), startTimeOf(job) ?? now, undefined, { ...kept(job), terminating });
}

/** Whether the Job's `Suspended` condition is True (it was suspended, and has not run since). */
export function jobSuspendedCondition(job: KubeObject): boolean {
  return conditionsOf(job).some(isSuspended);
}

/**
 * The status of a suspended Job, as kube's Job controller writes it once it has deleted its Pods: no start time,
 * nothing active, `terminating` the Pods still going, and a `Suspended` condition True (`JobSuspended`; kept as it
 * was when the Job was suspended already).
 */
export function suspendedJobStatus(job: KubeObject, now: string, terminating: number): Record<string, unknown> {
  const suspended = condition('Suspended', now, 'JobSuspended', 'Job suspended');
  const others = conditionsOf(job).filter((c) => asObject(c)['type'] !== 'Suspended');
  const held = conditionsOf(job).find(isSuspended);
  return jobStatus([...others, held ?? suspended], undefined, undefined, { ...kept(job), terminating });
}

function conditionsOf(job: KubeObject): unknown[] {
  const conditions = asObject(job['status'])['conditions'];
  return Array.isArray(conditions) ? conditions : [];
}

function isSuspended(c: unknown): boolean {
  return asObject(c)['type'] === 'Suspended' && asObject(c)['status'] === 'True';
}

/** The status of a Job started whose Pods the API server refuses: nothing active. */
export function waitingJobStatus(job: KubeObject, now: string): Record<string, unknown> {
  return jobStatus([], startTimeOf(job) ?? now, undefined, kept(job));
}

function startTimeOf(job: KubeObject): string | undefined {
  const startTime = asObject(job['status'])['startTime'];
  return typeof startTime === 'string' ? startTime : undefined;
}

function condition(type: string, now: string, reason: string, message: string, status = 'True'): Record<string, unknown> {
  return { type, status, lastProbeTime: now, lastTransitionTime: now, reason, message };
}

const COMPLETIONS_REACHED = { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' } as const;

/**
 * The status of a Job whose Pods (`uids`) have all ended, as the Job controller writes it before it counts them: the
 * first condition of the end (`SuccessCriteriaMet` or `FailureTarget`), the Pods in `uncountedTerminatedPods`. An
 * Indexed Job's succeeded Pods are not listed but `counted` at once, by their indexes.
 */
export function endingJobStatus(job: KubeObject, now: string, failed: boolean, uids: readonly string[], counted?: { readonly succeeded: number; readonly completedIndexes: string }): Record<string, unknown> {
  const { reason, message } = failed ? BACKOFF_LIMIT : COMPLETIONS_REACHED;
  const conditions = [...conditionsOf(job), condition(failed ? 'FailureTarget' : 'SuccessCriteriaMet', now, reason, message)];
  const counts = kept(job);
  if (counted !== undefined) return jobStatus(conditions, startTimeOf(job) ?? now, undefined, { ...counts, succeeded: counts.succeeded + counted.succeeded, completedIndexes: counted.completedIndexes });
  return jobStatus(conditions, startTimeOf(job) ?? now, undefined, { ...counts, uncounted: { [failed ? 'failed' : 'succeeded']: [...uids] } });
}

/**
 * The status of a Job that finished, its `pods` counted: succeeded (`Complete`, `completionTime`) or failed (`Failed`,
 * `BackoffLimitExceeded`). The conditions of {@link endingJobStatus} keep their times.
 */
export function finishedJobStatus(job: KubeObject, now: string, failed: boolean, pods: number): Record<string, unknown> {
  const startTime = startTimeOf(job) ?? now;
  const held = conditionsOf(job);
  const { reason, message } = failed ? BACKOFF_LIMIT : COMPLETIONS_REACHED;
  const first = held.length > 0 ? held : [condition(failed ? 'FailureTarget' : 'SuccessCriteriaMet', now, reason, message)];
  const conditions = [...first, condition(failed ? 'Failed' : 'Complete', now, reason, message)];
  const counts = kept(job);
  if (failed) return jobStatus(conditions, startTime, undefined, { ...counts, failed: counts.failed + pods });
  return jobStatus(conditions, startTime, now, { ...counts, succeeded: counts.succeeded + pods });
}
