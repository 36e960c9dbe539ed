/**
 * Five-field cron schedules, in the dialect Orkestra's autoscaler reads (robfig/cron's standard parser): minute,
 * hour, day of month, month, day of week; `*`, `?` (same as `*`), numbers, ranges `a-b`, steps `/n` (`a/n` runs
 * from `a` to the field's end), lists `a,b`; month names `JAN`–`DEC` and day names `SUN`–`SAT` (any case); the
 * descriptors `@yearly`/`@annually`, `@monthly`, `@weekly`, `@daily`/`@midnight`, `@hourly`. When both the day of
 * month and the day of week are restricted, a day matching either matches (classic cron); when one of them is `*`
 * or `?`, both must match. Times are the caller's zone (the autoscaler's is the process's local time, as Orkestra
 * reads `time.Now()`), unless the schedule starts with `TZ=<zone> ` or `CRON_TZ=<zone> ` (robfig/cron's prefix): then
 * that IANA zone, whatever the caller's. In a zone with daylight saving, as robfig/cron: a wall-clock time the clock
 * skips (02:30 when it goes from 02:00 to 03:00) does not fire that day, and one the clock passes twice (01:30 when
 * it goes back from 02:00 to 01:00) fires twice, because hours and minutes advance as elapsed time.
 *
 * Not read: `@every <duration>` (a delay from the process start, not a calendar time); {@link parseCron} names it.
 */
import { checkTimeZone, wallClock, zonedInstant } from './time-zone.js';

/** A parsed schedule: {@link nextFire} gives its fires. */
export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  /** Whether the day of month or the day of week is `*`/`?` (then both must match, else either). */
  readonly dayStar: boolean;
  /** The IANA zone of a `TZ=`/`CRON_TZ=` prefix: the schedule is read there, whatever zone the caller asks. */
  readonly zone?: string;
}

interface FieldRange {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const FIELDS: readonly FieldRange[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

/** The `@` shortcuts of a five-field schedule (robfig/cron's), also what Orkestra's cron notes expand. */
export const CRON_DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Parses a schedule; throws an Error saying what is wrong (the caller adds where). */
export function parseCron(expression: string): CronSchedule {
  const prefix = /^\s*(?:CRON_)?TZ=(\S*)(?:\s+|$)/.exec(expression);
  if (prefix === null) return parseSpec(expression.trim());
  const zone = checkTimeZone(prefix[1] ?? '');
  const rest = expression.slice(prefix[0].length).trim();
  if (rest === '') throw new Error(`"${expression.trim()}" names a time zone but no schedule after it`);
  return { ...parseSpec(rest), zone };
}

function parseSpec(text: string): CronSchedule {
  if (text.startsWith('@every')) throw new Error('"@every" is not read: it counts from the process start, not the calendar; write a five-field schedule');
  const spec = text.startsWith('@') ? CRON_DESCRIPTORS[text.toLowerCase()] : text;
  if (spec === undefined) throw new Error(`unknown descriptor "${text}" (one of ${Object.keys(CRON_DESCRIPTORS).join(', ')})`);
  const parts = spec.split(/\s+/);
  if (parts.length !== 5) throw new Error(`a cron schedule has five fields (minute hour day-of-month month day-of-week); "${text}" has ${parts.length}`);
  const sets = parts.map((part, index) => parseField(part, FIELDS[index] ?? { name: '?', min: 0, max: 0 }));
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = sets.map((set) => set.values);
  if (minutes === undefined || hours === undefined || daysOfMonth === undefined || months === undefined || daysOfWeek === undefined) throw new Error('unreachable');
  return { minutes, hours, daysOfMonth, months, daysOfWeek, dayStar: (sets[2]?.star ?? false) || (sets[4]?.star ?? false) };
}

function parseField(text: string, range: FieldRange): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const item of text.split(',')) {
    const [span = '', stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`${range.name}: step "${stepText ?? ''}" is not a positive whole number`);
    let low: number;
    let high: number;
    if (span === '*' || span === '?') {
      low = range.min;
      high = range.max;
      if (step === 1) star = true;
    } else {
      const [from = '', to] = span.split('-');
      low = value(from, range);
      high = to === undefined ? (stepText === undefined ? low : range.max) : value(to, range);
    }
    if (low > high) throw new Error(`${range.name}: range "${span}" runs backwards`);
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return { values, star };
}

function value(text: string, range: FieldRange): number {
  const named = range.names?.indexOf(text.toLowerCase()) ?? -1;
  const n = named >= 0 ? named + range.min : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < range.min || n > range.max) throw new Error(`${range.name}: "${text}" is not in ${range.min}-${range.max}`);
  return n;
}

