/**
 * N workers draining one queue. Each reconcile gets an AbortSignal that fires on its time-out or when the
 * runtime gives up draining; whatever the reconcile does, the worker survives, maps the outcome to the queue in
 * exactly one place, and marks the key done.
 *
 * A reconcile that ignores its signal (a hook that hangs) cannot take its worker with it: {@link ABANDON_AFTER_MS}
 * after its time-out the worker records an error (the key is retried with backoff) and moves on. The key itself
 * stays "processing" until the abandoned call settles, so that it is never reconciled twice at once.
 */
import { toError } from '../errors.js';
import { decideRequeue, type ReconcileOutcome } from '../reconcile/outcome.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import type { ReconcileSlots } from './reconcile-slots.js';
import type { Workqueue } from './workqueue.js';

/** How long a timed-out reconcile may take to honour its signal before its worker gives up waiting for it. */
export const ABANDON_AFTER_MS = 1000;

export interface WorkerPoolOptions {
  readonly queue: Workqueue;
  readonly count: number;
  readonly clock: Clock;
  /** A reconcile's time-out in ms; its signal fires then. */
  readonly timeoutMs: number;
  /** Reconciles one key; must not throw (the pipeline turns failures into outcomes), but a throw is survived too. */
  readonly reconcile: (key: string, signal: AbortSignal) => Promise<ReconcileOutcome>;
  /** Told about each finished reconcile. */
  readonly onReconciled: (key: string, outcome: ReconcileOutcome, durationMs: number) => void;
  /** Told how many workers are reconciling right now. */
  readonly onActive: (active: number) => void;
  /** The runtime-wide limit of reconciles in flight, shared with the other CRDs' pools; default none. */
  readonly slots?: ReconcileSlots | undefined;
  /**
   * Failures in a row (the first included) after which a key is no longer retried with backoff: it is forgotten and
   * `onGaveUp` is told; its next add (a change, the resync) starts a new streak. Default: retried until it succeeds.
   */
  readonly maxAttempts?: number | undefined;
  readonly onGaveUp?: ((key: string, attempts: number, error: Error) => void) | undefined;
}

export class WorkerPool {
  private readonly options: WorkerPoolOptions;
  private readonly abortAll = new AbortController();
  private loops: Array<Promise<void>> = [];
  private active = 0;
  /** Worker loops wanted, and running: a loop above the target exits before it takes another key. */
  private target: number;
  private running = 0;
  /** Wake-up switches of the workers waiting for a key. */
  private readonly idle = new Set<AbortController>();
  /**
   * The stop of every reconcile in flight. One listener on `abortAll` calls them all: cheaper than an abort listener
   * added and removed on `abortAll` by every reconcile.
   */
  private readonly inFlight = new Set<(reason: unknown) => void>();

  constructor(options: WorkerPoolOptions) {
    this.options = options;
    this.target = options.count;
    // Halting wakes the waiting workers too (they wait on their own switch, not on this signal), and stops every
    // reconcile in flight.
    this.abortAll.signal.addEventListener('abort', () => {
      for (const wake of this.idle) wake.abort();
      for (const stop of this.inFlight) stop(this.abortAll.signal.reason);
    }, { once: true });
  }

  /** Workers wanted now (see {@link WorkerPool.resize}). */
  get count(): number {
    return this.target;
  }

  /** More workers start at once; fewer: idle workers leave at once, busy ones when they finish their current key. */
  resize(count: number): void {
    this.target = count;
    let surplus = this.running - this.target;
    for (const wake of this.idle) {
      if (surplus-- <= 0) break;
      wake.abort();
    }
    while (this.running < this.target && !this.abortAll.signal.aborted && this.loops.length > 0) this.spawn();
  }

  private spawn(): void {
    this.running++;
    this.loops.push(this.loop());
  }

  get activeCount(): number {
    return this.active;
  }

  start(): void {
    for (let i = 0; i < this.target; i++) this.spawn();
  }

  /** Fires the signal of every reconcile in flight (after the drain time-out). */
  abortInFlight(reason: Error): void {
    this.abortAll.abort(reason);
  }

  /**
   * Stops the workers at once, without touching the queue: in-flight reconciles are aborted (and their keys marked
   * done), and no worker takes another key. Used when leadership is lost; the queue keeps collecting keys.
   */
  halt(reason: Error): void {
    this.abortAll.abort(reason);
  }

