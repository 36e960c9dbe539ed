/**
 * Child operations (SPEC §4.4): create when missing, server-side apply when a child must be kept in line, no write
 * when the live child already holds the manifest, prune of children no longer declared, and explicit deletion of
 * the children the garbage collector cannot reach.
 *
 * The live state comes from the child watches' caches. Right after a write the cache may lag behind; the applier
 * remembers what its own writes returned until the cache catches up, so a reconcile that runs in between neither
 * writes again nor mistakes its own stale view for drift.
 */
import { KubeError, toError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import { slimForCache } from '../kube/cache-slim.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { Clock } from '../util/clock.js';
import { resourceKey, type ChildLookup, type ObservedChild } from './child-watches.js';
import { manifestHash, TEMPLATE_HASH_ANNOTATION } from './manifest-hash.js';
import { collectedWithOwner, FOR_EACH_LABEL, isOwnedBy, type Owner } from './ownership.js';
import { firstDifference } from './subset.js';
import { WriteMemos } from './write-memos.js';

/** A child to carry out: the full manifest (ownership stamped) and the resource that serves it. */
export interface DesiredManifest {
  /** The template entry's document path, for messages. */
  readonly source: string;
  readonly manifest: KubeObject;
  readonly resource: ResourceRef;
  /** true: kept in line with server-side apply; false: created when missing, else left alone. */
  readonly reconcile: boolean;
}

/**
 * What happened to one child: `created` (it was missing), `applied` (its manifest changed), `corrected` (someone
 * edited it: drift), `unchanged` (no write), `exists` (create-only and already there: no write).
 */
export type ApplyAction = 'created' | 'applied' | 'corrected' | 'unchanged' | 'exists';

export interface AppliedChild {
  readonly desired: DesiredManifest;
  readonly action: ApplyAction;
  /** The child as last seen: the API server's answer after a write, else the cached object. */
  readonly object: KubeObject;
}

export interface ChildApplierOptions {
  readonly client: KubeClient;
  readonly lookup: ChildLookup;
  readonly clock: Clock;
  /** Field manager of server-side apply (`options.fieldManager`, default `katalog`). */
  readonly fieldManager: string;
  /** `force` of server-side apply (`options.forceApply`, default true). */
  readonly force: boolean;
  /** Called once per drift correction, with the first field found different. */
  readonly onDrift?: (child: DesiredManifest, field: string) => void;
}

/** How long what a write returned stands in for a cache that has not caught up. */
const MEMO_MS = 30_000;

function childKey(resource: ResourceRef, namespace: string | undefined, name: string): string {
  return `${resourceKey(resource)}/${namespace ?? ''}/${name}`;
}

/**
 * What went wrong with a child write, without values from the child or its parent: the HTTP status and reason
 * (the KubeClient's message carries no Status message), or the error's own message for what is not an answer of the
 * API server (a time-out, a lost connection, an abort). The child is named by its kind and template path, not by
 * its name, which may have been rendered from the custom resource.
 */
function apiFailure(error: Error): string {
  if (error instanceof KubeError && error.status !== undefined) return `HTTP ${error.status}${error.reason === undefined ? '' : ` ${error.reason}`}`;
  return error instanceof KubeError ? 'no answer from the API server' : error.message;
}

export class ChildApplier {
  private readonly memos = new WriteMemos();

  constructor(private readonly options: ChildApplierOptions) {}

  /** Carries out children in the given order; the first failure stops and is thrown, naming the child and its entry. */
  async applyAll(children: readonly DesiredManifest[], signal: AbortSignal): Promise<AppliedChild[]> {
    const out: AppliedChild[] = [];
    for (const child of children) out.push(await this.apply(child, signal));
    return out;
  }

  /** Writes whose answer stands in for the cache now, until their watch event arrives (tests, bench/scale). */
  get memoCount(): number {
    return this.memos.size;
  }

  /** Carries out one child. */
  async apply(desired: DesiredManifest, signal: AbortSignal): Promise<AppliedChild> {
    const { client, fieldManager, force } = this.options;
    const meta = desired.manifest.metadata ?? {};
    const name = meta.name ?? '';
    const key = childKey(desired.resource, meta.namespace, name);
    const hash = manifestHash(desired.manifest);
    const manifest: KubeObject = {
      ...desired.manifest,
      metadata: { ...meta, annotations: { ...(meta.annotations ?? {}), [TEMPLATE_HASH_ANNOTATION]: hash } },
    };
    try {
      const live = await this.live(desired.resource, meta.namespace, name, key, signal);
      if (!desired.reconcile) {
        if (live !== undefined) return { desired, action: 'exists', object: live };
        try {
          const created = await client.create(desired.resource, manifest, { fieldManager, signal });
          this.remember(key, desired.resource, live, created);
          return { desired, action: 'created', object: created };
        } catch (error) {
          if (error instanceof KubeError && error.status === 409) return { desired, action: 'exists', object: manifest };
          throw error;
        }
      }
      const difference = live === undefined ? '(missing)' : firstDifference(manifest, live);
      if (live !== undefined && difference === undefined) return { desired, action: 'unchanged', object: live };
      const applied = await client.apply(desired.resource, manifest, { fieldManager, force, signal, withoutManagedFields: true });
      this.remember(key, desired.resource, live, applied);
      if (live === undefined) return { desired, action: 'created', object: applied };
      const drifted = live.metadata?.annotations?.[TEMPLATE_HASH_ANNOTATION] === hash;
      if (drifted) this.options.onDrift?.(desired, difference ?? '');
      return { desired, action: drifted ? 'corrected' : 'applied', object: applied };
    } catch (error) {
      const cause = toError(error);
      const message = `failed to ${desired.reconcile ? 'apply' : 'create'} ${desired.manifest.kind ?? desired.resource.kind} (${desired.source}): ${apiFailure(cause)}`;
      throw new KubeError(message, error instanceof KubeError ? { status: error.status, reason: error.reason } : {}, { cause });
    }
  }

  /**
   * Deletes the children of `owner` that are not in `keep` (a `when` turned false, a name changed). Only kinds that
   * are watched (the kinds of the CRD's templates) and only children labelled for this owner are considered: those
   * in the cache and those this applier wrote whose watch event has not arrived yet. Returns what was deleted.
   * With `only`, just the children among `only.withdrawn` (and not in `keep`) are candidates: the conditional pruning
   * of Orkestra documents (docs/operatorbox.md#pruning), where a child no entry names is left to the garbage
   * collector; so are the children labelled with one of `only.forEach` (`katalog.dev/for-each`), the children of
   * items that left a kept-in-line `forEach` entry's list, which Orkestra deletes too (never a Job).
   */
  async prune(
    owner: Owner,
    keep: readonly DesiredManifest[],
    signal: AbortSignal,
    only?: { readonly withdrawn: readonly DesiredManifest[]; readonly forEach: ReadonlySet<string> },
  ): Promise<ObservedChild[]> {
    const keyOf = (child: DesiredManifest): string => childKey(child.resource, child.manifest.metadata?.namespace, child.manifest.metadata?.name ?? '');
    const kept = new Set(keep.map(keyOf));
    const candidates = only === undefined ? undefined : new Set(only.withdrawn.map(keyOf));
    const swept = (resource: ObservedChild['resource'], object: ObservedChild['object']): boolean => {
      const entry = object.metadata?.labels?.[FOR_EACH_LABEL];
      return entry !== undefined && only?.forEach.has(entry) === true && !(resource.kind === 'Job' && resource.group === 'batch');
    };
    const stale = this.owned(owner).filter(({ resource, object }) => {
      if (object.metadata?.deletionTimestamp !== undefined) return false;
      const key = childKey(resource, object.metadata?.namespace, object.metadata?.name ?? '');
      return !kept.has(key) && (candidates === undefined || candidates.has(key) || swept(resource, object));
    });
    for (const child of stale) await this.remove(child, signal);
    return stale;
  }

  /**
   * Deletes the children of `owner` that the garbage collector will not delete with it: cluster-scoped children of
   * a namespaced parent and children in another namespace (ownership by label only). Called on parent deletion,
   * before the finalizers are removed.
   */
  async deleteUncollectable(owner: Owner, signal: AbortSignal): Promise<ObservedChild[]> {
    const orphans = this.owned(owner).filter(({ object }) => object.metadata?.deletionTimestamp === undefined && !collectedWithOwner(object, owner));
    for (const child of orphans) await this.remove(child, signal);
    return orphans;
  }

  /** Deletes one child (background propagation); already gone is fine. */
  async remove(child: ObservedChild, signal: AbortSignal): Promise<void> {
    const meta = child.object.metadata ?? {};
    const name = meta.name ?? '';
    this.memos.delete(childKey(child.resource, meta.namespace, name));
    try {
      await this.options.client.delete(child.resource, name, meta.namespace, { propagationPolicy: 'Background', signal });
    } catch (error) {
      const cause = toError(error);
      throw new KubeError(`failed to delete a ${child.resource.kind} child: ${apiFailure(cause)}`, error instanceof KubeError ? { status: error.status, reason: error.reason } : {}, { cause });
    }
  }

  /** The children of `owner`: the cached ones, and those written whose event has not reached the cache yet. */
  private owned(owner: Owner): ObservedChild[] {
    const cached = this.options.lookup.ownedBy(owner);
    const unseen = this.memos.unseenOf(owner.label).filter(({ object }) => isOwnedBy(object, owner));
    if (unseen.length === 0) return cached;
    const seen = new Set(cached.map(({ resource, object }) => childKey(resource, object.metadata?.namespace, object.metadata?.name ?? '')));
    return [...cached, ...unseen.filter(({ resource, object }) => !seen.has(childKey(resource, object.metadata?.namespace, object.metadata?.name ?? '')))];
  }

  /** The live child: the cache, unless it still shows the state before one of our writes; a GET for unwatched kinds. */
  private async live(resource: ResourceRef, namespace: string | undefined, name: string, key: string, signal: AbortSignal): Promise<KubeObject | undefined> {
    const { lookup, client, clock } = this.options;
    if (!lookup.watches(resource)) return client.get(resource, name, namespace, signal);
    const cached = lookup.get(resource, namespace, name);
    const memo = this.memos.get(key);
    if (memo === undefined) return cached;
    const cachedVersion = cached?.metadata?.resourceVersion ?? '';
    if (cachedVersion === memo.before && clock.now() - memo.at < MEMO_MS) return memo.object;
    this.memos.delete(key);
    return cached;
  }

  /**
   * A child's watch event reached the cache: a memo of it that no longer stands in for the cache is dropped now,
   * rather than at the parent's next reconcile (which, once everything converged, may be a resync away). Returns
   * true when the event only echoes this applier's own last write of the child (the resourceVersion its answer had).
   */
  observed(child: KubeObject): boolean {
    if (this.memos.size === 0) return false;
    const apiVersion = child.apiVersion ?? '';
    const slash = apiVersion.indexOf('/');
    const resource = { group: slash < 0 ? '' : apiVersion.slice(0, slash), kind: child.kind ?? '' };
    const key = `${resourceKey(resource)}/${child.metadata?.namespace ?? ''}/${child.metadata?.name ?? ''}`;
    const memo = this.memos.get(key);
    if (memo === undefined) return false;
    const version = child.metadata?.resourceVersion ?? '';
    if (version !== memo.before) this.memos.delete(key);
    return version !== '' && version === memo.object.metadata?.resourceVersion;
  }

  private remember(key: string, resource: ResourceRef, before: KubeObject | undefined, after: KubeObject): void {
    const { lookup } = this.options;
    const answered = after.metadata?.resourceVersion;
    if (answered !== undefined && lookup.watches(resource) && lookup.get(resource, after.metadata?.namespace, after.metadata?.name ?? '')?.metadata?.resourceVersion === answered) {
      // The write's own watch event reached the cache before its answer (the API server sends both, on two
      // connections): the cache already holds what the memo would, and the prune sees the child there. Kept, the
      // memo would be a second copy of the child until the parent's next reconcile, a resync away once converged
      // (docs/performance.md, "Scale (session 9)").
      this.memos.delete(key);
      return;
    }
    // Kept slim, as the cache keeps the same object once its event arrives (managedFields are most of an answer).
    const now = this.options.clock.now();
    this.memos.set(key, { before: before?.metadata?.resourceVersion ?? '', object: slimForCache(after), resource, at: now }, now - MEMO_MS);
  }
}
