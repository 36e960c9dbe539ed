/**
 * Which defaulter each built-in resource has (kube-apiserver's decoder runs it on every object it reads from a
 * request or from storage), and the call that applies it to a copy.
 */
import {
  ADMISSION_POLICIES_KEY,
  MUTATING_POLICIES_KEY,
  MUTATING_POLICY_BINDINGS_KEY,
  MUTATING_WEBHOOKS_KEY,
  NAMESPACES_KEY,
  POLICY_BINDINGS_KEY,
  VALIDATING_WEBHOOKS_KEY,
} from '../../resources/builtin-resources.js';
import type { KubeObject } from '../../store/record.js';
import {
  admissionPolicyDefaults,
  endpointSliceDefaults,
  horizontalPodAutoscalerDefaults,
  limitRangeDefaults,
  namespaceDefaults,
  networkPolicyDefaults,
  persistentVolumeClaimDefaults,
  persistentVolumeDefaults,
  policyBindingDefaults,
  priorityClassDefaults,
  resourceQuotaDefaults,
  roleBindingDefaults,
  secretDefaults,
  storageClassDefaults,
  webhookConfigurationDefaults,
} from './other-defaults.js';
import type { Json } from './fields.js';
import { podDefaults } from './pod-defaults.js';
import { serviceDefaults } from './service-defaults.js';
import { cronJobDefaults, daemonSetDefaults, deploymentDefaults, jobDefaults, replicaSetDefaults, statefulSetDefaults } from './workload-defaults.js';

/** A kind's defaulter: fills `object` in place; `kind` names it in a decoding error. */
type Defaulter = (object: Json, kind: string) => void;

const DEFAULTERS: ReadonlyMap<string, Defaulter> = new Map<string, Defaulter>([
  ['/pods', podDefaults],
  ['/services', serviceDefaults],
  ['/secrets', secretDefaults],
  ['/persistentvolumeclaims', persistentVolumeClaimDefaults],
  ['/persistentvolumes', persistentVolumeDefaults],
  ['/resourcequotas', resourceQuotaDefaults],
  ['/limitranges', limitRangeDefaults],
  [NAMESPACES_KEY, namespaceDefaults],
  ['apps/deployments', deploymentDefaults],
  ['apps/statefulsets', statefulSetDefaults],
  ['apps/daemonsets', daemonSetDefaults],
  ['apps/replicasets', replicaSetDefaults],
  ['batch/jobs', jobDefaults],
  ['batch/cronjobs', cronJobDefaults],
  ['networking.k8s.io/networkpolicies', networkPolicyDefaults],
  ['autoscaling/horizontalpodautoscalers', horizontalPodAutoscalerDefaults],
  ['rbac.authorization.k8s.io/rolebindings', roleBindingDefaults],
  ['rbac.authorization.k8s.io/clusterrolebindings', roleBindingDefaults],
  ['storage.k8s.io/storageclasses', storageClassDefaults],
  ['scheduling.k8s.io/priorityclasses', priorityClassDefaults],
  ['discovery.k8s.io/endpointslices', endpointSliceDefaults],
  [VALIDATING_WEBHOOKS_KEY, (object) => webhookConfigurationDefaults(object, false)],
  [MUTATING_WEBHOOKS_KEY, (object) => webhookConfigurationDefaults(object, true)],
  [ADMISSION_POLICIES_KEY, admissionPolicyDefaults],
  [POLICY_BINDINGS_KEY, policyBindingDefaults],
  // A MutatingAdmissionPolicy and its binding are defaulted as a ValidatingAdmissionPolicy and its binding.
  [MUTATING_POLICIES_KEY, admissionPolicyDefaults],
  [MUTATING_POLICY_BINDINGS_KEY, policyBindingDefaults],
]);

/**
 * `object` (of the built-in resource `type`) with the defaults kube-apiserver decodes it with: a defaulted copy, or
 * `object` itself when the kind has no defaulter (ConfigMaps, ServiceAccounts, Leases...). The copy keeps a caller's
 * object, and any part of it shared with a stored one, as it was.
 */
export function withBuiltinDefaults(type: { readonly key: string; readonly kind: string }, object: KubeObject): KubeObject {
  const defaulter = DEFAULTERS.get(type.key);
  if (defaulter === undefined) return object;
  const copy = structuredClone(object);
  defaulter(copy, type.kind);
  return copy;
}
