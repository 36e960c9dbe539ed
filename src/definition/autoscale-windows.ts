/**
 * `operatorBox.autoscale.windows` (katalog's form of Orkestra's `time`, `dayOfWeek` and `cron` autoscale
 * conditions; the Orkestra lift moves them here): its schema, and its normalisation into the model's
 * {@link AutoscaleWindow}s. Checked at load: HH:MM times, a `time` window whose `after` is later than its `before`
 * (Orkestra accepts it and it never opens), day names, the cron schedule (util/cron.ts), `duration` only with
 * `cron`, exactly one kind per entry.
 */
import Type from 'typebox';
import type { AutoscaleWindow } from './types.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import { formatDuration, parseDuration } from '../util/duration.js';
import { parseCron } from '../util/cron.js';
import type { Loose } from './operator-box.js';

const WindowSchema = Type.Object(
  {
    time: Type.Optional(
      Type.Object(
        {
          after: Type.Optional(Type.String({ description: 'HH:MM, local time: open from this minute on.' })),
          before: Type.Optional(Type.String({ description: 'HH:MM, local time: open up to this minute (included).' })),
        },
        { additionalProperties: false },
      ),
    ),
    dayOfWeek: Type.Optional(
      Type.Object(
        {
          in: Type.Optional(Type.Array(Type.String())),
          notIn: Type.Optional(Type.Array(Type.String())),
          weekday: Type.Optional(Type.Boolean({ description: 'true: Monday to Friday; false: Saturday and Sunday.' })),
          weekend: Type.Optional(Type.Boolean({ description: 'true: Saturday and Sunday; false: Monday to Friday.' })),
        },
        { additionalProperties: false },
      ),
    ),
    cron: Type.Optional(Type.String({ minLength: 1, description: 'Five-field cron schedule (local time): a window opens at each fire.' })),
    duration: Type.Optional(Type.String({ minLength: 1, description: 'How long a cron window stays open (default: the interval).' })),
    negate: Type.Optional(Type.Boolean({ description: 'Inverts the window.' })),
  },
  { additionalProperties: false },
);

/** `autoscale.windows`: all of `when` and one of `anyOf`, together with the figures' conditions of the same name. */
export const AutoscaleWindowsSchema = Type.Object(
  { when: Type.Optional(Type.Array(WindowSchema)), anyOf: Type.Optional(Type.Array(WindowSchema)) },
  { additionalProperties: false, description: 'Time windows: time (after/before), dayOfWeek (in/notIn/weekday/weekend), cron with duration.' },
);

export type AutoscaleWindowsInput = Type.Static<typeof AutoscaleWindowsSchema>;
type WindowInput = Loose<Type.Static<typeof WindowSchema>>;

const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAYS = [1, 2, 3, 4, 5];
const WEEKEND = [0, 6];

/** The model's windows, or undefined when none is declared; problems are added at the entry's field. */
export function normalizeWindows(input: Loose<AutoscaleWindowsInput> | undefined, origin: Origin, path: Path, problems: ProblemList): { when: AutoscaleWindow[]; anyOf: AutoscaleWindow[] } | undefined {
  if (input === undefined) return undefined;
  const block = (list: readonly (WindowInput | undefined)[] | undefined, key: string): AutoscaleWindow[] =>
    (list ?? []).flatMap((entry, index) => {
      if (entry === undefined) return [];
      const window = normalizeWindow(entry, origin, [...path, key, index], problems);
      return window === undefined ? [] : [window];
    });
  return { when: block(input.when, 'when'), anyOf: block(input.anyOf, 'anyOf') };
}

