/**
 * Autoscale time windows (Orkestra's `time`, `dayOfWeek` and `cron` conditions), evaluated on the runtime's clock
 * in the process's local time zone, as Orkestra evaluates them against `time.Now()`:
 * - `time`: open from `after` (HH:MM:00) to `before` (HH:MM:00), both instants included; each end may be absent.
 * - `days`: open on the listed weekdays, from local midnight to midnight.
 * - `cron`: open for `durationMs` (default: the rule's interval, as Orkestra) from each fire; a fire between two
 *   evaluations is not missed, and the window needs no state across restarts (katalog looks back over the last
 *   `durationMs` instead of remembering when it opened).
 *
 * {@link nextWindowChange} gives the next instant at which any window may open or close, so that the autoscaler
 * evaluates then, without waiting for its interval.
 */
import type { AutoscaleWindow } from '../definition/types.js';
import { nextFire, parseCron, type CronSchedule } from '../util/cron.js';

/** A window ready to evaluate (its cron parsed once). */
export interface CompiledWindow {
  /** Whether it holds at `nowMs` (negate applied). */
  open(nowMs: number): boolean;
  /** The first instant after `nowMs` at which it may change, or undefined when it never does. */
  nextChange(nowMs: number): number | undefined;
}

/** Compiles a window; `intervalMs` is the rule's interval (a cron window's default length). Throws on a bad cron. */
export function compileWindow(window: AutoscaleWindow, intervalMs: number): CompiledWindow {
  const base = compileBase(window, intervalMs);
  if (!window.negate) return base;
  return { open: (now) => !base.open(now), nextChange: (now) => base.nextChange(now) };
}

function compileBase(window: AutoscaleWindow, intervalMs: number): CompiledWindow {
  switch (window.kind) {
    case 'time':
      return timeWindow(window.after, window.before);
    case 'days': {
      const days = new Set(window.days);
      return { open: (now) => days.has(new Date(now).getDay()), nextChange: nextMidnight };
    }
    case 'cron':
      return cronWindow(parseCron(window.cron), window.durationMs ?? intervalMs);
  }
}

/** Minutes after midnight of "HH:MM". */
export function minuteOfDay(text: string): number | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (match === null) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : undefined;
}

function atMinute(nowMs: number, minute: number, dayOffset = 0): number {
  const d = new Date(nowMs);
  d.setDate(d.getDate() + dayOffset);
  d.setHours(Math.floor(minute / 60), minute % 60, 0, 0);
  return d.getTime();
}

function timeWindow(after: string | undefined, before: string | undefined): CompiledWindow {
  const from = after === undefined ? undefined : minuteOfDay(after);
  const to = before === undefined ? undefined : minuteOfDay(before);
  return {
    open(now) {
      if (from !== undefined && now < atMinute(now, from)) return false;
      if (to !== undefined && now > atMinute(now, to)) return false;
      return true;
    },
    nextChange(now) {
      // Opening at `after`, closing just past `before` (the `before` instant itself is inside), today or tomorrow.
      const candidates: number[] = [];
      for (const day of [0, 1]) {
        if (from !== undefined) candidates.push(atMinute(now, from, day));
        if (to !== undefined) candidates.push(atMinute(now, to, day) + 1);
      }
      return earliestAfter(now, candidates);
    },
  };
}

function nextMidnight(now: number): number {
  return atMinute(now, 0, 1);
}

function cronWindow(schedule: CronSchedule, durationMs: number): CompiledWindow {
  // The fire that opened the window now, if any: the first fire in (now - duration, now].
  const opener = (now: number): number | undefined => {
    const fire = nextFire(schedule, now - durationMs);
    return fire !== undefined && fire <= now ? fire : undefined;
  };
  return {
    open: (now) => opener(now) !== undefined,
    nextChange(now) {
      const fire = opener(now);
      const candidates = [nextFire(schedule, now), fire === undefined ? undefined : fire + durationMs];
      return earliestAfter(now, candidates);
    },
  };
}

function earliestAfter(now: number, candidates: readonly (number | undefined)[]): number | undefined {
  let best: number | undefined;
  for (const at of candidates) if (at !== undefined && at > now && (best === undefined || at < best)) best = at;
  return best;
}
