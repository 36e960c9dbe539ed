/**
 * Orkestra's notes that read the clock (`pkg/note/time.go`): `timeAgo`, `timeSince`, `timeUntil`, `isExpired`,
 * `nextCron`, `timeInWindow`, `timeNotInWindow`, `weekday`, `weekend`. The time is the render's
 * ({@link FunctionContext.now}); calendars are UTC, as Orkestra's. A render that calls one of them can differ from
 * the last one while nothing else changed: a status field written with `timeAgo` is written again on the next
 * cycle, a child rendered with one is applied again (docs/orkestra-compatibility.md, "Clock notes").
 *
 * A timestamp that does not parse (Orkestra's forms: RFC 3339 with or without a fraction, `YYYY-MM-DD`), or is
 * not a text, gives each note's fallback: `""`, `0`, `"0s"`, `false`.
 */
import { fixed, type FunctionContext, type TemplateFunction } from './function-type.js';
import { parseExtendedDuration } from './functions-orkestra-formats.js';
import { parseGoTimestamp } from './go-time.js';
import { nextFire, parseCron } from '../util/cron.js';
import { formatDuration, parseDuration } from '../util/duration.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Milliseconds since the epoch of a timestamp Orkestra's parseTime reads, or undefined. */
function instant(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = parseGoTimestamp(value);
  return parsed === undefined ? undefined : parsed.seconds * SECOND + parsed.nanos / 1e6;
}

/** Go's math.Round: half away from zero. */
function roundHalfAway(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** "5s ago", "12m ago", "3h ago", "2d ago": whole units, truncated toward zero as Go's int() does. */
function timeAgo(value: unknown, now: number): string {
  const at = instant(value);
  if (at === undefined) return '';
  const elapsed = now - at;
  if (elapsed < MINUTE) return `${Math.trunc(elapsed / SECOND)}s ago`;
  if (elapsed < HOUR) return `${Math.trunc(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.trunc(elapsed / HOUR)}h ago`;
  return `${Math.trunc(elapsed / DAY)}d ago`;
}

/** The time left until the timestamp, truncated to whole seconds, as Go prints a duration; "0s" once it passed. */
function timeUntil(value: unknown, now: number): string {
  const at = instant(value);
  if (at === undefined || at <= now) return '0s';
  return formatDuration(Math.floor((at - now) / SECOND) * SECOND);
}

/** Minutes after midnight of "HH:MM" as Go's time.Parse("15:04") reads it (an hour of one or two digits). */
function clockMinute(value: unknown): number | undefined {
  const match = typeof value === 'string' ? /^(\d{1,2}):(\d{2})$/.exec(value) : null;
  if (match === null) return undefined;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : undefined;
}

/**
 * Whether the UTC time of day is in [after, before) of the same day; false for malformed input. A window that
 * wraps past midnight (`"22:00" "06:00"`) is never open, as in Orkestra.
 */
function inWindow(after: unknown, before: unknown, now: number): boolean {
  const from = clockMinute(after);
  const to = clockMinute(before);
  if (from === undefined || to === undefined) return false;
  const minuteOfDay = (now - Math.floor(now / DAY) * DAY) / MINUTE;
  return minuteOfDay >= from && minuteOfDay < to;
}

/**
 * The next fire of a five-field schedule after now, in UTC, as RFC 3339 (`2026-07-14T09:00:00Z`); `""` when the
 * schedule does not parse or never fires. `@every <duration>` fires that long after now (whole seconds), as
 * robfig/cron's constant-delay schedule; a `TZ=`/`CRON_TZ=` prefix reads the schedule in that zone (the result is
 * still printed in UTC); an unknown zone gives `""`.
 */
function nextCron(value: unknown, now: number): string {
  if (typeof value !== 'string') return '';
  const every = /^@every\s+(\S+)$/.exec(value.trim());
  if (every !== null) {
    const delay = parseDuration(every[1] ?? '');
    if (delay === undefined || delay < 0) return '';
    return rfc3339(Math.floor(now / SECOND) * SECOND + Math.max(SECOND, Math.floor(delay / SECOND) * SECOND));
  }
  let fire: number | undefined;
  try {
    fire = nextFire(parseCron(value), now, 'utc');
  } catch {
    // A schedule that does not parse renders "" (Orkestra's fallback for an invalid expression), by design.
    return '';
  }
  return fire === undefined ? '' : rfc3339(fire);
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function weekday(now: number): boolean {
  const day = new Date(now).getUTCDay();
  return day >= 1 && day <= 5;
}

const withNow =
  (count: number, call: (args: readonly unknown[], now: number) => unknown): TemplateFunction =>
    fixed(count, (args, context: FunctionContext) => call(args, context.now()));

export const ORKESTRA_CLOCK_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  timeAgo: withNow(1, ([value], now) => timeAgo(value, now)),
  timeSince: withNow(1, ([value], now) => {
    const at = instant(value);
    return at === undefined ? 0 : roundHalfAway((now - at) / SECOND);
  }),
  timeUntil: withNow(1, ([value], now) => timeUntil(value, now)),
  isExpired: withNow(2, ([timestamp, duration], now) => {
    const at = typeof timestamp === 'string' ? instant(timestamp) : undefined;
    const ttl = typeof duration === 'string' ? parseExtendedDuration(duration) : undefined;
    return at !== undefined && ttl !== undefined && now > at + ttl;
  }),
  nextCron: withNow(1, ([value], now) => nextCron(value, now)),
  timeInWindow: withNow(2, ([after, before], now) => inWindow(after, before, now)),
  timeNotInWindow: withNow(2, ([after, before], now) => !inWindow(after, before, now)),
  weekday: withNow(0, (_args, now) => weekday(now)),
  weekend: withNow(0, (_args, now) => !weekday(now)),
};
