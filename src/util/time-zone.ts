/**
 * Wall-clock arithmetic in a named IANA time zone (`Europe/Berlin`), with `Intl.DateTimeFormat` and no zone
 * database of our own: what a cron schedule's `TZ=`/`CRON_TZ=` prefix needs (util/cron.ts).
 *
 * Contracts: {@link wallClock} reads the zone's wall clock at an instant; {@link zonedInstant} gives the instant of a
 * wall-clock minute, as Go's `time.Date` does (which robfig/cron uses): a minute that happens twice (the hour a
 * clock is set back) is its first occurrence; a minute that does not exist (the hour a clock is set forward) is
 * read with the offset before the change, so 02:30 in a gap from 02:00 to 03:00 is 03:30 after it.
 */

/** A wall-clock minute in a zone; `month` 1–12, `weekday` 0 (Sunday)–6. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** One formatter per zone (a definition names few zones; each costs about a kilobyte). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
    formatters.set(zone, format);
  }
  return format;
}

/**
 * The zone's canonical name when `name` is a time zone this Node knows (`UTC`, `Europe/Berlin`, any case), else
 * throws an Error saying so. `Local` (Go's name for the process's zone) is the process's zone.
 */
export function checkTimeZone(name: string): string {
  const zone = name === 'Local' ? new Intl.DateTimeFormat().resolvedOptions().timeZone : name;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new Error(`unknown time zone "${name}" (an IANA name such as UTC, Europe/Berlin or America/New_York)`);
  }
}

/** The wall clock of `zone` at the instant `ms`. */
export function wallClock(zone: string, ms: number): WallClock {
  const parts: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(ms)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
  };
}

/** How far `zone`'s wall clock is ahead of UTC at the instant `ms` (whole minutes). */
function offset(zone: string, ms: number): number {
  const wall = wallClock(zone, ms);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) - Math.floor(ms / MINUTE) * MINUTE;
}

/**
 * The instant of the wall-clock minute (`month` 1–12; out-of-range days and months roll over as in `Date.UTC`)
 * in `zone`: its first occurrence when it happens twice, the offset before the change when it does not exist.
 */
export function zonedInstant(zone: string, year: number, month: number, day: number, hour: number, minute: number): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // No zone changes its offset twice within two days: the offsets a day either side are the only candidates.
  const before = offset(zone, asUtc - DAY);
  const after = offset(zone, asUtc + DAY);
  const matches = [asUtc - before, asUtc - after].filter((ms) => offset(zone, ms) === asUtc - ms).sort((a, b) => a - b);
  return matches[0] ?? asUtc - before;
}
