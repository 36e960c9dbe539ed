/**
 * Field ownership as Kubernetes records it in `metadata.managedFields` (FieldsV1), and the bookkeeping of the
 * non-apply writes (create, update, patch).
 */
import { difference, emptySet, fromFieldsV1, isEmptySet, sharesMember, toFieldsV1, union, type FieldSet } from './field-set.js';
import { changedMembers, collectFields, removedPaths, type FieldScope } from './field-walk.js';
import { getOwn, isJsonObject } from './json-value.js';
import { sortSmall } from './small-sort.js';

/**
 * The merge keys of the associative list at `path` (field names from the root; list items add no segment):
 * `['name']` for a list keyed by name, `[]` for a set of primitives, `undefined` for an atomic list.
 * {@link listKeysFor} gives the built-in table; without a lookup every list is atomic. `atomicMap`, when given,
 * tells the maps and structs that are owned and replaced whole (`+structType=atomic`, `+mapType=atomic`,
 * `x-kubernetes-map-type: atomic`): a label selector, a Service's selector, and, at a keyed list's path, its items
 * (an owner reference); other maps merge field by field.
 */
export type ListKeyLookup = ((path: readonly string[]) => string[] | undefined) & {
  readonly atomicMap?: (path: readonly string[]) => boolean;
  /** The value an item that leaves out key field `key` of the list at `path` is keyed with (a port's protocol: TCP). */
  readonly keyDefault?: (path: readonly string[], key: string) => unknown;
};

/** One element of `metadata.managedFields`, as the Kubernetes API serves it. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  /** RFC 3339 time of the manager's last change to its set (absent from the entries the scale subresource adds). */
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/** An entry with its field set parsed. Internal to the patch engines. */
export interface TrackedEntry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  apiVersion: string;
  /** `''` for an entry without a time. */
  time: string;
  readonly subresource: string | undefined;
  set: FieldSet;
  /** The stored entry it was read from, when {@link writeManagedFields} wrote that entry (see `encodedSets`). */
  readonly source?: ManagedFieldsEntry;
}

/**
 * The entries {@link writeManagedFields} built, with the set each encodes. A stored object is never mutated, so the
 * next write of the same object reads such an entry without parsing its FieldsV1 again, and writes it back as the
 * same object when neither its set (by identity: sets are replaced, never changed in place) nor its time changed.
 * Entries a client sent are not in it and are parsed (and normalised) as before.
 */
const encodedSets = new WeakMap<ManagedFieldsEntry, FieldSet>();

const atomic: ListKeyLookup = () => undefined;

export function listKeysOf(opts: { listKeys?: ListKeyLookup }): ListKeyLookup {
  return opts.listKeys ?? atomic;
}

const STATUS_ONLY: FieldScope = ['status'];
const STATUS_AND_METADATA: FieldScope = ['metadata', 'status'];

/**
 * The top-level fields a subresource write may touch, or `undefined` for the main resource: `status`, and also
 * `metadata` for a built-in kind (`statusMetadata`), whose status strategies take the request's metadata where a
 * custom resource's takes only its status.
 */
export function scopeOf(subresource: string | undefined, statusMetadata = false): FieldScope | undefined {
  if (subresource !== 'status') return undefined;
  return statusMetadata ? STATUS_AND_METADATA : STATUS_ONLY;
}

/** Parses managedFields entries; malformed entries are dropped rather than trusted. */
export function readManagedFields(value: unknown): TrackedEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw: unknown): TrackedEntry[] => {
    if (!isJsonObject(raw)) return [];
    const known = encodedSets.get(raw as unknown as ManagedFieldsEntry);
    if (known !== undefined) {
      const entry = raw as unknown as ManagedFieldsEntry;
      return [{ manager: entry.manager, operation: entry.operation, apiVersion: entry.apiVersion, time: entry.time ?? '', subresource: entry.subresource, set: known, source: entry }];
    }
    const manager = getOwn(raw, 'manager');
    const operation = getOwn(raw, 'operation');
    const subresource = getOwn(raw, 'subresource');
    if (typeof manager !== 'string' || (operation !== 'Apply' && operation !== 'Update')) return [];
    return [
      {
        manager,
        operation,
        apiVersion: String(getOwn(raw, 'apiVersion') ?? ''),
        time: String(getOwn(raw, 'time') ?? ''),
        subresource: typeof subresource === 'string' && subresource !== '' ? subresource : undefined,
        set: fromFieldsV1(getOwn(raw, 'fieldsV1')),
      },
    ];
  });
}

/** True when `entry` is the (manager, operation, subresource) slot. */
export function isSlot(entry: TrackedEntry, manager: string, operation: 'Apply' | 'Update', subresource: string | undefined): boolean {
  return entry.manager === manager && entry.operation === operation && entry.subresource === (subresource === '' ? undefined : subresource);
}

/** Encodes entries: drops those whose set is empty and sorts as Kubernetes does (operation, time, manager). */
export function writeManagedFields(entries: readonly TrackedEntry[]): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const entry of entries) if (!isEmptySet(entry.set)) out.push(encodeEntry(entry));
  if (out.length > 1) sortSmall(out, compareEntries);
  return out;
}

function encodeEntry(entry: TrackedEntry): ManagedFieldsEntry {
  const source = entry.source;
  if (source !== undefined && encodedSets.get(source) === entry.set && source.apiVersion === entry.apiVersion && (source.time ?? '') === entry.time) return source;
  const out: ManagedFieldsEntry = {
    manager: entry.manager,
    operation: entry.operation,
    apiVersion: entry.apiVersion,
    ...(entry.time === '' ? {} : { time: entry.time }),
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(entry.set),
  };
  if (entry.subresource !== undefined) out.subresource = entry.subresource;
  encodedSets.set(out, entry.set);
  return out;
}

