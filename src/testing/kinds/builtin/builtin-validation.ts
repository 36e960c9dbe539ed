/**
 * Which validation each built-in resource has, on create and on update (kube-apiserver's registry strategies'
 * Validate and ValidateUpdate), and the call that gives a write's problems in kube-apiserver's order.
 */
import {
  ADMISSION_POLICIES_KEY,
  MUTATING_POLICIES_KEY,
  MUTATING_POLICY_BINDINGS_KEY,
  MUTATING_WEBHOOKS_KEY,
  POLICY_BINDINGS_KEY,
  VALIDATING_WEBHOOKS_KEY,
} from '../../resources/builtin-resources.js';
import type { FieldProblem } from '../../status-errors.js';
import type { KubeObject } from '../../store/record.js';
import { admissionPolicyProblems, admissionPolicyUpdateProblems, policyBindingProblems, policyBindingUpdateProblems } from './admission-policy-validation.js';
import { containerWarnings } from './container-validation.js';
import { mutatingBindingProblems, mutatingBindingUpdateProblems, mutatingPolicyProblems, mutatingPolicyUpdateProblems } from './mutating-policy-validation.js';
import { objectAt, type Json } from './fields.js';
import {
  configMapProblems,
  configMapUpdateProblems,
  ingressProblems,
  persistentVolumeClaimProblems,
  roleBindingProblems,
  roleBindingUpdateProblems,
  roleProblems,
  secretProblems,
  secretUpdateProblems,
} from './other-validation.js';
import {
  daemonSetUpdateProblems,
  deploymentUpdateProblems,
  jobUpdateProblems,
  persistentVolumeClaimUpdateProblems,
  replicaSetUpdateProblems,
  statefulSetUpdateProblems,
} from './immutable-fields.js';
import { budgetStatusProblems } from './disruption-budgets.js';
import { podProblems, podUpdateProblems } from './pod-validation.js';
import { horizontalPodAutoscalerProblems, limitRangeProblems, networkPolicyProblems, podDisruptionBudgetProblems, resourceQuotaProblems } from './policy-validation.js';
import { serviceProblems } from './service-validation.js';
import { webhookConfigurationProblems, webhookConfigurationUpdateProblems, webhookRuleWarnings } from './webhook-configuration-validation.js';
import { cronJobProblems, daemonSetProblems, deploymentProblems, jobProblems, replicaSetProblems, statefulSetProblems } from './workload-validation.js';

interface Validation {
  create(object: Json): FieldProblem[];
  /** The problems of an update; without it, the object is judged as on create. */
  update?(object: Json, old: Json): FieldProblem[];
}

