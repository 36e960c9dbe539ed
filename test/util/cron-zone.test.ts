// A cron schedule's TZ=/CRON_TZ= prefix, as robfig/cron reads it (parser.go: the zone named after "TZ=" or
// "CRON_TZ=" up to the first space, loaded with time.LoadLocation; spec.go Next: days and months move by wall clock
// in that zone, hours and minutes by elapsed time). Fixed instants across the 2026 daylight-saving changes of
// New York (8 March 02:00 → 03:00, 1 November 02:00 → 01:00) and Berlin (29 March, 25 October); the results do not
// depend on the zone of the process running the test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFire, parseCron, type CronZone } from '../../src/util/cron.js';

const fire = (expr: string, from: string, zone: CronZone = 'local'): string | undefined => {
  const ms = nextFire(parseCron(expr), Date.parse(from), zone);
  return ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z');
};

const NY = 'CRON_TZ=America/New_York';
const BERLIN = 'TZ=Europe/Berlin';

// [schedule, after, next fire (UTC), why]
const ROWS: ReadonlyArray<readonly [string, string, string, string]> = [
  [`${NY} 0 9 * * *`, '2026-01-05T15:00:00Z', '2026-01-06T14:00:00Z', '09:00 EST is 14:00 UTC'],
  [`${NY} 0 9 * * *`, '2026-03-07T15:00:00Z', '2026-03-08T13:00:00Z', '09:00 EDT on the day the clock goes forward'],
  [`${NY} 30 2 * * *`, '2026-03-07T08:00:00Z', '2026-03-09T06:30:00Z', '02:30 does not exist on 8 March: no fire that day'],
  [`${NY} 0 * * * *`, '2026-03-08T06:30:00Z', '2026-03-08T07:00:00Z', 'hourly: 01:30 EST → 03:00 EDT, one elapsed hour later'],
  [`${NY} 30 1 * * *`, '2026-11-01T04:00:00Z', '2026-11-01T05:30:00Z', '01:30 EDT, the first of the two'],
  [`${NY} 30 1 * * *`, '2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z', '01:30 EST, the second: robfig fires twice'],
  [`${NY} 30 1 * * *`, '2026-11-01T06:30:00Z', '2026-11-02T06:30:00Z', 'then the next day'],
  [`${NY} 0 0 1 * *`, '2026-01-15T00:00:00Z', '2026-02-01T05:00:00Z', 'months move by wall clock: midnight of 1 February EST'],
  [`${BERLIN} @daily`, '2026-03-28T22:30:00Z', '2026-03-28T23:00:00Z', 'a descriptor after the prefix: midnight CET'],
  [`${BERLIN} 30 2 * * *`, '2026-10-24T23:00:00Z', '2026-10-25T00:30:00Z', '02:30 CEST'],
  [`${BERLIN} 30 2 * * *`, '2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z', '02:30 CET, the second pass'],
  [`${BERLIN} 30 2 * * *`, '2026-03-28T12:00:00Z', '2026-03-30T00:30:00Z', '02:30 does not exist on 29 March'],
  ['TZ=Asia/Kolkata 0 9 * * *', '2026-01-05T00:00:00Z', '2026-01-05T03:30:00Z', 'a half-hour offset'],
  ['TZ=Pacific/Auckland 0 8 * * 1', '2026-01-04T12:00:00Z', '2026-01-04T19:00:00Z', 'Monday in Auckland is Sunday in UTC'],
  ['TZ=UTC 0 9 * * *', '2026-07-13T10:00:00Z', '2026-07-14T09:00:00Z', 'UTC, whatever the process zone'],
  ['  CRON_TZ=UTC   */15 * * * *', '2026-07-13T10:07:00Z', '2026-07-13T10:15:00Z', 'spaces around the prefix'],
];

describe('cron: a TZ= / CRON_TZ= prefix', () => {
  for (const [expr, from, expected, why] of ROWS) {
    test(`${expr} after ${from} → ${expected} (${why})`, () => {
      assert.equal(fire(expr, from), expected);
      assert.equal(fire(expr, from, 'utc'), expected, 'the prefix wins over the caller\'s zone');
    });
  }

  test('the prefix names the zone of the schedule; without one it has none', () => {
    assert.equal(parseCron(`${NY} 0 9 * * *`).zone, 'America/New_York');
    assert.equal(parseCron('0 9 * * *').zone, undefined);
  });

  test('an unknown zone, or a prefix with no schedule, is an error that says so', () => {
    assert.throws(() => parseCron('TZ=Mars/Olympus 0 9 * * *'), /unknown time zone "Mars\/Olympus"/);
    assert.throws(() => parseCron('CRON_TZ= 0 9 * * *'), /unknown time zone ""/);
    assert.throws(() => parseCron('CRON_TZ=Europe/Paris'), /names a time zone but no schedule/);
    assert.throws(() => parseCron('TZ=Europe/Paris 0 9 * *'), /five fields .* has 4/);
    assert.throws(() => parseCron('TZ=Europe/Paris @every 1h'), /"@every" is not read/);
  });
});
