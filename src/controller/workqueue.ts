/**
 * The workqueue between an informer and its workers: it holds keys (`namespace/name`), not events, and hands each
 * key to one worker at a time (controller-runtime's workqueue discipline; kube-rs's earliest-deadline dedup).
 */
import { RuntimeError } from '../errors.js';
import { systemClock, type Clock } from '../util/clock.js';
import { DelayedKeys } from './delaying.js';
import { Fifo } from './fifo.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/**
 * What the queue reports, for the caller to wire to metrics (the queue itself knows nothing of prom-client).
 * Callbacks run synchronously inside queue operations and timer callbacks: keep them cheap and do not throw.
 */
export interface WorkqueueObserver {
  /** The number of ready keys ({@link Workqueue.length}) changed to `n`. */
  depth?(n: number): void;
  /** `key` was accepted to run (by `add`, or by a delayed add falling due); not called for a deduplicated add. */
  added?(key: string): void;
  /** `key` was refused because the queue was full (`maxDepth`); not called for adds refused after shutdown. */
  dropped?(key: string): void;
  /** A key was handed out by `get()` after waiting `seconds` since it was accepted to run. */
  waited?(seconds: number): void;
}

/** Options of {@link Workqueue}. */
export interface WorkqueueOptions {
  /** Source of time for delays, waits and the default rate limiter. Default {@link systemClock}. */
  readonly clock?: Clock;
  /** Most keys that may wait to run; see {@link Workqueue}. Default Infinity (the runtime applies SPEC's 1000). */
  readonly maxDepth?: number;
  /** Used by `addRateLimited`, `forget` and `numRequeues`. Default {@link defaultControllerRateLimiter} on `clock`. */
  readonly rateLimiter?: RateLimiter;
  /** Receives depth, adds, drops and wait times. */
  readonly observer?: WorkqueueObserver;
}

interface Waiter {
  settled: boolean;
  settle(key: string | undefined): void;
}

/**
 * A deduplicating work queue of keys with delayed adds and a processing set.
 *
 * Each key is in at most one of these waiting states, besides possibly being processed:
 * - **ready**: queued to be handed out by `get()`, in FIFO order;
 * - **rerun**: being processed and added again meanwhile; it becomes ready once, when `done(key)` is called;
 * - **delayed**: waiting for a deadline set by `addAfter`; several delays keep the earliest deadline.
 *
 * Guarantees:
 * - A key is never handed out again before `done(key)` for the previous hand-out: no key is processed twice at once.
 * - A key added while ready or rerun is not added twice. `add` on a delayed key makes it ready now and drops the
 *   delayed entry; `addAfter` on a ready or rerun key does nothing, since that run comes sooner. (controller-runtime
 *   keeps both and deduplicates when the delay falls due; the result is the same except that a run that already
 *   happened does not trigger one more.)
 * - `maxDepth` bounds the keys waiting to run: ready plus rerun. Keys being processed and delayed keys do not count,
 *   so `length <= maxDepth` always. An add that would exceed it is refused and reported through `observer.dropped`,
 *   and so is a delayed key that falls due while the queue is full (the next resync brings both back). A refused
 *   `add` leaves a delayed entry of the key in place.
 * - `get()` callers are served in the order they called.
 * - Two lanes of ready keys: `add` queues in the first, `addLow` (the periodic resync) in the second, and `get()`
 *   hands out a low key only when no first-lane key is ready. So a change that arrives during a resync of every
 *   cached object runs next, instead of after all of them. A low key added again with `add` moves to the first lane
 *   (once: it is not handed out twice); one added again with `addLow` keeps its place. Each lane is FIFO;
 *   `maxDepth` bounds both together.
 *
 * Shutdown (`shutDown` or `shutDownWithDrain`): the queue takes no more keys (`add` returns false, without counting
 * a drop), discards the ready, rerun and delayed keys and cancels its timer, and every pending or later `get()`
 * resolves `undefined`. Keys already handed out stay in the processing set until `done(key)`; level-based
 * reconciling means nothing is lost, since the next start lists every object again (SPEC §3.5: stop taking new
 * keys, let in-flight reconciles finish).
 */
