/**
 * What kube's Job controller reads from a Job's spec (how many Pods it runs, how many end it, how many failures it
 * tolerates) and from its Pods' phases (ended; counted failed once deleted). Pure.
 */
import type { KubeObject } from '../../store/record.js';
import { jobFailedCount } from './job-status.js';
import { count, statusOf } from './object-fields.js';

/** The Job's `completions`, or undefined when it has none (a work queue: it completes when its Pods do). */
function completionsOf(job: KubeObject): number | undefined {
  const completions = ((job['spec'] ?? {}) as Record<string, unknown>)['completions'];
  return completions === undefined || completions === null ? undefined : count(completions, 1);
}

/** How many Pods a Job runs at once: its parallelism (1), no more than its completions. */
export function parallelPods(job: KubeObject): number {
  const parallelism = count(((job['spec'] ?? {}) as Record<string, unknown>)['parallelism'], 1);
  return Math.min(parallelism, completionsOf(job) ?? parallelism);
}

/** How many failed Pods the Job tolerates: its backoffLimit (6). */
export function backoffLimitOf(job: KubeObject): number {
  return count(((job['spec'] ?? {}) as Record<string, unknown>)['backoffLimit'], 6);
}

/**
 * How many Pods end the Job: a failing Job's backoffLimit + 1 (less those counted failed already), else its
 * completions (or the Pods it ran).
 */
export function podsToEnd(job: KubeObject, failed: boolean, running: number): number {
  if (failed) return backoffLimitOf(job) + 1 - jobFailedCount(job);
  return completionsOf(job) ?? Math.max(1, running);
}

export function phaseOf(pod: KubeObject): unknown {
  return statusOf(pod)['phase'];
}

/**
 * Whether the Job counts its deleted Pod failed (kube's isPodFailed): a Failed one always; one that has not ended
 * unless the Job replaces only failed Pods (`podReplacementPolicy: Failed`).
 */
export function countsFailed(job: KubeObject, pod: KubeObject): boolean {
  if (phaseOf(pod) === 'Failed') return true;
  const policy = ((job['spec'] ?? {}) as Record<string, unknown>)['podReplacementPolicy'];
  return policy !== 'Failed' && phaseOf(pod) !== 'Succeeded';
}
