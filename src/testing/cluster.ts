/**
 * The state of one test API server, independent of HTTP: the resource registry, the objects, the change history
 * and the open watches. Every change goes through {@link Cluster.commit}, which assigns the next global
 * resourceVersion, serialises the object once, stores it, records the event and fans it out to watches, then tells
 * the in-process controllers (CRDs, namespaces, garbage collector).
 */
import type { WebhookServices } from './admission/webhook-services.js';
import type { Clock } from '../util/clock.js';
import { builtinResourceTypes } from './resources/builtin-resources.js';
import { ResourceRegistry } from './resources/registry.js';
import { apiVersionOf, type ResourceType } from './resources/resource-type.js';
import { History, type ChangeEvent, type ChangeType } from './store/history.js';
import { ObjectStore } from './store/object-store.js';
import { metadataOf, type KubeObject, type StoredRecord } from './store/record.js';
import { storedRecord } from './resources/stored-record.js';
import { WatchHub } from './watch/watch-hub.js';

/** Called synchronously after every commit. */
export type CommitListener = (type: ResourceType, event: ChangeEvent) => void;

export interface ClusterOptions {
  readonly clock: Clock;
  readonly historyWindow: number;
  /** Where the webhooks of Services listen (the `webhookServices` option). */
  readonly webhookServices?: WebhookServices;
}

/** RFC 3339 with second precision, as Kubernetes writes timestamps. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Remembers the last formatted second (timestamps are taken several times per write). */
class TimestampCache {
  private second = Number.NaN;
  private text = '';

  format(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      this.second = second;
      this.text = rfc3339(ms);
    }
    return this.text;
  }
}

export class Cluster {
  readonly clock: Clock;
  readonly registry = new ResourceRegistry(builtinResourceTypes());
  readonly store = new ObjectStore(1);
  readonly history: History;
  readonly hub = new WatchHub();
  private readonly listeners: CommitListener[] = [];
  private readonly timestamps = new TimestampCache();
  private deferred: (() => void)[] = [];
  private drainScheduled = false;
  private generationOfWork = 0;
  /** Controller work under way that awaits something (admission), counted until it ends. */
  private awaiting = 0;
  /** Errors thrown by deferred controller work, newest last (at most 100), for debugging. */
  readonly controllerErrors: unknown[] = [];

  /** Where the webhooks of Services listen, by `<namespace>/<name>` (admission/webhook-services.ts). */
  readonly webhookServices: WebhookServices;

  constructor(options: ClusterOptions) {
    this.clock = options.clock;
    this.webhookServices = options.webhookServices ?? new Map();
    this.history = new History(options.historyWindow, this.store.currentRevision);
  }

  /** The current time as an RFC 3339 timestamp. */
  now(): string {
    return this.timestamps.format(this.clock.now());
  }

  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  /**
   * Stores a change: assigns the next resourceVersion to `next` (mutating its metadata and setting the storage
   * apiVersion and kind), serialises it, updates the store, appends the event to the history and offers it to
   * the watches. For DELETED, `next` is the last state of the object, which is removed.
   */
  commit(type: ResourceType, change: ChangeType, next: KubeObject, prev: StoredRecord | undefined): StoredRecord {
    const rv = this.store.nextRevision();
    metadataOf(next)['resourceVersion'] = String(rv);
    next['apiVersion'] = apiVersionOf(type.group, type.storageVersion);
    next['kind'] = type.kind;
    const record = storedRecord(type, next, prev?.object);
    if (change === 'DELETED') this.store.remove(type.key, record);
    else this.store.put(type.key, record, prev);
    const event: ChangeEvent = { type: change, key: type.key, record, prev: change === 'ADDED' ? undefined : prev };
    this.history.append(event);
    this.hub.publish(event);
    for (const listener of this.listeners) listener(type, event);
    return record;
  }

  /** Runs `work` soon (after the current request), in order; used by the controllers (GC, namespaces, CRDs). */
  defer(work: () => void): void {
    this.deferred.push(work);
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    const generation = this.generationOfWork;
    setImmediate(() => this.drain(generation));
  }

  /** Drops pending controller work (used by reset). */
  cancelDeferred(): void {
    this.deferred = [];
    this.generationOfWork += 1;
    this.drainScheduled = false;
  }

  /**
   * Runs controller work that awaits (a write under admission, which may call webhooks): `busy` until it ends, and
   * what it throws kept as a deferred step's is.
   */
  track(work: () => Promise<void>): void {
    this.awaiting += 1;
    void work()
      .catch((error: unknown) => this.keepError(error))
      .finally(() => {
        this.awaiting -= 1;
      });
  }

  /** Whether controller work is pending or under way. */
  get busy(): boolean {
    return this.deferred.length > 0 || this.awaiting > 0;
  }

  private drain(generation: number): void {
    if (generation !== this.generationOfWork) return;
    this.drainScheduled = false;
    // Work may schedule more work; run it in later turns so that requests interleave.
    const batch = this.deferred;
    this.deferred = [];
    for (const work of batch) {
      try {
        work();
      } catch (error) {
        this.keepError(error);
      }
    }
  }

  /**
   * A controller step failed (a bug, or an object removed meanwhile): kept for debugging, and the server runs on, as
   * kube-controller-manager logs a failed sync and goes on with the next.
   */
  private keepError(error: unknown): void {
    this.controllerErrors.push(error);
    if (this.controllerErrors.length > 100) this.controllerErrors.shift();
  }
}