export class Workqueue {
  private readonly clock: Clock;
  private maxDepth: number;
  private readonly rateLimiter: RateLimiter;
  private readonly observer: WorkqueueObserver;
  private readonly ready = new Fifo<string>();
  /**
   * The low lane (`addLow`). A key moved to the first lane leaves a stale entry here, skipped when reached: the keys
   * really ready in this lane are `lowReady`; `lowRerun` are keys being processed that were added again by `addLow`
   * alone (they go back to this lane at `done`).
   */
  private readonly readyLow = new Fifo<string>();
  private readonly lowReady = new Set<string>();
  private readonly lowRerun = new Set<string>();
  /** Ready and rerun keys, with the time each was accepted to run. */
  private readonly waitingSince = new Map<string, number>();
  private readonly active = new Set<string>();
  private readonly delayedKeys: DelayedKeys;
  /** Pending `get()` calls, oldest first (a Set keeps insertion order and removes an aborted caller in O(1)). */
  private readonly waiters = new Set<Waiter>();
  private readonly drainWaiters = new Set<() => void>();
  private closed = false;
  private reportedDepth = 0;

  constructor(options: WorkqueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.maxDepth = options.maxDepth ?? Infinity;
    if (!(this.maxDepth >= 1)) throw new RuntimeError('E_OPTIONS', `workqueue: maxDepth must be >= 1, got ${this.maxDepth}`);
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter({ clock: this.clock });
    this.observer = options.observer ?? {};
    this.delayedKeys = new DelayedKeys(this.clock, (key) => this.admit(key, false));
  }

  /**
   * Queues `key` to run now. Returns true when the key is now waiting to run (including when it already was), false
   * when it was refused: the queue is full (reported as dropped) or shut down (not reported).
   */
  add(key: string): boolean {
    if (this.closed) return false;
    if (this.waitingSince.has(key)) {
      this.promote(key);
      return true;
    }
    if (!this.admit(key, false)) return false;
    this.delayedKeys.delete(key);
    return true;
  }

  /**
   * `add` in the low lane: the key runs after every key that `add` queued (see the class notes). A key already
   * waiting, in either lane, stays where it is. Used by the periodic resync.
   */
  addLow(key: string): boolean {
    if (this.closed) return false;
    if (this.waitingSince.has(key)) return true;
    if (!this.admit(key, true)) return false;
    this.delayedKeys.delete(key);
    return true;
  }

  /**
   * Queues `key` to run in `delayMs` ms. A key already delayed keeps the earlier deadline; a key already ready or
   * rerun is left as it is. `delayMs <= 0` (or NaN) is `add(key)`. A delayed key does not count toward `maxDepth`
   * until it falls due. Ignored after shutdown.
   */
  addAfter(key: string, delayMs: number): void {
    if (this.closed) return;
    if (!(delayMs > 0)) {
      this.add(key);
      return;
    }
    if (this.waitingSince.has(key)) return;
    this.delayedKeys.schedule(key, delayMs);
  }

