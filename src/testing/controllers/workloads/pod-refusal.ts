/**
 * What the simulated controllers need to make Pods: the Pod resource's view, and PodSecurity's judgement of a Pod
 * before it is made (a controller's Pod is judged as any other: one the namespace's enforce level refuses is not made).
 */
import type { Cluster } from '../../cluster.js';
import { podSecurityMayApply, podSecurityRefusal } from '../../admission/pod-security-admission.js';
import { createObject } from '../../operations/create.js';
import type { ResourceView } from '../../resources/resource-type.js';
import { metadataOf, type KubeObject } from '../../store/record.js';
import { storageViewOf } from '../storage-view.js';
import { MANAGER, PODS_KEY } from './owned-objects.js';

/** The view the simulated controllers write Pods through (undefined once the type is gone). */
export function podView(cluster: Cluster): ResourceView | undefined {
  return storageViewOf(cluster, PODS_KEY);
}

/** PodSecurity's refusal of `pod` (a controller's manifest, not yet made) in `owner`'s namespace, or undefined. */
export function podRefusal(cluster: Cluster, owner: KubeObject, pod: KubeObject): string | undefined {
  const namespace = String(metadataOf(owner)['namespace'] ?? '');
  const view = podView(cluster);
  if (view === undefined || !podSecurityMayApply(cluster, PODS_KEY, namespace)) return undefined;
  const checked = createObject(cluster, view, structuredClone(pod), namespace, { manager: MANAGER, dryRun: true });
  return podSecurityRefusal(cluster, namespace, String(metadataOf(pod)['name'] ?? ''), checked.object);
}
