// queue.retryBackoff.maxAttempts in the worker pool: a key that fails N times in a row (the first attempt included)
// is no longer retried; the give-up is reported once, with the count and the last error, and the key's next add
// starts a new streak. Without maxAttempts, a failure is retried until it succeeds. A success resets the count.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerPool } from '../../src/controller/workers.js';
import { Workqueue } from '../../src/controller/workqueue.js';
import { defaultControllerRateLimiter } from '../../src/controller/rate-limiter.js';
import type { ReconcileOutcome } from '../../src/reconcile/outcome.js';
import { systemClock } from '../../src/util/clock.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

/** Lets pending retries (1-2 ms delays here) fall due, so that a retry that should not happen would. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 60));

function poolOf(reconcile: (key: string) => ReconcileOutcome, maxAttempts: number | undefined) {
  const queue = new Workqueue({ rateLimiter: defaultControllerRateLimiter({ baseDelayMs: 1, maxDelayMs: 2 }) });
  const gaveUp: { key: string; attempts: number; error: string }[] = [];
  const attempts = new Map<string, number>();
  const pool = new WorkerPool({
    queue,
    count: 2,
    clock: systemClock,
    timeoutMs: 60_000,
    reconcile: (key) => {
      attempts.set(key, (attempts.get(key) ?? 0) + 1);
      return Promise.resolve(reconcile(key));
    },
    onReconciled: () => undefined,
    onActive: () => undefined,
    maxAttempts,
    onGaveUp: (key, count, error) => gaveUp.push({ key, attempts: count, error: error.message }),
  });
  pool.start();
  const stop = async (): Promise<void> => {
    queue.shutDown();
    await pool.finished();
  };
  return { queue, gaveUp, attempts, stop };
}

const failing = (): ReconcileOutcome => ({ result: 'error', error: new Error('hook refused') });

describe('maxAttempts', () => {
  test('a key that always fails runs maxAttempts times, is given up once, and its next add runs it maxAttempts times again', async () => {
    const { queue, gaveUp, attempts, stop } = poolOf(failing, 2);
    queue.add('default/a');
    await until(() => gaveUp.length === 1, 'the give-up');
    await settle();
    assert.equal(attempts.get('default/a'), 2);
    assert.deepEqual(gaveUp, [{ key: 'default/a', attempts: 2, error: 'hook refused' }]);
    assert.equal(queue.numRequeues('default/a'), 0, 'forgotten');
    assert.equal(queue.delayed + queue.length, 0, 'nothing scheduled');
    queue.add('default/a'); // its next change, or the resync
    await until(() => gaveUp.length === 2, 'the second give-up');
    await settle();
    assert.equal(attempts.get('default/a'), 4);
    await stop();
  });

  test('maxAttempts 1 gives up at the first failure; other keys are not affected', async () => {
    const { queue, gaveUp, attempts, stop } = poolOf((key) => (key === 'default/bad' ? failing() : { result: 'success' }), 1);
    queue.add('default/bad');
    queue.add('default/good');
    await until(() => gaveUp.length === 1 && attempts.get('default/good') === 1, 'both keys');
    await settle();
    assert.equal(attempts.get('default/bad'), 1);
    await stop();
  });

  test('a success in between resets the count', async () => {
    let calls = 0;
    // fail, fail, succeed, then fail for ever: with maxAttempts 3 the streak after the success needs 3 more failures.
    const { queue, gaveUp, attempts, stop } = poolOf(() => {
      calls++;
      return calls === 3 ? { result: 'success' } : failing();
    }, 3);
    queue.add('default/a');
    await until(() => calls === 3, 'the success');
    queue.add('default/a');
    await until(() => gaveUp.length === 1, 'the give-up');
    await settle();
    assert.equal(attempts.get('default/a'), 6);
    assert.equal(gaveUp[0]?.attempts, 3);
    await stop();
  });

  test('without maxAttempts a failing key is retried until it succeeds, never given up', async () => {
    let calls = 0;
    const { queue, gaveUp, stop } = poolOf(() => (++calls < 8 ? failing() : { result: 'success' }), undefined);
    queue.add('default/a');
    await until(() => calls === 8, 'eight attempts');
    await settle();
    assert.equal(calls, 8);
    assert.deepEqual(gaveUp, []);
    await stop();
  });
});
