/**
 * The managed fields of the `/scale` subresource, converted as kube-apiserver's scale handler converts them
 * (`managedfields.ScaleHandler` in k8s.io/apimachinery):
 *
 * - A Scale's entries are the parent's entries that own its replicas path, each owning `spec.replicas` at
 *   `autoscaling/v1` (same manager, operation, subresource and time). Entries of an apiVersion the parent does not
 *   serve with a scale subresource are left out.
 * - After a write of the Scale, each parent entry that owned the replicas path keeps it if its manager still owns
 *   `spec.replicas` in the Scale's entries, and gives it up otherwise (dropped when that leaves it empty). A Scale
 *   entry owning `spec.replicas` that no parent entry matched becomes a parent entry owning the parent's replicas
 *   path, at the parent's apiVersion and with no time (the handler takes the time from the parent's entry of the
 *   same manager, which a manager new to the scale subresource does not have). What a Scale entry owns besides
 *   `spec.replicas` is not carried back. Parent entries of an apiVersion the parent does not serve are dropped.
 *
 * Entries match by manager, operation and subresource, as the rest of this server's bookkeeping matches them.
 */
import { emptySet, hasPath, insertPath, withoutPath, type FieldPath } from './field-set.js';
import { readManagedFields, writeManagedFields, type ManagedFieldsEntry, type TrackedEntry } from './managed-fields.js';

/** The apiVersion of the Scale objects the subresource serves. */
export const SCALE_API_VERSION = 'autoscaling/v1';

const SCALE_REPLICAS: FieldPath = ['f:spec', 'f:replicas'];

/** A parent's replicas path by apiVersion (`undefined` for a served version without a scale subresource). */
export type ReplicasPaths = ReadonlyMap<string, FieldPath | undefined>;

/** `.spec.replicas` as a field path (`['f:spec', 'f:replicas']`). */
export function replicasFieldPath(jsonPath: string): FieldPath {
  return jsonPath.replace(/^\./, '').split('.').map((field) => `f:${field}`);
}

function setOf(path: FieldPath): TrackedEntry['set'] {
  const set = emptySet();
  insertPath(set, path);
  return set;
}

function sameSlot(a: TrackedEntry, b: TrackedEntry): boolean {
  return a.manager === b.manager && a.operation === b.operation && a.subresource === b.subresource;
}

/** The Scale's entries: the parent's entries that own its replicas path, owning `spec.replicas`. */
export function toScaleEntries(parentEntries: readonly ManagedFieldsEntry[], paths: ReplicasPaths): ManagedFieldsEntry[] {
  const out: TrackedEntry[] = [];
  for (const entry of readManagedFields(parentEntries)) {
    const path = paths.get(entry.apiVersion);
    if (path === undefined || !hasPath(entry.set, path)) continue;
    out.push({ manager: entry.manager, operation: entry.operation, apiVersion: SCALE_API_VERSION, time: entry.time, subresource: entry.subresource, set: setOf(SCALE_REPLICAS) });
  }
  return writeManagedFields(out);
}

/** The parent's entries after a write of its Scale whose entries are now `scaleEntries`. */
export function toParentEntries(
  parentEntries: readonly ManagedFieldsEntry[],
  scaleEntries: readonly ManagedFieldsEntry[],
  paths: ReplicasPaths,
  parentApiVersion: string,
): ManagedFieldsEntry[] {
  const owners = readManagedFields(scaleEntries).filter((entry) => hasPath(entry.set, SCALE_REPLICAS));
  const out: TrackedEntry[] = [];
  for (const entry of readManagedFields(parentEntries)) {
    if (!paths.has(entry.apiVersion)) continue;
    const path = paths.get(entry.apiVersion);
    if (path === undefined || !hasPath(entry.set, path)) {
      out.push(entry);
      continue;
    }
    const still = owners.findIndex((owner) => sameSlot(owner, entry));
    if (still >= 0) {
      owners.splice(still, 1);
      out.push(entry);
    } else {
      out.push({ ...entry, set: withoutPath(entry.set, path) });
    }
  }
  const parentPath = paths.get(parentApiVersion);
  if (parentPath !== undefined) {
    for (const owner of owners) {
      out.push({ manager: owner.manager, operation: owner.operation, apiVersion: parentApiVersion, time: '', subresource: owner.subresource, set: setOf(parentPath) });
    }
  }
  return writeManagedFields(out);
}
