/**
 * The Pods a simulated workload controller keeps for a workload, as kube-controller-manager names and labels them:
 * a ReplicaSet's (so a Deployment's, `<deployment>-<pod-template-hash>-<suffix>`) and a DaemonSet's get a suffix (a
 * hash: deterministic for one sequence of requests); a StatefulSet's identity is added by its controller
 * (statefulset-controller.ts). A Pod's labels are its template's. Their
 * statuses follow kwok's pod stages: Pending when created, then Running and Ready, or Running with a crashing
 * container. Pure.
 */
import { createHash } from 'node:crypto';
import { asObject } from '../../patch/json-value.js';
import { SAFE_ALPHABET } from '../../resources/dns-names.js';
import { isDeleting } from '../../operations/object-rules.js';
import type { KubeObject, StoredRecord } from '../../store/record.js';
import { replicasOf } from './object-fields.js';
import { podTemplateHash } from './pod-template-hash.js';
import { SIMULATED_NODE } from './simulation-options.js';

/** `length` characters of Kubernetes' name alphabet from a hash of `text` (deterministic). */
export function safeHash(text: string, length: number): string {
  const digest = createHash('sha256').update(text).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += SAFE_ALPHABET[(digest[i] ?? 0) % SAFE_ALPHABET.length] ?? 'x';
  return out;
}

/** The workload's kinds that run Pods, and how many they want. */
export function desiredReplicas(kind: string, object: KubeObject): number {
  if (kind === 'DaemonSet') return 1; // one simulated node
  return replicasOf(object);
}

/** The template hash of a StatefulSet's or DaemonSet's Pods (`controller-revision-hash`). */
export function templateHash(object: KubeObject): string {
  return podTemplateHash(asObject(object['spec'])['template']);
}

/**
 * Kube's order for a scale down (controller.ActivePodsWithRanks): a Pending Pod before a running one, one not
 * ready before a ready one, the newer before the older. Negative when `a` goes first.
 */
function deletedFirst(a: StoredRecord, b: StoredRecord): number {
  const pending = (pod: StoredRecord): number => (asObject(pod.object['status'])['phase'] === 'Pending' ? 0 : 1);
  const ready = (pod: StoredRecord): number => (podReady(pod.object) ? 1 : 0);
  const created = (pod: StoredRecord): string => String(asObject(pod.object['metadata'])['creationTimestamp'] ?? '');
  return pending(a) - pending(b) || ready(a) - ready(b) || created(b).localeCompare(created(a)) || b.name.localeCompare(a.name);
}

/**
 * Names of the Pods a DaemonSet or ReplicaSet wants, given the Pods it has. A DaemonSet's is its one name, which a
 * Pod of that name still terminating holds until it is gone. A ReplicaSet keeps its active Pods (kube's
 * IsPodActive: not terminating, not ended), but those a scale down removes (kube's order), and names new ones as
 * kube's `generateName` does, never a name it used before: `salt` (the server's revision) makes each call's names its
 * own. So a Pod that ended is replaced, and left for the Pod garbage collector, as kube's ReplicaSet controller leaves it.
 */
export function podNames(kind: string, object: KubeObject, pods: readonly StoredRecord[], salt: string): string[] {
  const name = String(asObject(object['metadata'])['name']);
  const wanted = desiredReplicas(kind, object);
  const hash = templateHash(object);
  if (kind !== 'ReplicaSet') return Array.from({ length: wanted }, (_, i) => `${name}-${safeHash(`${hash}/${i}`, 5)}`);
  const running = pods.filter((pod) => !isDeleting(pod.object) && !podEnded(pod.object)).sort(deletedFirst);
  const names = running.slice(Math.max(0, running.length - wanted)).map((pod) => pod.name);
  const taken = new Set(pods.map((pod) => pod.name));
  for (let i = 0; names.length < wanted; i++) {
    const next = `${name}-${safeHash(`${hash}/${salt}/${i}`, 5)}`;
    if (!taken.has(next)) names.push(next);
    taken.add(next);
  }
  return names;
}

