// A clock for tests: time moves only when the test says so, and timers fire in deadline order.
import type { Clock, TimerHandle } from '../../src/util/clock.js';

interface Pending {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, Pending>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, at: this.current + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete((handle as { id: number }).id);
  }

  /** Number of timers not yet fired. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order; awaits microtasks between timers so promise chains run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      let next: Pending | undefined;
      for (const timer of this.timers.values()) {
        if (timer.at <= target && (next === undefined || timer.at < next.at || (timer.at === next.at && timer.id < next.id))) next = timer;
      }
      if (next === undefined) break;
      this.timers.delete(next.id);
      this.current = Math.max(this.current, next.at);
      next.fn();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }
}

/** Lets pending promise callbacks run. */
export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
