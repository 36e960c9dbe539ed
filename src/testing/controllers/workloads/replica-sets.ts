/**
 * The ReplicaSets of a Deployment as kube-controller-manager's Deployment controller handles them: which one is new
 * (its template equals the Deployment's but for `pod-template-hash`), their revisions and the annotations copied from
 * the Deployment, the manifest of a new one, and scaling one. A sync works on copies ({@link ReplicaSetState}) and
 * says which to create, write or delete. Pure.
 */
import { cloneJson, jsonEqual } from '../../patch/json-value.js';
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';
import { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, maxSurge } from './deployment-replicas.js';
import { annotationsOf, count, replicasOf, specOf, statusOf } from './object-fields.js';

export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
const MAX_REVISION_HISTORY_CHARS = 2000;
const DNS1123_SUBDOMAIN_MAX = 253;

/** Annotations of a Deployment that are not copied onto its ReplicaSets. */
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

/** A ReplicaSet during one sync: a copy to change, and whether it is to be created or written. */
export interface ReplicaSetState {
  readonly object: KubeObject;
  readonly isNew: boolean;
  changed: boolean;
  deleted: boolean;
}

export function stateOf(object: KubeObject): ReplicaSetState {
  return { object: cloneJson(object), isNew: false, changed: false, deleted: false };
}

const metadata = (rs: ReplicaSetState): Record<string, unknown> => asObject(rs.object['metadata']);
export const nameOf = (rs: ReplicaSetState): string => String(metadata(rs)['name'] ?? '');
export const uidOf = (rs: ReplicaSetState): string => String(metadata(rs)['uid'] ?? '');
export const isDeletingState = (rs: ReplicaSetState): boolean => metadata(rs)['deletionTimestamp'] !== undefined;

function writableAnnotations(rs: ReplicaSetState): Record<string, string> {
  const meta = metadata(rs);
  const annotations = { ...annotationsOf(rs.object) };
  meta['annotations'] = annotations;
  rs.object['metadata'] = meta;
  return annotations;
}

/** `ReplicaSetsByCreationTimestamp`: oldest first, names breaking ties (timestamps have one-second resolution). */
export function byCreation(a: ReplicaSetState, b: ReplicaSetState): number {
  const ta = String(metadata(a)['creationTimestamp'] ?? '');
  const tb = String(metadata(b)['creationTimestamp'] ?? '');
  if (ta !== tb) return ta < tb ? -1 : 1;
  return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
}

/** The revision annotation as a number: 0 when absent, NaN when it is no integer. */
export function revisionOf(rs: ReplicaSetState): number {
  const text = annotationsOf(rs.object)[REVISION_ANNOTATION];
  if (text === undefined) return 0;
  return /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
}

/** `ReplicaSetsByRevision`: lowest revision first, creation order when equal or unreadable. */
export function byRevision(a: ReplicaSetState, b: ReplicaSetState): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  if (Number.isNaN(ra) || Number.isNaN(rb) || ra === rb) return byCreation(a, b);
  return ra - rb;
}

/** `MaxRevision`: the highest readable revision (0 when none). */
export function maxRevision(replicaSets: readonly ReplicaSetState[]): number {
  return replicaSets.reduce((max, rs) => (revisionOf(rs) > max ? revisionOf(rs) : max), 0);
}

function withoutHash(template: unknown): unknown {
  const copy = cloneJson(asObject(template));
  const labels = asObject(asObject(copy['metadata'])['labels']);
  delete labels[POD_TEMPLATE_HASH_LABEL];
  return copy;
}

/** `EqualIgnoreHash`: the two Pod templates are equal but for `pod-template-hash`. */
export function equalIgnoringHash(a: unknown, b: unknown): boolean {
  return jsonEqual(withoutHash(a), withoutHash(b));
}

/** `FindNewReplicaSet`: the oldest ReplicaSet whose template is the Deployment's. */
export function findNewReplicaSet(deployment: KubeObject, replicaSets: readonly ReplicaSetState[]): ReplicaSetState | undefined {
  const template = specOf(deployment)['template'];
  return [...replicaSets].sort(byCreation).find((rs) => equalIgnoringHash(specOf(rs.object)['template'], template));
}

/** The ReplicaSets that still run Pods (`FilterActiveReplicaSets`). */
export function active(replicaSets: readonly (ReplicaSetState | undefined)[]): ReplicaSetState[] {
  return replicaSets.filter((rs): rs is ReplicaSetState => rs !== undefined && replicasOf(rs.object) > 0);
}

export const specReplicas = (rs: ReplicaSetState): number => replicasOf(rs.object);
export const statusCount = (rs: ReplicaSetState, field: string): number => count(statusOf(rs.object)[field], 0);

