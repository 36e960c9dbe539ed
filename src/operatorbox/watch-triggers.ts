/**
 * `operatorBox.watch`: kinds the custom resources do not own whose changes reconcile them again (Orkestra's
 * `watch` / `observe.watch`). One informer per entry (its own list and watch, scoped by the entry's namespace and
 * name, never a poll); each change that passes the entry's `on` filter is turned into keys of the CRD:
 *
 * 1. `keyFrom.name` (with `keyFrom.namespace`): that custom resource;
 * 2. `keyFrom.label`: the value of that label on the changed object (`namespace/name`, or `name`);
 * 3. otherwise an owner reference of the changed object to the CRD's kind: its owner;
 * 4. otherwise every custom resource of the CRD (broadcast).
 *
 * A bare name is qualified with the changed object's namespace when the CRD is namespaced. Only keys in the CRD's
 * cache are enqueued (a key that names no custom resource would only run the not-found path). The first list of
 * each informer enqueues nothing: the CRD's own first list reconciles every custom resource anyway. An entry's
 * `enqueueGate` (watch-gate.ts) is checked after the `on` filter and before any key is resolved.
 */
import type { WatchEntry, WatchEvent } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import { startInformers, stopInformers } from '../kube/informer-group.js';
import { Informer, type InformerEvent, type InformerEventType, type InformerTuning } from '../kube/informer.js';
import type { ResourceRef } from '../kube/resource.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../observe/logger.js';
import type { TemplateDialect, UserNote } from '../template/index.js';
import { WatchGate } from './watch-gate.js';
import { keysFor } from './watch-keys.js';
import { readsManagedFieldsChanged } from './managed-fields-sentinel.js';

const EVENT: Readonly<Record<InformerEventType, WatchEvent>> = { added: 'create', updated: 'update', deleted: 'delete' };

export interface WatchTriggersOptions {
  readonly client: KubeClient;
  readonly clock: Clock;
  /** The watch entries with the resource each was resolved to. */
  readonly entries: ReadonlyArray<{ readonly entry: WatchEntry; readonly resource: ResourceRef }>;
  /** The CRD's kind: owner references to it name the key. */
  readonly owner: Pick<ResourceRef, 'group' | 'kind' | 'namespaced'>;
  /** The keys of the CRD's cache, and whether one is there. */
  readonly primary: { keys(): Iterable<string>; has(key: string): boolean };
  readonly enqueue: (key: string) => void;
  readonly tuning?: InformerTuning;
  readonly onRestart?: (reason: string) => void;
  readonly onError?: (error: Error) => void;
  /** For the entries' enqueueGates: the CRD's template dialect and notes, and where a condition's warning goes. */
  readonly gates: { readonly dialect?: TemplateDialect | undefined; readonly notes?: readonly UserNote[] | undefined; readonly logger: Logger; readonly now?: (() => number) | undefined };
}

/** The informers of a CRD's watch entries, started and stopped with its controller. */
export class WatchTriggers {
  private readonly informers: Informer[] = [];
  private listening = false;
  private readonly gates = new Map<WatchEntry, WatchGate>();

  /** Compiles the entries' enqueueGates; throws a TemplateError when a condition does not compile. */
  constructor(private readonly options: WatchTriggersOptions) {
    for (const { entry, resource } of options.entries) {
      const { gates } = options;
      if (entry.enqueueGate !== undefined) this.gates.set(entry, new WatchGate(entry.enqueueGate, { path: entry.path, dialect: gates.dialect, notes: gates.notes, logger: gates.logger, now: gates.now }));
      this.informers.push(
        new Informer({
          client: options.client,
          resource,
          namespace: resource.namespaced ? entry.namespace : undefined,
          fieldSelector: entry.name === undefined ? undefined : `metadata.name=${entry.name}`,
          clock: options.clock,
          ...(options.tuning ?? {}),
          managedFieldsFingerprint: readsManagedFieldsChanged(entry.enqueueGate),
          onEvent: (event) => this.onEvent(entry, event),
          ...(options.onRestart === undefined ? {} : { onRestart: options.onRestart }),
          ...(options.onError === undefined ? {} : { onError: options.onError }),
        }),
      );
    }
  }

  get synced(): boolean {
    return this.informers.every((informer) => informer.synced);
  }

  /** Lists and watches every entry's kind; rejects (with every watch stopped) when a first list fails. */
  async start(): Promise<void> {
    await startInformers(this.informers);
    this.listening = true;
  }

  async stop(): Promise<void> {
    this.listening = false;
    await stopInformers(this.informers);
  }

  private onEvent(entry: WatchEntry, event: InformerEvent): void {
    if (!this.listening || !entry.on.includes(EVENT[event.type])) return;
    if (this.gates.get(entry)?.passes(event) === false) return;
    const routing = { owner: this.options.owner, keys: () => this.options.primary.keys() };
    for (const key of keysFor(entry.keyFrom, event.object, routing)) if (this.options.primary.has(key)) this.options.enqueue(key);
  }
}
