/**
 * The `pods` enrich target: for each workload child (Deployment, StatefulSet, ReplicaSet, Job — the kinds Orkestra
 * enriches with pods), the pods it runs, summarised as Orkestra's pod notes read them (`_pods`).
 *
 * How pods are found: one bounded list call per workload child, in the child's namespace, with the child's own
 * `spec.selector.matchLabels` as label selector (a Job without one: `job-name=<name>`), at most {@link POD_LIMIT}
 * pods; then only pods the child controls are kept: the controller owner reference is the child itself (by uid), or
 * for a Deployment a ReplicaSet named `<deployment>-…` (in a cluster Deployments own pods through their ReplicaSets). Why list
 * calls and no pod informer: an informer would keep every pod of the watched namespaces in the operator's memory
 * and need list/watch on all of them for a CRD that only reads a summary in its status; the list runs only for
 * CRDs that declare the target, at status time, and its cost is one request per workload child.
 */
import type { KubeObject, ResourceRef } from '../kube/resource.js';

/** At most this many pods per workload child are read (one page). */
export const POD_LIMIT = 500;

export const PODS: ResourceRef = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true };

/** Lists one page of pods in a namespace with a label selector. */
export type ListPods = (namespace: string, labelSelector: string, limit: number, signal: AbortSignal) => Promise<readonly KubeObject[]>;

const WORKLOADS: Readonly<Record<string, string>> = { 'apps/v1/Deployment': 'Deployment', 'apps/v1/StatefulSet': 'StatefulSet', 'apps/v1/ReplicaSet': 'ReplicaSet', 'batch/v1/Job': 'Job' };

/** Whether `child` is a workload whose pods the target reads. */
export function isPodWorkload(child: KubeObject): boolean {
  return Object.hasOwn(WORKLOADS, `${child.apiVersion ?? ''}/${child.kind ?? ''}`);
}

/** The pod summaries of one workload child, sorted by name; `[]` when it selects nothing. */
export async function podsOf(child: KubeObject, list: ListPods, signal: AbortSignal): Promise<Array<Record<string, unknown>>> {
  const name = child.metadata?.name ?? '';
  const namespace = child.metadata?.namespace;
  if (namespace === undefined || name === '') return [];
  const selector = podSelectorOf(child);
  if (selector === undefined) return [];
  const items = await list(namespace, selector, POD_LIMIT, signal);
  const owned = items.filter((pod) => controlledBy(pod, child));
  owned.sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  return owned.map((pod) => podSummary(pod, child.kind === 'StatefulSet' ? name : undefined));
}

/** The label selector of a workload's pods: its `spec.selector.matchLabels` (a Job without one: `job-name=<name>`). */
export function podSelectorOf(child: KubeObject): string | undefined {
  const spec = child['spec'] as { selector?: { matchLabels?: Record<string, unknown> } } | undefined;
  const labels = spec?.selector?.matchLabels;
  const pairs = labels === undefined ? [] : Object.entries(labels).filter(([, value]) => typeof value === 'string').map(([key, value]) => `${key}=${String(value)}`);
  if (pairs.length > 0) return pairs.join(',');
  return child.kind === 'Job' ? `job-name=${child.metadata?.name ?? ''}` : undefined;
}

function controlledBy(pod: KubeObject, child: KubeObject): boolean {
  const owner = (pod.metadata?.ownerReferences ?? []).find((reference) => reference.controller === true) ?? pod.metadata?.ownerReferences?.[0];
  if (owner === undefined) return false;
  if (owner.kind === child.kind && (child.metadata?.uid === undefined || owner.uid === child.metadata.uid)) return true;
  return child.kind === 'Deployment' && owner.kind === 'ReplicaSet' && owner.name.startsWith(`${child.metadata?.name ?? ''}-`);
}

interface ContainerStatus {
  name?: string;
  image?: string;
  ready?: boolean;
  restartCount?: number;
  state?: { running?: unknown; waiting?: { reason?: string }; terminated?: { reason?: string; exitCode?: number } };
}

/** Orkestra's pod summary: `{name, ip, phase, ready, node, restartCount, ordinal, exitCode, containers}`. */
export function podSummary(pod: KubeObject, statefulSet: string | undefined): Record<string, unknown> {
  const name = pod.metadata?.name ?? '';
  const spec = (pod['spec'] ?? {}) as { nodeName?: string };
  const status = (pod['status'] ?? {}) as { podIP?: string; phase?: string; conditions?: Array<{ type?: string; status?: string }>; containerStatuses?: ContainerStatus[] };
  const statuses = Array.isArray(status.containerStatuses) ? status.containerStatuses : [];
  const containers = statuses.map((container) => {
    const state = container.state ?? {};
    const stateName = state.running !== undefined ? 'Running' : state.waiting !== undefined ? 'Waiting' : state.terminated !== undefined ? 'Terminated' : '';
    return {
      name: container.name ?? '',
      image: container.image ?? '',
      state: stateName,
      reason: state.waiting?.reason ?? state.terminated?.reason ?? '',
      ready: container.ready === true,
      restartCount: container.restartCount ?? 0,
    };
  });
  const terminated = statuses.find((container) => typeof container.state?.terminated?.exitCode === 'number');
  return {
    name,
    ip: status.podIP ?? '',
    phase: status.phase ?? '',
    ready: (status.conditions ?? []).some((condition) => condition.type === 'Ready' && condition.status === 'True'),
    node: spec.nodeName ?? '',
    restartCount: containers.reduce((sum, container) => sum + container.restartCount, 0),
    ordinal: ordinalOf(name, statefulSet),
    exitCode: terminated?.state?.terminated?.exitCode ?? -1,
    containers,
  };
}

/** `<statefulset>-<n>` → n; -1 for a pod that is not a StatefulSet member. */
function ordinalOf(name: string, statefulSet: string | undefined): number {
  if (statefulSet === undefined || !name.startsWith(`${statefulSet}-`)) return -1;
  const rest = name.slice(statefulSet.length + 1);
  return /^\d+$/.test(rest) ? Number(rest) : -1;
}
