/**
 * Our own informer on client-node's low-level watch: list (paginated), then watch from the list's
 * resourceVersion with bookmarks. A 410 Gone relists and emits the differences; a stream that ends is reopened
 * from the last resourceVersion; a silent stream is abandoned and reopened; any other error backs off with
 * jitter and tries again, for as long as the informer runs. Objects are slimmed before caching (see cache-slim.ts).
 *
 * With `streamingLists`, the state comes from a streaming list instead (a watch with `sendInitialEvents=true`,
 * client-go's watch-list): one request that sends every object as ADDED, then a bookmark annotated
 * `k8s.io/initial-events-end`, then goes on as the watch. The cache is replaced only at that bookmark, so a stream
 * cut before it leaves the cache as it was. A stream the server refuses or that ends before the bookmark is followed
 * by a paged list, as above: a server without the WatchList feature answers 422, and is not asked again.
 *
 * Only the first list can fail `start()` (so a runtime fails fast on an unreachable server or a forbidden
 * list); after that the informer never gives up until `stop()`.
 */
import { KubeError, toError } from '../errors.js';
import { sleep, systemClock, type Clock, type TimerHandle } from '../util/clock.js';
import { SHARED_STRINGS, slimForCache } from './cache-slim.js';
import { isGone, type KubeClient, type WatchEventType } from './client.js';
import { listAll } from './list-all.js';
import { apiVersionOf, keyOf, type KubeObject, type ResourceRef } from './resource.js';

export type InformerEventType = 'added' | 'updated' | 'deleted';

export interface InformerEvent {
  readonly type: InformerEventType;
  readonly key: string;
  /** The new state, or the last known state for `deleted`. Do not mutate: it is the cached object. */
  readonly object: KubeObject;
  /** The previous state, for `updated`. */
  readonly old?: KubeObject | undefined;
}

/** How an informer watches: the runtime's `watch` options, resolved (options.ts), shared by every informer it opens. */
export interface InformerTuning {
  /** Backoff after errors: starts at `initialMs` (default 200), doubles up to `maxMs` (default 30 s), with jitter. */
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
  /** Server-side watch time-out; each watch asks for a random value between this and twice this. Default 300 s. */
  readonly watchTimeoutSeconds?: number;
  /** A stream that delivers nothing (not even a bookmark) for this long is reopened. Default 2.5 × the watch time-out. */
  readonly idleTimeoutMs?: number;
  /** Fill the cache from a streaming list (`sendInitialEvents`) rather than a paged list; default false. */
  readonly streamingLists?: boolean;
}

export interface InformerOptions extends InformerTuning {
  readonly client: KubeClient;
  readonly resource: ResourceRef;
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  readonly clock?: Clock;
  /** Items per list page; default 500. */
  readonly pageSize?: number;
  /**
   * Keep a fingerprint of each object's dropped `managedFields` (for the `managedFieldsChanged` sentinel,
   * cache-slim.ts). Default false: the watch then cuts the field out of each event before parsing it and nothing is
   * hashed, which is most of the cost of an event's parse (docs/performance.md, session 9).
   */
  readonly managedFieldsFingerprint?: boolean;
  /** Random numbers in [0, 1), for jitter; injectable for tests. */
  readonly random?: () => number;
  /** Called for every change to the cache. Exceptions are reported through `onError`, never thrown. */
  readonly onEvent: (event: InformerEvent) => void;
  /** Called whenever the informer reopens its watch or relists after a problem, with the reason. */
  readonly onRestart?: (reason: string) => void;
  /** Called with errors the informer recovers from. */
  readonly onError?: (error: Error) => void;
}

type WatchOutcome = { readonly kind: 'gone' } | { readonly kind: 'ended'; readonly events: number; readonly ms: number } | { readonly kind: 'error'; readonly error: Error };

/** The annotation of the bookmark that ends a streaming list's initial events. */
const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** The objects of a streaming list received so far, and what to call once they are complete. */
interface StreamedState {
  readonly objects: Map<string, KubeObject>;
  readonly onComplete: () => void;
}

