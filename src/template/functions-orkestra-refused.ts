/**
 * Orkestra notes katalog does not define, by name, with the reason: a template that calls one fails to compile
 * with that reason (never a bare "not defined"). One reason: it reads the clock, which would make a render differ
 * from one reconcile to the next while nothing changed.
 */
const CLOCK = 'it reads the clock, so a render would change while nothing else does; use rotateAfter or requeue.after for time-based work';

const by = (reason: string, names: readonly string[]): Array<[string, string]> => names.map((name) => [name, reason]);

const REFUSED: ReadonlyMap<string, string> = new Map([
  ...by(CLOCK, ['timeAgo', 'timeSince', 'timeUntil', 'isExpired', 'nextCron', 'timeInWindow', 'timeNotInWindow', 'weekday', 'weekend']),
]);

/** Why katalog refuses the Orkestra note `name`, or `undefined` when it does not. */
export function refusedOrkestraFunction(name: string): string | undefined {
  return REFUSED.get(name);
}

/** Every refused Orkestra note, sorted. */
export const REFUSED_ORKESTRA_FUNCTION_NAMES: readonly string[] = Object.freeze([...REFUSED.keys()].sort());