  /** `addAfter(key, rateLimiter.when(key))`: records one more retry of `key` and delays it accordingly. Ignored after shutdown. */
  addRateLimited(key: string): void {
    if (this.closed) return;
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** Resets the retry count of `key` in the rate limiter (call after a success). Does not remove the key from the queue. */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  /** Retries of `key` recorded by the rate limiter since it was last forgotten. */
  numRequeues(key: string): number {
    return this.rateLimiter.numRequeues(key);
  }

  /**
   * Waits for a ready key and hands it out; it stays in the processing set until `done(key)`. Resolves `undefined`
   * once the queue is shut down, or when `signal` aborts (never rejects). A key is never given to a caller whose
   * signal has aborted.
   */
  get(signal?: AbortSignal): Promise<string | undefined> {
    if (this.closed || signal?.aborted === true) return Promise.resolve(undefined);
    const key = this.next();
    if (key !== undefined) {
      this.handOut(key);
      this.reportDepth();
      return Promise.resolve(key);
    }
    return new Promise((resolve) => {
      const onAbort = (): void => waiter.settle(undefined);
      const waiter: Waiter = {
        settled: false,
        settle: (value) => {
          if (waiter.settled) return;
          waiter.settled = true;
          this.waiters.delete(waiter);
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Marks the processing of `key` finished. If it was added meanwhile, it becomes ready once (at the back of the
   * queue). A key that is not being processed is ignored.
   */
  done(key: string): void {
    if (!this.active.delete(key)) return;
    if (this.waitingSince.has(key)) {
      this.queueReady(key, this.lowRerun.delete(key));
      this.dispatch();
      this.reportDepth();
    }
    if (this.active.size === 0) this.finishDrain();
  }

  /** Whether `key` waits to run (ready, or rerun after its current processing). */
  has(key: string): boolean {
    return this.waitingSince.has(key);
  }

  /** Keys waiting to run: ready plus rerun, what `maxDepth` bounds. */
  get waiting(): number {
    return this.waitingSince.size;
  }

  /** Changes the bound (>= 1, Infinity for none); keys already waiting stay, new ones are refused while the queue is at or above it. */
  setMaxDepth(maxDepth: number): void {
    if (!(maxDepth >= 1)) throw new RuntimeError('E_OPTIONS', `workqueue: maxDepth must be >= 1, got ${maxDepth}`);
    this.maxDepth = maxDepth;
  }

  /** Keys ready to be handed out (not processing, not delayed). */
  get length(): number {
    return this.ready.size + this.lowReady.size;
  }

  /** Keys handed out and not yet `done`. */
  get processing(): number {
    return this.active.size;
  }

  /** Keys waiting for an `addAfter` deadline. */
  get delayed(): number {
    return this.delayedKeys.size;
  }

  get shuttingDown(): boolean {
    return this.closed;
  }

  /** Stops the queue at once (see the class notes); idempotent. Leaves no timer behind. */
  shutDown(): void {
    if (this.closed) return;
    this.closed = true;
    this.delayedKeys.clear();
    this.ready.clear();
    this.readyLow.clear();
    this.lowReady.clear();
    this.lowRerun.clear();
    this.waitingSince.clear();
    for (const waiter of [...this.waiters]) waiter.settle(undefined);
    this.reportDepth();
    if (this.active.size === 0) this.finishDrain();
  }

  /**
   * Shuts down, then resolves once every key handed out is `done`, or when `signal` aborts, whichever comes first
   * (read `processing` afterwards to tell which). Never rejects.
   */
  shutDownWithDrain(signal?: AbortSignal): Promise<void> {
    this.shutDown();
    if (this.active.size === 0 || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        this.drainWaiters.delete(finish);
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      this.drainWaiters.add(finish);
      signal?.addEventListener('abort', finish, { once: true });
    });
  }

  /** Accepts `key` (not waiting yet) to run now, unless the queue is full. Also the delayed keys' due callback. */
  private admit(key: string, low: boolean): boolean {
    if (this.closed) return false;
    if (this.waitingSince.has(key)) return true;
    if (this.waitingSince.size >= this.maxDepth) {
      this.observer.dropped?.(key);
      return false;
    }
    this.waitingSince.set(key, this.clock.now());
    this.observer.added?.(key);
    if (!this.active.has(key)) {
      this.queueReady(key, low);
      this.dispatch();
      this.reportDepth();
    } else if (low) this.lowRerun.add(key);
    return true;
  }

  private queueReady(key: string, low: boolean): void {
    if (!low) {
      this.ready.push(key);
      return;
    }
    this.readyLow.push(key);
    this.lowReady.add(key);
  }

  /** A waiting key of the low lane moves to the first (its stale low entry is skipped later). */
  private promote(key: string): void {
    if (this.lowRerun.delete(key)) return;
    if (!this.lowReady.delete(key)) return;
    this.ready.push(key);
    this.dispatch();
  }

  /** The next ready key: the first lane's, else the low lane's (skipping entries of keys moved out of it). */
  private next(): string | undefined {
    const key = this.ready.shift();
    if (key !== undefined) return key;
    for (let low = this.readyLow.shift(); low !== undefined; low = this.readyLow.shift()) {
      if (this.lowReady.delete(low)) return low;
    }
    return undefined;
  }

  /** Gives ready keys to waiting `get()` callers, oldest caller first. */
  private dispatch(): void {
    for (const waiter of this.waiters) {
      const key = this.next();
      if (key === undefined) return;
      this.handOut(key);
      waiter.settle(key);
    }
  }

  private handOut(key: string): void {
    const since = this.waitingSince.get(key) ?? this.clock.now();
    this.waitingSince.delete(key);
    this.active.add(key);
    this.observer.waited?.(Math.max(0, this.clock.now() - since) / 1000);
  }

  private reportDepth(): void {
    const depth = this.ready.size;
    if (depth === this.reportedDepth) return;
    this.reportedDepth = depth;
    this.observer.depth?.(depth);
  }

  private finishDrain(): void {
    for (const finish of [...this.drainWaiters]) finish();
  }
}
