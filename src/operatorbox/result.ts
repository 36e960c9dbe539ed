/** Interpreting what hooks and reconcilers return. */
import { KatalogError } from '../errors.js';
import { parseDuration } from '../util/duration.js';

/**
 * Reads `requeueAfter` from what a hook or reconciler returned: a number of milliseconds or a Go duration.
 * Anything else is a mistake in user code, reported as such rather than ignored.
 */
export function requeueAfterOf(result: unknown, who: string): number | undefined {
  if (result === undefined || result === null) return undefined;
  if (typeof result !== 'object') throw new KatalogError('E_RESULT', `${who} returned ${typeof result}; expected nothing or { requeueAfter }`);
  const value = (result as { requeueAfter?: unknown }).requeueAfter;
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string') {
    const ms = parseDuration(value);
    if (ms !== undefined) return ms;
  }
  throw new KatalogError('E_RESULT', `${who} returned requeueAfter ${JSON.stringify(value)}; expected milliseconds or a duration such as "30s"`);
}

/** The earlier of two optional requeue delays (several hooks may ask; the soonest wins). */
export function soonest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
