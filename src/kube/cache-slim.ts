/**
 * What the informer cache drops from every object before keeping it: the fields that neither reconcile nor drift
 * correction reads and that can be larger than the object itself. `metadata.managedFields` (server-side apply
 * bookkeeping, often half of an object's JSON) and kubectl's `last-applied-configuration` annotation (a second copy
 * of the object as JSON). Everything else is kept as parsed: one plain object per resource, no copies, no closures.
 *
 * The fields are left out of a rebuilt `metadata` (and `annotations`) rather than `delete`d: V8 turns an object that
 * loses a property into a dictionary (a hash table of its own, several hundred bytes), while objects rebuilt with the
 * same keys in the same order share one hidden class. With 100,000 cached objects that is the difference between
 * about 3.5 and 1.5 KB per custom resource and its child (docs/performance.md, "Scale").
 *
 * For informers that ask for it (a CRD whose gates read the `managedFieldsChanged` sentinel), `managedFields` leaves
 * a fingerprint behind: a 53-bit hash of its JSON, under a symbol key of the rebuilt `metadata` (invisible to JSON,
 * `for...in` and templates), so the sentinel can tell whether it changed without the cache keeping it
 * ({@link managedFieldsFingerprint}). A number per object, not the entries. Other informers hash nothing, and their
 * watch events arrive with the field already cut out of the text (managed-fields-cut.ts).
 *
 * Repeated short strings (apiVersion, kind, namespace, creation timestamps, label and annotation values, owner
 * references' apiVersion and kind, condition type, status, reason and time) are shared through a {@link StringPool}:
 * JSON.parse gives every object its own copy of every string longer than a few characters. Every informer of the
 * process shares one pool ({@link SHARED_STRINGS}): a pool per informer cost each CRD's two informers up to 4,096
 * table entries of their own (about 115 KB each, 23 MB with 100 CRDs), most of them strings seen once (a child's
 * owner label, a condition's time), and the strings every CRD repeats (`True`, `Ready`, the namespace) were kept
 * once per informer.
 */
import type { KubeObject } from './resource.js';

/** kubectl's client-side apply annotation: the whole last applied object, as a JSON string. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** Where a slimmed `metadata` keeps the fingerprint of the `managedFields` it dropped. */
const MANAGED_FIELDS = Symbol('katalog.managedFieldsFingerprint');

/**
 * The fingerprint of an object's `managedFields`: the one its cached copy kept, else computed from the field when it
 * is there, else undefined (none written). Two states whose fingerprints differ have different managedFields; equal
 * fingerprints mean equal managedFields but for a hash collision (one in 2^53).
 */
export function managedFieldsFingerprint(metadata: object | undefined): number | undefined {
  if (metadata === undefined) return undefined;
  const kept = (metadata as { [MANAGED_FIELDS]?: number })[MANAGED_FIELDS];
  if (kept !== undefined) return kept;
  const fields = (metadata as { managedFields?: unknown }).managedFields;
  return fields === undefined ? undefined : hash53(JSON.stringify(fields));
}

/** A copy of a metadata object (structuredClone) that keeps its managedFields fingerprint. */
export function cloneMetadata<T extends object>(metadata: T): T {
  const copy = structuredClone(metadata);
  const kept = (metadata as { [MANAGED_FIELDS]?: number })[MANAGED_FIELDS];
  if (kept !== undefined) (copy as { [MANAGED_FIELDS]?: number })[MANAGED_FIELDS] = kept;
  return copy;
}

/** Gives `copy.metadata` the managedFields fingerprint of `cached.metadata` (a JSON copy loses symbol keys). */
export function carryFingerprint(cached: KubeObject, copy: KubeObject): void {
  const kept = (cached.metadata as { [MANAGED_FIELDS]?: number } | undefined)?.[MANAGED_FIELDS];
  if (kept !== undefined && copy.metadata !== undefined) (copy.metadata as { [MANAGED_FIELDS]?: number })[MANAGED_FIELDS] = kept;
}

/**
 * A 53-bit string hash: FNV-1a over the UTF-16 code units in two 32-bit lanes (different offset bases; the second
 * lane also mixes in the position), 21 bits of one and 32 of the other. Enough to tell two states apart.
 */
function hash53(text: string): number {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    low = Math.imul(low ^ unit, 0x01000193);
    high = Math.imul(high ^ (unit + i), 0x01000193);
  }
  return (high & 0x1fffff) * 0x100000000 + (low >>> 0);
}

/** Strings up to this length are pooled; longer ones are rarely repeated. */
const POOLED_LENGTH = 64;

