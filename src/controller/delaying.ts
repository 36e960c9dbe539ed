/**
 * Keys waiting for a deadline, for the workqueue's `addAfter`. At most one entry per key; scheduling a key again
 * keeps the earlier deadline (kube-rs scheduler). Entries live in a binary heap ordered by deadline (ties in the
 * order they were scheduled), and a single timer on the injected clock is armed for the earliest one.
 */
import type { Clock, TimerHandle } from '../util/clock.js';

/** Node timers overflow past 2^31-1 ms (about 24.8 days); longer waits are done in steps. */
const MAX_TIMER_MS = 2_147_483_647;

interface Entry {
  readonly key: string;
  at: number;
  seq: number;
  index: number;
}

/** A min-heap of keys by deadline with O(log n) insert, decrease, delete and pop, and O(1) lookup by key. */
class DeadlineHeap {
  private readonly items: Entry[] = [];
  private readonly byKey = new Map<string, Entry>();
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  peek(): Entry | undefined {
    return this.items[0];
  }

  /** Inserts `key` due at `at`, or moves it earlier. Returns false when the key was already due at or before `at`. */
  schedule(key: string, at: number): boolean {
    const existing = this.byKey.get(key);
    if (existing !== undefined) {
      if (existing.at <= at) return false;
      existing.at = at;
      existing.seq = this.seq++;
      this.up(existing.index);
      return true;
    }
    const entry: Entry = { key, at, seq: this.seq++, index: this.items.length };
    this.items.push(entry);
    this.byKey.set(key, entry);
    this.up(entry.index);
    return true;
  }

  /** Removes `key`; returns whether it was there. */
  delete(key: string): boolean {
    const entry = this.byKey.get(key);
    if (entry === undefined) return false;
    this.removeAt(entry.index);
    return true;
  }

  /** Removes and returns the earliest entry. */
  pop(): Entry | undefined {
    const first = this.items[0];
    if (first !== undefined) this.removeAt(0);
    return first;
  }

  clear(): void {
    this.items.length = 0;
    this.byKey.clear();
  }

  private removeAt(index: number): void {
    const removed = this.items[index];
    const last = this.items.pop();
    if (removed === undefined || last === undefined) return;
    this.byKey.delete(removed.key);
    if (last === removed) return;
    this.place(last, index);
    this.up(index);
    this.down(index);
  }

  private before(a: Entry, b: Entry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private place(entry: Entry, index: number): void {
    this.items[index] = entry;
    entry.index = index;
  }

  private up(start: number): void {
    const entry = this.items[start];
    if (entry === undefined) return;
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = this.items[parentIndex];
      if (parent === undefined || !this.before(entry, parent)) break;
      this.place(parent, index);
      index = parentIndex;
    }
    this.place(entry, index);
  }

  private down(start: number): void {
    const entry = this.items[start];
    if (entry === undefined) return;
    let index = start;
    for (;;) {
      const leftIndex = 2 * index + 1;
      const left = this.items[leftIndex];
      if (left === undefined) break;
      const right = this.items[leftIndex + 1];
      const [childIndex, child] = right !== undefined && this.before(right, left) ? [leftIndex + 1, right] : [leftIndex, left];
      if (!this.before(child, entry)) break;
      this.place(child, index);
      index = childIndex;
    }
    this.place(entry, index);
  }
}

/**
 * Keys with deadlines and one timer. When deadlines pass, `onDue` is called once per key, earliest first.
 * `clear()` cancels the timer, so nothing keeps running once the owner shuts down.
 */
export class DelayedKeys {
  private readonly heap = new DeadlineHeap();
  private timer: TimerHandle | undefined;
  /** When the armed timer fires (Infinity when none is armed). */
  private timerAt = Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly onDue: (key: string) => void,
  ) {}

  /** Number of keys waiting for their deadline. */
  get size(): number {
    return this.heap.size;
  }

  has(key: string): boolean {
    return this.heap.has(key);
  }

  /** Schedules `key` in `delayMs`; if it is already scheduled, the earlier of the two deadlines is kept. */
  schedule(key: string, delayMs: number): void {
    if (this.heap.schedule(key, this.clock.now() + delayMs)) this.arm();
  }

  /** Removes the pending entry of `key`, if any. */
  delete(key: string): void {
    if (this.heap.delete(key)) this.arm();
  }

  /** Removes every entry and cancels the timer. */
  clear(): void {
    this.heap.clear();
    this.disarm();
  }

  /** Makes sure a timer fires no later than the earliest deadline; cancels it when nothing is left. */
  private arm(): void {
    const first = this.heap.peek();
    if (first === undefined) {
      this.disarm();
      return;
    }
    // A timer that fires before the earliest deadline is harmless (fire() re-arms), so it is only replaced when late.
    if (this.timer !== undefined && this.timerAt <= first.at) return;
    this.disarm();
    const now = this.clock.now();
    const wait = Math.min(Math.max(0, first.at - now), MAX_TIMER_MS);
    this.timerAt = now + wait;
    this.timer = this.clock.setTimeout(() => this.fire(), wait);
  }

  private disarm(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now();
    for (let first = this.heap.peek(); first !== undefined && first.at <= now; first = this.heap.peek()) {
      this.heap.pop();
      this.onDue(first.key);
    }
    this.arm();
  }
}
