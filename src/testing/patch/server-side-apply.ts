/**
 * Server-side apply (`application/apply-patch+yaml`) with field managers and conflicts, as Kubernetes does it.
 */
import { KatalogError } from '../../errors.js';
import { mergeApplied } from './apply-merge.js';
import { difference, formatFieldPath, hasPath, memberPaths, nodeAt, setsEqual, withoutPath, type FieldPath } from './field-set.js';
import { changedMembers, collectFields, removePath } from './field-walk.js';
import { cloneJson, getOwn, isJsonObject, jsonEqual, setOwn, type JsonObject } from './json-value.js';
import {
  isSlot,
  listKeysOf,
  readManagedFields,
  scopeOf,
  writeManagedFields,
  type ListKeyLookup,
  type ObjectsByVersion,
  type ManagedFieldsEntry,
  type TrackedEntry,
} from './managed-fields.js';
import { PatchError } from './patch-error.js';

export type { ListKeyLookup, ManagedFieldsEntry } from './managed-fields.js';
export { recordUpdate } from './managed-fields.js';

/** The outcome of an apply: the new object (its `metadata.managedFields` set to `managedFields`) and the entries. */
export interface ApplyResult {
  object: Record<string, unknown>;
  managedFields: ManagedFieldsEntry[];
}

/** A field the applied configuration would change although another manager owns it. */
export interface FieldConflict {
  /** The other manager's name. */
  manager: string;
  /** The field, as Kubernetes prints it: `.spec.replicas`, `.spec.template.spec.containers[name="web"].image`. */
  path: string;
  /** The `StatusCause.message`: `conflict with "kubectl-edit" using apps/v1` (`using` only for Update entries). */
  message: string;
}

/**
 * An apply without `force` would change fields other managers own. The message is the one Kubernetes sends
 * (`Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas`); the server
 * answers 409 Conflict with {@link ApplyConflictError.causes} as `details.causes`.
 */
export class ApplyConflictError extends KatalogError {
  readonly conflicts: FieldConflict[];

  constructor(conflicts: FieldConflict[]) {
    super('E_APPLY_CONFLICT', conflictMessage(conflicts));
    this.conflicts = conflicts;
  }

  /** The `details.causes` of the 409 Status. */
  get causes(): { type: 'FieldManagerConflict'; message: string; field: string }[] {
    return this.conflicts.map((conflict) => ({ type: 'FieldManagerConflict', message: conflict.message, field: conflict.path }));
  }
}

function conflictMessage(conflicts: readonly FieldConflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only !== undefined) return `Apply failed with 1 conflict: ${only.message}: ${only.path}`;
  const byManager = new Map<string, string[]>();
  for (const conflict of conflicts) byManager.set(conflict.message, [...(byManager.get(conflict.message) ?? []), conflict.path]);
  const lines = [...byManager.keys()].sort().flatMap((message) => [
    `${message.replace(/^conflict with/, 'conflicts with')}:`,
    ...(byManager.get(message) ?? []).map((path) => `- ${path}`),
  ]);
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

function managerLabel(entry: TrackedEntry): string {
  let label = `conflict with ${JSON.stringify(entry.manager)}`;
  if (entry.subresource !== undefined) label += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') label += ` using ${entry.apiVersion}`;
  return label;
}

/** The manager Kubernetes gives the fields of an object that had no managedFields when first applied. */
const BEFORE_FIRST_APPLY = 'before-first-apply';

/**
 * Applies `applied` (an apply configuration: the fields this manager has opinions about) to `live` (undefined:
 * create) as manager `opts.manager`, and returns the merged object and its managedFields. Inputs are not modified;
 * the object's `metadata.managedFields` is the returned `managedFields` array itself, not a copy.
 *
 * - The applied configuration's field set (leaves, `k:` items of associative lists, `v:` items of sets, atomic
 *   lists as one leaf) becomes the manager's `Apply` entry (time `opts.now`; kept when nothing changed).
 * - The object is merged: maps merged, associative lists merged by key, atomic lists replaced, `null` removes
 *   (with `keepNulls`, a custom resource's case, it is kept as the field's value).
 * - Fields in the manager's previous apply that this one leaves out are removed from the object, unless another
 *   entry (or this apply) still owns them or something under them.
 * - Conflict: another entry owns a field this apply changes (the merged value differs from the live one). With
 *   `force: false` this throws {@link ApplyConflictError}; with `force: true` the field leaves that entry's set.
 *   Applying an equal value is no conflict: the field is then owned by both.
 * - A live object without managedFields is first given to `before-first-apply` (operation Update), as Kubernetes does.
 * - `subresource: 'status'`: only `.status` is merged and tracked (and `.metadata`, with `statusMetadata`), in
 *   entries of that subresource.
 *
 * The caller strips fields its kind resets (such as `status` when the status subresource is on) from `applied`
 * first. Throws {@link PatchError} when `applied` is not an object or an associative list in it has an item
 * without its key or two items with the same key.
 */