/** One copy of each repeated short string, shared by the objects of one cache. Bounded: emptied when full. */
export class StringPool {
  private readonly strings = new Map<string, string>();

  constructor(private readonly limit = 4096) {}

  /** The pooled copy of `value` when it is a short string; anything else as it is. */
  share<T>(value: T): T {
    if (typeof value !== 'string' || value.length > POOLED_LENGTH) return value;
    const known = this.strings.get(value);
    if (known !== undefined) return known as T;
    if (this.strings.size >= this.limit) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }

  /** Strings in the pool now (at most its limit). */
  get size(): number {
    return this.strings.size;
  }

  /** Replaces the short string values of `record` by their pooled copies, in place (its keys are unchanged). */
  shareValues(record: Record<string, unknown> | undefined): void {
    if (record === undefined || record === null || typeof record !== 'object') return;
    for (const key in record) record[key] = this.share(record[key]);
  }
}

/**
 * The pool every informer of the process shares. Strings are immutable, so sharing them between informers, CRDs and
 * runtimes changes no value; the bound keeps its table near 1 MB whatever the number of CRDs.
 */
export const SHARED_STRINGS = new StringPool(16_384);

/** Shares the repeated strings of a cached object through `pool`, in place. */
function pool(object: KubeObject, strings: StringPool): void {
  // Only fields that are there are reassigned: adding one would change the object's hidden class.
  if (object.apiVersion !== undefined) object.apiVersion = strings.share(object.apiVersion);
  if (object.kind !== undefined) object.kind = strings.share(object.kind);
  const metadata = object.metadata;
  if (metadata !== undefined) {
    if (metadata.namespace !== undefined) metadata.namespace = strings.share(metadata.namespace);
    if (metadata.creationTimestamp !== undefined) metadata.creationTimestamp = strings.share(metadata.creationTimestamp);
    strings.shareValues(metadata.labels);
    strings.shareValues(metadata.annotations);
    for (const ref of metadata.ownerReferences ?? []) {
      ref.apiVersion = strings.share(ref.apiVersion);
      ref.kind = strings.share(ref.kind);
    }
  }
  const conditions = (object['status'] as { conditions?: unknown } | undefined)?.conditions;
  if (Array.isArray(conditions)) for (const condition of conditions) strings.shareValues(condition as Record<string, unknown>);
}

/**
 * Removes what the cache does not keep and returns the same object (its `metadata` replaced when anything went);
 * with `strings`, its repeated short strings are shared too. With `fingerprint` (the default), dropped managedFields
 * leave their fingerprint behind; an informer whose readers never ask for it passes false and saves the hash (a JSON
 * text of the field and a pass over it: about as much as parsing the object, measured in bench/peers).
 */
export function slimForCache(object: KubeObject, strings?: StringPool, fingerprint = true): KubeObject {
  const slimmed = slimMetadata(object, fingerprint);
  if (strings !== undefined) pool(slimmed, strings);
  return slimmed;
}

function slimMetadata(object: KubeObject, fingerprint: boolean): KubeObject {
  const metadata = object.metadata;
  if (metadata === undefined) return object;
  const annotations = metadata.annotations;
  const lastApplied = annotations !== undefined && LAST_APPLIED_ANNOTATION in annotations;
  if (!lastApplied && !('managedFields' in metadata)) return object;
  const slim: Record<string | symbol, unknown> = {};
  // for...in over a parsed object: its own keys in order, without the [key, value] pairs Object.entries allocates.
  const fields = metadata as Record<string, unknown>;
  for (const field in fields) {
    if (field === 'managedFields') {
      // Where the field was, so every slimmed metadata with managedFields keeps one hidden class.
      if (fingerprint) slim[MANAGED_FIELDS] = hash53(JSON.stringify(fields[field]));
      continue;
    }
    const value = fields[field];
    if (field === 'annotations' && lastApplied) {
      const kept = without(value as Record<string, string>, LAST_APPLIED_ANNOTATION);
      if (kept !== undefined) slim[field] = kept;
      continue;
    }
    slim[field] = value;
  }
  object.metadata = slim as NonNullable<KubeObject['metadata']>;
  return object;
}

/** A copy of `record` without `omitted`, or undefined when nothing else is left. */
function without(record: Readonly<Record<string, string>>, omitted: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let kept = 0;
  for (const key in record) {
    if (key === omitted) continue;
    out[key] = record[key] as string;
    kept++;
  }
  return kept === 0 ? undefined : out;
}