function normalizeWindow(input: WindowInput, origin: Origin, path: Path, problems: ProblemList): AutoscaleWindow | undefined {
  const negate = input.negate === true;
  const kinds = (['time', 'dayOfWeek', 'cron'] as const).filter((key) => input[key] !== undefined);
  if (kinds.length !== 1) {
    problems.add(origin, path, 'invalid-value', `a time window has exactly one of time, dayOfWeek, cron; this one has ${kinds.length === 0 ? 'none' : kinds.join(' and ')}`);
    return undefined;
  }
  if (input.duration !== undefined && input.cron === undefined) problems.add(origin, [...path, 'duration'], 'invalid-value', 'duration belongs to a cron window');
  if (input.time !== undefined) {
    const { after, before } = input.time;
    const from = checkTime(after, origin, [...path, 'time', 'after'], problems);
    const to = checkTime(before, origin, [...path, 'time', 'before'], problems);
    if (from !== undefined && to !== undefined && from > to) {
      problems.add(origin, [...path, 'time'], 'invalid-value', `after ${after ?? ''} is later than before ${before ?? ''}: Orkestra's time window does not wrap past midnight and would never open; write two windows in anyOf (after ${after ?? ''}) and (before ${before ?? ''})`);
    }
    return { kind: 'time', ...(after === undefined ? {} : { after }), ...(before === undefined ? {} : { before }), negate };
  }
  if (input.dayOfWeek !== undefined) {
    const days = dayList(input.dayOfWeek, origin, [...path, 'dayOfWeek'], problems);
    return days === undefined ? undefined : { kind: 'days', days, negate };
  }
  const cron = input.cron ?? '';
  try {
    parseCron(cron);
  } catch (error) {
    problems.add(origin, [...path, 'cron'], 'invalid-value', `cron "${cron}": ${(error as Error).message}`);
  }
  let durationMs: number | undefined;
  if (input.duration !== undefined) {
    durationMs = parseDuration(input.duration);
    if (durationMs === undefined || durationMs <= 0) problems.add(origin, [...path, 'duration'], 'invalid-value', `duration "${input.duration}" is not a positive duration (such as 30m, 9h)`);
  }
  return { kind: 'cron', cron, ...(durationMs === undefined ? {} : { durationMs }), negate };
}

function checkTime(text: string | undefined, origin: Origin, path: Path, problems: ProblemList): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  const minutes = match === null ? undefined : Number(match[1]) * 60 + Number(match[2]);
  if (match === null || Number(match[1]) > 23 || Number(match[2]) > 59) {
    problems.add(origin, path, 'invalid-value', `"${text}" is not a time of day in 24-hour HH:MM (such as 08:00, 20:30)`);
    return undefined;
  }
  return minutes;
}

/** `in` / `notIn` / `weekday` / `weekend` → the open days (exactly one of them, as Orkestra reads the first set). */
function dayList(input: NonNullable<WindowInput['dayOfWeek']>, origin: Origin, path: Path, problems: ProblemList): number[] | undefined {
  const given = (['in', 'notIn', 'weekday', 'weekend'] as const).filter((key) => input[key] !== undefined);
  if (given.length !== 1) {
    problems.add(origin, path, 'invalid-value', `dayOfWeek has exactly one of in, notIn, weekday, weekend; this one has ${given.length === 0 ? 'none' : given.join(' and ')}`);
    return undefined;
  }
  if (input.weekday !== undefined) return input.weekday ? WEEKDAYS : WEEKEND;
  if (input.weekend !== undefined) return input.weekend ? WEEKEND : WEEKDAYS;
  const key = input.in === undefined ? 'notIn' : 'in';
  const names = (input[key] ?? []).map((name) => name ?? '');
  const listed = new Set<number>();
  names.forEach((name, index) => {
    const day = DAY_NAMES.indexOf(name.toLowerCase());
    if (day < 0) problems.add(origin, [...path, key, index], 'invalid-value', `"${name}" is not a day of the week (Monday … Sunday, any case)`);
    else listed.add(day);
  });
  return key === 'in' ? [...listed].sort() : [0, 1, 2, 3, 4, 5, 6].filter((day) => !listed.has(day));
}

/** A window back into its input form (serialize.ts). */
export function windowToInput(window: AutoscaleWindow): Record<string, unknown> {
  const negate = window.negate ? { negate: true } : {};
  switch (window.kind) {
    case 'time':
      return { time: { ...(window.after === undefined ? {} : { after: window.after }), ...(window.before === undefined ? {} : { before: window.before }) }, ...negate };
    case 'days':
      return { dayOfWeek: { in: window.days.map((day) => capitalise(DAY_NAMES[day] ?? '')) }, ...negate };
    case 'cron':
      return { cron: window.cron, ...(window.durationMs === undefined ? {} : { duration: formatDuration(window.durationMs) }), ...negate };
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
