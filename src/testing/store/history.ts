/**
 * The retained change events (the "watch cache" window). A watch from resourceVersion N replays the retained events
 * newer than N; when N is older than the window (or was compacted away by a test), the watch is answered with
 * 410 Expired.
 */
import type { StoredRecord } from './record.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change; `record.rv` is the change's resourceVersion. */
export interface ChangeEvent {
  readonly type: ChangeType;
  /** Resource key (`group/plural`). */
  readonly key: string;
  /** The new state; for DELETED the last state carrying the deletion's resourceVersion. */
  readonly record: StoredRecord;
  /** The state before the change (MODIFIED and DELETED; a later list page reads it: operations/list-snapshot.ts). */
  readonly prev: StoredRecord | undefined;
}

export class History {
  private readonly ring: (ChangeEvent | undefined)[];
  private start = 0;
  private size = 0;
  /** Every change at or below this revision is gone from the window. */
  private compacted: number;

  constructor(capacity: number, initialRevision: number) {
    this.ring = new Array<ChangeEvent | undefined>(Math.max(1, capacity));
    this.compacted = initialRevision;
  }

  /** The newest revision that is no longer replayable. */
  get compactedRevision(): number {
    return this.compacted;
  }

  append(event: ChangeEvent): void {
    const capacity = this.ring.length;
    if (this.size === capacity) {
      const dropped = this.ring[this.start];
      if (dropped !== undefined) this.compacted = dropped.record.rv;
      this.ring[this.start] = event;
      this.start = (this.start + 1) % capacity;
      return;
    }
    this.ring[(this.start + this.size) % capacity] = event;
    this.size += 1;
  }

  /** Events with a revision greater than `revision`, oldest first; `undefined` when `revision` is too old. */
  since(revision: number): ChangeEvent[] | undefined {
    if (revision < this.compacted) return undefined;
    const capacity = this.ring.length;
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const event = this.ring[(this.start + mid) % capacity];
      if (event !== undefined && event.record.rv <= revision) low = mid + 1;
      else high = mid;
    }
    const out: ChangeEvent[] = [];
    for (let i = low; i < this.size; i++) {
      const event = this.ring[(this.start + i) % capacity];
      if (event !== undefined) out.push(event);
    }
    return out;
  }

  /** Forgets every event: watches from any revision below `revision` will get 410. */
  compact(revision: number): void {
    this.ring.fill(undefined);
    this.start = 0;
    this.size = 0;
    this.compacted = revision;
  }
}
