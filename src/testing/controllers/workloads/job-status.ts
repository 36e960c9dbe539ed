/**
 * The status the Job controller writes, its fields in Go's order: `startTime`, `active` and `ready` while its Pods
 * run; once they end, the Pods in `uncountedTerminatedPods` with the first condition of the end; then, counted,
 * `Complete` (with `completionTime` and `succeeded`) or `Failed` (`BackoffLimitExceeded`, `failed`). Pure.
 */
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';
import { count } from './object-fields.js';

/** The reason and message of a failed Job's conditions, and of the Job controller's Warning Event then. */
export const BACKOFF_LIMIT = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' } as const;

/** Whether the Job has finished (a Complete or Failed condition that is True). */
export function jobFinished(job: KubeObject): boolean {
  const conditions = asObject(job['status'])['conditions'];
  return Array.isArray(conditions) && conditions.some((c) => (asObject(c)['type'] === 'Complete' || asObject(c)['type'] === 'Failed') && asObject(c)['status'] === 'True');
}

/** Whether the Job is suspended (`spec.suspend: true`): it does not run. */
export function jobSuspended(job: KubeObject): boolean {
  return asObject(job['spec'])['suspend'] === true;
}

/**
 * What every sync of kube's Job controller writes: no Pod terminating, none terminated but uncounted (kept as `{}`),
 * none ready (no container runs here).
 */
const SYNCED = { terminating: 0, uncountedTerminatedPods: {}, ready: 0 } as const;

/**
 * The status of a Job whose Pods run: `active` of them, `ready` of those Ready; it keeps its start time (a Job whose
 * Pods were refused started then) and its conditions, but for a `Suspended` one, which it turns False (`JobResumed`).
 */
export function runningJobStatus(job: KubeObject, now: string, active: number, ready = 0): Record<string, unknown> {
  const conditions = conditionsOf(job).map((c) => (isSuspended(c) ? condition('Suspended', now, 'JobResumed', 'Job resumed', 'False') : c));
  return { ...(conditions.length > 0 ? { conditions } : {}), startTime: startTimeOf(job) ?? now, ...(active > 0 ? { active } : {}), ...SYNCED, ready };
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
  const kept = conditionsOf(job).find(isSuspended);
  return { conditions: [...others, kept ?? suspended], ...SYNCED, terminating };
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
  return { startTime: startTimeOf(job) ?? now, ...SYNCED };
}

/** Whether the Job started and waits for Pods the API server refused (`waitingJobStatus`). */
export function jobWaiting(job: KubeObject): boolean {
  const status = asObject(job['status']);
  return startTimeOf(job) !== undefined && count(status['active'], 0) === 0 && !jobFinished(job) && !jobSuspended(job);
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
 * first condition of the end (`SuccessCriteriaMet` or `FailureTarget`), the Pods in `uncountedTerminatedPods`.
 */
export function endingJobStatus(job: KubeObject, now: string, failed: boolean, uids: readonly string[]): Record<string, unknown> {
  const { reason, message } = failed ? BACKOFF_LIMIT : COMPLETIONS_REACHED;
  return {
    conditions: [...conditionsOf(job), condition(failed ? 'FailureTarget' : 'SuccessCriteriaMet', now, reason, message)],
    startTime: startTimeOf(job) ?? now,
    ...SYNCED,
    uncountedTerminatedPods: { [failed ? 'failed' : 'succeeded']: [...uids] },
  };
}

/**
 * The status of a Job that finished, its `pods` counted: succeeded (`Complete`, `completionTime`) or failed (`Failed`,
 * `BackoffLimitExceeded`). The conditions of {@link endingJobStatus} keep their times.
 */
export function finishedJobStatus(job: KubeObject, now: string, failed: boolean, pods: number): Record<string, unknown> {
  const status = asObject(job['status']);
  const startTime = startTimeOf(job) ?? now;
  const kept = Array.isArray(status['conditions']) ? (status['conditions'] as unknown[]) : [];
  const { reason, message } = failed ? BACKOFF_LIMIT : COMPLETIONS_REACHED;
  const first = kept.length > 0 ? kept : [condition(failed ? 'FailureTarget' : 'SuccessCriteriaMet', now, reason, message)];
  const conditions = [...first, condition(failed ? 'Failed' : 'Complete', now, reason, message)];
  if (failed) return { conditions, startTime, failed: pods, ...SYNCED };
  return { conditions, startTime, completionTime: now, succeeded: pods, ...SYNCED };
}
