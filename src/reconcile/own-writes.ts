/**
 * What the runtime's own writes to a custom resource (its finalizers, its status) returned, kept until the informer
 * cache catches up. A reconcile that runs in between (a child's event, a requeue) then starts from the object as the
 * API server has it, so its writes carry the current resourceVersion and are not refused with 409 Conflict because
 * of the runtime's own earlier write (SPEC §8).
 *
 * Only `metadata` and `status` come from a write: the runtime never writes anything else of its parents. An entry
 * applies while the cache still shows one of the resourceVersions the runtime's writes replaced; any other
 * resourceVersion (the cache caught up, or someone else wrote) drops it and the cache wins. The entry is dropped
 * as soon as the cache shows that ({@link OwnWrites.cached}, from the informer's events), not at the object's next
 * reconcile: a steady resource is reconciled again only at the resync, and until then every entry would keep a
 * second copy of its object's metadata and status (about 1 KB per resource; docs/performance.md, "Scale").
 */
import type { KubeObject } from '../kube/resource.js';

interface Entry {
  /** The resourceVersions our writes replaced, the cached one first. */
  readonly replaced: Set<string>;
  metadata: NonNullable<KubeObject['metadata']>;
  status: unknown;
  hasStatus: boolean;
}

/** Bounded so that a burst of writes to objects that then go away cannot grow it without end. */
const LIMIT = 50_000;

export class OwnWrites {
  private readonly entries = new Map<string, Entry>();

  /** The cached object, or the state our later writes left it in while the cache lags behind them. */
  resolve(key: string, cached: KubeObject | undefined): KubeObject | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return cached;
    const version = cached?.metadata?.resourceVersion;
    if (cached === undefined || version === undefined || !entry.replaced.has(version)) {
      this.entries.delete(key);
      return cached;
    }
    return entry.hasStatus ? { ...cached, metadata: entry.metadata, status: entry.status } : { ...cached, metadata: entry.metadata };
  }

  /**
   * The cache now holds `object` under `key` (undefined: deleted): drops the key's entry unless the object is still
   * at a resourceVersion our writes replaced (the rule {@link OwnWrites.resolve} applies, applied as the cache changes).
   */
  cached(key: string, object: KubeObject | undefined): void {
    if (this.entries.size === 0) return;
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    const version = object?.metadata?.resourceVersion;
    if (version === undefined || !entry.replaced.has(version)) this.entries.delete(key);
  }

  /** Keys with an entry (tests, and bench/scale's account of memory). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Records a write of ours: `before` is the object it was based on, `answer` what the API server returned. A write
   * that changed nothing (same resourceVersion) records nothing.
   *
   * `cachedVersion` is the resourceVersion the cache holds for the key now (null: the cache no longer holds it;
   * undefined: not known). When the cache has already moved past every version our writes replaced (the write's
   * own watch event, or a later one, arrived before its answer: the API server sends both, on two connections),
   * nothing is recorded and the key's entry is dropped: {@link OwnWrites.resolve} would drop it at its next call
   * and return the cache, so recording it would only keep a second copy of the object's metadata and status until
   * that call, which for a steady resource is the resync (docs/performance.md, "Scale (session 9)").
   */
  record(key: string, before: KubeObject, answer: KubeObject | undefined, wrote: 'metadata' | 'status', cachedVersion?: string | null): void {
    const from = before.metadata?.resourceVersion;
    const to = answer?.metadata?.resourceVersion;
    if (answer?.metadata === undefined || from === undefined || to === undefined || from === to) return;
    const entry = this.entries.get(key);
    if (cachedVersion !== undefined && cachedVersion !== from && (cachedVersion === null || entry?.replaced.has(cachedVersion) !== true)) {
      this.entries.delete(key);
      return;
    }
    const { managedFields: _managedFields, ...metadata } = answer.metadata;
    if (entry !== undefined && entry.metadata.resourceVersion === from) {
      entry.replaced.add(from);
      entry.metadata = metadata;
      if (wrote === 'status') {
        entry.status = answer['status'];
        entry.hasStatus = true;
      }
      return;
    }
    if (this.entries.size >= LIMIT) this.entries.clear();
    this.entries.set(key, { replaced: new Set([from]), metadata, status: answer['status'], hasStatus: wrote === 'status' });
  }

  /** Forgets a key (its object is gone). */
  forget(key: string): void {
    this.entries.delete(key);
  }
}
