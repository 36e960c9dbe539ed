/**
 * Go's time layouts, for Orkestra's `timeFormat`: parsing the timestamps Orkestra's `parseTime` accepts
 * (`pkg/note/time.go`: RFC 3339 with or without a fraction, and `YYYY-MM-DD`) and formatting an instant in UTC
 * with a Go reference layout (`Jan 2, 2006`, `2006-01-02T15:04:05Z07:00`, `.000`...), as `time.Time.Format`
 * does. Pure: nothing here reads the clock.
 */

/** An instant, to the nanosecond: milliseconds since the epoch (whole seconds) and the nanoseconds within. */
export interface GoInstant {
  readonly seconds: number;
  readonly nanos: number;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in a month of a (proleptic Gregorian) year. */
function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Seconds since the epoch of a UTC date and time (years 0 to 9999, no two-digit-year mapping). */
function utcSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime() / 1000;
}

/** Parses a timestamp as Orkestra's parseTime does; `undefined` when it is not one of its forms. */
export function parseGoTimestamp(text: string): GoInstant | undefined {
  const full = RFC3339.exec(text);
  const dateOnly = full === null ? DATE.exec(text) : null;
  const parts = full ?? dateOnly;
  if (parts === null) return undefined;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (full === null) return { seconds: utcSeconds(year, month, day, 0, 0, 0), nanos: 0 };
  const [hour, minute, second] = [Number(full[4]), Number(full[5]), Number(full[6])];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = full[7] ?? '';
  const nanos = fraction === '' ? 0 : Number(fraction.padEnd(9, '0'));
  const zone = full[8] ?? 'Z';
  let offset = 0;
  if (zone !== 'Z') {
    const [zh, zm] = [Number(zone.slice(1, 3)), Number(zone.slice(4, 6))];
    if (zh > 23 || zm > 59) return undefined;
    offset = (zone.startsWith('-') ? -1 : 1) * (zh * 3600 + zm * 60);
  }
  return { seconds: utcSeconds(year, month, day, hour, minute, second) - offset, nanos };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface Fields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly weekday: number;
  readonly yearDay: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly nanos: number;
}

const pad = (value: number, width: number, fill = '0'): string => String(value).padStart(width, fill);

/** The layout's elements (Go's `nextStdChunk`), each at the start of `rest`: [the element's text, its value]. */
function element(rest: string, t: Fields): [string, string] | undefined {
  const starts = (prefix: string): boolean => rest.startsWith(prefix);
  const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  const table: Array<[string, () => string]> = [
    ['January', () => MONTHS[t.month - 1] ?? ''],
    ['Jan', () => (MONTHS[t.month - 1] ?? '').slice(0, 3)],
    ['Monday', () => DAYS[t.weekday] ?? ''],
    ['Mon', () => (DAYS[t.weekday] ?? '').slice(0, 3)],
    ['MST', () => 'UTC'],
    ['002', () => pad(t.yearDay, 3)],
    ['01', () => pad(t.month, 2)],
    ['02', () => pad(t.day, 2)],
    ['03', () => pad(hour12, 2)],
    ['04', () => pad(t.minute, 2)],
    ['05', () => pad(t.second, 2)],
    ['06', () => pad(t.year % 100, 2)],
    ['15', () => pad(t.hour, 2)],
    ['1', () => String(t.month)],
    ['2006', () => pad(t.year, 4)],
    ['2', () => String(t.day)],
    ['__2', () => pad(t.yearDay, 3, ' ')],
    ['_2', () => pad(t.day, 2, ' ')],
    ['3', () => String(hour12)],
    ['4', () => String(t.minute)],
    ['5', () => String(t.second)],
    ['PM', () => (t.hour >= 12 ? 'PM' : 'AM')],
    ['pm', () => (t.hour >= 12 ? 'pm' : 'am')],
    // Zones: the instant is in UTC, offset zero.
    ['-07:00:00', () => '+00:00:00'],
    ['-070000', () => '+000000'],
    ['-07:00', () => '+00:00'],
    ['-0700', () => '+0000'],
    ['-07', () => '+00'],
    ['Z07:00:00', () => 'Z'],
    ['Z070000', () => 'Z'],
    ['Z07:00', () => 'Z'],
    ['Z0700', () => 'Z'],
    ['Z07', () => 'Z'],
  ];
  // `_2006` is a literal `_` followed by the year, as in Go.
  if (starts('_2006')) return ['_', '_'];
  for (const [name, value] of table) if (starts(name)) return [name, value()];
  const first = rest[0];
  const digit = rest[1];
  if ((first === '.' || first === ',') && (digit === '0' || digit === '9')) {
    let end = 1;
    while (rest[end] === digit) end++;
    if (!/[0-9]/.test(rest[end] ?? '')) {
      const digits = String(t.nanos).padStart(9, '0').slice(0, Math.min(end - 1, 9));
      if (digit === '0') return [rest.slice(0, end), first + digits];
      const trimmed = digits.replace(/0+$/, '');
      return [rest.slice(0, end), trimmed === '' ? '' : first + trimmed];
    }
  }
  return undefined;
}

/** Formats an instant in UTC with a Go reference layout, as `t.UTC().Format(layout)`. */
export function formatGoTime(instant: GoInstant, layout: string): string {
  const date = new Date(instant.seconds * 1000);
  const year = date.getUTCFullYear();
  const yearStart = new Date(0);
  yearStart.setUTCFullYear(year, 0, 1);
  const fields: Fields = {
    year,
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
    yearDay: Math.floor((date.getTime() - yearStart.getTime()) / 86_400_000) + 1,
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    nanos: instant.nanos,
  };
  let out = '';
  let rest = layout;
  while (rest !== '') {
    const found = element(rest, fields);
    if (found === undefined) {
      out += rest[0] ?? '';
      rest = rest.slice(1);
    } else {
      out += found[1];
      rest = rest.slice(found[0].length);
    }
  }
  return out;
}
