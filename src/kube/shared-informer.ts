/**
 * One informer shared by several subscribers: opened (listed and watched) when the first subscriber joins, stopped
 * when the last one leaves, so a kind nobody needs keeps no watch and no cache. Each subscriber receives the changes
 * that happen after its `subscribe()` resolved — never the first list, nor a change made before it joined. Errors
 * and restarts of the watch go to every subscriber (each reports them in its own CRD's health).
 *
 * Two options serve an informer whose subscribers each want their own part of the cache (the children of each CRD,
 * registry/child-informers.ts):
 * - `routeOf` names the route of an object; a change then goes only to the subscribers whose `route` is the route
 *   of the changed object or of its previous state (a Map lookup per change, not a test per subscriber);
 * - `index` makes an index of the cache each time the informer opens, fed every change from the first list on and
 *   before any subscriber hears of it, so a subscriber that joins later finds it complete.
 */
import type { KubeClient } from './client.js';
import { Informer, type InformerEvent, type InformerTuning } from './informer.js';
import type { KubeObject, ResourceRef } from './resource.js';
import type { Clock } from '../util/clock.js';

export interface SharedInformerSubscriber {
  readonly onEvent: (event: InformerEvent) => void;
  readonly onRestart?: ((reason: string) => void) | undefined;
  readonly onError?: ((error: Error) => void) | undefined;
  /** With the informer's `routeOf`: the route whose changes this subscriber hears (without one it hears none). */
  readonly route?: string | undefined;
}

/** An index kept in step with the cache of one opening of the informer. */
export interface CacheIndex {
  update(event: InformerEvent): void;
}

export interface SharedInformerOptions<I extends CacheIndex = CacheIndex> {
  readonly client: KubeClient;
  readonly resource: ResourceRef;
  /** Watch only this namespace; absent = all namespaces. */
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly clock: Clock;
  readonly tuning?: InformerTuning | undefined;
  /** The route of an object: a change goes to the subscribers of its object's route and its previous state's. */
  readonly routeOf?: ((object: KubeObject) => string | undefined) | undefined;
  /** Makes the index of a new opening (called each time the informer opens). */
  readonly index?: (() => I) | undefined;
}

interface Subscription {
  listening: boolean;
}

export class SharedInformer<I extends CacheIndex = CacheIndex> {
  private readonly subscribers = new Map<SharedInformerSubscriber, Subscription>();
  /** With `routeOf`: the subscribers of each route. */
  private readonly routes = new Map<string, Map<SharedInformerSubscriber, Subscription>>();
  private informer: Informer | undefined;
  private opening: Promise<void> | undefined;
  private openIndex: I | undefined;

  constructor(private readonly options: SharedInformerOptions<I>) {}

  /** Whether the informer runs and has listed (false while nobody subscribes). */
  get synced(): boolean {
    return this.informer?.synced === true;
  }

  /** How many subscribers there are (the informer runs while this is above zero). */
  get size(): number {
    return this.subscribers.size;
  }

  /** The cached object of a key while the informer runs; undefined otherwise. Do not mutate it. */
  get(key: string): KubeObject | undefined {
    return this.informer?.get(key);
  }

  /** The index of the running informer's cache; undefined while nobody subscribes (or without `index`). */
  get index(): I | undefined {
    return this.informer === undefined ? undefined : this.openIndex;
  }

  /**
   * Joins; opens the informer when it is the first. Resolves once the informer has listed; rejects (and leaves)
   * when that first list fails — the next subscribe tries again.
   */
  async subscribe(subscriber: SharedInformerSubscriber): Promise<void> {
    const state: Subscription = { listening: false };
    this.join(subscriber, state);
    try {
      await this.open();
    } catch (error) {
      if (this.subscribers.get(subscriber) === state) this.leave(subscriber);
      throw error;
    }
    if (this.subscribers.get(subscriber) === state) state.listening = true;
  }

  /** Leaves; the last one out stops the informer (resolves when its watch has ended). */
  async unsubscribe(subscriber: SharedInformerSubscriber): Promise<void> {
    if (!this.leave(subscriber) || this.subscribers.size > 0) return;
    const { informer, opening } = this;
    this.informer = undefined;
    this.opening = undefined;
    this.openIndex = undefined;
    if (informer === undefined) return;
    // A failing first list was reported to the subscriber that awaited it; here it only has to be over.
    await opening?.catch(() => undefined);
    await informer.stop();
  }

  private join(subscriber: SharedInformerSubscriber, state: Subscription): void {
    this.leave(subscriber);
    this.subscribers.set(subscriber, state);
    const { route } = subscriber;
    if (this.options.routeOf === undefined || route === undefined) return;
    let routed = this.routes.get(route);
    if (routed === undefined) {
      routed = new Map();
      this.routes.set(route, routed);
    }
    routed.set(subscriber, state);
  }

  /** Forgets a subscriber; false when it was not subscribed. */
  private leave(subscriber: SharedInformerSubscriber): boolean {
    if (!this.subscribers.delete(subscriber)) return false;
    const { route } = subscriber;
    const routed = route === undefined ? undefined : this.routes.get(route);
    if (routed !== undefined && route !== undefined) {
      routed.delete(subscriber);
      if (routed.size === 0) this.routes.delete(route);
    }
    return true;
  }

  private open(): Promise<void> {
    if (this.opening !== undefined) return this.opening;
    const { client, resource, namespace, labelSelector, clock, tuning } = this.options;
    const index = this.options.index?.();
    const informer: Informer = new Informer({
      client,
      resource,
      namespace,
      labelSelector,
      clock,
      ...(tuning ?? {}),
      onEvent: (event) => {
        index?.update(event);
        if (this.informer === informer) this.deliver(event);
      },
      onRestart: (reason) => {
        if (this.informer === informer) for (const subscriber of this.subscribers.keys()) subscriber.onRestart?.(reason);
      },
      onError: (error) => {
        if (this.informer === informer) for (const subscriber of this.subscribers.keys()) subscriber.onError?.(error);
      },
    });
    this.informer = informer;
    this.openIndex = index;
    const opening = informer.start().catch(async (error: unknown) => {
      if (this.opening === opening) {
        this.informer = undefined;
        this.opening = undefined;
        this.openIndex = undefined;
      }
      await informer.stop();
      throw error;
    });
    this.opening = opening;
    return opening;
  }

  private deliver(event: InformerEvent): void {
    const { routeOf } = this.options;
    if (routeOf === undefined) {
      for (const [subscriber, state] of this.subscribers) if (state.listening) subscriber.onEvent(event);
      return;
    }
    const route = routeOf(event.object);
    if (route !== undefined) this.deliverTo(route, event);
    if (event.old === undefined) return;
    const previous = routeOf(event.old);
    if (previous !== undefined && previous !== route) this.deliverTo(previous, event);
  }

  private deliverTo(route: string, event: InformerEvent): void {
    const routed = this.routes.get(route);
    if (routed === undefined) return;
    for (const [subscriber, state] of routed) if (state.listening) subscriber.onEvent(event);
  }
}

/** The shared informers of one runtime, by resource, namespace and label selector. */
export class SharedInformers {
  private readonly informers = new Map<string, SharedInformer>();

  /** The shared informer of `resource` in `namespace` (all namespaces when absent), created on first use. */
  of(options: SharedInformerOptions): SharedInformer {
    const { group, version, plural } = options.resource;
    const key = `${group}/${version}/${plural}@${options.namespace ?? ''}?${options.labelSelector ?? ''}`;
    let found = this.informers.get(key);
    if (found === undefined) {
      found = new SharedInformer(options);
      this.informers.set(key, found);
    }
    return found;
  }
}