const VALIDATIONS: ReadonlyMap<string, Validation> = new Map<string, Validation>([
  ['/pods', { create: podProblems, update: podUpdateProblems }],
  ['/services', { create: serviceProblems }],
  ['/configmaps', { create: configMapProblems, update: configMapUpdateProblems }],
  ['/secrets', { create: secretProblems, update: secretUpdateProblems }],
  ['/persistentvolumeclaims', { create: persistentVolumeClaimProblems, update: persistentVolumeClaimUpdateProblems }],
  ['apps/deployments', { create: deploymentProblems, update: deploymentUpdateProblems }],
  ['apps/replicasets', { create: replicaSetProblems, update: replicaSetUpdateProblems }],
  ['apps/statefulsets', { create: statefulSetProblems, update: statefulSetUpdateProblems }],
  ['apps/daemonsets', { create: daemonSetProblems, update: daemonSetUpdateProblems }],
  ['batch/jobs', { create: (o) => jobProblems(o), update: jobUpdateProblems }],
  ['batch/cronjobs', { create: cronJobProblems }],
  ['networking.k8s.io/ingresses', { create: ingressProblems }],
  ['networking.k8s.io/networkpolicies', { create: networkPolicyProblems }],
  ['autoscaling/horizontalpodautoscalers', { create: horizontalPodAutoscalerProblems }],
  ['policy/poddisruptionbudgets', { create: podDisruptionBudgetProblems }],
  ['/resourcequotas', { create: resourceQuotaProblems }],
  ['/limitranges', { create: limitRangeProblems }],
  ['rbac.authorization.k8s.io/roles', { create: roleProblems }],
  ['rbac.authorization.k8s.io/clusterroles', { create: roleProblems }],
  ['rbac.authorization.k8s.io/rolebindings', { create: (o) => roleBindingProblems(o, true), update: (o, old) => roleBindingUpdateProblems(o, old, true) }],
  ['rbac.authorization.k8s.io/clusterrolebindings', { create: (o) => roleBindingProblems(o, false), update: (o, old) => roleBindingUpdateProblems(o, old, false) }],
  [ADMISSION_POLICIES_KEY, { create: admissionPolicyProblems, update: admissionPolicyUpdateProblems }],
  [POLICY_BINDINGS_KEY, { create: policyBindingProblems, update: policyBindingUpdateProblems }],
  [MUTATING_POLICIES_KEY, { create: mutatingPolicyProblems, update: mutatingPolicyUpdateProblems }],
  [MUTATING_POLICY_BINDINGS_KEY, { create: mutatingBindingProblems, update: mutatingBindingUpdateProblems }],
  [VALIDATING_WEBHOOKS_KEY, { create: (o) => webhookConfigurationProblems(o, false), update: (o, old) => webhookConfigurationUpdateProblems(o, old, false) }],
  [MUTATING_WEBHOOKS_KEY, { create: (o) => webhookConfigurationProblems(o, true), update: (o, old) => webhookConfigurationUpdateProblems(o, old, true) }],
]);

/** Where each kind holds a pod spec, for the warnings kube-apiserver gives about it. */
const POD_SPEC_PATHS: ReadonlyMap<string, string> = new Map([
  ['/pods', 'spec'],
  ['apps/deployments', 'spec.template.spec'],
  ['apps/replicasets', 'spec.template.spec'],
  ['apps/statefulsets', 'spec.template.spec'],
  ['apps/daemonsets', 'spec.template.spec'],
  ['batch/jobs', 'spec.template.spec'],
  ['batch/cronjobs', 'spec.jobTemplate.spec.template.spec'],
]);

/** The warnings kube-apiserver answers a write of `object` with (about its pod spec, or a webhook's rules). */
export function builtinWarnings(key: string, object: KubeObject): string[] {
  if (key === VALIDATING_WEBHOOKS_KEY || key === MUTATING_WEBHOOKS_KEY) return webhookRuleWarnings(object);
  const path = POD_SPEC_PATHS.get(key);
  if (path === undefined) return [];
  let spec: Json | undefined = object;
  for (const field of path.split('.')) spec = spec === undefined ? undefined : objectAt(spec, field);
  return spec === undefined ? [] : containerWarnings(spec, path);
}

/** The kinds whose status strategy validates a `/status` write (the rest store any status). */
const STATUS_VALIDATIONS: ReadonlyMap<string, (object: Json) => FieldProblem[]> = new Map([['policy/poddisruptionbudgets', budgetStatusProblems]]);

/** The problems kube-apiserver finds in a `/status` write of `object` (of the built-in resource `key`). */
export function builtinStatusProblems(key: string, object: KubeObject): FieldProblem[] {
  return STATUS_VALIDATIONS.get(key)?.(object) ?? [];
}

/** The problems kube-apiserver finds in a write of `object` (of the built-in resource `key`; `old`: the stored one of an update). */
export function builtinProblems(key: string, object: KubeObject, old: KubeObject | undefined): FieldProblem[] {
  const validation = VALIDATIONS.get(key);
  if (validation === undefined) return [];
  return old !== undefined && validation.update !== undefined ? validation.update(object, old) : validation.create(object);
}
