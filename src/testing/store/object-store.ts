/**
 * The objects: one bucket per resource type (`group/plural`), each a map per namespace of maps by name, plus
 * indexes by uid and by owner uid (for garbage collection). Holds the global resourceVersion counter.
 */
import { metadataOf, type StoredRecord } from './record.js';

/** A record and the resource key it is stored under. */
export interface Located {
  readonly key: string;
  readonly record: StoredRecord;
}

class Bucket {
  readonly byNamespace = new Map<string, Map<string, StoredRecord>>();
  size = 0;
  /** All records sorted by namespace then name; dropped when an object is added or removed. */
  sortedKeys: { namespace: string; name: string }[] | undefined;
  /** One namespace's records sorted by name; a namespace's entry is dropped when an object is added to it or removed. */
  readonly sortedInNamespace = new Map<string, { namespace: string; name: string }[]>();

  /** Forgets the sorted orders that an object added to or removed from `namespace` changes. */
  reordered(namespace: string): void {
    this.sortedKeys = undefined;
    this.sortedInNamespace.delete(namespace);
  }
}

/** The owner uids listed in `record`'s ownerReferences. */
export function ownerUids(record: StoredRecord): string[] {
  const refs = metadataOf(record.object)['ownerReferences'];
  if (!Array.isArray(refs)) return [];
  const uids: string[] = [];
  for (const ref of refs) {
    const uid = (ref as { uid?: unknown } | null)?.uid;
    if (typeof uid === 'string' && uid !== '') uids.push(uid);
  }
  return uids;
}

