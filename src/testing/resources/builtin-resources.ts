/**
 * The built-in kinds the test API server serves, with the per-kind facts a real API server has: scope, short
 * names, categories, which kinds have a `/status` subresource and which keep `metadata.generation`, which answer a
 * DELETE with the deleted object.
 */
import { listKeysFor } from '../patch/index.js';
import { apiVersionOf, type NameRule, type ResourceType, type ScaleSubresource } from './resource-type.js';

interface BuiltinSpec {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly status?: boolean;
  readonly generation?: boolean;
  readonly nameRule?: NameRule;
  /** Field selector labels beyond `metadata.name` and `metadata.namespace`. */
  readonly fieldLabels?: readonly string[];
  /** false for the kinds whose selectors lack `metadata.namespace` (kube-apiserver's Namespace and Node). */
  readonly namespaceField?: false;
  /** Whether the kind has a `/scale` subresource (the workloads with `spec.replicas` and `spec.selector`). */
  readonly scale?: true;
  /** Whether a DELETE answers the deleted object (kube-apiserver's `ReturnDeletedObject`). */
  readonly returnsDeleted?: true;
  /** Whether a PUT must carry a resourceVersion (the strategy's AllowUnconditionalUpdate is false). */
  readonly conditionalUpdate?: true;
}

/** The `/scale` subresource of Deployments, ReplicaSets and StatefulSets, as kube-apiserver's registries build it. */
const WORKLOAD_SCALE: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  selector: { path: '.spec.selector', form: 'labelSelector' },
};

const META_FIELDS = ['metadata.name', 'metadata.namespace'];

export const POD_FIELDS = [
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.nominatedNodeName',
];
const EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
];

const ALL = ['all'];

