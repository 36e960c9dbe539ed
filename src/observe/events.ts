/**
 * Lifecycle events the runtime emits for its host: CRDs activating and deactivating, turning degraded and
 * recovering, each finished reconcile, and leadership changes. A small typed emitter rather than Node's
 * `EventEmitter`: event names and payloads are checked by the compiler, and a listener that throws (or returns a
 * rejected promise) is reported to the logger and never reaches the runtime.
 */
import { toError } from '../errors.js';
import { type Logger, silentLogger } from './logger.js';

/** Payloads of the lifecycle events, by name. */
export interface LifecycleEvents {
  /** The CRD's informer is synced and its workers run. */
  activated: { readonly crd: string };
  /** The CRD stopped being managed: its CustomResourceDefinition was deleted, or the runtime is stopping. */
  deactivated: { readonly crd: string; readonly reason: string };
  /** `consecutiveFails` reached the failure threshold. `error` is the last failure. */
  degraded: { readonly crd: string; readonly consecutiveFails: number; readonly error: Error };
  /** A degraded CRD reconciled successfully again. */
  recovered: { readonly crd: string };
  /** One reconcile of `key` (`namespace/name`, or `name` when cluster-scoped) finished. */
  reconciled: {
    readonly crd: string;
    readonly key: string;
    readonly result: 'success' | 'error';
    readonly durationMs: number;
    readonly error?: Error;
  };
  /** This replica gained or lost the Lease (of its shard, when sharded). */
  leadershipChanged: {
    readonly leader: boolean;
    readonly identity: string;
    readonly shard?: { readonly index: number; readonly count: number };
  };
}

export type LifecycleEventName = keyof LifecycleEvents;

/** A listener. Its return value is ignored, except that a returned promise's rejection is caught and logged. */
export type Listener<T> = (payload: T) => unknown;

/**
 * A typed emitter over an event map. Listeners run synchronously in registration order; the listener list is
 * copied before each emit, so adding or removing listeners from inside a listener affects the next emit only.
 * Registering the same function twice makes it run twice; `off` removes one registration.
 */
export class TypedEmitter<Events extends { [K in keyof Events]: object }> {
  private readonly listeners = new Map<keyof Events, Array<{ readonly original: unknown; readonly call: Listener<never> }>>();
  private readonly logger: Logger;

  constructor(options: { logger?: Logger } = {}) {
    this.logger = options.logger ?? silentLogger;
  }

  /** Adds a listener; returns a function that removes it (idempotent). */
  on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): () => void {
    return this.add(name, listener, listener);
  }

  /** Adds a listener that runs for the next event only. `off(name, listener)` removes it before it runs. */
  once<K extends keyof Events>(name: K, listener: Listener<Events[K]>): () => void {
    let remove = (): void => {};
    const call: Listener<Events[K]> = (payload) => {
      remove();
      return listener(payload);
    };
    remove = this.add(name, listener, call);
    return remove;
  }

  /** Removes the first registration of `listener` for `name`; unknown listeners are ignored. */
  off<K extends keyof Events>(name: K, listener: Listener<Events[K]>): void {
    const list = this.listeners.get(name);
    if (list === undefined) return;
    const index = list.findIndex((entry) => entry.original === listener);
    if (index >= 0) list.splice(index, 1);
  }

  /** Calls every listener of `name` with `payload`. Never throws; listener failures go to the logger as errors. */
  emit<K extends keyof Events>(name: K, payload: Events[K]): void {
    const list = this.listeners.get(name);
    if (list === undefined || list.length === 0) return;
    for (const entry of [...list]) {
      try {
        const result = (entry.call as Listener<Events[K]>)(payload);
        if (isThenable(result)) Promise.resolve(result).then(undefined, (error: unknown) => this.report(name, error));
      } catch (error) {
        this.report(name, error);
      }
    }
  }

  /** How many listeners `name` has. */
  listenerCount(name: keyof Events): number {
    return this.listeners.get(name)?.length ?? 0;
  }

  /** Removes every listener of `name`, or of every event when no name is given. */
  removeAllListeners(name?: keyof Events): void {
    if (name === undefined) this.listeners.clear();
    else this.listeners.delete(name);
  }

  private add<K extends keyof Events>(name: K, original: unknown, call: Listener<Events[K]>): () => void {
    let list = this.listeners.get(name);
    if (list === undefined) {
      list = [];
      this.listeners.set(name, list);
    }
    const entry = { original, call: call as Listener<never> };
    list.push(entry);
    return () => {
      const current = this.listeners.get(name);
      const index = current?.indexOf(entry) ?? -1;
      if (current !== undefined && index >= 0) current.splice(index, 1);
    };
  }

  private report(name: PropertyKey, error: unknown): void {
    const cause = toError(error);
    try {
      this.logger.error(`a listener of "${String(name)}" failed: ${cause.message}`, { event: String(name), error: cause });
    } catch {
      // A logger that throws must not break the runtime either.
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The runtime's lifecycle emitter. */
export class LifecycleEmitter extends TypedEmitter<LifecycleEvents> {}
