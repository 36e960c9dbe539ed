/**
 * A later page of a list reads the state at its first page's resourceVersion, as kube-apiserver's do (their continue
 * token holds the revision, and etcd serves the rest of the range at that revision): an object created after the
 * first page is not in a later one, an object deleted after it still is, and a changed one is there as it was.
 *
 * The state at revision R is the current state with every change after R undone, from the retained change events
 * (the history): the first change after R of each object says what it was at R (none for an ADDED; the state before
 * it for a MODIFIED or a DELETED). When the history no longer reaches back to R there is no such state: the caller
 * decides (read.ts: a later page reads the current state, a list at an exact resourceVersion is 410).
 */
import type { Cluster } from '../cluster.js';
import type { StoredRecord } from '../store/record.js';
import { compareKeys } from '../store/object-store.js';

interface ObjectKey {
  readonly namespace: string;
  readonly name: string;
}

export interface Range {
  /** Objects in the range (the count of a real server's `remainingItemCount` plus the page). */
  readonly count: number;
  /** In etcd's order (namespace, then name). */
  readonly records: Iterable<StoredRecord>;
}

const idOf = (key: ObjectKey): string => `${key.namespace}\u0000${key.name}`;

/**
 * The objects of `typeKey` (of `namespace` when given) after the key `from` (from the first when undefined), as they
 * were at `revision`; undefined when the history no longer reaches back to `revision`.
 */
export function rangeAt(cluster: Cluster, typeKey: string, namespace: string | undefined, from: ObjectKey | undefined, revision: number): Range | undefined {
  const current = cluster.store.listAfter(typeKey, namespace, from);
  const changes = revision >= cluster.store.currentRevision ? [] : cluster.history.since(revision);
  if (changes === undefined) return undefined;
  if (changes.length === 0) return current;
  // What each object changed since `revision` was at `revision` (`was` undefined: it did not exist).
  const then = new Map<string, { readonly key: ObjectKey; readonly was: StoredRecord | undefined }>();
  for (const event of changes) {
    if (event.key !== typeKey) continue;
    const key = { namespace: event.record.namespace, name: event.record.name };
    if ((namespace !== undefined && key.namespace !== namespace) || (from !== undefined && compareKeys(key, from) <= 0)) continue;
    const id = idOf(key);
    if (!then.has(id)) then.set(id, { key, was: event.type === 'ADDED' ? undefined : event.prev });
  }
  if (then.size === 0) return current;
  // Objects gone since `revision` come back in their place; objects new since then are left out.
  let count = current.count;
  const gone: StoredRecord[] = [];
  for (const { key, was } of then.values()) {
    const present = cluster.store.get(typeKey, key.namespace, key.name) !== undefined;
    if (was !== undefined && !present) {
      gone.push(was);
      count += 1;
    } else if (was === undefined && present) count -= 1;
  }
  gone.sort(compareKeys);
  function* records(): Generator<StoredRecord> {
    let next = 0;
    for (const record of current.records) {
      while (next < gone.length && compareKeys(gone[next] as StoredRecord, record) < 0) yield gone[next++] as StoredRecord;
      const changed = then.get(idOf(record));
      if (changed === undefined) yield record;
      else if (changed.was !== undefined) yield changed.was;
    }
    while (next < gone.length) yield gone[next++] as StoredRecord;
  }
  return { count, records: records() };
}
