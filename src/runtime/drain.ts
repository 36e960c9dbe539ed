/**
 * The drain of `runtime.stop()`: every controller stops taking keys and waits for its in-flight reconciles until the
 * drain time-out, then aborts them; a reconcile that ignores its AbortSignal is given a grace period more, then
 * abandoned, so that `stop()` always ends.
 */
import { setMaxListeners } from 'node:events';
import type { Controller } from '../controller/controller.js';
import type { Clock, TimerHandle } from '../util/clock.js';

/** After the drain time-out, how long reconciles that ignore their AbortSignal are waited for before `stop()` goes on. */
const ABANDON_GRACE_MS = 5000;

/** Drains every controller at once; resolves false when some reconcile was abandoned after the grace period. */
export async function drainControllers(controllers: readonly Controller[], clock: Clock, drainTimeoutMs: number): Promise<boolean> {
  const deadline = new AbortController();
  // Every controller listens on the one deadline (two listeners each, removed when it drained): with more than a
  // handful of CRDs Node would print a MaxListenersExceededWarning that is not a leak.
  setMaxListeners(2 * controllers.length + 10, deadline.signal);
  const timer = clock.setTimeout(() => deadline.abort(), drainTimeoutMs);
  const drained = Promise.all(controllers.map((controller) => controller.drain(deadline.signal)));
  let handle: TimerHandle | undefined;
  const gaveUp = new Promise<'gave-up'>((resolve) => {
    handle = clock.setTimeout(() => resolve('gave-up'), drainTimeoutMs + ABANDON_GRACE_MS);
  });
  try {
    return (await Promise.race([drained, gaveUp])) !== 'gave-up';
  } finally {
    clock.clearTimeout(timer);
    if (handle !== undefined) clock.clearTimeout(handle);
  }
}
