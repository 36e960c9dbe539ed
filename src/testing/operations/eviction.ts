/**
 * Evicting a Pod (`POST pods/{name}/eviction`), as kube-apiserver's EvictionREST does it: a Pod that is Pending,
 * ended or already terminating is deleted at once; otherwise the one PodDisruptionBudget that selects it must allow
 * a disruption (its status observed, `disruptionsAllowed` above zero), which the eviction takes: it decrements the
 * count and records the Pod in `status.disruptedPods` (a write of `kube-apiserver` to the budget's `/status`), so the
 * disruption controller does not count it healthy while it goes. An unready Pod is deleted without taking one when
 * the budget is healthy anyway or says `AlwaysAllow`. Before deleting, the Pod gets the `DisruptionTarget`
 * condition (not in a dry run). Refusals are kube's: 429 `TooManyRequests` with a `DisruptionBudget` cause, 403 for
 * a budget that cannot allow anything, 500 for a Pod two budgets select.
 */
import type { Cluster } from '../cluster.js';
import {
  BUDGETS_KEY,
  budgetsOfPod,
  podReady,
  withDisruptionAllowed,
} from '../kinds/builtin/disruption-budgets.js';
import { objectAt, objectsAt, type Json } from '../kinds/builtin/fields.js';
import { withPodCondition } from '../kinds/builtin/pod-conditions.js';
import type { ResourceView } from '../resources/resource-type.js';
import { forbidden, notFound, StatusError, type StatusCause } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { checkPreconditions, deleteObject } from './delete.js';
import type { DeleteOptions } from './delete-options.js';
import { isDeleting } from './object-rules.js';
import { systemUpdate } from './system-write.js';

/** The condition an eviction marks its Pod with before deleting it. */
const DISRUPTION_TARGET = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' } as const;
/** More entries than this in `disruptedPods` means the controller has fallen behind: no more evictions (kube's MaxDisruptedPodSize). */
const MAX_DISRUPTED_PODS = 2000;
/** The field manager of the eviction's write to a budget's status (kube-apiserver's loopback client). */
const API_SERVER = 'kube-apiserver';

/** What an Eviction asks. */
export interface Eviction {
  readonly namespace: string;
  readonly name: string;
  /** Its deleteOptions, checked. */
  readonly deleteOptions: DeleteOptions;
  /**
   * kube-apiserver checks the options only as it deletes, after the condition is written: a refusal found while
   * decoding them waits until then.
   */
  readonly refusal?: StatusError;
  /** Any `dryRun` value was asked (kube's IsDryRun: the condition is not written, the budget not changed). */
  readonly dryRun: boolean;
}

function statusOf(object: KubeObject): Json {
  return objectAt(object, 'status') ?? {};
}

/** Pending, ended or terminating: the disruption has happened already, no budget is asked (kube's canIgnorePDB). */
function ignoresBudgets(pod: KubeObject): boolean {
  const phase = statusOf(pod)['phase'];
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || isDeleting(pod);
}

function tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  const causes: StatusCause[] = [{ reason: 'DisruptionBudget', message }];
  return new StatusError(
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: retryAfterSeconds > 0 ? { causes, retryAfterSeconds } : { causes },
      code: 429,
    },
    retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
}

