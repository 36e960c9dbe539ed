/**
 * A CronJob's schedule as kube-apiserver checks it: robfig/cron's standard parser (five fields, or a descriptor such as
 * `@hourly` or `@every 1h`), with its error texts, and no `TZ=`/`CRON_TZ=` in the schedule (the `timeZone` field says
 * it). The runtime's own cron reader (src/util/cron.ts) words its errors for operator authors; this one answers
 * exactly what a cluster answers.
 */
import { parseDuration } from '../../../util/duration.js';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTHS = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's strconv.Atoi, with robfig's words around its error. */
function parseNumber(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) throw new Error(`failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = Number(text);
  if (value < 0) throw new Error(`negative number (${value}) not allowed: ${text}`);
  return value;
}

function parseIntOrName(text: string, bounds: Bounds): number {
  const named = bounds.names?.[text.toLowerCase() as keyof typeof bounds.names];
  return named ?? parseNumber(text);
}

/** One range of a field (`*`, `a`, `a-b`, each with an optional `/step`), checked as robfig's getRange checks it. */
function checkRange(expression: string, bounds: Bounds): void {
  const rangeAndStep = expression.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    start = parseIntOrName(lowAndHigh[0] ?? '', bounds);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', bounds);
    else throw new Error(`too many hyphens: ${expression}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseNumber(rangeAndStep[1] ?? '');
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expression}`);
  }
  if (start < bounds.min) throw new Error(`beginning of range (${start}) below minimum (${bounds.min}): ${expression}`);
  if (end > bounds.max) throw new Error(`end of range (${end}) above maximum (${bounds.max}): ${expression}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expression}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expression}`);
}

/** robfig/cron's standard parser's error for `schedule`, or undefined when it parses. */
function parseError(schedule: string): string | undefined {
  try {
    if (schedule === '') return 'empty spec string';
    let spec = schedule;
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) spec = spec.slice(spec.indexOf(' ') < 0 ? spec.length : spec.indexOf(' ')).trim();
    if (spec.startsWith('@')) {
      if (DESCRIPTORS.has(spec)) return undefined;
      if (spec.startsWith('@every ')) return parseDuration(spec.slice('@every '.length)) === undefined ? `failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(spec.slice('@every '.length))}` : undefined;
      return `unrecognized descriptor: ${spec}`;
    }
    const fields = spec.split(/\s+/).filter((field) => field !== '');
    if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
    fields.forEach((field, i) => {
      for (const expression of field.split(',').filter((part) => part !== '')) checkRange(expression, FIELDS[i] ?? { min: 0, max: 0 });
    });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The messages kube-apiserver gives for a schedule (each an `Invalid` of spec.schedule), in its order. */
export function scheduleMessages(schedule: string): string[] {
  const messages: string[] = [];
  const error = parseError(schedule);
  if (error !== undefined) messages.push(error);
  if (schedule.includes('TZ')) messages.push('cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
  return messages;
}
