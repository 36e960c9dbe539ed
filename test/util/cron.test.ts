// Five-field cron in Orkestra's dialect (robfig/cron's standard parser): fires in local time, names, ranges and
// steps, descriptors, the day-of-month/day-of-week rule (either when both are restricted, both when one is *),
// and clear errors for what is not read (@every) or not valid. The TZ= prefix: cron-zone.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFire, parseCron } from '../../src/util/cron.js';

/** Local time, as the schedules are read. */
const at = (y: number, mo: number, d: number, h = 0, mi = 0): number => new Date(y, mo - 1, d, h, mi).getTime();
const next = (expr: string, from: number): string | undefined => {
  const fire = nextFire(parseCron(expr), from);
  if (fire === undefined) return undefined;
  const d = new Date(fire);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

describe('cron', () => {
  // 2026-01-05 is a Monday.
  test('fires strictly after the given instant, in whole local minutes', () => {
    assert.equal(next('0 9 * * 1-5', at(2026, 1, 5, 8, 59)), '2026-01-05 09:00');
    assert.equal(next('0 9 * * 1-5', at(2026, 1, 5, 9, 0)), '2026-01-06 09:00', 'a fire at the instant itself is not after it');
    assert.equal(next('0 9 * * 1-5', at(2026, 1, 9, 10)), '2026-01-12 09:00', 'Friday after 9 → Monday');
    assert.equal(next('*/15 * * * *', at(2026, 1, 5, 10, 7) + 30_000), '2026-01-05 10:15');
  });

  test('in UTC (Orkestra\'s nextCron): the calendar of UTC, whatever the local zone', () => {
    const utc = (expr: string, from: string): string | undefined => {
      const fire = nextFire(parseCron(expr), Date.parse(from), 'utc');
      return fire === undefined ? undefined : new Date(fire).toISOString();
    };
    assert.equal(utc('0 9 * * 1-5', '2026-01-05T08:59:00Z'), '2026-01-05T09:00:00.000Z');
    assert.equal(utc('0 9 * * 1-5', '2026-01-09T10:00:00Z'), '2026-01-12T09:00:00.000Z', 'Friday after 9 → Monday');
    assert.equal(utc('30 0 1 * *', '2026-01-31T23:59:00Z'), '2026-02-01T00:30:00.000Z', 'into the next month');
    assert.equal(utc('0 0 29 2 *', '2026-03-01T00:00:00Z'), '2028-02-29T00:00:00.000Z', 'to the next leap day');
    assert.equal(utc('0 * * * *', '2026-01-05T10:30:00Z'), '2026-01-05T11:00:00.000Z');
  });

  test('names, lists, a/n steps and descriptors', () => {
    assert.equal(next('30 20 * * SAT,sun', at(2026, 1, 5)), '2026-01-10 20:30');
    assert.equal(next('0 0 1 feb *', at(2026, 1, 5)), '2026-02-01 00:00');
    assert.equal(next('5/20 * * * *', at(2026, 1, 5, 10, 26)), '2026-01-05 10:45', 'a/n runs from a to the end');
    assert.equal(next('@daily', at(2026, 1, 5, 10)), '2026-01-06 00:00');
    assert.equal(next('@weekly', at(2026, 1, 5, 10)), '2026-01-11 00:00');
    assert.equal(next('@hourly', at(2026, 1, 5, 10, 1)), '2026-01-05 11:00');
  });

  test('day of month and day of week: either when both are restricted, both when one is * or ?', () => {
    assert.equal(next('0 0 13 * 5', at(2026, 1, 5)), '2026-01-09 00:00', 'Friday 9th (either)');
    assert.equal(next('0 0 13 * *', at(2026, 1, 5)), '2026-01-13 00:00');
    assert.equal(next('0 0 ? * 5', at(2026, 1, 5)), '2026-01-09 00:00');
    assert.equal(next('0 0 */2 * 5', at(2026, 1, 5)), '2026-01-07 00:00', 'a step clears the star: either the 7th or a Friday');
  });

  test('a schedule that never fires gives none', () => {
    assert.equal(next('0 0 30 2 *', at(2026, 1, 5)), undefined);
  });

  test('what is not read, and what is wrong, says so', () => {
    assert.throws(() => parseCron('@every 1h'), /"@every" is not read/);
    assert.throws(() => parseCron('0 9 * *'), /five fields .* has 4/);
    assert.throws(() => parseCron('0 24 * * *'), /hour: "24" is not in 0-23/);
    assert.throws(() => parseCron('0 9 * * 7'), /day of week: "7" is not in 0-6/);
    assert.throws(() => parseCron('0 9-8 * * *'), /runs backwards/);
    assert.throws(() => parseCron('*/0 * * * *'), /step "0"/);
    assert.throws(() => parseCron('@sometimes'), /unknown descriptor/);
  });
});
