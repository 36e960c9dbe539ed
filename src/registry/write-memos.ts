/**
 * What the ChildApplier's own writes returned, kept until the child watches' cache catches up (its watch event
 * arrives), and the children written but not in the cache yet, by owner.
 *
 * Two readers: the applier's view of a live child (a reconcile that runs before the event neither writes again nor
 * mistakes its stale view for drift), and the prune, which must see a child the runtime created even when its
 * event is still on its way (otherwise a child renamed away before its own event arrived would only be pruned by the
 * reconcile that event triggers, and the runtime skips that echo: docs/performance.md, "The echo of a child write").
 */
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { ObservedChild } from './child-watches.js';
import { OWNER_LABEL } from './ownership.js';

export interface Memo {
  /** The resourceVersion the cache held before the write ('' when the child was absent from it). */
  readonly before: string;
  readonly object: KubeObject;
  readonly resource: ResourceRef;
  readonly at: number;
}

/** Past this many memos, those older than the cut-off are swept. */
const SWEEP_ABOVE = 10_000;

export class WriteMemos {
  private readonly memos = new Map<string, Memo>();
  /** Owner label → keys of memos with `before === ''`: children written that the cache did not hold. */
  private readonly unseen = new Map<string, Set<string>>();

  get size(): number {
    return this.memos.size;
  }

  get(key: string): Memo | undefined {
    return this.memos.get(key);
  }

  set(key: string, memo: Memo, sweepBefore: number): void {
    this.delete(key);
    this.memos.set(key, memo);
    const owner = memo.before === '' ? memo.object.metadata?.labels?.[OWNER_LABEL] : undefined;
    if (owner !== undefined) {
      const keys = this.unseen.get(owner);
      if (keys === undefined) this.unseen.set(owner, new Set([key]));
      else keys.add(key);
    }
    if (this.memos.size > SWEEP_ABOVE) for (const [memoKey, old] of this.memos) if (old.at < sweepBefore) this.delete(memoKey);
  }

  delete(key: string): void {
    const memo = this.memos.get(key);
    if (memo === undefined) return;
    this.memos.delete(key);
    const owner = memo.before === '' ? memo.object.metadata?.labels?.[OWNER_LABEL] : undefined;
    const keys = owner === undefined ? undefined : this.unseen.get(owner);
    if (owner === undefined || keys === undefined) return;
    keys.delete(key);
    if (keys.size === 0) this.unseen.delete(owner);
  }

  /**
   * The children written with the owner label `label` whose watch event has not reached the cache yet (as the
   * write's answer). A memo is dropped when the event arrives or the runtime deletes the child; one whose child
   * vanished otherwise before its event came is answered by a 404 on delete, which the prune takes as done.
   */
  unseenOf(label: string): ObservedChild[] {
    const keys = this.unseen.get(label);
    if (keys === undefined) return [];
    const out: ObservedChild[] = [];
    for (const key of keys) {
      const memo = this.memos.get(key);
      if (memo !== undefined) out.push({ resource: memo.resource, object: memo.object });
    }
    return out;
  }
}
