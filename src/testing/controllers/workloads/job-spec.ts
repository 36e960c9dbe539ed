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

/** The annotation (and label) of an Indexed Job's Pod that says its completion index. */
export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';

/** Whether the Job gives each Pod a completion index (`completionMode: Indexed`). */
export function indexedJob(job: KubeObject): boolean {
  return ((job['spec'] ?? {}) as Record<string, unknown>)['completionMode'] === 'Indexed';
}

/** The completion index of an Indexed Job's Pod (its annotation), or undefined. */
export function completionIndexOf(pod: KubeObject): number | undefined {
  const annotations = (((pod['metadata'] ?? {}) as Record<string, unknown>)['annotations'] ?? {}) as Record<string, unknown>;
  const text = annotations[COMPLETION_INDEX];
  return typeof text === 'string' && /^(0|[1-9]\d*)$/.test(text) ? Number(text) : undefined;
}

/**
 * The indexes of the next `n` Pods of an Indexed Job: those below `completions` that no Pod holds and that are not
 * completed, lowest first; past them (a failing Job's retries) the held ones again, lowest first.
 */
export function nextIndexes(job: KubeObject, held: readonly number[], completed: readonly number[], n: number): number[] {
  const total = completionsOf(job) ?? 1;
  const taken = new Set([...held, ...completed]);
  const free = Array.from({ length: total }, (_, i) => i).filter((i) => !taken.has(i));
  const again = [...new Set(held)].sort((a, b) => a - b);
  const order = [...free, ...(again.length > 0 ? again : [0])];
  return Array.from({ length: n }, (_, i) => order[i < free.length ? i : free.length + ((i - free.length) % (order.length - free.length))] ?? 0);
}

/** kube's text of a set of indexes, as `status.completedIndexes` holds it: ascending runs, `0-2,4,6,7` (a pair is not a range). */
export function indexesText(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j += 1;
    ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}${j === i + 1 ? ',' : '-'}${sorted[j]}`);
    i = j + 1;
  }
  return ranges.join(',');
}

/** The indexes `status.completedIndexes` names (`0-2,4`). */
export function parsedIndexes(text: unknown): number[] {
  if (typeof text !== 'string' || text === '') return [];
  return text.split(',').flatMap((range) => {
    const [from, to] = range.split('-').map(Number);
    if (from === undefined || !Number.isInteger(from)) return [];
    const last = to === undefined || !Number.isInteger(to) ? from : to;
    return Array.from({ length: last - from + 1 }, (_, i) => from + i);
  });
}
