/**
 * The watches on the children of one CRD: its view of the runtime's shared child informers (child-informers.ts,
 * one per child kind for every CRD of the runtime). `start()` subscribes the CRD to the informer of each of its child
 * kinds and resolves once each is listed; from then on the CRD hears the changes of its own children only (those
 * labelled `katalog.dev/crd=<crd>`, or that were until this change). The caches are what the registry compares
 * rendered manifests with (no GET per child per reconcile), what `.children` shows, and the changes are how a manual
 * edit of a child reaches its parent within a second (drift correction, SPEC §3.4).
 */
import type { Clock } from '../util/clock.js';
import type { KubeClient } from '../kube/client.js';
import { keyOf, type KubeObject, type ResourceRef } from '../kube/resource.js';
import type { SharedInformerSubscriber } from '../kube/shared-informer.js';
import { ChildInformers, crdOfChild, type ChildInformer } from './child-informers.js';
import { isOwnedBy, type Owner } from './ownership.js';
import type { InformerTuning } from '../kube/informer.js';

/** A live child and the resource it was read from. */
export interface ObservedChild {
  readonly resource: ResourceRef;
  /** The cached object: do not mutate. */
  readonly object: KubeObject;
}

/** Read access to the observed children of a CRD. */
export interface ChildLookup {
  /** Whether `resource` is watched (its children are in the caches). */
  watches(resource: ResourceRef): boolean;
  /** The cached child, or undefined (not watched, not ours, or not there). */
  get(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined;
  /** Every cached child of `owner`, over all watched kinds. */
  ownedBy(owner: Owner): ObservedChild[];
}

export interface ChildWatchesOptions {
  readonly client: KubeClient;
  readonly clock: Clock;
  /** The CRD's name in the Katalog (the `katalog.dev/crd` label). */
  readonly crd: string;
  readonly resources: readonly ResourceRef[];
  readonly tuning?: InformerTuning;
  /** The runtime's shared child informers; default: a table of this CRD's own. */
  readonly informers?: ChildInformers | undefined;
  /**
   * Called for every change of a child after `start()` resolved (added, updated, deleted). A child whose
   * `katalog.dev/crd` label moved to another CRD is passed as it was (for this CRD it left, as a deletion would).
   */
  readonly onChange: (child: KubeObject) => void;
  readonly onRestart?: (reason: string) => void;
  readonly onError?: (error: Error) => void;
}

/** The key of a resource in the table of watches: group and kind (one version is watched per kind). */
export function resourceKey(resource: Pick<ResourceRef, 'group' | 'kind'>): string {
  return `${resource.group}/${resource.kind}`;
}

interface Watched {
  readonly resource: ResourceRef;
  readonly informer: ChildInformer;
}

export class ChildWatches implements ChildLookup {
  private readonly crd: string;
  private readonly informers = new Map<string, Watched>();
  private readonly subscriber: SharedInformerSubscriber;
  private started = false;

  constructor(options: ChildWatchesOptions) {
    const { crd, onChange } = options;
    this.crd = crd;
    const table = options.informers ?? new ChildInformers([crd]);
    for (const resource of options.resources) {
      const key = resourceKey(resource);
      if (this.informers.has(key)) continue;
      this.informers.set(key, { resource, informer: table.of(resource, options) });
    }
    this.subscriber = {
      route: crd,
      // Routed here by the object's label or by its previous one: when the label moved, the previous state is ours.
      onEvent: (event) => onChange(event.old === undefined || crdOfChild(event.object) === crd ? event.object : event.old),
      onRestart: options.onRestart,
      onError: options.onError,
    };
  }

  get resources(): ResourceRef[] {
    return [...this.informers.values()].map((entry) => entry.resource);
  }

  /** True while started and every child kind's informer has listed. */
  get synced(): boolean {
    return this.started && [...this.informers.values()].every((entry) => entry.informer.synced);
  }

  /**
   * Subscribes to the informer of every child kind (opening those no other CRD holds open); resolves once each has
   * listed. Rejects, unsubscribed from all, when a first list fails (the next start tries again).
   */
  async start(): Promise<void> {
    const entries = [...this.informers.values()];
    const results = await Promise.allSettled(entries.map((entry) => entry.informer.subscribe(this.subscriber)));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed !== undefined) {
      await this.stop();
      throw failed.reason;
    }
    this.started = true;
  }

  /** Unsubscribes from every kind's informer (the last CRD out stops it). Idempotent. */
  async stop(): Promise<void> {
    this.started = false;
    await Promise.all([...this.informers.values()].map((entry) => entry.informer.unsubscribe(this.subscriber)));
  }

  watches(resource: ResourceRef): boolean {
    return this.informers.has(resourceKey(resource));
  }

  get(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    const entry = this.informers.get(resourceKey(resource));
    if (entry === undefined) return undefined;
    const object = entry.informer.get(keyOf({ metadata: { name, ...(namespace === undefined ? {} : { namespace }) } }));
    // The cache holds every CRD's children: another CRD's child of the same name is not ours.
    return object === undefined || crdOfChild(object) !== this.crd ? undefined : object;
  }

  ownedBy(owner: Owner): ObservedChild[] {
    const out: ObservedChild[] = [];
    for (const { resource, informer } of this.informers.values()) {
      const index = informer.index;
      if (index === undefined) continue;
      for (const key of index.keys(owner.label)) {
        const object = informer.get(key);
        if (object !== undefined && isOwnedBy(object, owner)) out.push({ resource, object });
      }
    }
    return out;
  }
}
