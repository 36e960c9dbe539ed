// Backoff, requeueAfter and resync timings, asserted with an injected clock while the API server runs for real.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import type { ReconcileResult } from '../../src/operatorbox/types.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock, flushMicrotasks } from '../support/fake-clock.js';
import { crdManifest, customResource, katalog, katalogEntry, waitFor } from '../support/cluster.js';

const TIMER = { kind: 'Timer', plural: 'timers' };

let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
  server.applyCrd(crdManifest(TIMER));
  await server.settled();
});
after(async () => {
  await server.stop();
});

/** A runtime whose single reconciler answers with `answer(call)`; returns the calls' fake times. */
async function withRuntime(
  resync: string,
  answer: (call: number) => ReconcileResult,
  body: (clock: FakeClock, calls: number[], settled: (n: number) => Promise<void>) => Promise<void>,
): Promise<void> {
  server.reset();
  server.applyCrd(crdManifest(TIMER));
  await server.settled();
  const clock = new FakeClock();
  const calls: number[] = [];
  const runtime = createRuntime(katalog({ timer: katalogEntry(TIMER, { resync, operatorBox: { default: false, constructor: { function: 'NewTimer' } } }) }), {
    kubeConfig: server.kubeConfig,
    clock,
    constructors: {
      NewTimer: () => ({
        reconcile: () => {
          calls.push(clock.now());
          return answer(calls.length);
        },
      }),
    },
  });
  // A reconcile is finished, and its requeue decided, when the runtime says `reconciled`: only then may time move.
  let finished = 0;
  runtime.on('reconciled', () => void finished++);
  const settled = (n: number): Promise<void> => waitFor(`${n} finished reconciles`, () => finished >= n).then(() => flushMicrotasks());
  await runtime.start();
  try {
    server.create(customResource(TIMER, 't1'));
    await settled(1);
    await body(clock, calls, settled);
  } finally {
    const stopping = runtime.stop();
    await clock.advance(60_000);
    await stopping;
  }
}

test('a failing reconcile is retried with per-key exponential backoff: 5 ms, 10 ms, 20 ms', async () => {
  await withRuntime('0s', (call) => {
    if (call <= 3) throw new Error('not yet');
  }, async (clock, calls, settled) => {
    const start = calls[0] ?? 0;
    await clock.advance(4);
    assert.equal(calls.length, 1, 'no retry before 5 ms');
    await clock.advance(1);
    await settled(2);
    await clock.advance(9);
    await flushMicrotasks();
    assert.equal(calls.length, 2, 'no retry before 10 ms more');
    await clock.advance(1);
    await settled(3);
    await clock.advance(20);
    await settled(4);
    assert.deepEqual(calls.map((t) => t - start), [0, 5, 15, 35]);
    await clock.advance(10_000);
    await flushMicrotasks();
    assert.equal(calls.length, 4, 'success forgets: nothing more without a change');
  });
});

test('requeueAfter runs the key again after exactly that long, and not before', async () => {
  await withRuntime('0s', () => ({ requeueAfter: '30s' }), async (clock, calls, settled) => {
    await clock.advance(29_999);
    await flushMicrotasks();
    assert.equal(calls.length, 1);
    await clock.advance(1);
    await settled(2);
    assert.equal((calls[1] ?? 0) - (calls[0] ?? 0), 30_000);
  });
});

test('resync enqueues every cached object each period', async () => {
  await withRuntime('1m', () => undefined, async (clock, calls, settled) => {
    await clock.advance(59_000);
    await flushMicrotasks();
    assert.equal(calls.length, 1);
    await clock.advance(1_000);
    await settled(2);
    await clock.advance(60_000);
    await settled(3);
  });
});
