/**
 * Orkestra's pod notes (`pods` domain of its catalog): they read `_pods`, the pod summaries the runtime's enrich
 * step puts beside a workload child when the CRD declares `enrich: [pods]` or `enrichAll: true`
 * (operatorbox/enrich-pods.ts builds them: `{name, ip, phase, ready, node, restartCount, ordinal, exitCode,
 * containers: [{name, image, state, reason, ready, restartCount}]}`). A child without `_pods` (not enriched, not a
 * workload, missing) gives Orkestra's zero values: `""`, 0, false, nil — never an error.
 */
import { fixed, type TemplateFunction } from './function-type.js';
import { getKey, isMap } from './values.js';

type Pod = Readonly<Record<string, unknown>>;

function pods(object: unknown): readonly Pod[] {
  if (!isMap(object)) return [];
  const list = getKey(object, '_pods');
  return Array.isArray(list) ? list.filter((pod): pod is Pod => isMap(pod)) : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The non-empty texts of one field of every pod, joined with ", " as Orkestra joins them. */
function joined(object: unknown, field: string): string {
  return pods(object)
    .map((pod) => text(pod[field]))
    .filter((value) => value !== '')
    .join(', ');
}

function containers(pod: Pod): ReadonlyArray<Readonly<Record<string, unknown>>> {
  const list = pod['containers'];
  return Array.isArray(list) ? list.filter((item): item is Readonly<Record<string, unknown>> => isMap(item)) : [];
}

/** Whether some container of some pod is waiting or terminated with `reason`. */
function reasonDetected(reason: string): TemplateFunction {
  return fixed(1, ([object]) => pods(object).some((pod) => containers(pod).some((container) => container['reason'] === reason)));
}

export const ORKESTRA_POD_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  podNames: fixed(1, ([object]) => joined(object, 'name')),
  podIPs: fixed(1, ([object]) => joined(object, 'ip')),
  podNodes: fixed(1, ([object]) => joined(object, 'node')),
  podPhases: fixed(1, ([object]) => joined(object, 'phase')),
  podCount: fixed(1, ([object]) => pods(object).length),
  readyPodCount: fixed(1, ([object]) => pods(object).filter((pod) => pod['ready'] === true).length),
  /** Any pod restarted more than twice. */
  hasCrashingPod: fixed(1, ([object]) => pods(object).some((pod) => count(pod['restartCount']) > 2)),
  podMaxRestarts: fixed(1, ([object]) => pods(object).reduce((max, pod) => Math.max(max, count(pod['restartCount'])), 0)),
  /** The summary of the pod with this ordinal (`<name>-<n>`), or nil. */
  podByOrdinal: fixed(2, ([object, ordinal]) => pods(object).find((pod) => pod['ordinal'] === count(ordinal)) ?? null),
  /** The state (`Running`, `Waiting`, `Terminated`) of the named container of the pod with this ordinal, or "". */
  podContainerState: fixed(3, ([object, ordinal, name]) => {
    const pod = pods(object).find((candidate) => candidate['ordinal'] === count(ordinal));
    const container = pod === undefined ? undefined : containers(pod).find((candidate) => candidate['name'] === name);
    return text(container?.['state']);
  }),
  /** The distinct non-empty waiting/terminated reasons of every container, in the order met. */
  podContainerReasons: fixed(1, ([object]) => {
    const reasons: string[] = [];
    for (const pod of pods(object)) {
      for (const container of containers(pod)) {
        const reason = text(container['reason']);
        if (reason !== '' && !reasons.includes(reason)) reasons.push(reason);
      }
    }
    return reasons.join(', ');
  }),
  podCrashLoopDetected: reasonDetected('CrashLoopBackOff'),
  podImagePullBackOffDetected: reasonDetected('ImagePullBackOff'),
  podErrImagePullDetected: reasonDetected('ErrImagePull'),
  podErrorDetected: reasonDetected('Error'),
  podOOMKilledDetected: reasonDetected('OOMKilled'),
  podCreateContainerErrorDetected: reasonDetected('CreateContainerError'),
  podInvalidImageNameDetected: reasonDetected('InvalidImageName'),
  podRunContainerErrorDetected: reasonDetected('RunContainerError'),
  podPreStartHookErrorDetected: reasonDetected('PreStartHookError'),
  podPostStartHookErrorDetected: reasonDetected('PostStartHookError'),
};
