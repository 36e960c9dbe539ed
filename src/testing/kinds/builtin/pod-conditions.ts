/**
 * A Pod condition set as kube's UpdatePodCondition sets it (the binding registry, the eviction registry, the
 * disruption controller): added when the Pod has none of its type, else replacing that one whole, its transition
 * time kept when the status is unchanged. Pure.
 */
import { isJsonObject } from '../../patch/json-value.js';

export interface PodCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

/** The conditions with `condition` set at `now` (an RFC 3339 time), in Go's field order. */
export function withPodCondition(conditions: readonly unknown[], condition: PodCondition, now: string): unknown[] {
  const index = conditions.findIndex((c) => isJsonObject(c) && c['type'] === condition.type);
  const old = conditions[index];
  const lastTransitionTime = isJsonObject(old) && old['status'] === condition.status ? (old['lastTransitionTime'] ?? null) : now;
  const set = {
    type: condition.type,
    status: condition.status,
    lastProbeTime: null,
    lastTransitionTime,
    ...(condition.reason === undefined ? {} : { reason: condition.reason }),
    ...(condition.message === undefined ? {} : { message: condition.message }),
  };
  return index < 0 ? [...conditions, set] : conditions.map((c, i) => (i === index ? set : c));
}
