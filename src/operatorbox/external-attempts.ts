/**
 * The attempts of one external call within a run: one, or with the call's own `retryBackoff` (Orkestra's
 * `RetryBackoffConfig` on an external call) up to `maxAttempts`, waiting `initial`, then `× multiplier` up to
 * `max`, between them. Every failure of an attempt is retried (no response, the deadline, a body over the limit, an
 * unexpected status, a missing credential): the call fails only when its last attempt does. The waits run on the
 * runtime's clock and end at once when the reconcile's signal aborts (stop() past its drain time-out, or
 * reconcileTimeout), the call then failing with its last attempt's reason; the loader bounds the whole sequence
 * (external-waits.ts).
 */
import { retryDelays, type ExternalCall } from '../definition/external-types.js';
import { sleep, systemClock, type Clock } from '../util/clock.js';

/** The part of a result the attempts read. */
interface Outcome {
  readonly error: string;
}

export interface AttemptOptions {
  readonly clock?: Clock | undefined;
  readonly onRetry?: ((call: string) => void) | undefined;
}

/**
 * Waits `ms` on `clock`; false when `signal` aborted first (the caller fails the call: a cancelled reconcile is
 * not an error of its own, the runtime already knows why it aborted).
 */
export async function waitFor(ms: number, signal: AbortSignal, clock: Clock = systemClock): Promise<boolean> {
  try {
    await sleep(clock, ms, signal);
    return true;
  } catch {
    return false;
  }
}

/** Makes `attempt` until it succeeds, the call's attempts run out, or `signal` aborts; resolves with the last result. */
export async function attempts<R extends Outcome>(call: ExternalCall, signal: AbortSignal, options: AttemptOptions, attempt: () => Promise<R>): Promise<R> {
  let result = await attempt();
  if (call.retry === undefined) return result;
  for (const delay of retryDelays(call.retry)) {
    if (result.error === '' || signal.aborted) return result;
    options.onRetry?.(call.name);
    if (!(await waitFor(delay, signal, options.clock))) return result;
    result = await attempt();
  }
  return result;
}
