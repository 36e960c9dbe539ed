// Orkestra's clock notes, pinned row by row against Orkestra's time notes (iAlexeze/orkestra pkg/note/time.go)
// and its catalog's descriptions (orkspace/orkestra pkg/note/catalog_generated.go), at a fixed instant given to
// the function as the render's time; then once through a compiled template on the real clock.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileConditions, compileTemplate, compileValue } from '../../src/template/index.js';
import { lookupFunction } from '../../src/template/functions.js';

const TIME = 'iAlexeze/orkestra pkg/note/time.go @ 24feabff';
const CATALOG = 'orkspace/orkestra pkg/note/catalog_generated.go @ eacb2604 (time)';

/** Monday 13 July 2026, 14:30:00 UTC. */
const NOW = Date.UTC(2026, 6, 13, 14, 30, 0);
const ago = (ms: number): string => new Date(NOW - ms).toISOString();
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

function call(name: string, args: readonly unknown[], now = NOW): unknown {
  const fn = lookupFunction(name, 'orkestra');
  assert.ok(fn, name);
  return fn.call(args, { maxLength: 1 << 20, maxDepth: 32, now: () => now });
}

type Row = readonly [name: string, args: readonly unknown[], expected: unknown, from: string, now?: number];

const ROWS: readonly Row[] = [
  ['timeAgo', [ago(5 * S)], '5s ago', TIME],
  ['timeAgo', [ago(59 * S + 900)], '59s ago', `${TIME} (whole units, truncated)`],
  ['timeAgo', [ago(12 * M)], '12m ago', CATALOG],
  ['timeAgo', [ago(3 * H + 59 * M)], '3h ago', CATALOG],
  ['timeAgo', [ago(2 * D + 14 * H)], '2d ago', CATALOG],
  ['timeAgo', ['2026-07-11'], '2d ago', `${TIME} (parseTime reads YYYY-MM-DD)`],
  ['timeAgo', [ago(-5 * S)], '-5s ago', `${TIME} (a future time: a negative count)`],
  ['timeAgo', ['yesterday'], '', `${TIME} (unparseable)`],
  ['timeAgo', [undefined], '', `${TIME} (a missing field)`],
  ['timeSince', [ago(H)], 3600, TIME],
  ['timeSince', [ago(1500)], 2, `${TIME} (math.Round: half away from zero)`],
  ['timeSince', [ago(-2500)], -3, `${TIME} (math.Round of a negative half)`],
  ['timeSince', ['2026-07-13T14:29:00.250+00:00'], 60, `${TIME} (a fraction and an offset)`],
  ['timeSince', ['not a time'], 0, TIME],
  ['timeUntil', [new Date(NOW + 719 * H + 43 * M + 12 * S + 700).toISOString()], '719h43m12s', `${TIME} (truncated to the second)`],
  ['timeUntil', [new Date(NOW + 90 * S).toISOString()], '1m30s', TIME],
  ['timeUntil', [new Date(NOW + 500).toISOString()], '0s', `${TIME} (under a second truncates to 0s)`],
  ['timeUntil', [ago(S)], '0s', `${TIME} (already past)`],
  ['timeUntil', [''], '0s', `${TIME} (unparseable)`],
  ['isExpired', [ago(31 * D), '30d'], true, CATALOG],
  ['isExpired', [ago(29 * D), '30d'], false, CATALOG],
  ['isExpired', [ago(30 * D), '30d'], false, `${TIME} (time.Now().After: the instant itself is not past)`],
  ['isExpired', [ago(2 * H), '1h30m'], true, `${TIME} (Go units)`],
  ['isExpired', [ago(2 * H), 'soon'], false, `${TIME} (an invalid duration)`],
  ['isExpired', [undefined, '1h'], false, `${TIME} (no timestamp)`],
  ['nextCron', ['0 2 * * 0'], '2026-07-19T02:00:00Z', `${CATALOG} (next Sunday 02:00 UTC)`],
  ['nextCron', ['0 9 * * 1'], '2026-07-20T09:00:00Z', `${CATALOG} (next Monday 09:00 UTC; today's has passed)`],
  ['nextCron', ['*/15 * * * *'], '2026-07-13T14:45:00Z', `${TIME} (strictly after now)`],
  ['nextCron', ['@daily'], '2026-07-14T00:00:00Z', `${TIME} (robfig's descriptors)`],
  ['nextCron', ['@every 90m'], '2026-07-13T16:00:00Z', `${TIME} (robfig's constant delay)`],
  ['nextCron', ['0 25 * * *'], '', `${TIME} (invalid: "")`],
  ['nextCron', ['TZ=Europe/Paris 0 9 * * *'], '2026-07-14T07:00:00Z', `${TIME} (robfig/cron parser.go: a TZ= prefix reads the schedule in that zone; printed in UTC)`],
  ['nextCron', ['CRON_TZ=Mars/Olympus 0 9 * * *'], '', `${TIME} (an unknown zone does not parse: "")`],
  ['timeInWindow', ['09:00', '18:00'], true, TIME],
  ['timeInWindow', ['09:00', '18:00'], false, `${TIME} (22:00 UTC)`, NOW + 7 * H + 30 * M],
  ['timeInWindow', ['14:30', '15:00'], true, `${TIME} (after is inside)`],
  ['timeInWindow', ['09:00', '14:30'], false, `${TIME} (before is outside)`],
  ['timeInWindow', ['9:00', '18:00'], true, `${TIME} (time.Parse "15:04" takes a one-digit hour)`],
  ['timeInWindow', ['22:00', '06:00'], false, `${TIME} (no wrap past midnight)`, NOW + 9 * H],
  ['timeInWindow', ['9am', '18:00'], false, `${TIME} (malformed)`],
  ['timeNotInWindow', ['02:00', '04:00'], true, CATALOG],
  ['timeNotInWindow', ['14:00', '15:00'], false, CATALOG],
  ['weekday', [], true, `${CATALOG} (a Monday)`],
  ['weekday', [], false, `${CATALOG} (a Saturday)`, NOW + 5 * D],
  ['weekend', [], true, `${CATALOG} (a Sunday)`, NOW + 6 * D],
  ['weekend', [], false, `${CATALOG} (a Monday)`],
  ['weekday', [], false, 'UTC: Sunday 23:30 UTC is Monday in Asia, still the weekend', NOW - 15 * H],
];

