/**
 * The `/scale` subresource: a parent object (a Deployment, ReplicaSet or StatefulSet, or a custom resource whose CRD
 * version declares `subresources.scale`) read and written as an `autoscaling/v1` Scale, as kube-apiserver's scale
 * registries do (apps' `ScaleREST`, apiextensions' `customresource.ScaleREST`):
 *
 * - The Scale has the parent's name, namespace, uid, resourceVersion and creation time; `spec.replicas` from the
 *   spec replicas path (left out when 0, as Go's `omitempty` leaves it), `status.replicas` from the status path (0
 *   when absent) and `status.selector` (a custom resource's string at `labelSelectorPath`; a workload's
 *   `spec.selector` as text).
 * - A custom resource whose spec replicas path is absent has no Scale to read (500, kube-apiserver's words); a write
 *   must then set the replicas (400 otherwise).
 * - A write sets the replicas path of the parent and nothing else (labels, status and the rest of the Scale are
 *   ignored), through the parent's own update rules (generation, schema, no-ops); the Scale's `resourceVersion` and
 *   `uid` are preconditions. A workload's Scale must have replicas >= 0 (`Scale.autoscaling` 422); a custom
 *   resource's replicas are checked by its own validation.
 * - Field ownership goes through the Scale's entries (`patch/scale-managed-fields.ts`): a non-apply write whose Scale
 *   has no entries (nobody owned the replicas) tracks nothing, as kube-apiserver's field manager does not start
 *   tracking an object without managed fields on an update; an apply gives what it finds to `before-first-apply`.
 *
 * Paths are read on the stored object, in its storage version: a CRD with a conversion webhook and replicas at
 * different paths per version is read at the storage version's fields (docs/testing.md).
 */
import type { Cluster } from '../cluster.js';
import { cloneJson, isJsonObject, type JsonObject } from '../patch/json-value.js';
import { recordUpdate, serverSideApply, type ManagedFieldsEntry } from '../patch/index.js';
import { replicasFieldPath, SCALE_API_VERSION, toParentEntries, toScaleEntries, type ReplicasPaths } from '../patch/scale-managed-fields.js';
import type { FieldPath } from '../patch/field-set.js';
import { apiVersionOf, type ResourceView, type ScaleSubresource } from '../resources/resource-type.js';
import { nestedInt, nestedString, nestedValue, pathOf } from '../resources/scale-fields.js';
import { labelSelectorText } from '../selectors/label-selector-text.js';
import { badRequest, internalError, invalid } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { existing, finishUpdate } from './update.js';
import type { WriteOptions } from './write-options.js';

/** A view with a `/scale` subresource. */
export type ScaledView = ResourceView & { readonly scale: ScaleSubresource };

/** What a Scale's `spec.replicas` is while the custom resource has none (kube-apiserver's `invalidSpecReplicas`). */
const UNSET_REPLICAS = -2147483648;

/** The Scale kind, for admission and for errors: `Scale.autoscaling`. */
export const SCALE_KIND = { group: 'autoscaling', version: 'v1', kind: 'Scale' } as const;

/** Go's `int32(n)` of an int64. */
function int32(value: number): number {
  return value | 0;
}

function selectorOf(scale: ScaleSubresource, object: KubeObject): string {
  if (scale.selector === undefined) return '';
  if (scale.selector.form === 'labelSelector') {
    const read = nestedValue(object, scale.selector.path);
    return read.found ? labelSelectorText(read.value) : '';
  }
  const read = nestedString(object, scale.selector.path);
  if (read.error !== undefined) throw internalError(read.error);
  return read.value;
}

/** The Scale of a stored parent, and whether its spec replicas path was there. */
function scaleOfRecord(view: ScaledView, record: StoredRecord): { scale: KubeObject; found: boolean } {
  const object = record.object;
  const spec = nestedInt(object, view.scale.specReplicasPath);
  if (spec.error !== undefined) throw internalError(spec.error);
  const status = nestedInt(object, view.scale.statusReplicasPath);
  if (status.error !== undefined) throw internalError(status.error);
  const metadata = metadataOf(object);
  const replicas = int32(spec.value);
  const selector = selectorOf(view.scale, object);
  const scale: KubeObject = {
    kind: SCALE_KIND.kind,
    apiVersion: SCALE_API_VERSION,
    metadata: {
      name: record.name,
      ...(view.type.namespaced ? { namespace: record.namespace } : {}),
      uid: record.uid,
      resourceVersion: String(record.rv),
      ...(metadata['creationTimestamp'] === undefined ? {} : { creationTimestamp: metadata['creationTimestamp'] }),
    },
    spec: replicas === 0 ? {} : { replicas },
    status: { replicas: int32(status.value), ...(selector === '' ? {} : { selector }) },
  };
  // A workload's replicas are always there (defaulted); a custom resource may have none yet.
  return { scale, found: spec.found || view.type.builtin };
}

/** GET of `/scale`: the parent's Scale (404 without the parent; 500 for a custom resource without replicas). */
export function readScale(cluster: Cluster, view: ScaledView, namespace: string, name: string): KubeObject {
  const { scale, found } = scaleOfRecord(view, existing(cluster, view, { namespace, name, subresource: undefined }));
  if (!found) throw internalError(`the spec replicas field ${JSON.stringify(view.scale.specReplicasPath)} does not exist`);
  return scale;
}

