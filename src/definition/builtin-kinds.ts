/**
 * Built-in Kubernetes kinds that a CRD entry may name by `kind` alone (`apiTypes: { kind: ConfigMap }`): the
 * table supplies group, version, plural and scope. Versions are the stable ones served by every Kubernetes
 * release since 1.25.
 */
import type { ApiTypes } from './types.js';

type BuiltIn = Omit<ApiTypes, 'builtIn' | 'kind'>;

const ns = 'Namespaced' as const;
const cluster = 'Cluster' as const;

const TABLE: Readonly<Record<string, BuiltIn>> = Object.freeze({
  Namespace: { group: '', version: 'v1', plural: 'namespaces', scope: cluster },
  ConfigMap: { group: '', version: 'v1', plural: 'configmaps', scope: ns },
  Secret: { group: '', version: 'v1', plural: 'secrets', scope: ns },
  Service: { group: '', version: 'v1', plural: 'services', scope: ns },
  ServiceAccount: { group: '', version: 'v1', plural: 'serviceaccounts', scope: ns },
  Pod: { group: '', version: 'v1', plural: 'pods', scope: ns },
  PersistentVolumeClaim: { group: '', version: 'v1', plural: 'persistentvolumeclaims', scope: ns },
  PersistentVolume: { group: '', version: 'v1', plural: 'persistentvolumes', scope: cluster },
  Event: { group: '', version: 'v1', plural: 'events', scope: ns },
  Endpoints: { group: '', version: 'v1', plural: 'endpoints', scope: ns },
  LimitRange: { group: '', version: 'v1', plural: 'limitranges', scope: ns },
  ResourceQuota: { group: '', version: 'v1', plural: 'resourcequotas', scope: ns },
  Node: { group: '', version: 'v1', plural: 'nodes', scope: cluster },
  Deployment: { group: 'apps', version: 'v1', plural: 'deployments', scope: ns },
  StatefulSet: { group: 'apps', version: 'v1', plural: 'statefulsets', scope: ns },
  DaemonSet: { group: 'apps', version: 'v1', plural: 'daemonsets', scope: ns },
  ReplicaSet: { group: 'apps', version: 'v1', plural: 'replicasets', scope: ns },
  Job: { group: 'batch', version: 'v1', plural: 'jobs', scope: ns },
  CronJob: { group: 'batch', version: 'v1', plural: 'cronjobs', scope: ns },
  Ingress: { group: 'networking.k8s.io', version: 'v1', plural: 'ingresses', scope: ns },
  IngressClass: { group: 'networking.k8s.io', version: 'v1', plural: 'ingressclasses', scope: cluster },
  NetworkPolicy: { group: 'networking.k8s.io', version: 'v1', plural: 'networkpolicies', scope: ns },
  Role: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', scope: ns },
  RoleBinding: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', scope: ns },
  ClusterRole: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles', scope: cluster },
  ClusterRoleBinding: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterrolebindings', scope: cluster },
  Lease: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', scope: ns },
  HorizontalPodAutoscaler: { group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers', scope: ns },
  PodDisruptionBudget: { group: 'policy', version: 'v1', plural: 'poddisruptionbudgets', scope: ns },
  PriorityClass: { group: 'scheduling.k8s.io', version: 'v1', plural: 'priorityclasses', scope: cluster },
  StorageClass: { group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses', scope: cluster },
  CustomResourceDefinition: { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', scope: cluster },
});

/** The names of the built-in kinds, for suggestions. */
export const BUILTIN_KIND_NAMES: readonly string[] = Object.freeze(Object.keys(TABLE));

/** The full API types of a built-in kind, or `undefined` when `kind` is not in the table (case-sensitive). */
export function builtInKind(kind: string): ApiTypes | undefined {
  const entry = Object.hasOwn(TABLE, kind) ? TABLE[kind] : undefined;
  return entry === undefined ? undefined : { ...entry, kind, builtIn: true };
}