const SPECS: readonly BuiltinSpec[] = [
  { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], status: true, nameRule: 'label', fieldLabels: ['status.phase'], namespaceField: false, returnsDeleted: true },
  { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], status: true, fieldLabels: ['spec.unschedulable'], namespaceField: false },
  { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  { group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true, fieldLabels: ['type'] },
  { group: '', version: 'v1', plural: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ALL, status: true, nameRule: 'label1035', returnsDeleted: true },
  { group: '', version: 'v1', plural: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'], returnsDeleted: true },
  { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ALL, status: true, generation: true, fieldLabels: POD_FIELDS, returnsDeleted: true },
  { group: '', version: 'v1', plural: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'], status: true, returnsDeleted: true },
  { group: '', version: 'v1', plural: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'], status: true, returnsDeleted: true },
  { group: '', version: 'v1', plural: 'limitranges', kind: 'LimitRange', namespaced: true, shortNames: ['limits'] },
  { group: '', version: 'v1', plural: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'], status: true, returnsDeleted: true },
  // A v1 Event's name is only a path segment: its legacy validation leaves ObjectMeta to the generic checks.
  { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'], fieldLabels: EVENT_FIELDS, nameRule: 'path' },
  // events.k8s.io/v1 Events: a store of their own here (a real API server keeps one store for both APIs).
  { group: 'events.k8s.io', version: 'v1', plural: 'events', kind: 'Event', namespaced: true },
  { group: 'discovery.k8s.io', version: 'v1', plural: 'endpointslices', kind: 'EndpointSlice', namespaced: true },
  { group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'], returnsDeleted: true },
  { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ALL, status: true, generation: true, scale: true },
  { group: 'apps', version: 'v1', plural: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], categories: ALL, status: true, generation: true, scale: true },
  { group: 'apps', version: 'v1', plural: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], categories: ALL, status: true, generation: true },
  { group: 'apps', version: 'v1', plural: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ALL, status: true, generation: true, fieldLabels: ['status.replicas'], scale: true },
  { group: 'batch', version: 'v1', plural: 'jobs', kind: 'Job', namespaced: true, categories: ALL, status: true, generation: true, fieldLabels: ['status.successful'] },
  { group: 'batch', version: 'v1', plural: 'cronjobs', kind: 'CronJob', namespaced: true, shortNames: ['cj'], categories: ALL, status: true, generation: true },
  { group: 'networking.k8s.io', version: 'v1', plural: 'ingresses', kind: 'Ingress', namespaced: true, shortNames: ['ing'], status: true, generation: true },
  { group: 'networking.k8s.io', version: 'v1', plural: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'], generation: true },
  { group: 'policy', version: 'v1', plural: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'], status: true, generation: true, conditionalUpdate: true },
  { group: 'scheduling.k8s.io', version: 'v1', plural: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'] },
  { group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, shortNames: ['hpa'], categories: ALL, status: true, generation: true },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'], generation: true, conditionalUpdate: true },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'], generation: true, conditionalUpdate: true },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false, categories: ['api-extensions'], status: true, generation: true, conditionalUpdate: true },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding', namespaced: false, categories: ['api-extensions'], generation: true, conditionalUpdate: true },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'mutatingadmissionpolicies', kind: 'MutatingAdmissionPolicy', namespaced: false, categories: ['api-extensions'], generation: true, conditionalUpdate: true },
  { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'mutatingadmissionpolicybindings', kind: 'MutatingAdmissionPolicyBinding', namespaced: false, categories: ['api-extensions'], generation: true, conditionalUpdate: true },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role', namespaced: true, nameRule: 'path' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', kind: 'RoleBinding', namespaced: true, nameRule: 'path' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles', kind: 'ClusterRole', namespaced: false, nameRule: 'path' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, nameRule: 'path' },
  { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true, conditionalUpdate: true },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    status: true,
    generation: true,
    conditionalUpdate: true,
  },
];

/** The built-in resource types, freshly built (they hold no state, but each server gets its own array). */
export function builtinResourceTypes(): ResourceType[] {
  return SPECS.map((spec) => ({
    key: `${spec.group}/${spec.plural}`,
    group: spec.group,
    plural: spec.plural,
    singular: spec.kind.toLowerCase(),
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    namespaced: spec.namespaced,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    versions: [
      {
        name: spec.version,
        statusSubresource: spec.status === true,
        ...(spec.scale === true ? { scale: WORKLOAD_SCALE } : {}),
        fieldLabels: [...(spec.namespaceField === false ? ['metadata.name'] : META_FIELDS), ...(spec.fieldLabels ?? [])],
      },
    ],
    storageVersion: spec.version,
    builtin: true,
    unconditionalUpdate: spec.conditionalUpdate !== true,
    generation: spec.generation === true,
    nameRule: spec.nameRule ?? 'subdomain',
    listKeys: listKeysFor(apiVersionOf(spec.group, spec.version), spec.kind),
    createOnUpdate: false,
    ...(spec.returnsDeleted === true ? { returnsDeletedObject: true as const } : {}),
  }));
}

/** The resource key of Namespaces and of CustomResourceDefinitions, which have behaviour of their own. */
export const NAMESPACES_KEY = '/namespaces';
export const PODS_KEY = '/pods';
export const CRDS_KEY = 'apiextensions.k8s.io/customresourcedefinitions';
/** The resource keys of the admission webhook configurations (src/testing/admission/). */
export const VALIDATING_WEBHOOKS_KEY = 'admissionregistration.k8s.io/validatingwebhookconfigurations';
export const MUTATING_WEBHOOKS_KEY = 'admissionregistration.k8s.io/mutatingwebhookconfigurations';
/** The resource keys of ValidatingAdmissionPolicies and their bindings (src/testing/admission/). */
export const ADMISSION_POLICIES_KEY = 'admissionregistration.k8s.io/validatingadmissionpolicies';
export const POLICY_BINDINGS_KEY = 'admissionregistration.k8s.io/validatingadmissionpolicybindings';
/** The resource keys of MutatingAdmissionPolicies and their bindings (src/testing/admission/). */
export const MUTATING_POLICIES_KEY = 'admissionregistration.k8s.io/mutatingadmissionpolicies';
export const MUTATING_POLICY_BINDINGS_KEY = 'admissionregistration.k8s.io/mutatingadmissionpolicybindings';
