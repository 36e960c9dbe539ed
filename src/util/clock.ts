/**
 * Time, injected. Everything in katalog that waits or measures time takes a {@link Clock}, so that tests can
 * drive time by hand (see `test/support/fake-clock.ts`).
 */

/** An opaque handle for a scheduled callback. */
export type TimerHandle = { readonly __timer: unique symbol } | object;

/** The source of time and timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds. The timer never keeps the process alive by itself (unref'd). */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer; unknown or already-fired handles are ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock: `Date.now()` and Node timers, unref'd so that a pending timer never holds the process open. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref();
    return timer;
  },
  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
});

/** Resolves after `ms` on `clock`, or rejects with the signal's reason when it aborts first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
