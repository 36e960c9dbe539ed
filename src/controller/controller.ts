/**
 * One controller per active CRD: an informer feeding keys to a workqueue drained by N workers, plus the
 * secondary watches that map other objects (children) back to a parent's key, and the resync timer.
 * `start()` resolves once the caches are synced and the workers run; `stop()` drains, then stops informers.
 */
import { RuntimeError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import { Informer, type InformerEvent } from '../kube/informer.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { ReconcileOutcome } from '../reconcile/outcome.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import { defaultControllerRateLimiter, type DefaultControllerRateLimiterOptions } from './rate-limiter.js';
import { WorkerPool } from './workers.js';
import { Workqueue } from './workqueue.js';

/** Another kind whose changes should reconcile a parent (drift correction of children). */
export interface SecondaryWatch {
  readonly resource: ResourceRef;
  readonly labelSelector?: string | undefined;
  /** The parent's key for a changed object, or undefined when it belongs to no parent of ours. */
  readonly mapToKey: (object: KubeObject) => string | undefined;
}

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
  readonly informer?: { readonly watchTimeoutSeconds?: number; readonly idleTimeoutMs?: number; readonly backoff?: { initialMs?: number; maxMs?: number } } | undefined;
  readonly secondary?: readonly SecondaryWatch[];
  /** Keys this replica is responsible for (sharding); default all. */
  readonly accepts?: ((key: string) => boolean) | undefined;
  readonly reconcile: (key: string, signal: AbortSignal) => Promise<ReconcileOutcome>;
  readonly observer: ControllerObserver;
}

export class Controller {
  readonly name: string;
  readonly informer: Informer;
  private readonly options: ControllerOptions;
  private readonly queue: Workqueue;
  private readonly workers: WorkerPool;
  private readonly secondaries: Informer[];
  private resyncTimer: TimerHandle | undefined;
  private state: 'new' | 'starting' | 'running' | 'stopping' | 'stopped' = 'new';

  constructor(options: ControllerOptions) {
    this.options = options;
    this.name = options.name;
    const { clock, observer } = options;
    this.queue = new Workqueue({
      clock,
      maxDepth: options.maxDepth,
      rateLimiter: defaultControllerRateLimiter({ clock, ...options.rateLimiter }),
      observer: {
        depth: (n) => observer.queueDepth(n),
        dropped: (key) => observer.dropped(key),
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
    this.secondaries = (options.secondary ?? []).map(
      (watch) =>
        new Informer({
          client: options.client,
          resource: watch.resource,
          labelSelector: watch.labelSelector,
          clock,
          ...tuning,
          onEvent: (event) => {
            const key = watch.mapToKey(event.object);
            if (key !== undefined) this.enqueue(key);
          },
          onRestart: (reason) => observer.watchRestarted(reason),
          onError: (error) => observer.informerError(error),
        }),
    );
    this.workers = new WorkerPool({
      queue: this.queue,
      count: options.workers,
      clock,
      timeoutMs: options.reconcileTimeoutMs,
      reconcile: options.reconcile,
      onReconciled: (key, outcome, ms) => observer.reconciled(key, outcome, ms),
      onActive: (active) => observer.workersActive(active),
    });
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
    return this.informer.synced && this.secondaries.every((informer) => informer.synced);
  }

  get running(): boolean {
    return this.state === 'running';
  }

  /** Syncs the caches, then starts the workers and the resync timer. Rejects when the first list fails. */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new RuntimeError('E_STATE', `controller ${this.name} cannot start twice`);
    this.state = 'starting';
    try {
      await Promise.all([this.informer.start(), ...this.secondaries.map((informer) => informer.start())]);
    } catch (error) {
      await Promise.all([this.informer.stop(), ...this.secondaries.map((informer) => informer.stop())]);
      this.queue.shutDown();
      this.state = 'stopped';
      throw error;
    }
    this.options.observer.resourceCount(this.informer.size);
    this.workers.start();
    this.scheduleResync();
    this.state = 'running';
  }

  /** Stops taking keys; waits for in-flight reconciles until `drainSignal` aborts, then aborts them. */
  async drain(drainSignal: AbortSignal): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping') return;
    this.state = 'stopping';
    if (this.resyncTimer !== undefined) this.options.clock.clearTimeout(this.resyncTimer);
    const onGiveUp = (): void => this.workers.abortInFlight(new Error('runtime stopping: drain time-out passed'));
    drainSignal.addEventListener('abort', onGiveUp, { once: true });
    try {
      await this.queue.shutDownWithDrain(drainSignal);
      if (drainSignal.aborted) onGiveUp();
      await this.workers.finished();
    } finally {
      drainSignal.removeEventListener('abort', onGiveUp);
    }
  }

  /** Stops the informers. Call after `drain`. */
  async stopInformers(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([this.informer.stop(), ...this.secondaries.map((informer) => informer.stop())]);
    this.state = 'stopped';
  }

  /** Enqueues a key now (used by resync, secondary watches and the runtime). */
  enqueue(key: string): void {
    if (this.options.accepts !== undefined && !this.options.accepts(key)) return;
    this.queue.add(key);
  }

  private onPrimaryEvent(event: InformerEvent): void {
    this.options.observer.resourceCount(this.informer.size);
    this.enqueue(event.key);
  }

  private scheduleResync(): void {
    const { resyncMs, clock } = this.options;
    if (resyncMs <= 0) return;
    this.resyncTimer = clock.setTimeout(() => {
      if (this.state !== 'running') return;
      for (const key of this.informer.keys()) this.enqueue(key);
      this.scheduleResync();
    }, resyncMs);
  }
}
