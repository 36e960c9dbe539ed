/**
 * The simulated disruption controller, after kube-controller-manager's: it keeps every PodDisruptionBudget's status
 * (what the eviction subresource reads) as the Pods it selects change. `expectedPods` and `desiredHealthy` come from
 * `minAvailable` (a count: the selected Pods) or from the scale of the Pods' controllers (a percentage, or
 * `maxUnavailable`: Deployments through their ReplicaSets, ReplicaSets, StatefulSets, ReplicationControllers and
 * anything with a `/scale` subresource); `currentHealthy` counts the Ready Pods that are neither terminating nor
 * being evicted (`disruptedPods`, kept for two minutes); `disruptionsAllowed` is what is left above the desired.
 * A budget whose Pods it cannot count (a Pod whose controller is gone, or has no scale) allows nothing, with
 * `DisruptionAllowed` False `SyncFailed`. Its Events are kube's (`NoPods`, `UnmanagedPods`,
 * `CalculateExpectedPodCountFailed`, `NotDeleted`), as `controllermanager`. A Pod left with the eviction's
 * `DisruptionTarget` condition that did not go is given the condition False after two minutes.
 */
import type { Cluster } from '../../cluster.js';
import {
  BUDGETS_KEY,
  budgetSelects,
  DISRUPTION_TIMEOUT_MS,
  disruptionAllowedUpToDate,
  podReady,
  withDisruptionAllowed,
} from '../../kinds/builtin/disruption-budgets.js';
import { objectAt, objectsAt, type Json } from '../../kinds/builtin/fields.js';
import { withPodCondition } from '../../kinds/builtin/pod-conditions.js';
import { jsonEqual } from '../../patch/json-value.js';
import { isDeleting } from '../../operations/object-rules.js';
import { systemUpdate } from '../../operations/system-write.js';
import type { ResourceType } from '../../resources/resource-type.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../../store/record.js';
import type { EventRecorder } from '../event-recorder.js';
import { DeferredTimers } from './deferred-timers.js';
import { expectedPodCount, ExpectedCountError } from './disruption-scale.js';
import { count, statusOf } from './object-fields.js';
import { MANAGER, PODS_KEY } from './owned-objects.js';

/** The component the disruption controller's Events name. */
const COMPONENT = 'controllermanager';
/** How long the eviction's DisruptionTarget condition may stay on a Pod that did not go (kube's stalePodDisruptionTimeout). */
const STALE_CONDITION_MS = 2 * 60 * 1000;

