/**
 * Merge-key metadata of the built-in kinds: which lists are merged by a key (`patchMergeKey` and
 * `x-kubernetes-list-map-keys` in Kubernetes), which are merged as sets of primitives, and (by omission) which
 * are atomic and replaced whole. One table serves both strategic merge patch and server-side apply.
 *
 * A path is the list of field names from the object root to the list; list items add no segment, so the `env`
 * of every container of a Deployment is at `['spec', 'template', 'spec', 'containers', 'env']`.
 */
import type { ListKeyLookup } from './managed-fields.js';

/** How a list at a path merges: by `mergeKey` when given, otherwise as a set of primitive values. */
export interface ListStrategy {
  /** The field that identifies an item (`name`, `containerPort`...); absent for a set of primitives. */
  readonly mergeKey?: string;
  /**
   * Server-side apply's keys when they are not `[mergeKey]` (`x-kubernetes-list-map-keys`: a port is keyed by its
   * number and protocol), each with the default an item that leaves it out is keyed with (`undefined`: none).
   */
  readonly applyKeys?: Readonly<Record<string, string | undefined>>;
}

/** The list-merge metadata of one built-in kind. */
export interface StrategicSchema {
  readonly apiVersion: string;
  readonly kind: string;
  /** The merge strategy of the list at `path`, or `undefined` when that list is atomic (replaced whole). */
  listStrategy(path: readonly string[]): ListStrategy | undefined;
  /** The same table in server-side-apply form: `[key]` for a keyed list, `[]` for a set, `undefined` for atomic. */
  readonly listKeys: ListKeyLookup;
}

type Table = readonly (readonly [path: string, strategy: ListStrategy])[];

const byName: ListStrategy = { mergeKey: 'name' };
const byType: ListStrategy = { mergeKey: 'type' };
const asSet: ListStrategy = {};

const METADATA: Table = [
  ['metadata.ownerReferences', { mergeKey: 'uid' }],
  ['metadata.finalizers', asSet],
];

const CONTAINER: Table = [
  ['ports', { mergeKey: 'containerPort', applyKeys: { containerPort: undefined, protocol: 'TCP' } }],
  ['env', byName],
  ['volumeMounts', { mergeKey: 'mountPath' }],
  ['volumeDevices', { mergeKey: 'devicePath' }],
];

const POD_SPEC: Table = [
  ...(['containers', 'initContainers', 'ephemeralContainers'] as const).flatMap((list): Table => [
    [list, byName],
    ...CONTAINER.map(([path, strategy]) => [`${list}.${path}`, strategy] as const),
  ]),
  ['volumes', byName],
  ['imagePullSecrets', byName],
  ['hostAliases', { mergeKey: 'ip' }],
  ['topologySpreadConstraints', { mergeKey: 'topologyKey', applyKeys: { topologyKey: undefined, whenUnsatisfiable: undefined } }],
  ['schedulingGates', byName],
  ['resourceClaims', byName],
];

/** The pod spec's lists under `prefix` (the path of a PodSpec). */
function podSpecAt(prefix: string): Table {
  return POD_SPEC.map(([path, strategy]) => [`${prefix}.${path}`, strategy] as const);
}

const CONDITIONS: Table = [['status.conditions', byType]];
const WORKLOAD: Table = [...podSpecAt('spec.template.spec'), ...CONDITIONS];

/** Lists per `apiVersion kind`; a kind listed with `[]` has maps and atomic lists only. */
const KINDS: ReadonlyMap<string, Table> = new Map<string, Table>([
  ['v1 Pod', [...podSpecAt('spec'), ...CONDITIONS, ['status.podIPs', { mergeKey: 'ip' }]]],
  ['v1 PodTemplate', podSpecAt('template.spec')],
  ['v1 ReplicationController', WORKLOAD],
  ['v1 Service', [['spec.ports', { mergeKey: 'port', applyKeys: { port: undefined, protocol: 'TCP' } }], ...CONDITIONS]],
  ['v1 ConfigMap', []],
  ['v1 Secret', []],
  ['v1 ServiceAccount', [['secrets', byName]]],
  ['v1 Namespace', CONDITIONS],
  ['v1 Node', [...CONDITIONS, ['status.addresses', byType]]],
  ['v1 PersistentVolume', []],
  ['v1 PersistentVolumeClaim', CONDITIONS],
  ['v1 Endpoints', []],
  ['v1 Event', []],
  ['v1 LimitRange', []],
  ['v1 ResourceQuota', []],
  ['apps/v1 Deployment', WORKLOAD],
  ['apps/v1 StatefulSet', WORKLOAD],
  ['apps/v1 DaemonSet', WORKLOAD],
  ['apps/v1 ReplicaSet', WORKLOAD],
  ['apps/v1 ControllerRevision', []],
  ['batch/v1 Job', WORKLOAD],
  ['batch/v1 CronJob', podSpecAt('spec.jobTemplate.spec.template.spec')],
  ['networking.k8s.io/v1 Ingress', []],
  ['networking.k8s.io/v1 IngressClass', []],
  ['networking.k8s.io/v1 NetworkPolicy', []],
  ['rbac.authorization.k8s.io/v1 Role', []],
  ['rbac.authorization.k8s.io/v1 ClusterRole', []],
  ['rbac.authorization.k8s.io/v1 RoleBinding', []],
  ['rbac.authorization.k8s.io/v1 ClusterRoleBinding', []],
  ['coordination.k8s.io/v1 Lease', []],
  ['events.k8s.io/v1 Event', []],
  ['policy/v1 PodDisruptionBudget', CONDITIONS],
  ['autoscaling/v1 HorizontalPodAutoscaler', []],
  // The `/scale` subresource's object (a strategic merge patch of a workload's Scale).
  ['autoscaling/v1 Scale', []],
  ['autoscaling/v2 HorizontalPodAutoscaler', []],
  ['storage.k8s.io/v1 StorageClass', []],
  ['scheduling.k8s.io/v1 PriorityClass', []],
  ['discovery.k8s.io/v1 EndpointSlice', []],
  ['apiextensions.k8s.io/v1 CustomResourceDefinition', CONDITIONS],
  ['admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration', [['webhooks', byName]]],
  ['admissionregistration.k8s.io/v1 MutatingWebhookConfiguration', [['webhooks', byName]]],
]);