describe("Orkestra's clock notes at a fixed instant", () => {
  for (const [name, args, expected, from, now] of ROWS) {
    test(`${name} ${args.map((a) => JSON.stringify(a)).join(' ')} → ${JSON.stringify(expected)} (${from})`, () => {
      assert.deepEqual(call(name, args, now), expected);
    });
  }
});

describe('clock notes in a rendered template', () => {
  test('read the time of the render: the same template renders differently a second later', async () => {
    const template = compileTemplate('{{ timeSince .metadata.creationTimestamp }}', { name: 't', dialect: 'orkestra' });
    const data = { metadata: { creationTimestamp: new Date(Date.now() - 3600 * S).toISOString() } };
    const first = Number(template.render(data));
    assert.ok(first >= 3600 && first <= 3602, `about an hour: ${first}`);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.ok(Number(template.render(data)) > first, 'a second later, more seconds');
  });

  test('weekday and weekend follow the UTC calendar of now, and are each other’s complement', () => {
    const expected = (): string => ([0, 6].includes(new Date().getUTCDay()) ? 'false true' : 'true false');
    const before = expected();
    const rendered = compileTemplate('{{ weekday }} {{ weekend }}', { name: 't', dialect: 'orkestra' }).render({});
    // Either side of a UTC midnight that falls between the two readings.
    assert.ok([before, expected()].includes(String(rendered)), String(rendered));
  });
});

describe('clock notes on a given clock (CompileOptions.now: the runtime passes its clock option)', () => {
  const options = { name: 't', dialect: 'orkestra' as const, now: () => NOW };

  test('a template, every leaf of a value and a condition read the given clock, not the system time', () => {
    assert.equal(compileTemplate('{{ timeAgo .at }} {{ weekday }}', options).render({ at: ago(3 * D) }), '3d ago true');
    assert.deepEqual(compileValue({ next: '{{ nextCron "0 2 * * *" }}', list: ['{{ timeUntil .at }}'] }, options).render({ at: ago(-90 * S) }), {
      next: '2026-07-14T02:00:00Z',
      list: ['1m30s'],
    });
    const open = compileConditions({ when: [{ field: '{{ timeInWindow "14:00" "15:00" }}', operator: 'eq', value: 'true' }] }, options);
    assert.equal(open.evaluate({}).ok, true, '14:30 on the given clock');
    const shut = compileConditions({ when: [{ field: '{{ timeInWindow "14:00" "15:00" }}', operator: 'eq', value: 'true' }] }, { ...options, now: () => NOW + 2 * H });
    assert.equal(shut.evaluate({}).ok, false, '16:30 on the given clock');
  });

  test('the clock is read at each render', () => {
    let now = NOW;
    const template = compileTemplate('{{ timeSince .at }}', { ...options, now: () => now });
    assert.equal(template.render({ at: ago(10 * S) }), 10);
    now += 5 * S;
    assert.equal(template.render({ at: ago(10 * S) }), 15);
  });
});