export function serverSideApply(
  live: Record<string, unknown> | undefined,
  applied: Record<string, unknown>,
  opts: {
    manager: string;
    force: boolean;
    apiVersion: string;
    now: string;
    listKeys?: ListKeyLookup;
    subresource?: string;
    keepNulls?: boolean;
    statusMetadata?: boolean;
    /** The live and merged objects at other versions, where entries of those versions are compared (a conversion webhook's CRD). */
    elsewhere?: ObjectsByVersion;
  },
): ApplyResult {
  if (!isJsonObject(applied)) throw new PatchError('an apply configuration must be a JSON object');
  const listKeys = listKeysOf(opts);
  const scope = scopeOf(opts.subresource, opts.statusMetadata);
  const subresource = opts.subresource === '' ? undefined : opts.subresource;
  const appliedSet = collectFields(applied, listKeys, 'strict', scope);

  const liveMetadata = live === undefined ? undefined : getOwn(live, 'metadata');
  const entries = readManagedFields(isJsonObject(liveMetadata) ? getOwn(liveMetadata, 'managedFields') : undefined);
  if (live !== undefined && entries.length === 0) {
    const set = collectFields(live, listKeys, 'lenient');
    entries.push({ manager: BEFORE_FIRST_APPLY, operation: 'Update', apiVersion: opts.apiVersion, time: opts.now, subresource, set });
  }
  const own = entries.find((entry) => isSlot(entry, opts.manager, 'Apply', subresource));
  const others = entries.filter((entry) => entry !== own);

  const merged = mergeApplied(live === undefined ? {} : copyForMerge(live), applied, listKeys, scope, opts.keepNulls === true);

  const conflicts: { entry: TrackedEntry; path: FieldPath }[] = [];
  // What this apply changes matters only against other managers' sets: with none (the manager's own object, the
  // usual case of a controller's child), the walk is skipped.
  const changedPaths = others.length === 0 ? [] : memberPaths(changedMembers(appliedSet, live, merged));
  const changedElsewhere = new Map<string, FieldPath[]>();
  for (const entry of others) {
    // An entry of another version is compared there: what changed between the two objects converted to it.
    const pair = entry.apiVersion === opts.apiVersion ? undefined : opts.elsewhere?.get(entry.apiVersion);
    let paths = pair === undefined ? changedPaths : changedElsewhere.get(entry.apiVersion);
    if (paths === undefined) {
      paths = pair === undefined ? changedPaths : memberPaths(changedMembers(collectFields(pair.after, listKeys, 'lenient', scope), pair.before, pair.after));
      changedElsewhere.set(entry.apiVersion, paths);
    }
    for (const path of paths) if (hasPath(entry.set, path)) conflicts.push({ entry, path });
  }
  if (conflicts.length > 0 && !opts.force) {
    throw new ApplyConflictError(conflicts.map(({ entry, path }) => ({ manager: entry.manager, path: formatFieldPath(path), message: managerLabel(entry) })));
  }
  for (const { entry, path } of conflicts) entry.set = withoutPath(entry.set, path);

  const held = (path: FieldPath): boolean => nodeAt(appliedSet, path) !== undefined || others.some((entry) => nodeAt(entry.set, path) !== undefined);
  if (own !== undefined) {
    for (const path of memberPaths(difference(own.set, appliedSet))) if (!held(path) && !isManagedFieldsPath(path)) removePath(merged, path, held);
  }

  const objectChanged = live === undefined || !jsonEqual(withoutManagedFields(live), withoutManagedFields(merged));
  if (own === undefined) {
    entries.push({ manager: opts.manager, operation: 'Apply', apiVersion: opts.apiVersion, time: opts.now, subresource, set: appliedSet });
  } else if (objectChanged || !setsEqual(own.set, appliedSet) || own.apiVersion !== opts.apiVersion) {
    own.set = appliedSet;
    own.apiVersion = opts.apiVersion;
    own.time = opts.now;
  }
  const managedFields = writeManagedFields(entries);
  const metadata = getOwn(merged, 'metadata');
  const target: JsonObject = isJsonObject(metadata) ? metadata : {};
  // The same array as `managedFields` (not a copy): the caller stores one of them, and entries this server wrote
  // are shared with the previous stored object anyway (never mutated).
  setOwn(target, 'managedFields', managedFields);
  setOwn(merged, 'metadata', target);
  return { object: merged, managedFields };
}

/**
 * A deep copy of the live object for the merge to change, except `metadata.managedFields`, which is shared: an
 * applied configuration never sets it, the merge and the removal of fields never touch it (it is not tracked), and
 * it is replaced by the new entries at the end. Copying it was most of the copy's cost (the entries are the largest
 * part of most objects' metadata).
 */
function copyForMerge(live: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const key of Object.keys(live)) {
    const value = live[key];
    if (key !== 'metadata' || !isJsonObject(value)) {
      setOwn(copy, key, cloneJson(value));
      continue;
    }
    const metadata: JsonObject = {};
    for (const field of Object.keys(value)) setOwn(metadata, field, field === 'managedFields' ? value[field] : cloneJson(value[field]));
    setOwn(copy, key, metadata);
  }
  return copy;
}

/** True for a path in `metadata.managedFields`: never a field to remove (only a hand-written FieldsV1 names one). */
function isManagedFieldsPath(path: FieldPath): boolean {
  return path[0] === 'f:metadata' && path[1] === 'f:managedFields';
}

function withoutManagedFields(object: JsonObject): JsonObject {
  const metadata = getOwn(object, 'metadata');
  if (!isJsonObject(metadata)) return object;
  const rest: JsonObject = {};
  for (const key of Object.keys(metadata)) if (key !== 'managedFields') setOwn(rest, key, metadata[key]);
  return { ...object, metadata: rest };
}