/** Go's `%v` of a `*metav1.LabelSelector` (gogo-protobuf's String), as the UnmanagedPods Event prints it. */
function goSelector(selector: Json | undefined): string {
  if (selector === undefined) return 'nil';
  const labels = objectAt(selector, 'matchLabels') ?? {};
  const pairs = Object.keys(labels)
    .sort()
    .map((key) => `${key}: ${String(labels[key])},`)
    .join('');
  const requirements = objectsAt(selector, 'matchExpressions')
    .map((r) => `LabelSelectorRequirement{Key:${String(r['key'] ?? '')},Operator:${String(r['operator'] ?? '')},Values:[${(Array.isArray(r['values']) ? r['values'] : []).map(String).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${pairs}},MatchExpressions:[]LabelSelectorRequirement{${requirements}},}`;
}

/**
 * When the eviction's `DisruptionTarget` mark on a Pod turns stale: two minutes after it was set, for a Pod that is
 * neither terminating nor ended (kube's nonTerminatingPodHasStaleDisruptionCondition; the kubelet's mark never does).
 */
function staleMarkAt(pod: KubeObject): number | undefined {
  const status = statusOf(pod);
  const condition = objectsAt(status, 'conditions').find((c) => c['type'] === 'DisruptionTarget');
  const phase = status['phase'];
  if (condition === undefined || condition['status'] !== 'True' || condition['reason'] === 'TerminationByKubelet' || phase === 'Succeeded' || phase === 'Failed' || isDeleting(pod)) return undefined;
  const since = Date.parse(String(condition['lastTransitionTime'] ?? ''));
  return Number.isNaN(since) ? 0 : since + STALE_CONDITION_MS;
}

export class DisruptionController {
  private readonly queued = new Set<string>();
  private readonly timers: DeferredTimers;

  constructor(
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
  ) {
    this.timers = new DeferredTimers(cluster);
  }

  cancel(): void {
    this.timers.cancel();
    this.queued.clear();
  }

  /** Reacts to a commit of a budget (it is synced) or of a Pod (the budgets selecting it, before or after, are). */
  observe(type: ResourceType, record: StoredRecord, deleted: boolean, prev: StoredRecord | undefined): void {
    if (type.key === BUDGETS_KEY) {
      if (deleted) this.timers.clear(`budget/${record.uid}`);
      else this.enqueue(record.namespace, record.name);
      return;
    }
    if (type.key !== PODS_KEY) return;
    for (const budget of this.cluster.store.list(BUDGETS_KEY, record.namespace)) {
      if (budgetSelects(budget.object, record.object) || (prev !== undefined && budgetSelects(budget.object, prev.object))) this.enqueue(budget.namespace, budget.name);
    }
    if (deleted) this.timers.clear(`pod/${record.uid}`);
    else this.watchStaleCondition(record);
  }

  private enqueue(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.cluster.defer(() => {
      this.queued.delete(key);
      this.sync(namespace, name);
    });
  }

  private record(object: KubeObject, kind: 'PodDisruptionBudget' | 'Pod', type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.record(COMPONENT, { apiVersion: kind === 'Pod' ? 'v1' : 'policy/v1', kind, object }, type, reason, message);
  }

  private sync(namespace: string, name: string): void {
    const budget = this.cluster.store.get(BUDGETS_KEY, namespace, name);
    if (budget === undefined) return;
    const object = budget.object;
    const pods = this.cluster.store.list(PODS_KEY, namespace).filter((pod) => budgetSelects(object, pod.object));
    if (pods.length === 0) this.record(object, 'PodDisruptionBudget', 'Normal', 'NoPods', 'No matching pods found');
    let counted;
    try {
      counted = expectedPodCount(this.cluster, object, pods);
    } catch (error) {
      if (!(error instanceof ExpectedCountError)) throw error;
      this.record(object, 'PodDisruptionBudget', 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${error.message}`);
      this.failSafe(budget, error.message);
      return;
    }
    if (counted.unmanaged.length > 0) {
      const selector = objectAt(objectAt(object, 'spec') ?? {}, 'selector');
      this.record(
        object,
        'PodDisruptionBudget',
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${goSelector(selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    const now = this.cluster.clock.now();
    const { disrupted, recheckAt } = this.disruptedPods(budget, pods, now);
    const currentHealthy = pods.filter((pod) => !isDeleting(pod.object) && disrupted[pod.name] === undefined && podReady(pod.object)).length;
    this.writeStatus(budget, currentHealthy, counted.desiredHealthy, counted.expected, disrupted);
    if (recheckAt !== undefined) this.timers.schedule(`budget/${budget.uid}`, recheckAt - now, () => this.sync(namespace, name));
  }

  /**
   * The evictions still pending (kube's buildDisruptedPodMap): entries of Pods that are selected and not yet
   * terminating, younger than two minutes; an older one is dropped with a `NotDeleted` Event on its Pod.
   */
  private disruptedPods(budget: StoredRecord, pods: readonly StoredRecord[], now: number): { disrupted: Record<string, string>; recheckAt: number | undefined } {
    const recorded = objectAt(statusOf(budget.object), 'disruptedPods') ?? {};
    const disrupted: Record<string, string> = {};
    let recheckAt: number | undefined;
    for (const pod of pods) {
      const at = recorded[pod.name];
      if (isDeleting(pod.object) || typeof at !== 'string') continue;
      const expires = Date.parse(at) + DISRUPTION_TIMEOUT_MS;
      // Due is expired: kube's strict "before now" would wait on a clock that does not move (a fake one) forever.
      if (expires <= now) {
        // kube's message names the budget's namespace twice.
        this.record(pod.object, 'Pod', 'Warning', 'NotDeleted', `Pod was expected by PDB ${budget.namespace}/${budget.namespace} to be deleted but it wasn't`);
        continue;
      }
      disrupted[pod.name] = at;
      if (recheckAt === undefined || expires < recheckAt) recheckAt = expires;
    }
    return { disrupted, recheckAt };
  }

  private writeStatus(budget: StoredRecord, currentHealthy: number, desiredHealthy: number, expectedPods: number, disruptedPods: Record<string, string>): void {
    const object = budget.object;
    const status = statusOf(object);
    const generation = count(metadataOf(object)['generation'], 0);
    const disruptionsAllowed = expectedPods <= 0 || currentHealthy - desiredHealthy <= 0 ? 0 : currentHealthy - desiredHealthy;
    const unchanged =
      count(status['currentHealthy'], 0) === currentHealthy &&
      count(status['desiredHealthy'], 0) === desiredHealthy &&
      count(status['expectedPods'], 0) === expectedPods &&
      count(status['disruptionsAllowed'], 0) === disruptionsAllowed &&
      jsonEqual(objectAt(status, 'disruptedPods') ?? {}, disruptedPods) &&
      count(status['observedGeneration'], 0) === generation &&
      disruptionAllowedUpToDate(object);
    if (unchanged) return;
    const conditions = withDisruptionAllowed(objectsAt(status, 'conditions'), disruptionsAllowed, generation, this.cluster.now());
    const next: Json = {
      ...(generation === 0 ? {} : { observedGeneration: generation }),
      ...(Object.keys(disruptedPods).length === 0 ? {} : { disruptedPods }),
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods,
      conditions,
    };
    systemUpdate(this.cluster, BUDGETS_KEY, budget, (updated) => void (updated['status'] = next), MANAGER);
  }

  /** kube's failSafe: nothing allowed, `DisruptionAllowed` False `SyncFailed` with the error; the rest as it was. */
  private failSafe(budget: StoredRecord, message: string): void {
    const status = statusOf(budget.object);
    const observed = count(status['observedGeneration'], 0);
    const conditions = objectsAt(status, 'conditions');
    const existing = conditions.find((c) => c['type'] === 'DisruptionAllowed');
    const lastTransitionTime = existing?.['status'] === 'False' && typeof existing['lastTransitionTime'] === 'string' ? existing['lastTransitionTime'] : this.cluster.now();
    const condition: Json = { type: 'DisruptionAllowed', status: 'False', ...(observed === 0 ? {} : { observedGeneration: observed }), lastTransitionTime, reason: 'SyncFailed', message };
    const next: Json = { ...status, disruptionsAllowed: 0, conditions: existing === undefined ? [...conditions, condition] : conditions.map((c) => (c === existing ? condition : c)) };
    systemUpdate(this.cluster, BUDGETS_KEY, budget, (updated) => void (updated['status'] = next), MANAGER);
  }

  /** A Pod the eviction marked that is still there, not terminating and not ended: its mark goes False in time. */
  private watchStaleCondition(pod: StoredRecord): void {
    const key = `pod/${pod.uid}`;
    const at = staleMarkAt(pod.object);
    if (at === undefined) this.timers.clear(key);
    else this.timers.schedule(key, at - this.cluster.clock.now(), () => this.resetCondition(pod.namespace, pod.name, pod.uid));
  }

  private resetCondition(namespace: string, name: string, uid: string): void {
    const pod = this.cluster.store.get(PODS_KEY, namespace, name);
    const at = pod === undefined || pod.uid !== uid ? undefined : staleMarkAt(pod.object);
    if (pod === undefined || at === undefined) return;
    if (at > this.cluster.clock.now()) {
      this.watchStaleCondition(pod);
      return;
    }
    const now = this.cluster.now();
    systemUpdate(
      this.cluster,
      PODS_KEY,
      pod,
      (next) => {
        const status = statusOf(pod.object);
        next['status'] = { ...status, conditions: withPodCondition(objectsAt(status, 'conditions'), { type: 'DisruptionTarget', status: 'False' }, now) };
      },
      MANAGER,
    );
  }
}