const MINUTE = 60_000;
/** How far ahead {@link nextFire} looks (a schedule such as 30 February never fires). */
const HORIZON_MS = 5 * 366 * 24 * 60 * MINUTE;

/**
 * The calendar a schedule is read in when it has no `TZ=` prefix: the process's local time (the autoscaler's), or
 * UTC (Orkestra's `nextCron`).
 */
export type CronZone = 'local' | 'utc';

/** Reading and moving a Date in one zone. */
interface Calendar {
  month(t: Date): number;
  date(t: Date): number;
  day(t: Date): number;
  hours(t: Date): number;
  minutes(t: Date): number;
  /** To midnight of the first day of the next month. */
  nextMonth(t: Date): void;
  /** To midnight of the next day. */
  nextDay(t: Date): void;
  /** To the start of the next hour. */
  nextHour(t: Date): void;
}

const CALENDARS: Readonly<Record<CronZone, Calendar>> = {
  local: {
    month: (t) => t.getMonth() + 1,
    date: (t) => t.getDate(),
    day: (t) => t.getDay(),
    hours: (t) => t.getHours(),
    minutes: (t) => t.getMinutes(),
    nextMonth: (t) => {
      t.setMonth(t.getMonth() + 1, 1);
      t.setHours(0, 0, 0, 0);
    },
    nextDay: (t) => {
      t.setDate(t.getDate() + 1);
      t.setHours(0, 0, 0, 0);
    },
    nextHour: (t) => {
      t.setHours(t.getHours() + 1, 0, 0, 0);
    },
  },
  utc: {
    month: (t) => t.getUTCMonth() + 1,
    date: (t) => t.getUTCDate(),
    day: (t) => t.getUTCDay(),
    hours: (t) => t.getUTCHours(),
    minutes: (t) => t.getUTCMinutes(),
    nextMonth: (t) => {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
    },
    nextDay: (t) => {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
    },
    nextHour: (t) => {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
    },
  },
};

/** The calendar of a named zone: fields read with Intl, days and months moved by wall clock, hours by elapsed time. */
function zonedCalendar(zone: string): Calendar {
  const at = (t: Date) => wallClock(zone, t.getTime());
  return {
    month: (t) => at(t).month,
    date: (t) => at(t).day,
    day: (t) => at(t).weekday,
    hours: (t) => at(t).hour,
    minutes: (t) => at(t).minute,
    nextMonth: (t) => {
      const wall = at(t);
      t.setTime(zonedInstant(zone, wall.year, wall.month + 1, 1, 0, 0));
    },
    nextDay: (t) => {
      const wall = at(t);
      t.setTime(zonedInstant(zone, wall.year, wall.month, wall.day + 1, 0, 0));
    },
    nextHour: (t) => {
      t.setTime(t.getTime() + (60 - at(t).minute) * MINUTE);
    },
  };
}

/**
 * The first fire strictly after `afterMs` (whole minutes, in the schedule's own zone when it has one, else in
 * `zone`: local time by default), or undefined when none comes within five years.
 */
export function nextFire(schedule: CronSchedule, afterMs: number, zone: CronZone = 'local'): number | undefined {
  const calendar = schedule.zone === undefined ? CALENDARS[zone] : zonedCalendar(schedule.zone);
  const t = new Date(Math.floor(afterMs / MINUTE) * MINUTE + MINUTE);
  const limit = afterMs + HORIZON_MS;
  while (t.getTime() <= limit) {
    if (!schedule.months.has(calendar.month(t))) {
      calendar.nextMonth(t);
      continue;
    }
    if (!dayMatches(schedule, calendar, t)) {
      calendar.nextDay(t);
      continue;
    }
    if (!schedule.hours.has(calendar.hours(t))) {
      calendar.nextHour(t);
      continue;
    }
    if (!schedule.minutes.has(calendar.minutes(t))) {
      t.setTime(t.getTime() + MINUTE);
      continue;
    }
    return t.getTime();
  }
  return undefined;
}

function dayMatches(schedule: CronSchedule, calendar: Calendar, t: Date): boolean {
  const dom = schedule.daysOfMonth.has(calendar.date(t));
  const dow = schedule.daysOfWeek.has(calendar.day(t));
  return schedule.dayStar ? dom && dow : dom || dow;
}
