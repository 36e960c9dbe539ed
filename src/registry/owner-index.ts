/**
 * Cache keys by owner label (`katalog.dev/owner`), kept in step with one informer of a child kind, so that finding a
 * parent's children costs no scan. The owner label value starts with the CRD's name, so one index serves every CRD
 * that shares the informer (registry/child-informers.ts); readers still check `isOwnedBy`, which also compares the
 * `katalog.dev/crd` label. Most parents have one child of a kind: its key is kept as a plain string, and a Set only
 * for two or more. The previous label of a child is read from the event's previous object, so nothing maps keys back
 * to owners.
 */
import type { CacheIndex } from '../kube/shared-informer.js';
import type { InformerEvent } from '../kube/informer.js';
import { OWNER_LABEL } from './ownership.js';

const EMPTY: ReadonlySet<string> = new Set();

export class OwnerIndex implements CacheIndex {
  private readonly byOwner = new Map<string, string | Set<string>>();

  update(event: InformerEvent): void {
    const previous = event.type === 'added' ? undefined : (event.type === 'deleted' ? event.object : event.old)?.metadata?.labels?.[OWNER_LABEL];
    const next = event.type === 'deleted' ? undefined : event.object.metadata?.labels?.[OWNER_LABEL];
    if (previous === next && event.type === 'updated') return;
    if (previous !== undefined) this.remove(previous, event.key);
    if (next !== undefined) this.add(next, event.key);
  }

  /** The cache keys of the children labelled with `label` (some may have changed owner since: check them). */
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
