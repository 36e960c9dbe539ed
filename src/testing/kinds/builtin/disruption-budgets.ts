/**
 * What a PodDisruptionBudget means, shared by the eviction subresource (operations/eviction.ts) and the simulated
 * disruption controller (controllers/workloads/disruption-controller.ts): which budgets select a Pod, whether a Pod
 * counts as healthy, the `DisruptionAllowed` condition as component-helpers' UpdateDisruptionAllowedCondition sets
 * it, and the status a `/status` write may hold. Pure.
 */
import { fieldInvalid, fieldNotSupported, fieldRequired, type FieldProblem } from '../../status-errors.js';
import type { KubeObject, StoredRecord } from '../../store/record.js';
import { nonNegative, selectorMatches, selectorParses } from './field-rules.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

export const BUDGETS_KEY = 'policy/poddisruptionbudgets';
export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
/** How long an eviction's entry in `status.disruptedPods` keeps its Pod out of the healthy count (kube's DeletionTimeout). */
export const DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;

function labelsOf(object: KubeObject): Json {
  return objectAt(objectAt(object, 'metadata') ?? {}, 'labels') ?? {};
}

/**
 * The budgets of the Pod's namespace whose selector selects it, as the eviction handler finds them: a selector
 * apimachinery cannot parse selects nothing, an absent one nothing, an empty one everything.
 */
export function budgetsOfPod(budgets: readonly StoredRecord[], pod: KubeObject): StoredRecord[] {
  return budgets.filter((budget) => budgetSelects(budget.object, pod));
}

/** Whether a budget selects the Pod (the same rule for the disruption controller). */
export function budgetSelects(budget: KubeObject, pod: KubeObject): boolean {
  const selector = objectAt(objectAt(budget, 'spec') ?? {}, 'selector');
  return selector !== undefined && selectorParses(selector) && selectorMatches(selector, labelsOf(pod));
}

/** A Pod's Ready condition is True (kube's IsPodReady, what counts as healthy). */
export function podReady(pod: KubeObject): boolean {
  return objectsAt(objectAt(pod, 'status') ?? {}, 'conditions').some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

/**
 * The conditions with `DisruptionAllowed` set from `disruptionsAllowed` (True `SufficientPods` above zero, False
 * `InsufficientPods` otherwise), as apimachinery's SetStatusCondition writes it: the transition time moves only
 * when the status does; reason, message and observedGeneration are always written.
 */
export function withDisruptionAllowed(conditions: readonly Json[], disruptionsAllowed: number, observedGeneration: number, now: string): Json[] {
  const allowed = disruptionsAllowed > 0;
  const status = allowed ? 'True' : 'False';
  const existing = conditions.find((c) => c['type'] === DISRUPTION_ALLOWED);
  const lastTransitionTime = existing !== undefined && existing['status'] === status && typeof existing['lastTransitionTime'] === 'string' ? existing['lastTransitionTime'] : now;
  const condition: Json = { type: DISRUPTION_ALLOWED, status, observedGeneration, lastTransitionTime, reason: allowed ? 'SufficientPods' : 'InsufficientPods', message: '' };
  return existing === undefined ? [...conditions, condition] : conditions.map((c) => (c === existing ? condition : c));
}

/** Whether the condition already says what `disruptionsAllowed` means (component-helpers' ConditionsAreUpToDate). */
export function disruptionAllowedUpToDate(budget: KubeObject): boolean {
  const status = objectAt(budget, 'status') ?? {};
  const condition = objectsAt(status, 'conditions').find((c) => c['type'] === DISRUPTION_ALLOWED);
  if (condition === undefined || status['observedGeneration'] !== objectAt(budget, 'metadata')?.['generation']) return false;
  return Number(status['disruptionsAllowed'] ?? 0) > 0 ? condition['status'] === 'True' && condition['reason'] === 'SufficientPods' : condition['status'] === 'False' && condition['reason'] === 'InsufficientPods';
}

const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** The problems of a budget's status, in kube-apiserver's order: its conditions (metav1 rules), then its counts. */
export function budgetStatusProblems(object: KubeObject): FieldProblem[] {
  const status = objectAt(object, 'status') ?? {};
  const problems: FieldProblem[] = [];
  objectsAt(status, 'conditions').forEach((condition, i) => {
    const at = `status.conditions[${i}]`;
    if (textAt(condition, 'type') === '') problems.push(fieldRequired(`${at}.type`));
    const value = textAt(condition, 'status');
    if (!CONDITION_STATUSES.includes(value)) problems.push(fieldNotSupported(`${at}.status`, value, CONDITION_STATUSES));
    const generation = condition['observedGeneration'];
    if (typeof generation === 'number' && generation < 0) problems.push(fieldInvalid(`${at}.observedGeneration`, generation, 'must be greater than or equal to zero'));
    if (textAt(condition, 'lastTransitionTime') === '') problems.push(fieldRequired(`${at}.lastTransitionTime`));
    if (textAt(condition, 'reason') === '') problems.push(fieldRequired(`${at}.reason`));
  });
  for (const field of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) problems.push(...nonNegative(status[field], `status.${field}`));
  return problems;
}
