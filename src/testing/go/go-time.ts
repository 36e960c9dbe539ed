/**
 * The two times of Kubernetes objects as Go reads and writes them: `metav1.Time` is read with Go's
 * `time.Parse(time.RFC3339, ...)` (a fraction of a second and any offset accepted) and written in seconds, in UTC;
 * `metav1.MicroTime` is read with the layout `2006-01-02T15:04:05.000000Z07:00` (exactly six digits) and written in
 * microseconds, in UTC. The zero time is written `null`. A text Go cannot parse is refused with `time.ParseError`'s
 * message, as kube-apiserver's decoder answers it.
 */

const RFC3339 = '2006-01-02T15:04:05Z07:00';
const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

/** A layout's elements after the first: the literal before each and its own text. */
type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micro' | 'zone';
const CHUNKS: Readonly<Record<'time' | 'micro', readonly (readonly [prefix: string, std: Std, text: string])[]>> = {
  time: [['', 'year', '2006'], ['-', 'month', '01'], ['-', 'day', '02'], ['T', 'hour', '15'], [':', 'minute', '04'], [':', 'second', '05'], ['', 'zone', 'Z07:00']],
  micro: [['', 'year', '2006'], ['-', 'month', '01'], ['-', 'day', '02'], ['T', 'hour', '15'], [':', 'minute', '04'], [':', 'second', '05'], ['', 'micro', '.000000'], ['', 'zone', 'Z07:00']],
};

/** Go's `time.quote`: printable ASCII as it is (`"` and `\` escaped), every other byte as `\xNN`. */
function goTimeQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x80 || code < 0x20) {
      for (const byte of Buffer.from(char, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += char === '"' || char === '\\' ? `\\${char}` : char;
    }
  }
  return `${out}"`;
}

const isDigit = (text: string, i: number): boolean => i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57;

/** Go's `getnum`: one or two digits (two when `fixed`), or undefined. */
function getnum(text: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(text, 0)) return undefined;
  if (!isDigit(text, 1)) return fixed ? undefined : [Number(text[0]), text.slice(1)];
  return [Number(text.slice(0, 2)), text.slice(2)];
}

/** Go's `atoi`: an optional sign and digits only. */
function atoi(text: string): number | undefined {
  const digits = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  if (digits === '' || !/^[0-9]+$/.test(digits)) return undefined;
  return text.startsWith('-') ? -Number(digits) : Number(digits);
}

/** Go's `parseNanoseconds` of `text`'s first `width` characters (a `.` or `,`, then digits). */
function nanoseconds(text: string, width: number): { nanos?: number; range?: string } {
  if (text[0] !== '.' && text[0] !== ',') return {};
  const digits = text.slice(1, Math.min(width, 10));
  const n = atoi(digits);
  if (n === undefined) return {};
  if (n < 0) return { range: 'fractional second' };
  return { nanos: n * 10 ** (9 - digits.length) };
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A parsed time: seconds since the epoch (UTC) and nanoseconds. */
export interface GoTime {
  readonly seconds: number;
  readonly nanos: number;
}

/** A time as Go writes a `metav1.Time` and a `metav1.MicroTime`. */
const WRITTEN_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const WRITTEN_MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/**
 * Whether `text` is a time as Go writes it (most are: servers and clients write them so), valid and not the zero
 * time: then it parses and is written back unchanged, without the parser's walk.
 */
function isWritten(text: string, precision: 'time' | 'micro'): boolean {
  if (!(precision === 'time' ? WRITTEN_TIME : WRITTEN_MICRO).test(text) || text.startsWith('0001-01-01T00:00:00')) return false;
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, Number(text.slice(0, 4))) && text.slice(11, 13) < '24' && text.charCodeAt(14) < 54 && text.charCodeAt(17) < 54;
}

