/**
 * `observe.events`: Kubernetes Events (events.k8s.io/v1) whose changes reconcile custom resources of a CRD again
 * (Orkestra's `observe.events`). Every CRD that declares them subscribes to the runtime's one shared Events informer
 * (kube/shared-informer.ts) while its controller runs; the informer is open only while some CRD subscribes. For
 * each change of an Event after the subscription (never the Events already there when it started: the first list
 * reconciles nothing, as for `watch`), each entry whose fields match it, whose `on` names the change and whose
 * `enqueueGate` passes on the Event enqueues keys as a watch entry does (watch-keys.ts): `keyFrom`, else the
 * Event's owner references to the CRD's kind, else every custom resource of the CRD. Only keys in the CRD's cache
 * are enqueued; a key is enqueued once per change however many entries match.
 */
import type { ObservedEvent, WatchEvent } from '../definition/types.js';
import type { InformerEvent, InformerEventType } from '../kube/informer.js';
import type { ResourceRef } from '../kube/resource.js';
import type { SharedInformer, SharedInformerSubscriber } from '../kube/shared-informer.js';
import type { Logger } from '../observe/logger.js';
import type { TemplateDialect, UserNote } from '../template/index.js';
import { eventMatches } from './event-match.js';
import { WatchGate } from './watch-gate.js';
import { keysFor } from './watch-keys.js';

const EVENT: Readonly<Record<InformerEventType, WatchEvent>> = { added: 'create', updated: 'update', deleted: 'delete' };

/** The events.k8s.io/v1 Event resource the shared informer watches. */
export const EVENTS_RESOURCE: ResourceRef = { group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true };

export interface EventTriggersOptions {
  readonly entries: readonly ObservedEvent[];
  /** The runtime's shared Events informer. */
  readonly source: SharedInformer;
  /** The CRD's kind: owner references to it name the key. */
  readonly owner: Pick<ResourceRef, 'group' | 'kind' | 'namespaced'>;
  /** The keys of the CRD's cache, and whether one is there. */
  readonly primary: { keys(): Iterable<string>; has(key: string): boolean };
  readonly enqueue: (key: string) => void;
  readonly onRestart?: (reason: string) => void;
  readonly onError?: (error: Error) => void;
  /** For the entries' enqueueGates: the CRD's template dialect and notes, and where a condition's warning goes. */
  readonly gates: { readonly dialect?: TemplateDialect | undefined; readonly notes?: readonly UserNote[] | undefined; readonly logger: Logger; readonly now?: (() => number) | undefined };
}

/** A CRD's observed Events, subscribed and unsubscribed with its controller (the `Watches` shape). */
export class EventTriggers {
  private readonly gates = new Map<ObservedEvent, WatchGate>();
  private readonly subscriber: SharedInformerSubscriber;
  private subscribed = false;

  /** Compiles the entries' enqueueGates; throws a TemplateError when a condition does not compile. */
  constructor(private readonly options: EventTriggersOptions) {
    const { gates } = options;
    for (const entry of options.entries) {
      if (entry.enqueueGate !== undefined) this.gates.set(entry, new WatchGate(entry.enqueueGate, { path: entry.path, dialect: gates.dialect, notes: gates.notes, logger: gates.logger, now: gates.now }));
    }
    this.subscriber = {
      onEvent: (event) => this.onEvent(event),
      onRestart: options.onRestart,
      onError: options.onError,
    };
  }

  get synced(): boolean {
    return this.subscribed && this.options.source.synced;
  }

  /** Subscribes (opening the shared informer if it is the first); rejects when the informer's first list fails. */
  async start(): Promise<void> {
    await this.options.source.subscribe(this.subscriber);
    this.subscribed = true;
  }

  /** Unsubscribes (the last subscriber stops the informer). */
  async stop(): Promise<void> {
    this.subscribed = false;
    await this.options.source.unsubscribe(this.subscriber);
  }

  private onEvent(event: InformerEvent): void {
    const change = EVENT[event.type];
    const { primary, owner, enqueue } = this.options;
    const keys = new Set<string>();
    for (const entry of this.options.entries) {
      if (!entry.on.includes(change) || !eventMatches(entry, event.object)) continue;
      if (this.gates.get(entry)?.passes(event) === false) continue;
      for (const key of keysFor(entry.keyFrom, event.object, { owner, keys: () => primary.keys() })) if (primary.has(key)) keys.add(key);
    }
    for (const key of keys) enqueue(key);
  }
}