function compareEntries(a: ManagedFieldsEntry, b: ManagedFieldsEntry): number {
  return (
    compare(a.operation, b.operation) ||
    compare(a.time ?? '', b.time ?? '') ||
    compare(a.manager, b.manager) ||
    compare(a.apiVersion, b.apiVersion) ||
    compare(a.subresource ?? '', b.subresource ?? '')
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `metadata` itself is never owned (kube-apiserver strips it, with the identity fields under it). */
function withoutMetadataMember(set: FieldSet): FieldSet {
  const metadata = set.children.get('f:metadata');
  if (metadata === undefined || !metadata.member) return set;
  const children = new Map(set.children);
  if (metadata.children.size === 0) children.delete('f:metadata');
  else children.set('f:metadata', { member: false, children: metadata.children });
  return { member: set.member, children };
}

/**
 * Records ownership for a non-apply write (create, update, patch): the fields whose values changed, and the maps
 * and lists the write added (their `.` member), become owned by `opts.manager` in its `Update` entry of
 * `opts.apiVersion` (time `opts.now`) and leave every other entry, the same manager's entries of other versions
 * too; fields the write removed leave every entry. `before` is the live object;
 * for a create, what kube-apiserver compares a new object with: the kind's Go zero value for a built-in kind,
 * nothing (`undefined`) for a custom resource (`opts.create` says so when `before` is a zero value). An update of an
 * object that has no entries tracks nothing, as kube-apiserver's field manager does not start tracking on an update
 * (skipNonAppliedManager): only a create or an apply gives such an object entries. An entry whose set becomes
 * empty is dropped. When nothing
 * tracked changed the entries come back unchanged, so a no-op write stays a no-op. Inputs are not modified.
 *
 * Decision: removed fields are dropped from every manager (Kubernetes keeps them in other managers' sets until
 * they next write), so a later apply of a field someone deleted does not conflict with a stale owner.
 */
export function recordUpdate(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
  managedFields: ManagedFieldsEntry[],
  opts: {
    manager: string;
    apiVersion: string;
    now: string;
    listKeys?: ListKeyLookup;
    subresource?: string;
    statusMetadata?: boolean;
    create?: boolean;
    /** The two objects at other versions, where entries of those versions are compared (a conversion webhook's CRD). */
    elsewhere?: ObjectsByVersion;
  },
): ManagedFieldsEntry[] {
  if (managedFields.length === 0 && before !== undefined && opts.create !== true) return [];
  const listKeys = listKeysOf(opts);
  const scope = scopeOf(opts.subresource, opts.statusMetadata);
  const here = comparison(before, after, listKeys, scope);
  const { changed, removed } = here;
  if (isEmptySet(changed) && isEmptySet(removed)) return [...managedFields];
  // The comparisons at other versions, made when an entry of that version is met.
  const elsewhere = new Map<string, Comparison>();

  const entries = readManagedFields(managedFields);
  // An Update entry is kube-apiserver's manager identifier: manager, operation, subresource and apiVersion (an Apply
  // entry's leaves the apiVersion out), so a manager writing in two versions has an entry for each.
  let own = entries.find((entry) => isSlot(entry, opts.manager, 'Update', opts.subresource) && entry.apiVersion === opts.apiVersion);
  if (own === undefined) {
    const subresource = opts.subresource === '' ? undefined : opts.subresource;
    own = { manager: opts.manager, operation: 'Update', apiVersion: opts.apiVersion, time: opts.now, subresource, set: emptySet() };
    entries.push(own);
  }
  for (const entry of entries) {
    // Sets are replaced, never changed in place: a new entry takes the changed set itself.
    if (entry === own) {
      entry.set = isEmptySet(entry.set) && isEmptySet(removed) ? changed : difference(union(entry.set, changed), removed);
      continue;
    }
    // Each entry is compared in its own version. One that owns none of the changed or removed fields keeps its set
    // (and so its encoding).
    const pair = entry.apiVersion === opts.apiVersion ? undefined : opts.elsewhere?.get(entry.apiVersion);
    let theirs = pair === undefined ? here : elsewhere.get(entry.apiVersion);
    if (theirs === undefined) {
      theirs = comparison(pair?.before, pair?.after ?? after, listKeys, scope);
      elsewhere.set(entry.apiVersion, theirs);
    }
    if (sharesMember(entry.set, theirs.changed) || sharesMember(entry.set, theirs.removed)) entry.set = difference(difference(entry.set, theirs.changed), theirs.removed);
  }
  // The time says when the manager last took a field: a write that only removed some of its fields leaves it.
  if (!isEmptySet(changed)) own.time = opts.now;
  return writeManagedFields(entries);
}

/** An object before and after a write, at one version. */
export interface VersionPair {
  readonly before: Record<string, unknown> | undefined;
  readonly after: Record<string, unknown>;
}

/** The objects of a write at other versions than the request's, by apiVersion. */
export type ObjectsByVersion = ReadonlyMap<string, VersionPair>;

interface Comparison {
  /** What the write set or changed, and the maps and lists it added whole. */
  readonly changed: FieldSet;
  /** What the write removed. */
  readonly removed: FieldSet;
}

function comparison(before: Record<string, unknown> | undefined, after: Record<string, unknown>, listKeys: ListKeyLookup, scope: FieldScope | undefined): Comparison {
  const live = before ?? {};
  const afterSet = collectFields(after, listKeys, 'lenient', scope);
  const beforeSet = collectFields(live, listKeys, 'lenient', scope);
  return {
    removed: removedPaths(beforeSet, live, after),
    changed: withoutMetadataMember(changedMembers(afterSet, live, after, true)),
  };
}
