/**
 * How many Pods a PodDisruptionBudget expects and wants healthy, as kube's disruption controller counts them
 * (getExpectedPodCount, getExpectedScale and its controller finders): `minAvailable` as a count takes the selected
 * Pods as expected; a percentage, or `maxUnavailable`, takes the sum of the scales of the Pods' controllers: a
 * ReplicationController's, a Deployment's (through its ReplicaSet), a ReplicaSet's, a StatefulSet's, or the
 * `spec.replicas` of anything with a `/scale` subresource. Pods without a controller are counted as unmanaged;
 * a controller that is gone, or has no scale, is an {@link ExpectedCountError} in kube's words.
 */
import type { Cluster } from '../../cluster.js';
import { objectAt, objectsAt, type Json } from '../../kinds/builtin/fields.js';
import { readScale, type ScaledView } from '../../operations/scale.js';
import { StatusError } from '../../status-errors.js';
import type { KubeObject, StoredRecord } from '../../store/record.js';
import { replicasOf } from './object-fields.js';

/** The budget's Pods cannot be counted: the message is the controller's. */
export class ExpectedCountError extends Error {}

export interface ExpectedCount {
  readonly expected: number;
  readonly desiredHealthy: number;
  /** Names of the selected Pods without a controller (only looked for when scales are summed). */
  readonly unmanaged: readonly string[];
}

interface ControllerRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
}

function controllerOf(object: KubeObject): ControllerRef | undefined {
  const reference = objectsAt(objectAt(object, 'metadata') ?? {}, 'ownerReferences').find((r) => r['controller'] === true);
  if (reference === undefined) return undefined;
  return { apiVersion: String(reference['apiVersion'] ?? ''), kind: String(reference['kind'] ?? ''), name: String(reference['name'] ?? ''), uid: String(reference['uid'] ?? '') };
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The controller's uid and scale, or undefined when no finder knows it (kube's finders, in their order). */
function findScale(cluster: Cluster, namespace: string, ref: ControllerRef): { uid: string; scale: number } | undefined {
  const group = groupOf(ref.apiVersion);
  const owned = (key: string, name: string, uid: string): StoredRecord | undefined => {
    const record = cluster.store.get(key, namespace, name);
    return record !== undefined && record.uid === uid ? record : undefined;
  };
  const appsGroup = group === 'apps' || group === 'extensions';
  if (ref.kind === 'ReplicationController' && group === '') {
    const rc = owned('/replicationcontrollers', ref.name, ref.uid);
    if (rc !== undefined) return { uid: rc.uid, scale: replicasOf(rc.object) };
  }
  if (ref.kind === 'ReplicaSet' && appsGroup) {
    const rs = owned('apps/replicasets', ref.name, ref.uid);
    const above = rs === undefined ? undefined : controllerOf(rs.object);
    if (rs !== undefined && above?.kind === 'Deployment' && (groupOf(above.apiVersion) === 'apps' || groupOf(above.apiVersion) === 'extensions')) {
      const deployment = owned('apps/deployments', above.name, above.uid);
      if (deployment !== undefined) return { uid: deployment.uid, scale: replicasOf(deployment.object) };
    }
    // A ReplicaSet a Deployment controls is counted through the Deployment alone.
    if (rs !== undefined && above?.kind !== 'Deployment') return { uid: rs.uid, scale: replicasOf(rs.object) };
  }
  if (ref.kind === 'StatefulSet' && group === 'apps') {
    const set = owned('apps/statefulsets', ref.name, ref.uid);
    if (set !== undefined) return { uid: set.uid, scale: replicasOf(set.object) };
  }
  return scaleOfAny(cluster, namespace, ref);
}

/** kube's getScaleController: the `/scale` of whatever the reference names. */
function scaleOfAny(cluster: Cluster, namespace: string, ref: ControllerRef): { uid: string; scale: number } | undefined {
  const view = cluster.registry.byKind(ref.apiVersion, ref.kind);
  if (view === undefined) throw new ExpectedCountError(`no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(ref.apiVersion)}`);
  if (view.scale === undefined) {
    const { group, plural } = view.type;
    throw new ExpectedCountError(`${group === '' ? plural : `${plural}.${group}`} does not implement the scale subresource`);
  }
  const record = cluster.store.get(view.type.key, view.type.namespaced ? namespace : '', ref.name);
  if (record === undefined) return undefined;
  let scale: KubeObject;
  try {
    scale = readScale(cluster, view as ScaledView, view.type.namespaced ? namespace : '', ref.name);
  } catch (error) {
    if (error instanceof StatusError) throw new ExpectedCountError(error.body.message ?? error.message);
    throw error;
  }
  if (record.uid !== ref.uid) return undefined;
  const spec = objectAt(scale, 'spec') ?? {};
  return { uid: record.uid, scale: typeof spec['replicas'] === 'number' ? spec['replicas'] : 0 };
}

/** The sum of the scales of the Pods' controllers, and the Pods without one (kube's getExpectedScale). */
function expectedScale(cluster: Cluster, pods: readonly StoredRecord[]): { expected: number; unmanaged: string[] } {
  const scales = new Map<string, number>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod.object);
    if (ref === undefined) {
      unmanaged.push(pod.name);
      continue;
    }
    if (scales.has(ref.uid)) continue;
    const found = findScale(cluster, pod.namespace, ref);
    if (found === undefined) throw new ExpectedCountError(`found no controllers for pod ${JSON.stringify(pod.name)}`);
    scales.set(found.uid, found.scale);
  }
  let expected = 0;
  for (const scale of scales.values()) expected += scale;
  return { expected, unmanaged };
}

/** An int-or-percent scaled to `total`, rounded up (apimachinery's GetScaledValueFromIntOrPercent). */
function scaled(value: unknown, total: number): number {
  if (typeof value === 'number') return value;
  const match = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
  if (match === null) throw new ExpectedCountError(`invalid value for IntOrString: invalid type: string is not a percentage`);
  return Math.ceil((Number(match[1]) * total) / 100);
}

/** What the budget expects of the Pods it selects. */
export function expectedPodCount(cluster: Cluster, budget: KubeObject, pods: readonly StoredRecord[]): ExpectedCount {
  const spec: Json = objectAt(budget, 'spec') ?? {};
  const maxUnavailable = spec['maxUnavailable'];
  const minAvailable = spec['minAvailable'];
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const { expected, unmanaged } = expectedScale(cluster, pods);
    return { expected, desiredHealthy: Math.max(0, expected - scaled(maxUnavailable, expected)), unmanaged };
  }
  if (typeof minAvailable === 'number') return { expected: pods.length, desiredHealthy: minAvailable, unmanaged: [] };
  if (typeof minAvailable === 'string') {
    const { expected, unmanaged } = expectedScale(cluster, pods);
    return { expected, desiredHealthy: scaled(minAvailable, expected), unmanaged };
  }
  return { expected: 0, desiredHealthy: 0, unmanaged: [] };
}
