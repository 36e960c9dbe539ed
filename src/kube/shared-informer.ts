/**
 * One informer shared by several subscribers: opened (listed and watched) when the first subscriber joins, stopped
 * when the last one leaves, so a kind nobody needs keeps no watch and no cache. Each subscriber receives the changes
 * that happen after its `subscribe()` resolved — never the first list, nor a change made before it joined. Errors
 * and restarts of the watch go to every subscriber (each reports them in its own CRD's health).
 */
import type { KubeClient } from './client.js';
import { Informer, type InformerEvent } from './informer.js';
import type { ResourceRef } from './resource.js';
import type { Clock } from '../util/clock.js';

export interface SharedInformerSubscriber {
  readonly onEvent: (event: InformerEvent) => void;
  readonly onRestart?: ((reason: string) => void) | undefined;
  readonly onError?: ((error: Error) => void) | undefined;
}

export interface SharedInformerOptions {
  readonly client: KubeClient;
  readonly resource: ResourceRef;
  /** Watch only this namespace; absent = all namespaces. */
  readonly namespace?: string | undefined;
  readonly clock: Clock;
  readonly tuning?: { readonly watchTimeoutSeconds?: number; readonly idleTimeoutMs?: number; readonly backoff?: { initialMs?: number; maxMs?: number } } | undefined;
}

export class SharedInformer {
  private readonly subscribers = new Map<SharedInformerSubscriber, { listening: boolean }>();
  private informer: Informer | undefined;
  private opening: Promise<void> | undefined;

  constructor(private readonly options: SharedInformerOptions) {}

  /** Whether the informer runs and has listed (false while nobody subscribes). */
  get synced(): boolean {
    return this.informer?.synced === true;
  }

  /** How many subscribers there are (the informer runs while this is above zero). */
  get size(): number {
    return this.subscribers.size;
  }

  /**
   * Joins; opens the informer when it is the first. Resolves once the informer has listed; rejects (and leaves)
   * when that first list fails — the next subscribe tries again.
   */
  async subscribe(subscriber: SharedInformerSubscriber): Promise<void> {
    const state = { listening: false };
    this.subscribers.set(subscriber, state);
    try {
      await this.open();
    } catch (error) {
      this.subscribers.delete(subscriber);
      throw error;
    }
    if (this.subscribers.get(subscriber) === state) state.listening = true;
  }

  /** Leaves; the last one out stops the informer (resolves when its watch has ended). */
  async unsubscribe(subscriber: SharedInformerSubscriber): Promise<void> {
    if (!this.subscribers.delete(subscriber) || this.subscribers.size > 0) return;
    const { informer, opening } = this;
    this.informer = undefined;
    this.opening = undefined;
    if (informer === undefined) return;
    // A failing first list was reported to the subscriber that awaited it; here it only has to be over.
    await opening?.catch(() => undefined);
    await informer.stop();
  }

  private open(): Promise<void> {
    if (this.opening !== undefined) return this.opening;
    const { client, resource, namespace, clock, tuning } = this.options;
    const informer = new Informer({
      client,
      resource,
      namespace,
      clock,
      ...(tuning ?? {}),
      onEvent: (event) => {
        for (const [subscriber, state] of this.subscribers) if (state.listening) subscriber.onEvent(event);
      },
      onRestart: (reason) => {
        for (const subscriber of this.subscribers.keys()) subscriber.onRestart?.(reason);
      },
      onError: (error) => {
        for (const subscriber of this.subscribers.keys()) subscriber.onError?.(error);
      },
    });
    this.informer = informer;
    const opening = informer.start().catch(async (error: unknown) => {
      if (this.opening === opening) {
        this.informer = undefined;
        this.opening = undefined;
      }
      await informer.stop();
      throw error;
    });
    this.opening = opening;
    return opening;
  }
}

/** The shared informers of one runtime, by resource and namespace. */
export class SharedInformers {
  private readonly informers = new Map<string, SharedInformer>();

  /** The shared informer of `resource` in `namespace` (all namespaces when absent), created on first use. */
  of(options: SharedInformerOptions): SharedInformer {
    const { group, version, plural } = options.resource;
    const key = `${group}/${version}/${plural}@${options.namespace ?? ''}`;
    let found = this.informers.get(key);
    if (found === undefined) {
      found = new SharedInformer(options);
      this.informers.set(key, found);
    }
    return found;
  }
}
