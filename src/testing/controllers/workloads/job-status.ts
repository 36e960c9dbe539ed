/**
 * The status the Job controller writes, its fields in Go's order: `startTime` and `active` while it runs, then
 * `Complete` (with `completionTime` and `succeeded`) or `Failed` (`BackoffLimitExceeded`, `failed` one over the
 * backoff limit). Pure.
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

/** The status of a Job that has just started (or whose Pods are at last made: it keeps its start time). */
export function startedJobStatus(job: KubeObject, now: string): Record<string, unknown> {
  const spec = asObject(job['spec']);
  return { startTime: startTimeOf(job) ?? now, active: Math.max(1, count(spec['parallelism'], 1)), ...SYNCED };
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

/** The status of a Job that finished, succeeding or failing. */
export function finishedJobStatus(job: KubeObject, now: string, failed: boolean): Record<string, unknown> {
  const spec = asObject(job['spec']);
  const status = asObject(job['status']);
  const startTime = typeof status['startTime'] === 'string' ? status['startTime'] : now;
  const condition = (type: string, reason?: string, message?: string): Record<string, unknown> => ({
    type,
    status: 'True',
    lastProbeTime: now,
    lastTransitionTime: now,
    ...(reason === undefined ? {} : { reason, message }),
  });
  if (failed) {
    return {
      conditions: [condition('FailureTarget', BACKOFF_LIMIT.reason, BACKOFF_LIMIT.message), condition('Failed', BACKOFF_LIMIT.reason, BACKOFF_LIMIT.message)],
      startTime,
      failed: count(spec['backoffLimit'], 6) + 1,
      ...SYNCED,
    };
  }
  return {
    conditions: [condition('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'), condition('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods')],
    startTime,
    completionTime: now,
    succeeded: Math.max(1, count(spec['completions'], 1)),
    ...SYNCED,
  };
}
