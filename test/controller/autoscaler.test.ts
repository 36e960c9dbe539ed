// The autoscaler (operatorBox.autoscale) and the worker pool it resizes: a deep queue brings the rule's workers,
// queue bound and resync; they stay while the conditions hold and for the cool-down after, then the declared
// values return; a resized pool really runs that many reconciles at once, growing at once and shrinking as
// workers finish their keys, never more than asked.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Autoscaler, type AutoscaleTarget } from '../../src/controller/autoscaler.js';
import type { ControllerTuning } from '../../src/controller/controller.js';
import { WorkerPool } from '../../src/controller/workers.js';
import { Workqueue } from '../../src/controller/workqueue.js';
import type { AutoscaleRule } from '../../src/definition/types.js';
import { systemClock } from '../../src/util/clock.js';
import { FakeClock } from '../support/fake-clock.js';
import { waitFor } from '../support/cluster.js';

/** A controller's knobs as the autoscaler sees them, with a queue depth the test sets. */
class Knobs implements AutoscaleTarget {
  tuning: ControllerTuning = { workers: 2, maxDepth: 100, resyncMs: 60_000 };
  queueDepth = 0;
  activeWorkers = 0;
  readonly history: ControllerTuning[] = [];
  retune(next: Partial<ControllerTuning>): void {
    this.tuning = { ...this.tuning, ...next };
    this.history.push(this.tuning);
  }
}

const RULE: AutoscaleRule = {
  intervalMs: 1000,
  cooldownMs: 5000,
  when: [{ field: 'metrics.queueDepth', operator: 'gt', value: '60' }],
  anyOf: [],
  do: { workers: 8, maxDepth: 800, resyncMs: 10_000 },
};

describe('autoscaler', () => {
  test('a deep queue applies do; the declared values return only after the cool-down without the conditions', async () => {
    const clock = new FakeClock();
    const knobs = new Knobs();
    const scaler = new Autoscaler({ crd: 'processor', rule: RULE, clock, target: knobs });
    scaler.start();
    knobs.queueDepth = 10;
    await clock.advance(1000);
    assert.deepEqual(knobs.tuning, { workers: 2, maxDepth: 100, resyncMs: 60_000 }, 'shallow queue: declared values');
    knobs.queueDepth = 61;
    await clock.advance(1000);
    assert.deepEqual(knobs.tuning, { workers: 8, maxDepth: 800, resyncMs: 10_000 });
    assert.equal(scaler.active, true);
    knobs.queueDepth = 0;
    await clock.advance(4000);
    assert.equal(knobs.tuning.workers, 8, 'still inside the cool-down');
    knobs.queueDepth = 70;
    await clock.advance(1000);
    knobs.queueDepth = 0;
    await clock.advance(4000);
    assert.equal(knobs.tuning.workers, 8, 'the cool-down started again when the conditions held again');
    await clock.advance(2000);
    assert.deepEqual(knobs.tuning, { workers: 2, maxDepth: 100, resyncMs: 60_000 }, 'restored after 5 s without the conditions');
    assert.equal(scaler.active, false);
    assert.equal(knobs.history.length, 2, 'applied once and restored once, never more');
    scaler.stop();
  });

  test('stop() restores the declared values; the figures are what the conditions read', async () => {
    const clock = new FakeClock();
    const knobs = new Knobs();
    const scaler = new Autoscaler({ crd: 'p', rule: { ...RULE, when: [{ field: 'metrics.errorRatePercent', operator: 'gte', value: '50' }] }, clock, target: knobs });
    knobs.activeWorkers = 1;
    for (let i = 0; i < 10; i++) scaler.reconciled(i % 2 === 0, i === 9 ? 500 : 10);
    assert.deepEqual(scaler.metrics(), { queueDepth: 0, workers: 2, workersBusyPercent: 50, workersIdlePercent: 50, errorRatePercent: 50, reconcileDurationP95Ms: 500 });
    scaler.start();
    await clock.advance(1000);
    assert.equal(knobs.tuning.workers, 8);
    scaler.stop();
    assert.equal(knobs.tuning.workers, 2);
    await clock.advance(10_000);
    assert.equal(knobs.tuning.workers, 2, 'no evaluation after stop()');
  });
});

describe('worker pool resize', () => {
  test('grows at once under a deep queue, shrinks as workers finish their keys, never above the count asked for', async () => {
    const queue = new Workqueue({});
    let running = 0;
    let peak = 0;
    const gates: Array<() => void> = [];
    const pool = new WorkerPool({
      queue,
      count: 1,
      clock: systemClock,
      timeoutMs: 60_000,
      reconcile: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
        return { result: 'success' };
      },
      onReconciled: () => undefined,
      onActive: () => undefined,
    });
    for (let i = 0; i < 20; i++) queue.add(`k${i}`);
    pool.start();
    await waitFor('one reconcile', () => running === 1);
    pool.resize(4);
    await waitFor('four at once', () => running === 4);
    assert.equal(peak, 4);
    pool.resize(2);
    // Release everything in flight: the two surplus workers leave after their key, two go on.
    for (const release of gates.splice(0)) release();
    await waitFor('two at once', () => running === 2 && gates.length === 2);
    for (let round = 0; round < 5; round++) {
      for (const release of gates.splice(0)) release();
      await waitFor('the next keys', () => gates.length > 0 || queue.length === 0);
      assert.ok(running <= 2, `at most two after shrinking, saw ${running}`);
    }
    queue.shutDown();
    for (const release of gates.splice(0)) release();
    while (running > 0 || gates.length > 0) {
      for (const release of gates.splice(0)) release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await pool.finished();
  });
});
