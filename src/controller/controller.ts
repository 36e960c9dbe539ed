/**
 * One controller per active CRD: an informer feeding keys to a workqueue drained by N workers, and the resync
 * timer. (The watches of a CRD's children live in registry/child-watches.ts and enqueue through `enqueue`.)
 * `start()` resolves once the caches are synced and the workers run; `stop()` drains, then stops informers.
 */
import { RuntimeError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import { Informer, type InformerEvent, type InformerTuning } from '../kube/informer.js';
import type { ResourceRef } from '../kube/resource.js';
import type { ReconcileOutcome } from '../reconcile/outcome.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import { defaultControllerRateLimiter, type DefaultControllerRateLimiterOptions } from './rate-limiter.js';
import type { ReconcileSlots } from './reconcile-slots.js';
import { WorkerPool } from './workers.js';
import { Workqueue } from './workqueue.js';
import { onlyStatusChanged } from './only-status-changed.js';
import { EchoChains, MAX_ECHO_CHAIN, type StatusEcho } from './status-echo.js';
import type { QueueAdmission } from './queue-admission.js';

export { onlyStatusChanged };

/** What a controller reports, wired by the runtime to metrics, health and events. */
export interface ControllerObserver {
  reconciled(key: string, outcome: ReconcileOutcome, durationMs: number): void;
  workersActive(active: number): void;
  queueDepth(depth: number): void;
  dropped(key: string): void;
  waited(seconds: number): void;
  resourceCount(count: number): void;
  watchRestarted(reason: string): void;
  informerError(error: Error): void;
  /** A key failed `maxAttempts` times in a row and is no longer retried (until its next change or the resync). */
  gaveUp?(key: string, attempts: number, error: Error): void;
  /** `key`'s status echoes were followed MAX_ECHO_CHAIN times in a row and the next is not (status-echo.ts); once per chain. */
  echoCapped?(key: string, chain: number): void;
}

/** What {@link Controller.retune} may change while the controller runs. */
export interface ControllerTuning {
  readonly workers: number;
  readonly maxDepth: number;
  /** 0 = no resync. */
  readonly resyncMs: number;
}

export interface ControllerOptions {
  readonly name: string;
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly resource: ResourceRef;
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  readonly workers: number;
  /** Every cached key is enqueued again each `resyncMs` (0 = never). */
  readonly resyncMs: number;
  readonly maxDepth: number;
  readonly reconcileTimeoutMs: number;
  readonly rateLimiter?: DefaultControllerRateLimiterOptions | undefined;
  /** Informer tuning (tests shorten these). */
  readonly informer?:
    | (InformerTuning & {
        /** Keep the fingerprint of dropped managedFields (the `managedFieldsChanged` sentinel); default false. */
        readonly managedFieldsFingerprint?: boolean;
      })
    | undefined;
  /** Keys this replica is responsible for (sharding); default all. */
  readonly accepts?: ((key: string) => boolean) | undefined;
  readonly reconcile: (key: string, signal: AbortSignal) => Promise<ReconcileOutcome>;
  readonly observer: ControllerObserver;
  /** The runtime-wide limit of reconciles in flight, shared by every controller; default none. */
  readonly slots?: ReconcileSlots | undefined;
  /** Status-only updates to reconcile anyway (an Orkestra state machine: status-echo.ts); default none. */
  readonly statusEcho?: StatusEcho | undefined;
  /** `queue.behaviour`'s conditional drops and unbounded queue (queue-admission.ts); default: the bound alone. */
  readonly admission?: QueueAdmission | undefined;
  /** Failures in a row after which a key is given up (`queue.retryBackoff.maxAttempts`); default: never. */
  readonly maxAttempts?: number | undefined;
  /** Called with every change of the primary cache, before the controller acts on it; default none. */
  readonly cacheChanged?: ((event: InformerEvent) => void) | undefined;
}

export class Controller {
  readonly name: string;
  readonly informer: Informer;
  private readonly options: ControllerOptions;
  private readonly queue: Workqueue;
  private workers: WorkerPool | undefined;
  private resyncTimer: TimerHandle | undefined;
  /**
   * Keys the full queue refused (counted as dropped, SPEC §5). They are offered again once the queue has drained to
   * half its depth, so that a backlog (a large initial list) does not wait for the next resync.
   */
  private readonly backlog = new Set<string>();
  private refillScheduled = false;
  /** Status echoes followed in a row, per object (only with `statusEcho`). */
  private readonly echoes: EchoChains | undefined;
  private state: 'new' | 'starting' | 'running' | 'stopping' | 'stopped' = 'new';
  /** Workers, queue bound and resync as they are now: the options, unless {@link Controller.retune} changed them. */
  private current: ControllerTuning;

  constructor(options: ControllerOptions) {
    this.options = options;
    this.current = { workers: options.workers, maxDepth: options.maxDepth, resyncMs: options.resyncMs };
    this.name = options.name;
    this.echoes = options.statusEcho === undefined ? undefined : new EchoChains(options.statusEcho, (key) => options.observer.echoCapped?.(key, MAX_ECHO_CHAIN));
    const { clock, observer } = options;
    this.queue = new Workqueue({
      clock,
      maxDepth: this.hardBound(options.maxDepth),
      rateLimiter: defaultControllerRateLimiter({ clock, ...options.rateLimiter }),
      observer: {
        depth: (n) => {
          observer.queueDepth(n);
          if (this.backlog.size > 0 && n <= this.refillDepth() / 2) this.scheduleRefill();
        },
        dropped: (key) => {
          this.backlog.add(key);
          observer.dropped(key);
        },
        waited: (seconds) => observer.waited(seconds),
      },
    });
    const tuning = options.informer ?? {};
    this.informer = new Informer({
      client: options.client,
      resource: options.resource,
      namespace: options.namespace,
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      clock,
      ...tuning,
      onEvent: (event) => this.onPrimaryEvent(event),
      onRestart: (reason) => observer.watchRestarted(reason),
      onError: (error) => observer.informerError(error),
    });
  }

  /** Workers, queue bound and resync as they are now. */
  get tuning(): ControllerTuning {
    return { ...this.current };
  }

  /** Workers reconciling right now. */
  get activeWorkers(): number {
    return this.workers?.activeCount ?? 0;
  }

  /**
   * Changes workers, queue bound or resync while running (the autoscaler): more workers start at once, fewer stop
   * as they finish their current key; a smaller bound refuses new keys until the queue drains below it; a new resync
   * interval starts counting now.
   */
  retune(next: Partial<ControllerTuning>): void {
    const before = this.current;
    this.current = { ...before, ...next };
    if (next.workers !== undefined && next.workers !== before.workers) this.workers?.resize(next.workers);
    if (next.maxDepth !== undefined && next.maxDepth !== before.maxDepth) this.queue.setMaxDepth(this.hardBound(next.maxDepth));
    if (next.resyncMs !== undefined && next.resyncMs !== before.resyncMs && this.state === 'running') {
      if (this.resyncTimer !== undefined) this.options.clock.clearTimeout(this.resyncTimer);
      this.resyncTimer = undefined;
      this.scheduleResync();
    }
  }

  /** Objects in the primary cache. */
  get resourceCount(): number {
    return this.informer.size;
  }

  /** Keys waiting in the queue. */
  get queueDepth(): number {
    return this.queue.length;
  }

  get synced(): boolean {
    return this.informer.synced;
  }

  get running(): boolean {
    return this.state === 'running';
  }

  /** True while workers run (false on a replica that does not lead). */
  get working(): boolean {
    return this.workers !== undefined;
  }

  /**
   * Syncs the caches, then starts the resync timer and, unless `workers: false` (a replica that does not lead),
   * the workers. Rejects when the first list fails.
   */
  async start(options: { readonly workers?: boolean } = {}): Promise<void> {
    if (this.state !== 'new') throw new RuntimeError('E_STATE', `controller ${this.name} cannot start twice`);
    this.state = 'starting';
    try {
      await this.informer.start();
    } catch (error) {
      await this.informer.stop();
      this.queue.shutDown();
      this.state = 'stopped';
      throw error;
    }
    this.options.observer.resourceCount(this.informer.size);
    this.scheduleResync();
    this.state = 'running';
    if (options.workers !== false) this.startWorkers();
  }

  /** Starts the workers (on gaining leadership). No-op when they run or the controller is not running. */
  startWorkers(): void {
    if (this.workers !== undefined || this.state !== 'running') return;
    const { observer } = this.options;
    const pool = new WorkerPool({
      queue: this.queue,
      count: this.current.workers,
      clock: this.options.clock,
      timeoutMs: this.options.reconcileTimeoutMs,
      reconcile: this.options.reconcile,
      onReconciled: (key, outcome, ms) => observer.reconciled(key, outcome, ms),
      onActive: (active) => observer.workersActive(active),
      slots: this.options.slots,
      maxAttempts: this.options.maxAttempts,
      onGaveUp: (key, attempts, error) => observer.gaveUp?.(key, attempts, error),
    });
    this.workers = pool;
    // A new term starts from the whole cache: level-based, so whatever happened while not leading is covered.
    for (const key of this.informer.keys()) this.enqueue(key);
    pool.start();
  }

  /**
   * Stops the workers at once (on losing leadership): in-flight reconciles are aborted, the caches stay warm and the
   * queue keeps collecting keys for the next leader term. Resolves when no worker runs.
   */
  async stopWorkers(reason: string): Promise<void> {
    const pool = this.workers;
    if (pool === undefined) return;
    this.workers = undefined;
    pool.halt(new Error(reason));
    await pool.finished();
  }

  /** Stops taking keys; waits for in-flight reconciles until `drainSignal` aborts, then aborts them. */
  async drain(drainSignal: AbortSignal): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping') return;
    this.state = 'stopping';
    if (this.resyncTimer !== undefined) this.options.clock.clearTimeout(this.resyncTimer);
    const pool = this.workers;
    const onGiveUp = (): void => pool?.abortInFlight(new Error('runtime stopping: drain time-out passed'));
    drainSignal.addEventListener('abort', onGiveUp, { once: true });
    try {
      await this.queue.shutDownWithDrain(drainSignal);
      if (drainSignal.aborted) onGiveUp();
      await pool?.finished();
      this.workers = undefined;
    } finally {
      drainSignal.removeEventListener('abort', onGiveUp);
    }
  }

  /** Stops the informers. Call after `drain`. */
  async stopInformers(): Promise<void> {
    this.queue.shutDown();
    await this.informer.stop();
    this.state = 'stopped';
  }

  /** Enqueues a key now (used by resync, the child watches and the runtime). */
  enqueue(key: string): void {
    this.echoes?.reset(key);
    this.offer(key);
  }

  /**
   * Enqueues a key this replica is responsible for, without starting a new echo chain. `low`: in the queue's low
   * lane (the resync), behind every change.
   */
  private offer(key: string, low = false): void {
    if (this.options.accepts !== undefined && !this.options.accepts(key)) return;
    const { admission } = this.options;
    if (admission !== undefined && !this.queue.has(key) && admission.drops(key, this.queue.waiting, this.current.maxDepth)) {
      // Counted and kept like a key the full queue refused: it is offered again once the queue drains.
      this.backlog.add(key);
      this.options.observer.dropped(key);
      return;
    }
    if (low) this.queue.addLow(key);
    else this.queue.add(key);
  }

  /** The workqueue's own bound: none when `queue.behaviour` lets keys wait past `maxDepth`. */
  private hardBound(maxDepth: number): number {
    return this.options.admission?.unbounded === true ? Infinity : maxDepth;
  }

  /** The depth below which keys are admitted without a rule (the bound, or the first conditional drop). */
  private refillDepth(): number {
    const { maxDepth } = this.current;
    return Math.min(maxDepth, this.options.admission?.firstDepth(maxDepth) ?? maxDepth);
  }

  private onPrimaryEvent(event: InformerEvent): void {
    this.options.cacheChanged?.(event);
    this.options.observer.resourceCount(this.informer.size);
    // A change of status alone is the echo of a status write (most often our own): reconciling again would
    // change nothing, and during a backoff it would retry at once. The resync still visits every object. Unless
    // the CRD's templates read what the echo changed (an Orkestra state machine; bounded: status-echo.ts).
    if (event.type === 'updated' && event.old !== undefined && onlyStatusChanged(event.old, event.object)) {
      if (this.echoes?.follow(event.key, event.old, event.object) === true) this.offer(event.key);
      return;
    }
    this.enqueue(event.key);
  }

  private scheduleRefill(): void {
    if (this.refillScheduled) return;
    this.refillScheduled = true;
    queueMicrotask(() => {
      this.refillScheduled = false;
      if (this.state !== 'running') return;
      const room = this.refillDepth() - this.queue.waiting;
      const moved: string[] = [];
      for (const key of this.backlog) {
        if (moved.length >= room) break;
        moved.push(key);
      }
      for (const key of moved) {
        this.backlog.delete(key);
        this.enqueue(key);
      }
    });
  }

  private scheduleResync(): void {
    const { clock } = this.options;
    const { resyncMs } = this.current;
    if (resyncMs <= 0) return;
    this.resyncTimer = clock.setTimeout(() => {
      if (this.state !== 'running') return;
      // In the low lane: a change that arrives meanwhile runs before the rest of the resync (workqueue.ts).
      for (const key of this.informer.keys()) {
        this.echoes?.reset(key);
        this.offer(key, true);
      }
      this.scheduleResync();
    }, resyncMs);
  }
}