/** Go's `time.Parse` of `text` in the layout of a `metav1.Time` or a `metav1.MicroTime`: the time, or Go's error. */
export function parseGoTime(text: string, precision: 'time' | 'micro'): GoTime | { readonly error: string } {
  if (isWritten(text, precision)) {
    const nanos = precision === 'micro' ? Number(text.slice(20, 26)) * 1000 : 0;
    return { seconds: Date.parse(`${text.slice(0, 19)}Z`) / 1000, nanos };
  }
  const layout = precision === 'micro' ? RFC3339_MICRO : RFC3339;
  const cannot = (rest: string, element: string): { error: string } => ({
    error: `parsing time ${goTimeQuote(text)} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(rest)} as ${goTimeQuote(element)}`,
  });
  const message = (why: string): { error: string } => ({ error: `parsing time ${goTimeQuote(text)}${why}` });
  const chunks = CHUNKS[precision];
  const f = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, nanos: 0, offset: 0 };
  let value = text;
  for (let index = 0; index < chunks.length; index++) {
    const [prefix, std, element] = chunks[index] as (typeof chunks)[number];
    if (prefix !== '') {
      if (!value.startsWith(prefix)) return cannot(value, prefix);
      value = value.slice(prefix.length);
    }
    const hold = value;
    let range = '';
    let bad = false;
    switch (std) {
      case 'year': {
        const year = value.length >= 4 && isDigit(value, 0) ? atoi(value.slice(0, 4)) : undefined;
        if (year === undefined) bad = true;
        else [f.year, value] = [year, value.slice(4)];
        break;
      }
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second': {
        const got = getnum(value, std !== 'hour');
        if (got === undefined) {
          bad = true;
          break;
        }
        [f[std], value] = got;
        if (std === 'month' && (f.month <= 0 || f.month > 12)) range = 'month';
        if (std === 'hour' && f.hour >= 24) range = 'hour';
        if (std === 'minute' && f.minute >= 60) range = 'minute';
        if (std === 'second' && f.second >= 60) range = 'second';
        // A fraction the layout does not have is read here.
        if (std === 'second' && range === '' && precision === 'time' && value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
          let n = 2;
          while (isDigit(value, n)) n++;
          const fraction = nanoseconds(value, n);
          if (fraction.range !== undefined) range = fraction.range;
          else if (fraction.nanos === undefined) bad = true;
          else f.nanos = fraction.nanos;
          value = value.slice(n);
        }
        break;
      }
      case 'micro': {
        if (value.length < 7) {
          bad = true;
          break;
        }
        const fraction = nanoseconds(value, 7);
        if (fraction.range !== undefined) range = fraction.range;
        else if (fraction.nanos === undefined) bad = true;
        else f.nanos = fraction.nanos;
        value = value.slice(7);
        break;
      }
      case 'zone': {
        if (value.startsWith('Z')) {
          value = value.slice(1);
          break;
        }
        if (value.length < 6 || value[3] !== ':') {
          bad = true;
          break;
        }
        const hours = getnum(value.slice(1, 3), true);
        const minutes = getnum(value.slice(4, 6), true);
        if (hours === undefined || minutes === undefined || (value[0] !== '+' && value[0] !== '-')) bad = true;
        else {
          if (hours[0] > 24) range = 'time zone offset hour';
          if (minutes[0] > 60) range = 'time zone offset minute';
          f.offset = (value[0] === '-' ? -1 : 1) * (hours[0] * 60 + minutes[0]) * 60;
        }
        value = value.slice(6);
        break;
      }
    }
    if (range !== '') return message(`: ${range} out of range`);
    if (bad) return cannot(hold, element);
  }
  if (value !== '') return message(`: extra text: ${goTimeQuote(value)}`);
  if (f.day < 1 || f.day > daysIn(f.month, f.year)) return message(': day out of range');
  const date = new Date(0);
  date.setUTCFullYear(f.year, f.month - 1, f.day);
  date.setUTCHours(f.hour, f.minute, f.second, 0);
  return { seconds: date.getTime() / 1000 - f.offset, nanos: f.nanos };
}

/** Go's zero time, 0001-01-01T00:00:00Z, in seconds since the epoch: written `null`. */
const ZERO_SECONDS = ((): number => {
  const date = new Date(0);
  date.setUTCFullYear(1, 0, 1);
  return date.getTime() / 1000;
})();

/** How Go writes `text` of a time field: in seconds (or microseconds), in UTC, `null` for the zero time; as it is when it does not parse. */
export function goTimeText(text: string, precision: 'time' | 'micro'): string | null {
  if (isWritten(text, precision)) return text;
  const time = parseGoTime(text, precision);
  if ('error' in time) return text;
  if (time.seconds === ZERO_SECONDS && time.nanos === 0) return null;
  const seconds = new Date(time.seconds * 1000).toISOString().slice(0, 19);
  return precision === 'micro' ? `${seconds}.${String(Math.floor(time.nanos / 1000)).padStart(6, '0')}Z` : `${seconds}Z`;
}
