/**
 * Where a Job stands, for the delete path: an onDelete Job blocks the removal of its parent's finalizers until it
 * has succeeded. Pure.
 */
import type { KubeObject } from '../kube/resource.js';

export type JobState = { readonly state: 'running' } | { readonly state: 'succeeded' } | { readonly state: 'failed'; readonly reason: string };

interface JobCondition {
  readonly type?: unknown;
  readonly status?: unknown;
  readonly reason?: unknown;
  readonly message?: unknown;
}

/**
 * `succeeded` once `status.succeeded >= 1` (or a `Complete` condition is True); `failed` once a `Failed` condition is
 * True or `status.failed` exceeds `spec.backoffLimit` (default 6, as Kubernetes); `running` otherwise.
 */
export function jobState(job: KubeObject): JobState {
  const status = (job['status'] ?? {}) as { succeeded?: unknown; failed?: unknown; conditions?: unknown };
  const conditions = Array.isArray(status.conditions) ? (status.conditions as JobCondition[]) : [];
  const isTrue = (type: string): JobCondition | undefined => conditions.find((condition) => condition.type === type && condition.status === 'True');
  if ((typeof status.succeeded === 'number' && status.succeeded >= 1) || isTrue('Complete') !== undefined) return { state: 'succeeded' };
  const failedCondition = isTrue('Failed');
  if (failedCondition !== undefined) {
    const detail = [failedCondition.reason, failedCondition.message].filter((part) => typeof part === 'string' && part !== '').join(': ');
    return { state: 'failed', reason: detail === '' ? 'the Job failed' : detail };
  }
  const spec = (job['spec'] ?? {}) as { backoffLimit?: unknown };
  const limit = typeof spec.backoffLimit === 'number' ? spec.backoffLimit : 6;
  if (typeof status.failed === 'number' && status.failed > limit) return { state: 'failed', reason: `${status.failed} failed pods, more than backoffLimit ${limit}` };
  return { state: 'running' };
}