function budgetForbids(name: string, why: string, cause: string): StatusError {
  return forbidden({ group: 'policy', plural: 'poddisruptionbudget' }, name, why, [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} does not allow evicting pods currently: ${cause}` }]);
}

/** Why a budget allowing no disruption refuses, in the words kube-apiserver picks from its status. */
function zeroBudgetMessage(name: string, status: Json): string {
  const condition = objectsAt(status, 'conditions').find((c) => c['type'] === 'DisruptionAllowed');
  const failed = condition !== undefined && condition['status'] === 'False' && typeof condition['message'] === 'string' && condition['message'] !== '';
  if (failed && condition['reason'] === 'SyncFailed') return `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${String(condition['message'])}`;
  const current = Number(status['currentHealthy'] ?? 0);
  const desired = Number(status['desiredHealthy'] ?? 0);
  if (current <= desired) return `The disruption budget ${name} needs ${desired} healthy pods and has ${current} currently`;
  if (failed) return `The disruption budget ${name} does not allow evicting pods currently (${String(condition['reason'])}): ${String(condition['message'])}`;
  return `The disruption budget ${name} does not allow evicting pods currently`;
}

/** Takes one disruption from the budget, or refuses (kube's checkAndDecrement). */
function takeDisruption(cluster: Cluster, budget: StoredRecord, pod: string, dryRun: boolean): void {
  const status = statusOf(budget.object);
  const generation = Number(metadataOf(budget.object)['generation'] ?? 0);
  if (Number(status['observedGeneration'] ?? 0) < generation) throw tooManyRequests(`The disruption budget ${budget.name} is still being processed by the server.`, 10);
  const allowed = Number(status['disruptionsAllowed'] ?? 0);
  if (allowed < 0) throw budgetForbids(budget.name, 'pdb disruptions allowed is negative', 'pdb disruptions allowed is negative');
  const disrupted = objectAt(status, 'disruptedPods') ?? {};
  if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) {
    throw budgetForbids(budget.name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller', 'too many pending evictions not confirmed by PDB controller');
  }
  if (allowed === 0) throw tooManyRequests(zeroBudgetMessage(budget.name, status), 0);
  if (dryRun) return;
  const now = cluster.now();
  systemUpdate(
    cluster,
    BUDGETS_KEY,
    budget,
    (next) => {
      const left = allowed - 1;
      const conditions = objectsAt(status, 'conditions');
      next['status'] = {
        ...status,
        disruptionsAllowed: left,
        disruptedPods: { ...disrupted, [pod]: now },
        ...(left === 0 ? { conditions: withDisruptionAllowed(conditions, 0, Number(status['observedGeneration'] ?? 0), now) } : {}),
      };
    },
    API_SERVER,
  );
}

/**
 * Marks the Pod as a disruption target and deletes it (kube's addConditionAndDeletePod): the preconditions are
 * checked against the Pod first, a resourceVersion precondition then follows the condition's write.
 */
function markAndDelete(cluster: Cluster, podView: ResourceView, eviction: Eviction, options: DeleteOptions): void {
  const { namespace, name } = eviction;
  let deleting = options;
  if (!eviction.dryRun) {
    const pod = cluster.store.get(podView.type.key, namespace, name);
    if (pod === undefined) throw notFound(podView.type, name);
    checkPreconditions(podView, pod, options);
    const now = cluster.now();
    const marked = systemUpdate(cluster, podView.type.key, pod, (next) => {
      next['status'] = { ...statusOf(pod.object), conditions: withPodCondition(objectsAt(statusOf(pod.object), 'conditions'), DISRUPTION_TARGET, now) };
    });
    const asked = options.preconditions;
    if (asked?.resourceVersion !== undefined) deleting = { ...options, preconditions: { ...asked, resourceVersion: String(marked.rv) } };
  }
  if (eviction.refusal !== undefined) throw eviction.refusal;
  deleteObject(cluster, podView, namespace, name, deleting);
}

/** The options with the Pod's resourceVersion as a precondition, unless one was asked. */
function pinned(options: DeleteOptions, pod: StoredRecord): DeleteOptions {
  if (options.preconditions?.resourceVersion !== undefined) return options;
  return { ...options, preconditions: { ...options.preconditions, resourceVersion: String(pod.rv) } };
}

/** Evicts the Pod, or throws kube-apiserver's refusal. */
export function evictPod(cluster: Cluster, podView: ResourceView, eviction: Eviction): void {
  const { namespace, name, deleteOptions } = eviction;
  const pod = cluster.store.get(podView.type.key, namespace, name);
  if (pod === undefined) throw notFound(podView.type, name);
  if (ignoresBudgets(pod.object)) {
    const phase = statusOf(pod.object)['phase'];
    // A Pod that is not over yet is deleted as read: one becoming ready meanwhile would violate its budget.
    const ended = phase === 'Succeeded' || phase === 'Failed' || isDeleting(pod.object);
    markAndDelete(cluster, podView, eviction, ended ? deleteOptions : pinned(deleteOptions, pod));
    return;
  }
  const budgets = budgetsOfPod(cluster.store.list(BUDGETS_KEY, namespace), pod.object);
  if (budgets.length > 1) {
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
  }
  const budget = budgets[0];
  if (budget === undefined) {
    markAndDelete(cluster, podView, eviction, deleteOptions);
    return;
  }
  if (!podReady(pod.object)) {
    const spec = objectAt(budget.object, 'spec') ?? {};
    const status = statusOf(budget.object);
    const desired = Number(status['desiredHealthy'] ?? 0);
    // An unready Pod is not part of what the budget protects when the budget says so, or is healthy without it.
    if (spec['unhealthyPodEvictionPolicy'] === 'AlwaysAllow' || (Number(status['currentHealthy'] ?? 0) >= desired && desired > 0)) {
      markAndDelete(cluster, podView, eviction, pinned(deleteOptions, pod));
      return;
    }
  }
  takeDisruption(cluster, budget, name, eviction.dryRun);
  markAndDelete(cluster, podView, eviction, deleteOptions);
}