/** A cache of one resource kind kept in line with the API server. */
export class Informer {
  private readonly options: InformerOptions;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly store = new Map<string, KubeObject>();
  private resourceVersion = '';
  private readonly stopController = new AbortController();
  private running: Promise<void> | undefined;
  private abortWatch: (() => void) | undefined;
  private hasSynced = false;
  private failures = 0;
  /** The cache must be filled again (before the first list, and after 410 Gone). */
  private stale = true;
  /** Whether to fill it with a streaming list: the option, until the server refuses one. */
  private streaming: boolean;
  /** While a streaming list runs: the state it has sent so far (the cache is replaced at its end). */
  private streamed: StreamedState | undefined;

  constructor(options: InformerOptions) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.streaming = options.streamingLists === true;
  }

  /** True once the first list has filled the cache. */
  get synced(): boolean {
    return this.hasSynced;
  }

  /** The resourceVersion the next watch starts from. */
  get lastResourceVersion(): string {
    return this.resourceVersion;
  }

  /** Number of cached objects. */
  get size(): number {
    return this.store.size;
  }

  /** The cached object for a key (`namespace/name` or `name`). Do not mutate it. */
  get(key: string): KubeObject | undefined {
    return this.store.get(key);
  }

  keys(): IterableIterator<string> {
    return this.store.keys();
  }

  values(): IterableIterator<KubeObject> {
    return this.store.values();
  }

  /**
   * Lists, fills the cache and opens the watch. Resolves once the cache is synced; rejects (and stops) when the
   * first list fails, so that an unreachable server or a forbidden list is reported at once.
   */
  async start(): Promise<void> {
    if (this.running !== undefined) throw new Error('informer already started');
    const streamed = this.streaming ? await this.streamFirst() : undefined;
    if (streamed === undefined) await this.relist();
    this.hasSynced = true;
    this.running = this.loop(streamed?.watching);
  }

  /**
   * The first streaming list: resolves once the cache holds the state, with its watch (which goes on), or with
   * undefined when the stream ended or failed before that (the caller lists instead, and that list's failure fails
   * `start()`).
   */
  private async streamFirst(): Promise<{ readonly watching: Promise<WatchOutcome> } | undefined> {
    let complete: (done: boolean) => void = () => undefined;
    const completed = new Promise<boolean>((resolve) => {
      complete = resolve;
    });
    const watching = this.watchOnce(() => complete(true)).then((outcome) => {
      complete(false);
      return outcome;
    });
    if (await completed) return { watching };
    this.streamFailed(await watching);
    return undefined;
  }

  /**
   * What follows a streaming list that ended before its state was complete: it is said (and its error reported),
   * and the cache is filled by a paged list. A server that refuses the request (400, or 422 from a server without
   * the WatchList feature) is not asked again. Returns whether to back off before the list (after other errors).
   */
  private streamFailed(outcome: WatchOutcome): boolean {
    if (this.stopped) return false;
    const refused = outcome.kind === 'error' && outcome.error instanceof KubeError && (outcome.error.status === 422 || outcome.error.status === 400);
    if (refused) this.streaming = false;
    const why = outcome.kind === 'error' ? outcome.error.message : outcome.kind === 'gone' ? '410 Gone' : 'the stream ended before the bookmark that completes it';
    this.options.onRestart?.(`streaming list ${refused ? 'refused' : 'incomplete'} (${why}): listing instead`);
    if (outcome.kind !== 'error' || refused) return false;
    this.report(outcome.error);
    return true;
  }

  /** Stops watching; resolves when the loop has ended. The cache stays readable. Idempotent. */
  async stop(): Promise<void> {
    this.stopController.abort(new Error('informer stopped'));
    this.abortWatch?.();
    await this.running;
  }

  private get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  /** Watches until `stop()`; `first` is the watch `start()` left running (a streaming list's). */
  private async loop(first: Promise<WatchOutcome> | undefined): Promise<void> {
    // After a streaming list that did not complete, the cache is filled by a paged list (by a stream again next time).
    let listNext = false;
    let pending = first;
    while (!this.stopped) {
      let outcome: WatchOutcome;
      if (pending !== undefined) {
        outcome = await pending;
        pending = undefined;
      } else if (this.stale && this.streaming && !listNext) {
        outcome = await this.watchOnce(() => undefined);
        if (this.stopped) return;
        if (this.stale) {
          listNext = true;
          if (this.streamFailed(outcome)) await this.backoff();
          continue;
        }
      } else {
        if (this.stale) {
          try {
            await this.relist();
            this.failures = 0;
          } catch (error) {
            if (this.stopped) return;
            this.report(error);
            await this.backoff();
            continue;
          }
        }
        listNext = false;
        outcome = await this.watchOnce(undefined);
      }
      if (this.stopped) return;
      if (outcome.kind === 'gone') {
        this.options.onRestart?.('resourceVersion expired (410 Gone): relisting');
        this.stale = true;
      } else if (outcome.kind === 'error') {
        this.options.onRestart?.(`watch failed: ${outcome.error.message}`);
        this.report(outcome.error);
        await this.backoff();
      } else if (outcome.events === 0 && outcome.ms < 1000) {
        // A stream that ends at once with nothing in it would spin; treat it like a failure.
        this.options.onRestart?.('watch ended immediately');
        await this.backoff();
      } else {
        this.failures = 0;
      }
    }
  }

  private async backoff(): Promise<void> {
    const initial = this.options.backoff?.initialMs ?? 200;
    const max = this.options.backoff?.maxMs ?? 30_000;
    const base = Math.min(max, initial * 2 ** this.failures);
    this.failures = Math.min(this.failures + 1, 30);
    const delay = base / 2 + this.random() * (base / 2);
    try {
      await sleep(this.clock, delay, this.stopController.signal);
    } catch {
      // stopped while waiting
    }
  }

  private report(error: unknown): void {
    try {
      this.options.onError?.(toError(error));
    } catch {
      // a failing error reporter must not stop the informer
    }
  }

  private emit(type: InformerEventType, key: string, object: KubeObject, old?: KubeObject): void {
    try {
      this.options.onEvent({ type, key, object, old });
    } catch (error) {
      this.report(error);
    }
  }

  /** Lists every page, then replaces the cache with what it read. */
  private async relist(): Promise<void> {
    const { client, resource, namespace, labelSelector, fieldSelector } = this.options;
    const listed = await listAll(client, resource, { namespace, labelSelector, fieldSelector, pageSize: this.options.pageSize ?? 500, signal: this.stopController.signal }, (object) => this.normalise(object));
    this.replace(listed.objects, listed.resourceVersion);
  }

  /** Replaces the cache with a complete state at a resourceVersion, and emits the differences. */
  private replace(fresh: Map<string, KubeObject>, resourceVersion: string): void {
    const previous = new Map(this.store);
    this.store.clear();
    for (const [key, object] of fresh) this.store.set(key, object);
    this.resourceVersion = resourceVersion;
    this.stale = false;
    for (const [key, old] of previous) {
      if (!fresh.has(key)) this.emit('deleted', key, old);
    }
    for (const [key, object] of fresh) {
      const old = previous.get(key);
      if (old === undefined) this.emit('added', key, object);
      else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion) this.emit('updated', key, object, old);
    }
  }

  /**
   * Opens one watch and applies its events until it ends. With `onStreamed`, it is a streaming list: its events
   * gather the state until the bookmark that ends them, which replaces the cache and calls `onStreamed`.
   */
  private async watchOnce(onStreamed: (() => void) | undefined): Promise<WatchOutcome> {
    const { client, resource, namespace, labelSelector, fieldSelector } = this.options;
    const streaming = onStreamed !== undefined;
    this.streamed = streaming ? { objects: new Map(), onComplete: onStreamed } : undefined;
    const timeout = this.options.watchTimeoutSeconds ?? 300;
    const idleMs = this.options.idleTimeoutMs ?? timeout * 2500;
    const startedAt = this.clock.now();
    let events = 0;
    let gone = false;
    let idle = false;
    let lastActivity = startedAt;
    const handle = client.watch(
      resource,
      {
        namespace,
        labelSelector,
        fieldSelector,
        // A streaming list asks for the newest state (""): it replaces the cache, whatever it held.
        resourceVersion: streaming ? '' : this.resourceVersion,
        sendInitialEvents: streaming,
        allowWatchBookmarks: true,
        withoutManagedFields: this.options.managedFieldsFingerprint !== true,
        timeoutSeconds: Math.round(timeout * (1 + this.random())),
      },
      (type, object) => {
        lastActivity = this.clock.now();
        events++;
        if (this.apply(type, object)) {
          gone = true;
          handle.abort();
        }
      },
    );
    this.abortWatch = () => handle.abort();
    let idleTimer: TimerHandle | undefined;
    const checkIdle = (): void => {
      const silentFor = this.clock.now() - lastActivity;
      if (silentFor >= idleMs) {
        idle = true;
        handle.abort();
        return;
      }
      idleTimer = this.clock.setTimeout(checkIdle, idleMs - silentFor);
    };
    idleTimer = this.clock.setTimeout(checkIdle, idleMs);
    const { error } = await handle.done;
    this.clock.clearTimeout(idleTimer);
    this.abortWatch = undefined;
    this.streamed = undefined;
    if (gone) return { kind: 'gone' };
    if (idle) return { kind: 'error', error: new Error(`watch silent for ${Math.round(idleMs / 1000)}s`) };
    if (error !== undefined) return isGone(error) ? { kind: 'gone' } : { kind: 'error', error };
    return { kind: 'ended', events, ms: this.clock.now() - startedAt };
  }

  /** Applies one watch event to the cache. Returns true when the event says the resourceVersion is gone. */
  private apply(type: WatchEventType, raw: KubeObject): boolean {
    if (type === 'ERROR') {
      const code = (raw as { code?: unknown }).code;
      if (code === 410) return true;
      this.report(new Error(`watch error event: ${JSON.stringify(raw).slice(0, 300)}`));
      return false;
    }
    const resourceVersion = raw.metadata?.resourceVersion;
    const streamed = this.streamed;
    if (type === 'BOOKMARK') {
      if (streamed === undefined) {
        if (resourceVersion !== undefined) this.resourceVersion = resourceVersion;
      } else if (raw.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true' && resourceVersion !== undefined) {
        this.streamed = undefined;
        this.replace(streamed.objects, resourceVersion);
        streamed.onComplete();
      }
      return false;
    }
    const object = this.normalise(raw);
    const key = keyOf(object);
    if (streamed !== undefined) {
      // Still streaming the state: changes made meanwhile may arrive before its end; they apply to the state.
      if (type === 'DELETED') streamed.objects.delete(key);
      else streamed.objects.set(key, object);
      return false;
    }
    if (type === 'DELETED') {
      const old = this.store.get(key);
      this.store.delete(key);
      if (resourceVersion !== undefined) this.resourceVersion = resourceVersion;
      this.emit('deleted', key, old ?? object);
      return false;
    }
    const old = this.store.get(key);
    this.store.set(key, object);
    if (resourceVersion !== undefined) this.resourceVersion = resourceVersion;
    if (old === undefined) this.emit('added', key, object);
    else if (old.metadata?.resourceVersion !== resourceVersion) this.emit('updated', key, object, old);
    return false;
  }

  private normalise(object: KubeObject): KubeObject {
    const { resource } = this.options;
    object.apiVersion ??= apiVersionOf(resource);
    object.kind ??= resource.kind;
    return slimForCache(object, SHARED_STRINGS, this.options.managedFieldsFingerprint === true);
  }
}
