// Autoscale time windows on the runtime's clock (local time, as Orkestra reads time.Now()): a `time` window holds
// from `after` to `before`, both minutes' first instant included; a day window from midnight to midnight; a cron
// window for `duration` (default the interval) after each fire, without missing a fire between evaluations. The
// autoscaler evaluates at a window's boundary, not only every interval, so an opening window is acted on at once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileWindow } from '../../src/controller/autoscale-windows.js';
import { Autoscaler, type AutoscaleTarget } from '../../src/controller/autoscaler.js';
import type { ControllerTuning } from '../../src/controller/controller.js';
import type { AutoscaleRule } from '../../src/definition/types.js';
import { FakeClock } from '../support/fake-clock.js';

const at = (d: number, h: number, mi = 0, s = 0, ms = 0): number => new Date(2026, 0, d, h, mi, s, ms).getTime(); // 2026-01-05 is a Monday
const MINUTE = 60_000;

describe('autoscale windows', () => {
  test('time: after and before are both included, to the millisecond; either end may be absent', () => {
    const window = compileWindow({ kind: 'time', after: '08:00', before: '20:00', negate: false }, 15_000);
    assert.equal(window.open(at(5, 7, 59, 59, 999)), false);
    assert.equal(window.open(at(5, 8)), true);
    assert.equal(window.open(at(5, 20)), true, '20:00:00.000 is inside');
    assert.equal(window.open(at(5, 20, 0, 0, 1)), false);
    assert.equal(window.nextChange(at(5, 7)), at(5, 8));
    assert.equal(window.nextChange(at(5, 12)), at(5, 20) + 1);
    assert.equal(window.nextChange(at(5, 21)), at(6, 8), 'tomorrow morning');
    const evening = compileWindow({ kind: 'time', after: '18:30', negate: false }, 15_000);
    assert.equal(evening.open(at(5, 23, 59)), true);
    assert.equal(evening.open(at(5, 0, 10)), false);
    const negated = compileWindow({ kind: 'time', after: '08:00', before: '20:00', negate: true }, 15_000);
    assert.equal(negated.open(at(5, 21)), true);
  });

  test('days: midnight to midnight, local', () => {
    const weekend = compileWindow({ kind: 'days', days: [0, 6], negate: false }, 15_000);
    assert.equal(weekend.open(at(9, 23, 59, 59, 999)), false, 'Friday night');
    assert.equal(weekend.open(at(10, 0)), true, 'Saturday');
    assert.equal(weekend.nextChange(at(9, 13)), at(10, 0));
  });

  test('cron: open for duration from each fire, closing at fire + duration; default length the interval', () => {
    const window = compileWindow({ kind: 'cron', cron: '0 9 * * 1-5', durationMs: 9 * 60 * MINUTE, negate: false }, 15_000);
    assert.equal(window.open(at(5, 8, 59)), false);
    assert.equal(window.nextChange(at(5, 8, 59)), at(5, 9));
    assert.equal(window.open(at(5, 9)), true);
    assert.equal(window.open(at(5, 17, 59, 59, 999)), true);
    assert.equal(window.nextChange(at(5, 12)), at(5, 18));
    assert.equal(window.open(at(5, 18)), false, 'the end is excluded');
    assert.equal(window.open(at(10, 10)), false, 'Saturday');
    const short = compileWindow({ kind: 'cron', cron: '*/10 * * * *', negate: false }, 30_000);
    assert.equal(short.open(at(5, 10, 10, 29)), true);
    assert.equal(short.open(at(5, 10, 10, 30)), false, 'open for one interval (30 s) without duration');
  });

  test('the autoscaler acts at the window opening, between two interval ticks, and restores after the cool-down once it closes', async () => {
    const clock = new FakeClock(at(5, 8, 59, 50));
    const knobs: AutoscaleTarget & { tuning: ControllerTuning } = {
      tuning: { workers: 2, maxDepth: 100, resyncMs: 60_000 },
      queueDepth: 0,
      activeWorkers: 0,
      retune(next) {
        this.tuning = { ...this.tuning, ...next };
      },
    };
    const rule: AutoscaleRule = {
      intervalMs: 60 * MINUTE,
      cooldownMs: 5 * MINUTE,
      when: [],
      anyOf: [],
      do: { workers: 8 },
      windows: { when: [], anyOf: [{ kind: 'cron', cron: '0 9 * * 1-5', durationMs: 60 * MINUTE, negate: false }] },
    };
    const scaler = new Autoscaler({ crd: 'processor', rule, clock, target: knobs });
    scaler.start();
    await clock.advance(9_999);
    assert.equal(knobs.tuning.workers, 2, 'before 09:00');
    await clock.advance(1);
    assert.equal(knobs.tuning.workers, 8, 'at 09:00 exactly, although the interval is an hour');
    await clock.advance(60 * MINUTE);
    assert.equal(knobs.tuning.workers, 8, 'closed at 10:00; the cool-down runs');
    await clock.advance(5 * MINUTE);
    assert.equal(knobs.tuning.workers, 2, 'restored five minutes after the window closed');
    scaler.stop();
    assert.equal(clock.pending, 0);
  });
});
