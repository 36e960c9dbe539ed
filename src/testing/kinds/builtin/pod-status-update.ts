/**
 * A Pod's `/status` write as kube-apiserver's pod status strategy and decoder leave it: the QoS class and the
 * resource-claim statuses a writer left out are kept from the stored Pod, so are the observed generations (of the
 * status and, per condition type, of its conditions), and every condition reads as Go writes a PodCondition: its
 * fields in Go's order, `lastProbeTime` and `lastTransitionTime` null when not set. Operators' tests write a Pod's
 * status by hand (`{ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }`) and read back what a
 * cluster answers.
 */
import type { KubeObject } from '../../store/record.js';
import { objectAt, objectsAt, type Json } from './fields.js';

/** Status fields kept from the stored Pod when the write leaves them out (PrepareForUpdate's backfills). */
const KEPT_WHEN_ABSENT = ['qosClass', 'resourceClaimStatuses', 'extendedResourceClaimStatus', 'nodeAllocatableResourceClaimStatuses'];
/** PodCondition's fields in the order Go writes them; the two times are non-pointer metav1.Time (null when zero). */
const CONDITION_ORDER = ['type', 'status', 'observedGeneration', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message'];

function absent(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === 0;
}

/** One condition as Go decodes and writes it, with `observedGeneration` from the old one of its type when absent. */
function decodedCondition(condition: Json, oldGeneration: unknown): Json {
  const filled: Json = { ...condition };
  if (absent(filled['observedGeneration']) && !absent(oldGeneration)) filled['observedGeneration'] = oldGeneration;
  const out: Json = {};
  for (const key of CONDITION_ORDER) {
    const value = filled[key];
    if (key === 'lastProbeTime' || key === 'lastTransitionTime') out[key] = value ?? null;
    else if (!absent(value) || key === 'type' || key === 'status') out[key] = value ?? '';
  }
  for (const [key, value] of Object.entries(filled)) if (!CONDITION_ORDER.includes(key)) out[key] = value;
  return out;
}

/** Adjusts `next`, a Pod's `/status` write, from `prev`, the stored Pod (in place). */
export function preparePodStatusUpdate(next: KubeObject, prev: KubeObject): void {
  const status: Json = { ...(objectAt(next, 'status') ?? {}) };
  const old = objectAt(prev, 'status') ?? {};
  for (const key of KEPT_WHEN_ABSENT) if (absent(status[key]) && !absent(old[key])) status[key] = old[key];
  if (absent(status['observedGeneration']) && !absent(old['observedGeneration'])) status['observedGeneration'] = old['observedGeneration'];
  const oldGenerations = new Map<unknown, unknown[]>();
  for (const condition of objectsAt(old, 'conditions')) oldGenerations.set(condition['type'], [...(oldGenerations.get(condition['type']) ?? []), condition['observedGeneration']]);
  if (Array.isArray(status['conditions'])) {
    status['conditions'] = objectsAt(status, 'conditions').map((condition) => decodedCondition(condition, oldGenerations.get(condition['type'])?.shift()));
  }
  next['status'] = status;
}