/** The Scale a write starts from: the parent's, with the managed fields converted to it (and unset replicas marked). */
export function scaleForWrite(view: ScaledView, record: StoredRecord): KubeObject {
  const { scale, found } = scaleOfRecord(view, record);
  const entries = toScaleEntries(parentEntries(record), replicasPaths(view));
  const metadata = scale['metadata'] as JsonObject;
  if (entries.length > 0) metadata['managedFields'] = entries;
  if (!found) scale['spec'] = { replicas: UNSET_REPLICAS };
  return scale;
}

/** The Scale of a parent after a write: what every write of `/scale` answers. */
export function scaleAnswer(view: ScaledView, record: StoredRecord): KubeObject {
  return scaleOfRecord(view, record).scale;
}

function parentEntries(record: StoredRecord): ManagedFieldsEntry[] {
  const entries = metadataOf(record.object)['managedFields'];
  return Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : [];
}

/** The replicas path of each served version of the parent's type. */
function replicasPaths(view: ResourceView): ReplicasPaths {
  const paths = new Map<string, FieldPath | undefined>();
  for (const version of view.type.versions) {
    paths.set(apiVersionOf(view.type.group, version.name), version.scale === undefined ? undefined : replicasFieldPath(version.scale.specReplicasPath));
  }
  return paths;
}

function managedOf(scale: KubeObject): ManagedFieldsEntry[] {
  const entries = metadataOf(scale)['managedFields'];
  return Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : [];
}

/**
 * The Scale's entries after a non-apply write from `before` to `after` by `manager`: none are tracked when the
 * Scale had none (recordUpdate skips an update of an object without managed fields, as kube-apiserver does).
 */
export function scaleEntriesAfterUpdate(before: KubeObject, after: KubeObject, manager: string, now: string): ManagedFieldsEntry[] {
  return recordUpdate(before, after, managedOf(before), { manager, apiVersion: SCALE_API_VERSION, now, subresource: 'scale' });
}

/** An apply of a Scale configuration to `before` (throws 409 on a conflict): the applied Scale and its entries. */
export function applyToScale(before: KubeObject, applied: KubeObject, opts: { manager: string; force: boolean; now: string }): { scale: KubeObject; entries: ManagedFieldsEntry[] } {
  const apiVersion = typeof applied['apiVersion'] === 'string' ? applied['apiVersion'] : '';
  const kind = typeof applied['kind'] === 'string' ? applied['kind'] : '';
  if (apiVersion !== SCALE_API_VERSION || kind !== SCALE_KIND.kind) {
    const slash = apiVersion.lastIndexOf('/');
    throw badRequest(`invalid object type: ${slash < 0 ? `/${apiVersion}` : apiVersion}, Kind=${kind}`);
  }
  const result = serverSideApply(before, applied, { manager: opts.manager, force: opts.force, apiVersion: SCALE_API_VERSION, now: opts.now, subresource: 'scale' });
  return { scale: result.object, entries: result.managedFields };
}

/** Sets `value` at a simple path of `object`, making the maps on the way (apimachinery's `SetNestedField`). */
function setAt(object: JsonObject, jsonPath: string, value: number): void {
  const fields = pathOf(jsonPath);
  let current = object;
  for (const field of fields.slice(0, -1)) {
    const next = current[field];
    if (isJsonObject(next)) current = next;
    else {
      const made: JsonObject = {};
      current[field] = made;
      current = made;
    }
  }
  current[fields[fields.length - 1] ?? ''] = value;
}

/**
 * Writes `scale` (decoded: its replicas an int32 or absent) to its parent with the Scale's `entries`: validation,
 * the preconditions it carries, the replicas path, the parent's managed fields, then the parent's update rules.
 */
export function writeScale(cluster: Cluster, view: ScaledView, name: string, namespace: string, scale: KubeObject, entries: ManagedFieldsEntry[], options: WriteOptions): StoredRecord {
  const prev = existing(cluster, view, { namespace, name, subresource: undefined });
  const spec = isJsonObject(scale['spec']) ? scale['spec'] : {};
  const replicas = typeof spec['replicas'] === 'number' ? spec['replicas'] : 0;
  if (view.type.builtin && replicas < 0) {
    throw invalid(SCALE_KIND, name, [{ field: 'spec.replicas', message: `Invalid value: ${replicas}: must be greater than or equal to 0` }]);
  }
  if (replicas === UNSET_REPLICAS) throw badRequest(`the spec replicas field ${JSON.stringify(view.scale.specReplicasPath)} cannot be empty`);
  const candidate = cloneJson(prev.object);
  setAt(candidate, view.scale.specReplicasPath, replicas);
  const asked = metadataOf(scale);
  const metadata = metadataOf(candidate);
  for (const key of ['resourceVersion', 'uid'] as const) {
    const value = asked[key];
    // The Scale's own identity is the parent's: a value it carries is a precondition on the parent.
    if (typeof value === 'string' && value !== '') metadata[key] = value;
    else delete metadata[key];
  }
  const managedFields = toParentEntries(parentEntries(prev), entries, replicasPaths(view), view.apiVersion);
  return finishUpdate(cluster, view, prev, candidate, undefined, { ...options, managedFields });
}

