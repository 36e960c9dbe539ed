/**
 * What a new Pod gets from kube-apiserver beyond its defaults: the admission plugins it enables by default (Priority:
 * `priority` and `preemptionPolicy` from the Pod's PriorityClass, 0 and PreemptLowerPriority without one;
 * DefaultTolerationSeconds: five minutes' toleration of a not-ready or unreachable node) and the status its registry
 * starts it with (Pending, with its QoS class).
 */
import { compareQuantities } from '../../../util/quantity.js';
import { forbidden } from '../../status-errors.js';
import type { ObjectStore } from '../../store/object-store.js';
import { ensureObject, objectAt, objectsAt, textAt, unset, type Json } from './fields.js';


const PRIORITY_CLASSES_KEY = 'scheduling.k8s.io/priorityclasses';
/** The PriorityClasses every cluster has (kube-apiserver creates them at start). */
const SYSTEM_CLASSES: Readonly<Record<string, number>> = { 'system-cluster-critical': 2_000_000_000, 'system-node-critical': 2_000_001_000 };
const NODE_TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];
const TOLERATION_SECONDS = 300;

function priority(spec: Json, store: ObjectStore, podName: string): void {
  const className = textAt(spec, 'priorityClassName');
  if (className === '') {
    spec['priority'] = 0;
    if (unset(spec, 'preemptionPolicy')) spec['preemptionPolicy'] = 'PreemptLowerPriority';
    return;
  }
  const stored = store.get(PRIORITY_CLASSES_KEY, '', className)?.object;
  const value = stored === undefined ? SYSTEM_CLASSES[className] : stored['value'];
  if (typeof value !== 'number') throw forbidden({ group: '', plural: 'pods' }, podName, `no PriorityClass with name ${className} was found`);
  spec['priority'] = value;
  if (unset(spec, 'preemptionPolicy')) spec['preemptionPolicy'] = stored === undefined ? 'PreemptLowerPriority' : (stored['preemptionPolicy'] ?? 'PreemptLowerPriority');
}

/** Whether a toleration the Pod has already covers the NoExecute taint `key`. */
function tolerates(tolerations: Json[], key: string): boolean {
  return tolerations.some((t) => {
    const effect = textAt(t, 'effect');
    const keyMatches = textAt(t, 'key') === key || (textAt(t, 'key') === '' && t['operator'] === 'Exists');
    return keyMatches && (effect === '' || effect === 'NoExecute');
  });
}

function tolerations(spec: Json): void {
  const given = objectsAt(spec, 'tolerations');
  const added = NODE_TAINTS.filter((key) => !tolerates(given, key)).map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: TOLERATION_SECONDS }));
  if (added.length > 0) spec['tolerations'] = [...given, ...added];
}

/** kube's QoS class: BestEffort without CPU or memory requests and limits, Guaranteed when each container's equal and set, else Burstable. */
function qosClass(spec: Json): string {
  const containers = [...objectsAt(spec, 'containers'), ...objectsAt(spec, 'initContainers')];
  let any = false;
  let guaranteed = true;
  for (const container of containers) {
    const resources = objectAt(container, 'resources') ?? {};
    const requests = objectAt(resources, 'requests') ?? {};
    const limits = objectAt(resources, 'limits') ?? {};
    for (const name of ['cpu', 'memory']) {
      const request = requests[name];
      const limit = limits[name];
      if ((request !== undefined && compareQuantities(request, 0) !== 0) || limit !== undefined) any = true;
      if (limit === undefined || (request !== undefined && compareQuantities(request, limit) !== 0)) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** A new Pod's admission fields and first status, in place; throws 403 for a PriorityClass that does not exist. */
export function admitNewPod(pod: Json, store: ObjectStore): void {
  const spec = ensureObject(pod, 'spec');
  priority(spec, store, textAt(objectAt(pod, 'metadata') ?? {}, 'name'));
  tolerations(spec);
  pod['status'] = { phase: 'Pending', qosClass: qosClass(spec) };
}
