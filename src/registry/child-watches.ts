/**
 * The watches on the children of one CRD: one informer per child kind, across all namespaces, selecting only
 * objects labelled `app.kubernetes.io/managed-by=katalog,katalog.dev/crd=<crd>`. Their caches are what the
 * registry compares rendered manifests with (no GET per child per reconcile), what `.children` shows, and their
 * events are how a manual edit of a child reaches its parent within a second (drift correction, SPEC §3.4).
 */
import type { Clock } from '../util/clock.js';
import type { KubeClient } from '../kube/client.js';
import { Informer, type InformerEvent } from '../kube/informer.js';
import { keyOf, type KubeObject, type ResourceRef } from '../kube/resource.js';
import { childSelector, isOwnedBy, OWNER_LABEL, type Owner } from './ownership.js';

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
  readonly tuning?: { readonly watchTimeoutSeconds?: number; readonly idleTimeoutMs?: number; readonly backoff?: { initialMs?: number; maxMs?: number } };
  /** Called for every change of a child (added, updated, deleted). */
  readonly onChange: (child: KubeObject) => void;
  readonly onRestart?: (reason: string) => void;
  readonly onError?: (error: Error) => void;
}

/** The key of a resource in the table of watches: group and kind (one version is watched per kind). */
export function resourceKey(resource: Pick<ResourceRef, 'group' | 'kind'>): string {
  return `${resource.group}/${resource.kind}`;
}

/**
 * Cache keys by owner label, kept in step with one informer, so that finding a parent's children costs no scan.
 * Most parents have one child of a kind: its key is kept as a plain string, and a Set only for two or more. The
 * previous label of a child is read from the event's previous object, so nothing maps keys back to owners.
 */
class OwnerIndex {
  private readonly byOwner = new Map<string, string | Set<string>>();

  update(event: InformerEvent): void {
    const previous = event.type === 'added' ? undefined : (event.type === 'deleted' ? event.object : event.old)?.metadata?.labels?.[OWNER_LABEL];
    const next = event.type === 'deleted' ? undefined : event.object.metadata?.labels?.[OWNER_LABEL];
    if (previous === next && event.type === 'updated') return;
    if (previous !== undefined) this.remove(previous, event.key);
    if (next !== undefined) this.add(next, event.key);
  }

  keys(label: string): Iterable<string> {
    const keys = this.byOwner.get(label);
    return keys === undefined ? EMPTY : typeof keys === 'string' ? [keys] : keys;
  }

  private add(label: string, key: string): void {
    const keys = this.byOwner.get(label);
    if (keys === undefined || keys === key) this.byOwner.set(label, key);
    else if (typeof keys === 'string') this.byOwner.set(label, new Set([keys, key]));
    else keys.add(key);
  }

  private remove(label: string, key: string): void {
    const keys = this.byOwner.get(label);
    if (keys === key) this.byOwner.delete(label);
    else if (typeof keys === 'object') {
      keys.delete(key);
      if (keys.size === 1) this.byOwner.set(label, keys.values().next().value ?? '');
    }
  }
}

const EMPTY: ReadonlySet<string> = new Set();

interface Watched {
  readonly resource: ResourceRef;
  readonly informer: Informer;
  readonly index: OwnerIndex;
}

export class ChildWatches implements ChildLookup {
  private readonly informers = new Map<string, Watched>();

  constructor(options: ChildWatchesOptions) {
    for (const resource of options.resources) {
      const key = resourceKey(resource);
      if (this.informers.has(key)) continue;
      const index = new OwnerIndex();
      const informer = new Informer({
        client: options.client,
        resource,
        labelSelector: childSelector(options.crd),
        clock: options.clock,
        ...(options.tuning ?? {}),
        onEvent: (event) => {
          index.update(event);
          options.onChange(event.object);
        },
        ...(options.onRestart === undefined ? {} : { onRestart: options.onRestart }),
        ...(options.onError === undefined ? {} : { onError: options.onError }),
      });
      this.informers.set(key, { resource, informer, index });
    }
  }

  get resources(): ResourceRef[] {
    return [...this.informers.values()].map((entry) => entry.resource);
  }

  get synced(): boolean {
    return [...this.informers.values()].every((entry) => entry.informer.synced);
  }

  /** Lists and watches every child kind; rejects (with every watch stopped) when a first list fails. */
  async start(): Promise<void> {
    const entries = [...this.informers.values()];
    const results = await Promise.allSettled(entries.map((entry) => entry.informer.start()));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed !== undefined) {
      await this.stop();
      throw failed.reason;
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((entry) => entry.informer.stop()));
  }

  watches(resource: ResourceRef): boolean {
    return this.informers.has(resourceKey(resource));
  }

  get(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    const entry = this.informers.get(resourceKey(resource));
    if (entry === undefined) return undefined;
    return entry.informer.get(keyOf({ metadata: { name, ...(namespace === undefined ? {} : { namespace }) } }));
  }

  ownedBy(owner: Owner): ObservedChild[] {
    const out: ObservedChild[] = [];
    for (const { resource, informer, index } of this.informers.values()) {
      for (const key of index.keys(owner.label)) {
        const object = informer.get(key);
        if (object !== undefined && isOwnedBy(object, owner)) out.push({ resource, object });
      }
    }
    return out;
  }
}
