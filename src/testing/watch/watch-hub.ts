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

export class WatchHub {
  private readonly byKey = new Map<string, Set<Watcher>>();

  add(watcher: Watcher): void {
    let set = this.byKey.get(watcher.target.key);
    if (set === undefined) {
      set = new Set();
      this.byKey.set(watcher.target.key, set);
    }
    set.add(watcher);
  }

  remove(watcher: Watcher): void {
    const set = this.byKey.get(watcher.target.key);
    set?.delete(watcher);
    if (set?.size === 0) this.byKey.delete(watcher.target.key);
  }

  /**
   * Offers a committed change to the watches of its resource. Its wire line is built at most once and shared by
   * them, for this change only: nothing keeps it once the watches have written it (the history holds the record,
   * not a second copy of its JSON).
   */
  publish(event: ChangeEvent): void {
    const set = this.byKey.get(event.key);
    if (set === undefined) return;
    const shared: SharedLine = { line: undefined };
    for (const watcher of set) watcher.offer(event, shared);
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
    for (const set of [...this.byKey.values()]) for (const watcher of [...set]) if (predicate(watcher)) watcher.end();
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
    for (const set of [...this.byKey.values()]) {
      for (const watcher of [...set]) {
        if (filter.key !== undefined && watcher.target.key !== filter.key) continue;
        if (filter.resource !== undefined && watcher.target.resource !== filter.resource) continue;
        out.push(watcher);
      }
    }
    return out;
  }
}
