// Autoscale on another CRD's figures (`cross.<crd>.metrics.*`): the rule reads them from the host at each
// evaluation; while that CRD is not running (no figures) the condition is false, as Orkestra reads "" there; the
// CRD's own figures are one ring of the last reconciles, as before.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Autoscaler, crossFigureCrds, type AutoscaleTarget } from '../../src/controller/autoscaler.js';
import type { ControllerTuning } from '../../src/controller/controller.js';
import { LoadFigures } from '../../src/controller/load-figures.js';
import type { AutoscaleRule } from '../../src/definition/types.js';
import { FakeClock } from '../support/fake-clock.js';

const knobs = (): AutoscaleTarget & { tuning: ControllerTuning; activeWorkers: number } => ({
  tuning: { workers: 2, maxDepth: 100, resyncMs: 60_000 },
  queueDepth: 0,
  activeWorkers: 0,
  retune(next) {
    this.tuning = { ...this.tuning, ...next };
  },
});

describe('autoscale on another CRD', () => {
  test("the loader's queue brings the processor's workers; without the loader's figures nothing changes", async () => {
    const clock = new FakeClock();
    const processor = knobs();
    let loader: Record<string, number> | undefined;
    const rule: AutoscaleRule = { intervalMs: 1000, cooldownMs: 2000, when: [{ field: 'cross.loader.metrics.queueDepth', operator: 'gt', value: '60' }], anyOf: [], do: { workers: 8 } };
    assert.deepEqual(crossFigureCrds(rule), ['loader']);
    const asked: string[] = [];
    const scaler = new Autoscaler({ crd: 'processor', rule, clock, target: processor, crossFigures: (crd) => (asked.push(crd), loader) });
    scaler.start();
    await clock.advance(1000);
    assert.equal(processor.tuning.workers, 2, 'the loader is not running: the condition is false');
    loader = { queueDepth: 61 };
    await clock.advance(1000);
    assert.equal(processor.tuning.workers, 8);
    assert.ok(asked.every((crd) => crd === 'loader'));
    loader = { queueDepth: 3 };
    await clock.advance(3000);
    assert.equal(processor.tuning.workers, 2, 'restored after the cool-down');
    scaler.stop();
  });

  test("another process's figures: the refresh runs before each timed evaluation; stop aborts one under way and nothing follows it", async () => {
    const clock = new FakeClock();
    const rule: AutoscaleRule = { intervalMs: 1000, cooldownMs: 2000, when: [{ field: 'cross.loader.metrics.queueDepth', operator: 'gt', value: '60' }], anyOf: [], do: { workers: 8 } };
    const quick = knobs();
    let figures: Record<string, number> | undefined;
    const first = new Autoscaler({ crd: 'processor', rule, clock, target: quick, crossFigures: () => figures, refresh: () => ((figures = { queueDepth: 75 }), Promise.resolve()) });
    first.start();
    await clock.advance(1000);
    assert.equal(quick.tuning.workers, 8, 'the figures the refresh read are the ones evaluated');
    first.stop();
    const slow = knobs();
    const signals: AbortSignal[] = [];
    let release: (() => void) | undefined;
    const second = new Autoscaler({
      crd: 'processor',
      rule,
      clock,
      target: slow,
      crossFigures: () => ({ queueDepth: 75 }),
      refresh: (signal) => (signals.push(signal), new Promise<void>((resolve) => (release = resolve))),
    });
    second.start();
    await clock.advance(1000);
    assert.equal(slow.tuning.workers, 2, 'the evaluation waits for the refresh');
    second.stop();
    assert.equal(signals[0]?.aborted, true);
    release?.();
    await clock.advance(5000);
    assert.equal(slow.tuning.workers, 2, 'no evaluation after stop');
    assert.equal(signals.length, 1, 'and no further refresh');
  });

  test('figures: error rate over the last 100, p95 over the last 256, busy share of the workers', () => {
    const target = knobs();
    const figures = new LoadFigures(target);
    for (let i = 0; i < 150; i++) figures.reconciled(i >= 140, 10);
    assert.equal(figures.read().errorRatePercent, 90, 'the last 100: 10 ok, 90 failed');
    for (let i = 0; i < 256; i++) figures.reconciled(true, i < 243 ? 1 : 1000);
    assert.equal(figures.read().reconcileDurationP95Ms, 1000, '13 slow of 256: the 95th percentile is slow');
    assert.equal(figures.read().errorRatePercent, 0);
    target.activeWorkers = 1;
    assert.equal(figures.read().workersBusyPercent, 50);
  });
});