/** etcd's order of a kind's objects: by namespace, then name. */
export function compareKeys(a: { namespace: string; name: string }, b: { namespace: string; name: string }): number {
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export class ObjectStore {
  private readonly buckets = new Map<string, Bucket>();
  private readonly uids = new Map<string, Located>();
  private readonly dependents = new Map<string, Set<string>>();
  private revision: number;

  constructor(initialRevision = 1) {
    this.revision = initialRevision;
  }

  /** The current (latest assigned) resourceVersion. */
  get currentRevision(): number {
    return this.revision;
  }

  /** Allocates the next resourceVersion. */
  nextRevision(): number {
    this.revision += 1;
    return this.revision;
  }

  get(key: string, namespace: string, name: string): StoredRecord | undefined {
    return this.buckets.get(key)?.byNamespace.get(namespace)?.get(name);
  }

  /** Stores `record`, replacing `prev` (same namespace and name) when given. */
  put(key: string, record: StoredRecord, prev: StoredRecord | undefined): void {
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = new Bucket();
      this.buckets.set(key, bucket);
    }
    let names = bucket.byNamespace.get(record.namespace);
    if (names === undefined) {
      names = new Map();
      bucket.byNamespace.set(record.namespace, names);
    }
    if (!names.has(record.name)) {
      bucket.size += 1;
      bucket.reordered(record.namespace);
    }
    names.set(record.name, record);
    if (prev !== undefined && prev.uid !== record.uid) this.uids.delete(prev.uid);
    this.uids.set(record.uid, { key, record });
    this.reindexOwners(record, prev);
  }

  /** Removes the object stored as `record` (by namespace and name). */
  remove(key: string, record: StoredRecord): void {
    const bucket = this.buckets.get(key);
    const names = bucket?.byNamespace.get(record.namespace);
    if (bucket === undefined || names === undefined || !names.delete(record.name)) return;
    bucket.size -= 1;
    bucket.reordered(record.namespace);
    if (names.size === 0) bucket.byNamespace.delete(record.namespace);
    this.uids.delete(record.uid);
    this.reindexOwners(undefined, record);
  }

  private sortedKeys(bucket: Bucket): readonly { namespace: string; name: string }[] {
    if (bucket.sortedKeys === undefined) {
      const keys: { namespace: string; name: string }[] = [];
      for (const [ns, names] of bucket.byNamespace) for (const name of names.keys()) keys.push({ namespace: ns, name });
      bucket.sortedKeys = keys.sort(compareKeys);
    }
    return bucket.sortedKeys;
  }

  /** The keys of one namespace sorted by name, kept until an object is added to it or removed. */
  private sortedInNamespace(bucket: Bucket, namespace: string): readonly { namespace: string; name: string }[] {
    let keys = bucket.sortedInNamespace.get(namespace);
    if (keys === undefined) {
      const names = bucket.byNamespace.get(namespace);
      if (names === undefined) return [];
      keys = [...names.keys()].sort().map((name) => ({ namespace, name }));
      bucket.sortedInNamespace.set(namespace, keys);
    }
    return keys;
  }

  /** The records of a resource, sorted by namespace then name; only one namespace when given. */
  list(key: string, namespace?: string): StoredRecord[] {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return [];
    const out: StoredRecord[] = [];
    for (const k of namespace === undefined ? this.sortedKeys(bucket) : this.sortedInNamespace(bucket, namespace)) {
      const record = bucket.byNamespace.get(k.namespace)?.get(k.name);
      if (record !== undefined) out.push(record);
    }
    return out;
  }

  /**
   * The records of a resource after `from` (exclusive; from the first when absent) in the order of `list`, read
   * lazily, and how many there are: a page of a list costs its own records, not a copy of the whole kind.
   */
  listAfter(key: string, namespace: string | undefined, from: { namespace: string; name: string } | undefined): { readonly count: number; readonly records: Iterable<StoredRecord> } {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return { count: 0, records: [] };
    const byNamespace = bucket.byNamespace;
    const keys = namespace === undefined ? this.sortedKeys(bucket) : this.sortedInNamespace(bucket, namespace);
    let start = 0;
    if (from !== undefined) {
      let high = keys.length;
      while (start < high) {
        const middle = (start + high) >>> 1;
        if (compareKeys(keys[middle] as { namespace: string; name: string }, from) > 0) high = middle;
        else start = middle + 1;
      }
    }
    function* records(): Generator<StoredRecord> {
      for (let i = start; i < keys.length; i++) {
        const k = keys[i] as { namespace: string; name: string };
        const record = byNamespace.get(k.namespace)?.get(k.name);
        if (record !== undefined) yield record;
      }
    }
    return { count: keys.length - start, records: records() };
  }

  /** Number of objects of a resource (in one namespace when given). */
  count(key: string, namespace?: string): number {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return 0;
    return namespace === undefined ? bucket.size : (bucket.byNamespace.get(namespace)?.size ?? 0);
  }

  /** The object with this uid, wherever it is stored. */
  byUid(uid: string): Located | undefined {
    return this.uids.get(uid);
  }

  /** The objects whose ownerReferences name `ownerUid`. */
  dependentsOf(ownerUid: string): Located[] {
    const set = this.dependents.get(ownerUid);
    if (set === undefined) return [];
    const out: Located[] = [];
    for (const uid of set) {
      const located = this.uids.get(uid);
      if (located !== undefined) out.push(located);
    }
    return out;
  }

  /** The resource keys that hold at least one object. */
  keys(): string[] {
    return [...this.buckets.keys()].filter((key) => (this.buckets.get(key)?.size ?? 0) > 0);
  }

  /** Removes a whole bucket without events (the caller has announced the removals). */
  dropBucket(key: string): void {
    for (const record of this.list(key)) this.remove(key, record);
    this.buckets.delete(key);
  }

  /** Removes everything; the resourceVersion keeps counting. */
  clear(): void {
    this.buckets.clear();
    this.uids.clear();
    this.dependents.clear();
  }

  private reindexOwners(record: StoredRecord | undefined, prev: StoredRecord | undefined): void {
    if (prev !== undefined) {
      for (const owner of ownerUids(prev)) {
        const set = this.dependents.get(owner);
        set?.delete(prev.uid);
        if (set?.size === 0) this.dependents.delete(owner);
      }
    }
    if (record !== undefined) {
      for (const owner of ownerUids(record)) {
        let set = this.dependents.get(owner);
        if (set === undefined) {
          set = new Set();
          this.dependents.set(owner, set);
        }
        set.add(record.uid);
      }
    }
  }
}
