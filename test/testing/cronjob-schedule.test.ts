// When a simulated CronJob's runs are due: its schedule in its time zone, the latest run due after a gap, and the
// scheduled-timestamp annotation's time, as kube-controller-manager's CronJob controller reads them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cronTimes, MANY_MISSED, mostRecentDue, zonedRfc3339 } from '../../src/testing/controllers/workloads/cronjob-schedule.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('CronJob schedules', () => {
  test('five fields in UTC without a time zone, in the time zone when there is one; the schedule’s own CRON_TZ wins', () => {
    assert.equal(iso(cronTimes('30 9 * * *', undefined).next(at('2026-12-07T12:00:00Z'))), '2026-12-08T09:30:00.000Z');
    assert.equal(iso(cronTimes('30 9 * * *', 'America/New_York').next(at('2026-12-07T12:00:00Z'))), '2026-12-07T14:30:00.000Z');
    assert.equal(iso(cronTimes('CRON_TZ=Asia/Tokyo 30 9 * * *', 'America/New_York').next(at('2026-12-07T12:00:00Z'))), '2026-12-08T00:30:00.000Z');
    assert.equal(iso(cronTimes('@hourly', undefined).next(at('2026-12-07T12:00:00Z'))), '2026-12-07T13:00:00.000Z');
  });

  test('@every is a delay in whole seconds from the time it is asked after', () => {
    const times = cronTimes('@every 90s', undefined);
    assert.equal(iso(times.next(at('2026-12-07T12:00:00.400Z'))), '2026-12-07T12:01:30.000Z');
    assert.throws(() => cronTimes('@every soon', undefined), /failed to parse duration @every soon/);
    assert.throws(() => cronTimes('61 * * * *', undefined), /minute/);
  });

  test('the latest run due after a gap, and how many were due (counting stops past 100)', () => {
    const times = cronTimes('*/10 * * * *', undefined);
    assert.deepEqual(mostRecentDue(times, at('2026-12-07T12:00:00Z'), at('2026-12-07T12:09:59Z')), { time: undefined, missed: 0 });
    const gap = mostRecentDue(times, at('2026-12-07T12:00:00Z'), at('2026-12-07T12:35:00Z'));
    assert.deepEqual([iso(gap.time), gap.missed], ['2026-12-07T12:30:00.000Z', 3]);
    const days = mostRecentDue(times, at('2026-12-01T00:00:00Z'), at('2026-12-07T12:35:00Z'));
    assert.deepEqual([iso(days.time), days.missed], ['2026-12-07T12:30:00.000Z', MANY_MISSED + 1]);
  });

  test("the scheduled-timestamp annotation: RFC 3339 in the CronJob's zone, Z in UTC", () => {
    assert.equal(zonedRfc3339(at('2026-12-07T12:01:00Z'), undefined), '2026-12-07T12:01:00Z');
    assert.equal(zonedRfc3339(at('2026-12-07T12:01:00Z'), 'Europe/Berlin'), '2026-12-07T13:01:00+01:00');
    assert.equal(zonedRfc3339(at('2026-07-07T12:01:00Z'), 'America/St_Johns'), '2026-07-07T09:31:00-02:30');
    assert.equal(zonedRfc3339(at('2026-12-07T12:01:00Z'), 'UTC'), '2026-12-07T12:01:00Z');
  });
});
