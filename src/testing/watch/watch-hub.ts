/** The open watches, by resource key; every committed change is offered to the watches of its resource. */
import type { ChangeEvent } from '../store/history.js';
import type { SharedLine, Watcher } from './watcher.js';

/** Which watches a fault or a lifecycle action applies to. */
export interface WatchFilter {
  /** Plural resource name (e.g. `configmaps`). */
  readonly resource?: string;
  /** Resource key (`group/plural`), used internally when a CRD goes away. */
  readonly key?: string;
}

/**
 * The watches of one resource. Those whose label selector requires `key=value` are also indexed by that label, so
 * that a change is offered only to the watches that can select it (its labels before or after the change): with
 * many watches of one kind, each selecting its own label value, a change is not matched against all of them.
 */
class ResourceWatches {
  readonly all = new Set<Watcher>();
  private readonly unindexed = new Set<Watcher>();
  private readonly byLabel = new Map<string, Map<string, Set<Watcher>>>();

  add(watcher: Watcher): void {
    this.all.add(watcher);
    const equality = watcher.target.labels.equality;
    if (equality === undefined) {
      this.unindexed.add(watcher);
      return;
    }
    let byValue = this.byLabel.get(equality.key);
    if (byValue === undefined) {
      byValue = new Map();
      this.byLabel.set(equality.key, byValue);
    }
    let set = byValue.get(equality.value);
    if (set === undefined) {
      set = new Set();
      byValue.set(equality.value, set);
    }
    set.add(watcher);
  }

  remove(watcher: Watcher): void {
    this.all.delete(watcher);
    const equality = watcher.target.labels.equality;
    if (equality === undefined) {
      this.unindexed.delete(watcher);
      return;
    }
    const byValue = this.byLabel.get(equality.key);
    const set = byValue?.get(equality.value);
    set?.delete(watcher);
    if (set?.size === 0) byValue?.delete(equality.value);
    if (byValue?.size === 0) this.byLabel.delete(equality.key);
  }

  publish(event: ChangeEvent, shared: SharedLine): void {
    for (const watcher of this.unindexed) watcher.offer(event, shared);
    for (const [key, byValue] of this.byLabel) {
      const now = labelOf(event.record.labels, key);
      const before = event.prev === undefined ? undefined : labelOf(event.prev.labels, key);
      const selectedNow = now === undefined ? undefined : byValue.get(now);
      if (selectedNow !== undefined) for (const watcher of selectedNow) watcher.offer(event, shared);
      // A watch that selected the object before and no longer does sees it leave (DELETED).
      const selectedBefore = before === undefined || before === now ? undefined : byValue.get(before);
      if (selectedBefore !== undefined) for (const watcher of selectedBefore) watcher.offer(event, shared);
    }
  }
}

function labelOf(labels: Readonly<Record<string, string>>, key: string): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(labels, key)) return undefined;
  const value: unknown = labels[key];
  return typeof value === 'string' ? value : undefined;
}

export class WatchHub {
  private readonly byKey = new Map<string, ResourceWatches>();

  add(watcher: Watcher): void {
    let watches = this.byKey.get(watcher.target.key);
    if (watches === undefined) {
      watches = new ResourceWatches();
      this.byKey.set(watcher.target.key, watches);
    }
    watches.add(watcher);
  }

  remove(watcher: Watcher): void {
    const watches = this.byKey.get(watcher.target.key);
    watches?.remove(watcher);
    if (watches?.all.size === 0) this.byKey.delete(watcher.target.key);
  }

  /**
   * Offers a committed change to the watches of its resource. Its wire line is built at most once and shared by
   * them, for this change only: nothing keeps it once the watches have written it (the history holds the record,
   * not a second copy of its JSON).
   */
  publish(event: ChangeEvent): void {
    this.byKey.get(event.key)?.publish(event, { line: undefined });
  }

  /** Number of open watches (matching the filter). */
  count(filter: WatchFilter = {}): number {
    return this.select(filter).length;
  }

  /** Ends matching watches cleanly. */
  endAll(filter: WatchFilter = {}): void {
    for (const watcher of this.select(filter)) watcher.end();
  }

  /** Ends cleanly every watch for which `predicate` holds. */
  endWhere(predicate: (watcher: Watcher) => boolean): void {
    for (const watches of [...this.byKey.values()]) for (const watcher of [...watches.all]) if (predicate(watcher)) watcher.end();
  }

  /** Destroys the sockets of matching watches. */
  dropAll(filter: WatchFilter = {}): void {
    for (const watcher of this.select(filter)) watcher.drop();
  }

  /**
   * Makes matching watches (those `pick` approves) go silent; after `forMs` (when given) each is dropped. Returns
   * how many stalled.
   */
  stallAll(filter: WatchFilter, options: { readonly forMs?: number | undefined; readonly pick: () => boolean }): number {
    let count = 0;
    for (const watcher of this.select(filter)) {
      if (watcher.isStalled || !options.pick()) continue;
      watcher.stall(options.forMs);
      count++;
    }
    return count;
  }

  /** Drops every stalled watch (its client reconnects). */
  dropStalled(): void {
    for (const watcher of this.select({})) if (watcher.isStalled) watcher.drop();
  }

  private select(filter: WatchFilter): Watcher[] {
    const out: Watcher[] = [];
    for (const watches of [...this.byKey.values()]) {
      for (const watcher of [...watches.all]) {
        if (filter.key !== undefined && watcher.target.key !== filter.key) continue;
        if (filter.resource !== undefined && watcher.target.resource !== filter.resource) continue;
        out.push(watcher);
      }
    }
    return out;
  }
}
