/**
 * Timers of a simulated controller on the server's clock, one per key: scheduling a key again replaces its timer,
 * and a timer that fires runs its work as controller work of the cluster (after the request in progress).
 */
import type { Cluster } from '../../cluster.js';
import type { TimerHandle } from '../../../util/clock.js';

export class DeferredTimers {
  private readonly timers = new Map<string, TimerHandle>();

  constructor(private readonly cluster: Cluster) {}

  has(key: string): boolean {
    return this.timers.has(key);
  }

  /** Runs `work` after `ms` (at once when not positive), unless the key is scheduled again or cleared first. */
  schedule(key: string, ms: number, work: () => void): void {
    this.clear(key);
    const handle = this.cluster.clock.setTimeout(() => {
      if (this.timers.get(key) !== handle) return;
      this.timers.delete(key);
      this.cluster.defer(work);
    }, Math.max(0, ms));
    this.timers.set(key, handle);
  }

  clear(key: string): void {
    const handle = this.timers.get(key);
    if (handle !== undefined) this.cluster.clock.clearTimeout(handle);
    this.timers.delete(key);
  }

  /** Drops every timer (reset, stop). */
  cancel(): void {
    for (const handle of this.timers.values()) this.cluster.clock.clearTimeout(handle);
    this.timers.clear();
  }
}