/** A Pending Pod of the workload (created through the normal create path, which adds uid and timestamps). */
export function podManifest(kind: string, apiVersion: string, owner: KubeObject, podName: string): KubeObject {
  const metadata = asObject(owner['metadata']);
  const template = asObject(asObject(owner['spec'])['template']);
  const templateMetadata = asObject(template['metadata']);
  const hash = templateHash(owner);
  const labels: Record<string, unknown> = { ...asObject(templateMetadata['labels']) };
  if (kind === 'DaemonSet') labels['controller-revision-hash'] = hash;
  const annotations = asObject(templateMetadata['annotations']);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName,
      namespace: metadata['namespace'],
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [{ apiVersion, kind, name: metadata['name'], uid: metadata['uid'], controller: true, blockOwnerDeletion: true }],
    },
    spec: { ...asObject(template['spec']), nodeName: SIMULATED_NODE },
  };
}

function containersOf(pod: KubeObject): { name: string; image: string }[] {
  const containers = asObject(pod['spec'])['containers'];
  if (!Array.isArray(containers)) return [];
  return containers.map((c) => ({ name: String(asObject(c)['name'] ?? ''), image: String(asObject(c)['image'] ?? '') }));
}

/** A Pod condition as the kubelet writes it (no probe time). */
function podCondition(type: string, status: string, now: string): Record<string, unknown> {
  return { type, status, lastProbeTime: null, lastTransitionTime: now };
}

/** The status of a Pod that runs: Running and Ready, or Running with crashing containers (never Ready). */
export function runningPodStatus(pod: KubeObject, index: number, now: string, crashing: boolean): Record<string, unknown> {
  const ready = crashing ? 'False' : 'True';
  const condition = (type: string, status: string): Record<string, unknown> => podCondition(type, status, now);
  return {
    phase: 'Running',
    conditions: [condition('Initialized', 'True'), condition('Ready', ready), condition('ContainersReady', ready), condition('PodScheduled', 'True')],
    hostIP: '10.0.0.1',
    podIP: `10.244.${Math.floor(index / 250) % 250}.${(index % 250) + 2}`,
    startTime: now,
    containerStatuses: containersOf(pod).map(({ name, image }) => ({
      name,
      image,
      imageID: '',
      ready: !crashing,
      started: !crashing,
      restartCount: crashing ? 1 : 0,
      state: crashing
        ? { waiting: { reason: 'CrashLoopBackOff', message: 'back-off restarting failed container (simulated)' } }
        : { running: { startedAt: now } },
    })),
  };
}

/**
 * The status of a Pod whose containers ran to their end (a Job's): `Succeeded` (exit code 0) or `Failed` (1, or
 * `exitCode`: 143 for a container stopped by the SIGTERM of a deletion), no longer Ready, as a kubelet writes it.
 */
export function endedPodStatus(pod: KubeObject, now: string, failed: boolean, exitCode = failed ? 1 : 0): Record<string, unknown> {
  const status = asObject(pod['status']);
  const condition = (type: string, value: string, reason?: string): Record<string, unknown> => ({ ...podCondition(type, value, now), ...(reason === undefined ? {} : { reason }) });
  const startedAt = typeof status['startTime'] === 'string' ? status['startTime'] : now;
  return {
    phase: failed ? 'Failed' : 'Succeeded',
    conditions: [condition('Initialized', 'True', 'PodCompleted'), condition('Ready', 'False', 'PodCompleted'), condition('ContainersReady', 'False', 'PodCompleted'), condition('PodScheduled', 'True')],
    ...(status['hostIP'] === undefined ? {} : { hostIP: status['hostIP'], podIP: status['podIP'] }),
    startTime: startedAt,
    containerStatuses: containersOf(pod).map(({ name, image }) => ({
      name,
      image,
      imageID: '',
      ready: false,
      started: false,
      restartCount: 0,
      state: { terminated: { exitCode, reason: failed ? 'Error' : 'Completed', startedAt, finishedAt: now } },
    })),
  };
}

/** Whether a Pod has ended: Succeeded or Failed. */
export function podEnded(pod: KubeObject): boolean {
  const phase = asObject(pod['status'])['phase'];
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Whether a Pod has a True Ready condition. */
export function podReady(pod: KubeObject): boolean {
  const conditions = asObject(pod['status'])['conditions'];
  return Array.isArray(conditions) && conditions.some((c) => asObject(c)['type'] === 'Ready' && asObject(c)['status'] === 'True');
}