  /** Resolves when every worker loop has returned (the queue must be shut down first). */
  async finished(): Promise<void> {
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** One worker: takes keys until the queue shuts down, the pool is halted, or the pool has more workers than wanted. */
  private async loop(): Promise<void> {
    const { queue } = this.options;
    // Waiting for a key, a worker can be woken to leave when the pool shrinks (resize). Its switch is kept from one
    // key to the next until it is used.
    let wake = new AbortController();
    for (;;) {
      if (this.abortAll.signal.aborted || this.running > this.target) {
        // Counted down in the same turn as the check, so that several loops never leave for the same surplus.
        this.running--;
        return;
      }
      if (wake.signal.aborted) wake = new AbortController();
      this.idle.add(wake);
      const key = await queue.get(wake.signal);
      this.idle.delete(wake);
      if (key === undefined) {
        // Woken by a shrink that a grow has since undone: keep working.
        if (wake.signal.aborted && !this.abortAll.signal.aborted && this.running <= this.target) continue;
        this.running--;
        return;
      }
      const { slots } = this.options;
      if (slots !== undefined && !slots.tryAcquire() && !(await slots.acquire(this.abortAll.signal))) {
        // Halted while waiting for a slot: the key was taken but not reconciled; it goes back to the queue.
        queue.add(key);
        queue.done(key);
        this.running--;
        return;
      }
      this.setActive(this.active + 1);
      let settled: Promise<void> | undefined;
      try {
        ({ settled } = await this.process(key));
      } finally {
        // An abandoned reconcile keeps its key until it settles (never twice at once); the worker goes on.
        if (settled === undefined) queue.done(key);
        else void settled.then(() => queue.done(key));
        this.setActive(this.active - 1);
        slots?.release();
      }
    }
  }

  /** Reconciles one key and maps its outcome; `settled` is the still running call when it was abandoned. */
  private async process(key: string): Promise<{ readonly settled: Promise<void> | undefined }> {
    const { queue, clock, timeoutMs } = this.options;
    const controller = new AbortController();
    let abandonTimer: TimerHandle | undefined;
    let abandon: (outcome: ReconcileOutcome) => void = () => undefined;
    // Every abort of the reconcile's signal goes through here (the signal is this function's own: nothing else
    // can abort it), and arms the abandon timer.
    const stop = (reason: unknown): void => {
      if (controller.signal.aborted) return;
      controller.abort(reason);
      const message = reason instanceof Error ? reason.message : 'aborted';
      abandonTimer = clock.setTimeout(
        () => abandon({ result: 'error', error: new Error(`${message}, and the reconcile did not stop within ${ABANDON_AFTER_MS}ms (a hook that ignores ctx.signal?)`) }),
        ABANDON_AFTER_MS,
      );
    };
    if (this.abortAll.signal.aborted) stop(this.abortAll.signal.reason);
    else this.inFlight.add(stop);
    const timer = clock.setTimeout(() => stop(new Error(`reconcile timed out after ${timeoutMs}ms`)), timeoutMs);
    const started = clock.now();
    let finished = false;
    const finish = (outcome: ReconcileOutcome): ReconcileOutcome => {
      finished = true;
      if (abandonTimer !== undefined) clock.clearTimeout(abandonTimer);
      return outcome;
    };
    const running = Promise.resolve()
      .then(() => this.options.reconcile(key, controller.signal))
      .then(finish, (error: unknown) => finish({ result: 'error', error: toError(error) }));
    let outcome: ReconcileOutcome;
    try {
      // The reconcile's outcome, or the abandon timer's when it fires first (one promise: no race of two).
      outcome = await new Promise<ReconcileOutcome>((resolve) => {
        abandon = resolve;
        void running.then(resolve);
      });
    } finally {
      clock.clearTimeout(timer);
      this.inFlight.delete(stop);
    }
    if (!finished) {
      // Abandoned: retried once the call settles (the queue holds the key until then), with backoff unless we
      // stopped it ourselves (leadership lost, drain time-out: the next term runs it).
      const settled = running.then(() => undefined);
      if (this.abortAll.signal.aborted) {
        queue.add(key);
        return { settled };
      }
      this.retry(key, outcome);
      this.report(key, outcome, clock.now() - started);
      return { settled };
    }
    if (outcome.result === 'error' && this.abortAll.signal.aborted) {
      // Cut short by us (leadership lost, or the drain time-out at stop): not the object's failure. The key runs
      // again in the next term (a new leader enqueues every key); nothing is recorded against its health.
      queue.add(key);
      return { settled: undefined };
    }
    const decision = decideRequeue(outcome);
    if (decision.action === 'backoff') {
      this.retry(key, outcome);
    } else {
      queue.forget(key);
      if (decision.action === 'forget-and-add-after') queue.addAfter(key, decision.delayMs);
    }
    this.report(key, outcome, clock.now() - started);
    return { settled: undefined };
  }

  /** A failed key: retried with backoff, or given up after `maxAttempts` failures in a row (never silently). */
  private retry(key: string, outcome: ReconcileOutcome): void {
    const { queue, maxAttempts, onGaveUp } = this.options;
    const attempts = queue.numRequeues(key) + 1;
    if (maxAttempts === undefined || attempts < maxAttempts) {
      queue.addRateLimited(key);
      return;
    }
    queue.forget(key);
    try {
      onGaveUp?.(key, attempts, outcome.result === 'error' ? outcome.error : new Error('reconcile failed'));
    } catch {
      // observers must not break a worker
    }
  }

  private report(key: string, outcome: ReconcileOutcome, durationMs: number): void {
    try {
      this.options.onReconciled(key, outcome, durationMs);
    } catch {
      // observers must not break a worker
    }
  }

  private setActive(active: number): void {
    this.active = active;
    this.options.onActive(active);
  }
}