/** `SetReplicasAnnotations`: the Deployment's replicas and its surge ceiling, as the sizes this ReplicaSet was set for. */
function setReplicasAnnotations(rs: ReplicaSetState, desired: number, max: number): boolean {
  const annotations = writableAnnotations(rs);
  let updated = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    updated = true;
  }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    annotations[MAX_REPLICAS_ANNOTATION] = String(max);
    updated = true;
  }
  return updated;
}

/**
 * `SetNewReplicaSetAnnotations`: copies the Deployment's annotations, raises the revision to `newRevision` (keeping
 * the old one in `revision-history`) and, on a ReplicaSet being made, sets the replica annotations. Whether any changed.
 */
export function setNewReplicaSetAnnotations(deployment: KubeObject, rs: ReplicaSetState, newRevision: number): boolean {
  const annotations = writableAnnotations(rs);
  let changed = false;
  for (const [key, value] of Object.entries(annotationsOf(deployment))) {
    if (NOT_COPIED.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  const oldText = annotations[REVISION_ANNOTATION];
  const oldRevision = oldText === undefined || oldText === '' ? 0 : revisionOf(rs);
  if (Number.isNaN(oldRevision)) return false; // Go gives up on a revision that is no integer
  if (oldRevision < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (oldText !== undefined) appendRevisionHistory(annotations, oldText);
  }
  if (rs.isNew) {
    const desired = replicasOf(deployment);
    if (setReplicasAnnotations(rs, desired, desired + maxSurge(deployment))) changed = true;
  }
  return changed;
}

function appendRevisionHistory(annotations: Record<string, string>, oldRevision: string): void {
  const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
  if (history === '') {
    annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
    return;
  }
  const revisions = history.split(',');
  let total = history.length + oldRevision.length + 1;
  let start = 0;
  while (total > MAX_REVISION_HISTORY_CHARS && start < revisions.length) {
    total -= (revisions[start] ?? '').length + 1;
    start++;
  }
  if (total <= MAX_REVISION_HISTORY_CHARS) annotations[REVISION_HISTORY_ANNOTATION] = [...revisions.slice(start), oldRevision].join(',');
}

/**
 * `scaleReplicaSet`: sets the ReplicaSet's size and its replica annotations. Without `force` a ReplicaSet already of
 * that size is left alone. Whether its size changed.
 */
export function scaleReplicaSet(rs: ReplicaSetState, size: number, deployment: KubeObject, force: boolean): boolean {
  if (!force && specReplicas(rs) === size) return false;
  const desired = replicasOf(deployment);
  const sizeChanged = specReplicas(rs) !== size;
  const annotationsChanged = setReplicasAnnotations(rs, desired, desired + maxSurge(deployment));
  if (sizeChanged) rs.object['spec'] = { ...specOf(rs.object), replicas: size };
  if (sizeChanged || annotationsChanged) rs.changed = true;
  return sizeChanged;
}

/** `generateReplicaSetName`: `<deployment>-<hash>`, the Deployment's name cut so the whole is a valid name. */
export function replicaSetName(deploymentName: string, hash: string): string {
  const room = DNS1123_SUBDOMAIN_MAX - 1 - hash.length;
  return `${deploymentName.length > room ? deploymentName.slice(0, room) : deploymentName}-${hash}`;
}

/** A ReplicaSet to be made for the Deployment's current template (size 0 until the sync sizes it). */
export function newReplicaSetState(deployment: KubeObject, hash: string, now: string): ReplicaSetState {
  const meta = asObject(deployment['metadata']);
  const spec = specOf(deployment);
  const template = cloneJson(asObject(spec['template']));
  const templateMeta = asObject(template['metadata']);
  const labels = { ...asObject(templateMeta['labels']), [POD_TEMPLATE_HASH_LABEL]: hash };
  template['metadata'] = { ...templateMeta, labels };
  const selector = cloneJson(asObject(spec['selector']));
  selector['matchLabels'] = { ...asObject(selector['matchLabels']), [POD_TEMPLATE_HASH_LABEL]: hash };
  const minReadySeconds = count(spec['minReadySeconds'], 0);
  const object: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: replicaSetName(String(meta['name']), hash),
      namespace: meta['namespace'],
      // Only for ordering within this sync; the server sets the stored one.
      creationTimestamp: now,
      labels: { ...labels },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: meta['name'], uid: meta['uid'], controller: true, blockOwnerDeletion: true }],
    },
    spec: { replicas: 0, ...(minReadySeconds > 0 ? { minReadySeconds } : {}), selector, template },
  };
  return { object, isNew: true, changed: true, deleted: false };
}
