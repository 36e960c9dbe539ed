import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ReconcileSlots } from '../../src/controller/reconcile-slots.js';
import { resolveOptions } from '../../src/options.js';
import { WorkerPool } from '../../src/controller/workers.js';
import { Workqueue } from '../../src/controller/workqueue.js';
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

describe('ReconcileSlots', () => {
  test('hands out at most `limit` slots, then serves waiters first come first served', async () => {
    const slots = new ReconcileSlots(2);
    const never = new AbortController().signal;
    assert.equal(slots.tryAcquire(), true);
    assert.equal(await slots.acquire(never), true);
    assert.equal(slots.tryAcquire(), false);
    const order: string[] = [];
    const first = slots.acquire(never).then((got) => order.push(`first ${got}`));
    const second = slots.acquire(never).then((got) => order.push(`second ${got}`));
    // A free slot goes to the waiters, not to a worker asking later.
    slots.release();
    assert.equal(slots.tryAcquire(), false);
    await first;
    assert.deepEqual(order, ['first true']);
    slots.release();
    await second;
    assert.deepEqual(order, ['first true', 'second true']);
    slots.release();
    slots.release();
    assert.equal(slots.inUse, 0);
  });

  test('a waiter whose signal fires gets no slot and leaves the line', async () => {
    const slots = new ReconcileSlots(1);
    assert.equal(slots.tryAcquire(), true);
    const abort = new AbortController();
    const waiting = slots.acquire(abort.signal);
    assert.equal(slots.queued, 1);
    abort.abort();
    assert.equal(await waiting, false);
    assert.equal(slots.queued, 0);
    slots.release();
    assert.equal(slots.inUse, 0);
    assert.equal(await slots.acquire(abort.signal), false, 'an aborted signal never takes a slot');
  });
});

describe('WorkerPool with shared ReconcileSlots', () => {
  test('pools of several CRDs never run more reconciles at once than the runtime-wide limit, and every key is reconciled', async () => {
    const slots = new ReconcileSlots(3);
    let inFlight = 0;
    let most = 0;
    const reconciled = new Map<string, number>();
    const reconcile = async (key: string): Promise<ReconcileOutcome> => {
      inFlight++;
      most = Math.max(most, inFlight);
      await tick();
      await tick();
      inFlight--;
      reconciled.set(key, (reconciled.get(key) ?? 0) + 1);
      return { result: 'success' };
    };
    const queues = [new Workqueue(), new Workqueue()];
    const pools = queues.map(
      (queue) => new WorkerPool({ queue, count: 4, clock: systemClock, timeoutMs: 60_000, reconcile, onReconciled: () => undefined, onActive: () => undefined, slots }),
    );
    queues.forEach((queue, crd) => {
      for (let i = 0; i < 50; i++) queue.add(`crd${crd}/key${i}`);
    });
    for (const pool of pools) pool.start();
    await until(() => reconciled.size === 100, 'every key reconciled');
    for (const queue of queues) queue.shutDown();
    await Promise.all(pools.map((pool) => pool.finished()));
    assert.equal(most, 3, `${most} reconciles ran at once with a limit of 3 (8 workers)`);
    assert.deepEqual([...new Set(reconciled.values())], [1], 'each key reconciled once');
    assert.equal(slots.inUse, 0);
  });

  test('a pool halted while its worker waits for a slot puts the key it took back in its queue', async () => {
    const slots = new ReconcileSlots(1);
    assert.equal(slots.tryAcquire(), true); // another CRD's reconcile holds the only slot
    const queue = new Workqueue();
    const reconciled: string[] = [];
    const pool = new WorkerPool({
      queue,
      count: 1,
      clock: systemClock,
      timeoutMs: 60_000,
      reconcile: (key) => {
        reconciled.push(key);
        return Promise.resolve({ result: 'success' });
      },
      onReconciled: () => undefined,
      onActive: () => undefined,
      slots,
    });
    queue.add('default/a');
    pool.start();
    await until(() => slots.queued === 1, 'the worker to wait for a slot');
    assert.equal(queue.length, 0, 'the worker took the key');
    pool.halt(new Error('leadership lost'));
    await pool.finished();
    assert.deepEqual(reconciled, []);
    assert.equal(queue.length, 1, 'the key is ready again for the next term');
    assert.equal(await queue.get(), 'default/a');
    queue.shutDown();
    slots.release();
  });
});

describe('maxConcurrentReconciles', () => {
  test('defaults to 64, takes Infinity, and refuses anything but an integer >= 1 with the option named', () => {
    assert.equal(resolveOptions({}).maxConcurrentReconciles, 64);
    assert.equal(resolveOptions({ maxConcurrentReconciles: Infinity }).maxConcurrentReconciles, Infinity);
    for (const bad of [0, -1, 2.5, Number.NaN]) {
      assert.throws(() => resolveOptions({ maxConcurrentReconciles: bad }), /maxConcurrentReconciles: must be an integer >= 1 or Infinity/);
    }
  });
});
