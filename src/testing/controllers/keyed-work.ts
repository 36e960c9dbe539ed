/**
 * A controller's syncs, one key at a time, as kube's workqueue hands them out: a sync of a key asked for while one
 * runs (awaiting admission) runs once after it, with what the store holds then. A sync that never awaits runs at once.
 * A sync that fails is retried after a backoff that doubles per failure and that a success resets: kube's default
 * controller backoff (5 ms, at most 1,000 s) unless the controller has its own (the Job controller's: 1 s, at most
 * 60 s).
 */
import type { Cluster } from '../cluster.js';
import { DeferredTimers } from './workloads/deferred-timers.js';

/** A sync's end: `retry` asks for it again after the key's backoff (kube: the sync returned an error). */
export type SyncOutcome = 'done' | 'retry';

/** The first retry's delay and the longest, in ms. */
export interface Backoff {
  readonly firstMs: number;
  readonly longestMs: number;
}

/** kube's DefaultTypedControllerRateLimiter's per-key part. */
export const CONTROLLER_BACKOFF: Backoff = { firstMs: 5, longestMs: 1_000_000 };

export class KeyedWork {
  /** The keys whose sync awaits, and whether another was asked for meanwhile. */
  private readonly running = new Map<string, boolean>();
  private readonly failures = new Map<string, number>();
  private readonly retries: DeferredTimers;

  constructor(
    private readonly cluster: Cluster,
    private readonly sync: (key: string) => SyncOutcome | Promise<SyncOutcome>,
    private readonly backoff: Backoff = CONTROLLER_BACKOFF,
  ) {
    this.retries = new DeferredTimers(cluster);
  }

  /** Syncs `key` now, or after the sync of it under way. */
  run(key: string): void {
    if (this.running.has(key)) {
      this.running.set(key, true);
      return;
    }
    const outcome = this.sync(key);
    if (!(outcome instanceof Promise)) return this.ended(key, outcome);
    this.running.set(key, false);
    this.cluster.track(async () => {
      try {
        this.ended(key, await outcome);
      } finally {
        const again = this.running.get(key) === true;
        this.running.delete(key);
        if (again) this.cluster.defer(() => this.run(key));
      }
    });
  }

  /** A key gone (its object deleted): no retry, its failures forgotten. */
  forget(key: string): void {
    this.retries.clear(key);
    this.failures.delete(key);
  }

  cancel(): void {
    this.retries.cancel();
    this.failures.clear();
  }

  private ended(key: string, outcome: SyncOutcome): void {
    if (outcome === 'done') {
      this.failures.delete(key);
      return;
    }
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    this.retries.schedule(key, Math.min(this.backoff.longestMs, this.backoff.firstMs * 2 ** failures), () => this.run(key));
  }
}