/**
 * The maps and structs server-side apply owns and replaces whole (`+structType=atomic` and `+mapType=atomic` in
 * Kubernetes' Go types), for the fields operators set most: label selectors (metav1.LabelSelector), a Service's
 * selector, a pod spec's nodeSelector, and the key and field references of its containers' environment.
 */
const POD_SPEC_ATOMIC = [
  'nodeSelector',
  ...['containers', 'initContainers', 'ephemeralContainers'].flatMap((list) =>
    ['secretKeyRef', 'configMapKeyRef', 'fieldRef', 'resourceFieldRef'].map((ref) => `${list}.env.valueFrom.${ref}`),
  ),
  'topologySpreadConstraints.labelSelector',
];
const atomicPodSpecAt = (prefix: string): string[] => POD_SPEC_ATOMIC.map((path) => `${prefix}.${path}`);
const WORKLOAD_ATOMIC = ['spec.selector', ...atomicPodSpecAt('spec.template.spec')];

const ATOMIC_MAPS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ['v1 Pod', atomicPodSpecAt('spec')],
  ['v1 PodTemplate', atomicPodSpecAt('template.spec')],
  ['v1 Service', ['spec.selector']],
  ['apps/v1 Deployment', WORKLOAD_ATOMIC],
  ['apps/v1 StatefulSet', WORKLOAD_ATOMIC],
  ['apps/v1 DaemonSet', WORKLOAD_ATOMIC],
  ['apps/v1 ReplicaSet', WORKLOAD_ATOMIC],
  ['batch/v1 Job', WORKLOAD_ATOMIC],
  ['batch/v1 CronJob', ['spec.jobTemplate.spec.selector', ...atomicPodSpecAt('spec.jobTemplate.spec.template.spec')]],
  ['policy/v1 PodDisruptionBudget', ['spec.selector']],
  ['networking.k8s.io/v1 NetworkPolicy', ['spec.podSelector', 'spec.ingress.from.podSelector', 'spec.ingress.from.namespaceSelector', 'spec.egress.to.podSelector', 'spec.egress.to.namespaceSelector']],
]);

/** Joins path segments with a character no field name holds, so `a.b` as one name never matches `a`,`b`. */
function pathKey(path: readonly string[]): string {
  return path.join('\u0000');
}

function lookupOf(table: Table): (path: readonly string[]) => ListStrategy | undefined {
  const lists = new Map<string, ListStrategy>([...METADATA, ...table].map(([path, strategy]) => [pathKey(path.split('.')), strategy]));
  return (path) => lists.get(pathKey(path));
}

function toListKeys(strategyAt: (path: readonly string[]) => ListStrategy | undefined, atomic: readonly string[] = []): ListKeyLookup {
  const lookup = (path: readonly string[]): string[] | undefined => {
    const strategy = strategyAt(path);
    if (strategy === undefined) return undefined;
    if (strategy.applyKeys !== undefined) return Object.keys(strategy.applyKeys);
    return strategy.mergeKey === undefined ? [] : [strategy.mergeKey];
  };
  const keyDefault = (path: readonly string[], key: string): string | undefined => strategyAt(path)?.applyKeys?.[key];
  if (atomic.length === 0) return Object.assign(lookup, { keyDefault });
  const maps = new Set(atomic.map((path) => pathKey(path.split('.'))));
  return Object.assign(lookup, { keyDefault, atomicMap: (path: readonly string[]) => maps.has(pathKey(path)) });
}

/**
 * The strategic-merge metadata of a built-in kind, or `undefined` when `apiVersion`/`kind` is not a built-in the
 * table knows (custom resources: the server answers 415 to a strategic merge patch). Every known kind gets the
 * metadata lists (`ownerReferences` by `uid`, `finalizers` as a set) in addition to its own.
 */
export function strategicSchemaFor(apiVersion: string, kind: string): StrategicSchema | undefined {
  const table = KINDS.get(`${apiVersion} ${kind}`);
  if (table === undefined) return undefined;
  const listStrategy = lookupOf(table);
  return { apiVersion, kind, listStrategy, listKeys: toListKeys(listStrategy, ATOMIC_MAPS.get(`${apiVersion} ${kind}`)) };
}

/**
 * The associative-list keys for server-side apply of any kind: the built-in table for known kinds and, for
 * everything else (custom resources), the metadata lists only (`ownerReferences` by `uid`, `finalizers` as a set),
 * since ObjectMeta has the same schema everywhere; other lists of custom resources are atomic.
 */
export function listKeysFor(apiVersion: string, kind: string): ListKeyLookup {
  return toListKeys(lookupOf(KINDS.get(`${apiVersion} ${kind}`) ?? []), ATOMIC_MAPS.get(`${apiVersion} ${kind}`));
}
