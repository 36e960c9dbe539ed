/**
 * The runtime-wide limit of reconciles in flight (`maxConcurrentReconciles`), shared by the workers of every CRD.
 * A worker that took a key waits here, in first-come order, until a slot is free; it gives the slot back when its
 * reconcile returns (or is abandoned).
 *
 * Why a limit across CRDs: each reconcile holds its request and answer objects, promises and closures until it
 * ends. With 100 CRDs × 2 workers, 200 reconciles are in flight and each lives, by Little's law, while 200 others
 * complete: its objects outlive two young-generation collections, V8 promotes them to the old generation, and the
 * old generation grows to about twice what the caches keep (docs/performance.md, "Scale"). Throughput is bound by
 * the API server's round trip long before 64 reconciles are in flight, so the limit costs no throughput there.
 */

/** Default of `maxConcurrentReconciles`. */
export const DEFAULT_MAX_CONCURRENT_RECONCILES = 64;

export class ReconcileSlots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  /** `limit`: a positive integer, or `Infinity` for no limit. */
  constructor(readonly limit: number) {}

  /** Slots taken now. */
  get inUse(): number {
    return this.used;
  }

  /** Workers waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Takes a slot when one is free, at once; false otherwise (then call {@link acquire}). */
  tryAcquire(): boolean {
    if (this.used >= this.limit || this.waiting.length > 0) return false;
    this.used++;
    return true;
  }

  /**
   * Waits for a slot, after the workers that asked before. Resolves true with the slot taken, or false when `signal`
   * fires first (no slot is taken then).
   */
  acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.tryAcquire()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        const index = this.waiting.indexOf(grant);
        if (index !== -1) this.waiting.splice(index, 1);
        resolve(false);
      };
      // Called by release() with the slot already counted as taken for this waiter.
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      };
      this.waiting.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Gives a slot back: to the first waiter, or to the pool. */
  release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.used = Math.max(0, this.used - 1);
  }
}
