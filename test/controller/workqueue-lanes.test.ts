import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Workqueue } from '../../src/controller/workqueue.js';
import { FakeClock } from '../support/fake-clock.js';

/** Takes every ready key without blocking (each stays in the processing set). */
async function takeAll(queue: Workqueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.length > 0) {
    const key = await queue.get();
    if (key !== undefined) keys.push(key);
  }
  return keys;
}

describe('workqueue: the low lane of the resync', () => {
  test('a key added while a resync waits runs before the resync keys, which keep their order', async () => {
    const queue = new Workqueue({ clock: new FakeClock() });
    for (const key of ['r1', 'r2', 'r3']) assert.equal(queue.addLow(key), true);
    queue.add('change');
    assert.equal(queue.length, 4);
    assert.deepEqual(await takeAll(queue), ['change', 'r1', 'r2', 'r3']);
    queue.shutDown();
  });

  test('a waiting resync key added again by a change moves ahead, once', async () => {
    const queue = new Workqueue({ clock: new FakeClock() });
    for (const key of ['r1', 'r2', 'r3']) queue.addLow(key);
    queue.add('r3');
    queue.add('r3');
    queue.addLow('r3');
    assert.equal(queue.length, 3);
    assert.deepEqual(await takeAll(queue), ['r3', 'r1', 'r2']);
    assert.equal(queue.length, 0);
    queue.shutDown();
  });

  test('a change already waiting is not pushed back by the resync', async () => {
    const queue = new Workqueue({ clock: new FakeClock() });
    queue.add('a');
    queue.add('b');
    queue.addLow('a');
    queue.add('c');
    assert.deepEqual(await takeAll(queue), ['a', 'b', 'c']);
    queue.shutDown();
  });

  test('a key being processed runs once more after done: in the lane of the add that came meanwhile', async () => {
    const queue = new Workqueue({ clock: new FakeClock() });
    queue.add('busy');
    assert.equal(await queue.get(), 'busy');
    queue.addLow('busy');
    queue.add('other');
    queue.done('busy');
    assert.deepEqual(await takeAll(queue), ['other', 'busy']);
    queue.done('other');
    queue.done('busy');

    queue.add('busy');
    assert.equal(await queue.get(), 'busy');
    queue.addLow('busy');
    queue.add('busy');
    queue.addLow('later');
    queue.done('busy');
    assert.deepEqual(await takeAll(queue), ['busy', 'later']);
    queue.shutDown();
  });

  test('a stale low entry never hands out a key twice or while it is processed', async () => {
    const queue = new Workqueue({ clock: new FakeClock() });
    queue.addLow('k');
    queue.add('k');
    assert.equal(await queue.get(), 'k');
    // Processing k; its old low entry is still in the lane. A resync adds it again while it runs.
    queue.addLow('k');
    queue.addLow('x');
    assert.equal(await queue.get(), 'x');
    assert.equal(queue.length, 0, 'k must wait for done(k)');
    queue.done('k');
    assert.equal(queue.length, 1);
    assert.equal(await queue.get(), 'k');
    queue.done('k');
    queue.done('x');
    assert.equal(queue.length, 0);
    queue.shutDown();
  });

  test('a worker waiting for a key gets a low key, and maxDepth counts both lanes', async () => {
    const queue = new Workqueue({ clock: new FakeClock(), maxDepth: 2 });
    const waiting = queue.get();
    queue.addLow('r1');
    assert.equal(await waiting, 'r1');
    queue.addLow('r2');
    queue.add('c1');
    assert.equal(queue.add('c2'), false, 'the queue is full with one key in each lane');
    assert.equal(queue.addLow('r3'), false);
    queue.shutDown();
    assert.equal(queue.length, 0);
    assert.equal(await queue.get(), undefined);
  });

  test('a resync of a key in backoff runs it now, in the low lane, and drops the delay', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.addAfter('failing', 5000);
    queue.addLow('failing');
    assert.equal(queue.delayed, 0);
    assert.equal(await queue.get(), 'failing');
    queue.shutDown();
    assert.equal(clock.pending, 0);
  });
});
