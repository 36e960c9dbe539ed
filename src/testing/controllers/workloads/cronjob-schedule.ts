/**
 * When a CronJob's Jobs are due, as kube-controller-manager's CronJob controller reads its schedule: robfig/cron's five
 * fields or a descriptor (`@hourly`...; src/util/cron.ts reads them), or `@every <duration>`, in `spec.timeZone` (an
 * IANA zone), else in UTC: kube's controller reads it in its own process's zone, which is UTC in most clusters (the
 * choice is written in docs/testing.md). Pure.
 */
import { nextFire, parseCron } from '../../../util/cron.js';
import { parseDuration } from '../../../util/duration.js';
import { wallClock } from '../../../util/time-zone.js';

/** A schedule's fires. */
export interface CronTimes {
  /** The first fire strictly after `afterMs`, or undefined when none comes (within five years). */
  next(afterMs: number): number | undefined;
}

/** Past this many due times, kube's controller says `TooManyMissedTimes`. */
export const MANY_MISSED = 100;

/** Reads a CronJob's schedule in its time zone; throws an Error saying what is wrong. */
export function cronTimes(schedule: string, timeZone: string | undefined): CronTimes {
  const every = /^@every\s+(\S+)$/.exec(schedule.trim());
  if (every !== null) {
    const ms = parseDuration(every[1] ?? '');
    if (ms === undefined || ms <= 0) throw new Error(`failed to parse duration ${schedule}`);
    // robfig/cron's ConstantDelaySchedule: whole seconds, at least one.
    const delay = Math.max(1000, Math.floor(ms / 1000) * 1000);
    return { next: (afterMs) => Math.floor(afterMs / 1000) * 1000 + delay };
  }
  // A schedule that names its own zone (TZ=, CRON_TZ=) keeps it, as kube's controller reads it then.
  const zoned = timeZone === undefined || /^\s*(CRON_)?TZ=/.test(schedule) ? schedule : `CRON_TZ=${timeZone} ${schedule}`;
  const parsed = parseCron(zoned);
  return { next: (afterMs) => nextFire(parsed, afterMs, 'utc') };
}

/**
 * The latest due time in (`earliestMs`, `nowMs`], and how many were due there (counting stops past
 * {@link MANY_MISSED}); no time when none is due yet (kube's mostRecentScheduleTime).
 */
export function mostRecentDue(times: CronTimes, earliestMs: number, nowMs: number): { time: number | undefined; missed: number } {
  let time = times.next(earliestMs);
  if (time === undefined || time > nowMs) return { time: undefined, missed: 0 };
  let missed = 1;
  for (let next = times.next(time); next !== undefined && next <= nowMs; next = times.next(time)) {
    time = next;
    if (missed <= MANY_MISSED) missed += 1;
  }
  return { time, missed };
}

/** Go's time.RFC3339 of `ms` in `zone` (UTC when none): `Z` at offset 0, else `±hh:mm`. */
export function zonedRfc3339(ms: number, zone: string | undefined): string {
  const utc = new Date(Math.floor(ms / 1000) * 1000);
  const wall = wallClock(zone ?? 'UTC', ms);
  const offsetMinutes = Math.round((Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) - Math.floor(ms / 60_000) * 60_000) / 60_000);
  const local = new Date(utc.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${local}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
