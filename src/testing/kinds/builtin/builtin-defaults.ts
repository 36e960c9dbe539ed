/**
 * Which defaulter each built-in resource has (kube-apiserver's decoder runs it on every object it reads from a
 * request or from storage), and the call that applies it to a copy.
 */
import { MUTATING_WEBHOOKS_KEY, NAMESPACES_KEY, VALIDATING_WEBHOOKS_KEY } from '../../resources/builtin-resources.js';
import type { KubeObject } from '../../store/record.js';
import {
  endpointSliceDefaults,
  horizontalPodAutoscalerDefaults,
  namespaceDefaults,
  networkPolicyDefaults,
  persistentVolumeClaimDefaults,
  persistentVolumeDefaults,
  priorityClassDefaults,
  roleBindingDefaults,
  secretDefaults,
  storageClassDefaults,
  webhookConfigurationDefaults,
} from './other-defaults.js';
import type { Json } from './fields.js';
import { podDefaults } from './pod-defaults.js';
import { serviceDefaults } from './service-defaults.js';
import { cronJobDefaults, daemonSetDefaults, deploymentDefaults, jobDefaults, replicaSetDefaults, statefulSetDefaults } from './workload-defaults.js';

const DEFAULTERS: ReadonlyMap<string, (object: Json) => void> = new Map<string, (object: Json) => void>([
  ['/pods', podDefaults],
  ['/services', serviceDefaults],
  ['/secrets', secretDefaults],
  ['/persistentvolumeclaims', persistentVolumeClaimDefaults],
  ['/persistentvolumes', persistentVolumeDefaults],
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
]);

/**
 * `object` (of the built-in resource `key`) with the defaults kube-apiserver decodes it with: a defaulted copy, or
 * `object` itself when the kind has no defaulter (ConfigMaps, ServiceAccounts, Leases...). The copy keeps a caller's
 * object, and any part of it shared with a stored one, as it was.
 */
export function withBuiltinDefaults(key: string, object: KubeObject): KubeObject {
  const defaulter = DEFAULTERS.get(key);
  if (defaulter === undefined) return object;
  const copy = structuredClone(object);
  defaulter(copy);
  return copy;
}
