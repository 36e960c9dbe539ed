import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeError } from '../../src/errors.js';
import { ExponentialFailureRateLimiter } from '../../src/controller/rate-limiter.js';
import { Workqueue, type WorkqueueObserver } from '../../src/controller/workqueue.js';
import { FakeClock, flushMicrotasks } from '../support/fake-clock.js';

interface Recorded {
  depths: number[];
  added: string[];
  dropped: string[];
  waited: number[];
}

function recorder(): { observer: WorkqueueObserver; seen: Recorded } {
  const seen: Recorded = { depths: [], added: [], dropped: [], waited: [] };
  const observer: WorkqueueObserver = {
    depth: (n) => void seen.depths.push(n),
    added: (key) => void seen.added.push(key),
    dropped: (key) => void seen.dropped.push(key),
    waited: (seconds) => void seen.waited.push(seconds),
  };
  return { observer, seen };
}

/** Takes every ready key without blocking (each stays in the processing set). */
async function takeAll(queue: Workqueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.length > 0) {
    const key = await queue.get();
    if (key !== undefined) keys.push(key);
  }
  return keys;
}

/** Shuts the queue down and checks that nothing is left running on the clock. */
function close(queue: Workqueue, clock: FakeClock): void {
  queue.shutDown();
  assert.equal(clock.pending, 0, 'a timer outlived shutDown()');
}

describe('Workqueue', () => {
  test('hands ready keys out in FIFO order and deduplicates waiting keys', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    for (const key of ['a', 'b', 'a', 'c', 'b']) assert.equal(queue.add(key), true);
    assert.equal(queue.length, 3);
    assert.deepEqual(await takeAll(queue), ['a', 'b', 'c']);
    assert.equal(queue.processing, 3);
    close(queue, clock);
  });

  test('a key added while processing is not handed out again until done, then runs once more', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.add('a');
    assert.equal(await queue.get(), 'a');
    queue.add('a');
    queue.add('a');
    assert.equal(queue.length, 0, 'a key being processed must not be ready');
    let second: string | undefined = 'pending';
    const next = queue.get().then((key) => (second = key));
    await flushMicrotasks();
    assert.equal(second, 'pending');
    queue.done('a');
    await next;
    assert.equal(second, 'a');
    queue.done('a');
    assert.equal(queue.length, 0, 'two adds during processing give one more run, not two');
    assert.equal(queue.processing, 0);
    close(queue, clock);
  });

  test('done for a key that is not processing changes nothing', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.add('a');
    queue.done('a');
    queue.done('never-added');
    assert.deepEqual(await takeAll(queue), ['a']);
    close(queue, clock);
  });

  test('serves waiting get() callers in the order they called', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    const got: Array<[number, string | undefined]> = [];
    const callers = [0, 1, 2].map((i) => queue.get().then((key) => void got.push([i, key])));
    queue.add('x');
    queue.add('y');
    queue.add('z');
    await Promise.all(callers);
    assert.deepEqual(got, [[0, 'x'], [1, 'y'], [2, 'z']]);
    close(queue, clock);
  });

  test('a get() whose signal aborts resolves undefined and is skipped', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    const controller = new AbortController();
    const first = queue.get(controller.signal);
    const second = queue.get();
    controller.abort();
    assert.equal(await first, undefined);
    queue.add('a');
    assert.equal(await second, 'a');
    assert.equal(await queue.get(AbortSignal.abort()), undefined);
    close(queue, clock);
  });

  test('addAfter makes a key ready at its deadline, and the earliest deadline wins', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.addAfter('a', 1000);
    queue.addAfter('a', 300);
    queue.addAfter('b', 200);
    assert.equal(queue.delayed, 2);
    assert.equal(queue.length, 0, 'a delayed key is not ready before its deadline');
    await clock.advance(199);
    assert.equal(queue.length, 0);
    await clock.advance(1);
    assert.deepEqual(await takeAll(queue), ['b']);
    await clock.advance(100);
    assert.deepEqual(await takeAll(queue), ['a']);
    assert.equal(queue.delayed, 0);
    await clock.advance(1000);
    assert.equal(queue.length, 0, 'the later deadline was dropped, not kept as a second run');
    assert.equal(clock.pending, 0);
    close(queue, clock);
  });

  test('a later addAfter keeps the earlier deadline', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.addAfter('a', 100);
    queue.addAfter('a', 5000);
    await clock.advance(100);
    assert.deepEqual(await takeAll(queue), ['a']);
    queue.done('a');
    await clock.advance(10_000);
    assert.equal(queue.length, 0);
    close(queue, clock);
  });

  test('keys with the same deadline fall due in the order they were delayed', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    for (const key of ['c', 'a', 'd', 'b']) queue.addAfter(key, 50);
    queue.add('first');
    await clock.advance(50);
    assert.deepEqual(await takeAll(queue), ['first', 'c', 'a', 'd', 'b']);
    close(queue, clock);
  });

  test('add on a delayed key makes it ready now and drops the delayed entry', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.addAfter('a', 500);
    queue.add('a');
    assert.equal(queue.delayed, 0);
    assert.equal(clock.pending, 0, 'no timer is kept for a dropped entry');
    assert.deepEqual(await takeAll(queue), ['a']);
    queue.done('a');
    await clock.advance(1000);
    assert.equal(queue.length, 0);
    close(queue, clock);
  });

  test('addAfter on a ready key does nothing; a delay of 0 or less adds now', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.add('a');
    queue.addAfter('a', 100);
    assert.equal(queue.delayed, 0);
    queue.addAfter('b', 0);
    queue.addAfter('c', -5);
    assert.deepEqual(await takeAll(queue), ['a', 'b', 'c']);
    close(queue, clock);
  });

  test('a delayed key falling due while it is processing runs once more after done', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.add('a');
    assert.equal(await queue.get(), 'a');
    queue.addAfter('a', 10);
    await clock.advance(10);
    assert.equal(queue.length, 0);
    queue.done('a');
    assert.deepEqual(await takeAll(queue), ['a']);
    close(queue, clock);
  });

  test('addRateLimited delays by the rate limiter, forget and numRequeues delegate to it', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock, rateLimiter: new ExponentialFailureRateLimiter({ baseDelayMs: 100 }) });
    queue.addRateLimited('a');
    assert.equal(queue.numRequeues('a'), 1);
    await clock.advance(99);
    assert.equal(queue.length, 0);
    await clock.advance(1);
    assert.deepEqual(await takeAll(queue), ['a']);
    queue.addRateLimited('a');
    queue.done('a');
    await clock.advance(199);
    assert.equal(queue.length, 0);
    await clock.advance(1);
    assert.equal(queue.length, 1);
    queue.forget('a');
    assert.equal(queue.numRequeues('a'), 0);
    close(queue, clock);
  });

  test('the default rate limiter backs off from 5 ms on the queue clock', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.addRateLimited('a');
    queue.addRateLimited('b');
    queue.addRateLimited('b');
    await clock.advance(5);
    assert.deepEqual(await takeAll(queue), ['a', 'b'], 'b keeps its earliest deadline (5 ms), not 10 ms');
    assert.equal(queue.numRequeues('b'), 2);
    close(queue, clock);
  });

  test('refuses keys beyond maxDepth and reports each refusal', async () => {
    const clock = new FakeClock();
    const { observer, seen } = recorder();
    const queue = new Workqueue({ clock, maxDepth: 2, observer });
    assert.deepEqual(['a', 'b', 'a', 'c'].map((key) => queue.add(key)), [true, true, true, false]);
    assert.deepEqual(seen.dropped, ['c']);
    assert.deepEqual(seen.added, ['a', 'b']);
    // A processing key frees its place, but a rerun mark takes one.
    assert.equal(await queue.get(), 'a');
    assert.equal(queue.add('a'), true);
    assert.equal(queue.add('d'), false);
    // Delayed keys do not count until due; one that falls due on a full queue is dropped too.
    queue.addAfter('e', 10);
    assert.equal(queue.delayed, 1);
    await clock.advance(10);
    assert.deepEqual(seen.dropped, ['c', 'd', 'e']);
    assert.ok(Math.max(...seen.depths) <= 2);
    assert.ok(queue.length <= 2);
    close(queue, clock);
  });

  test('a refused add keeps the key’s delayed entry', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock, maxDepth: 1 });
    queue.add('a');
    queue.addAfter('b', 100);
    assert.equal(queue.add('b'), false);
    assert.equal(queue.delayed, 1);
    assert.equal(await queue.get(), 'a');
    await clock.advance(100);
    assert.deepEqual(await takeAll(queue), ['b']);
    close(queue, clock);
  });

  test('reports depth changes and the wait from add to get in seconds', async () => {
    const clock = new FakeClock();
    const { observer, seen } = recorder();
    const queue = new Workqueue({ clock, observer });
    queue.add('a');
    queue.add('b');
    await clock.advance(1500);
    assert.equal(await queue.get(), 'a');
    await clock.advance(500);
    assert.equal(await queue.get(), 'b');
    assert.deepEqual(seen.waited, [1.5, 2]);
    assert.deepEqual(seen.depths, [1, 2, 1, 0]);
    // A key handed straight to a waiting caller waited 0 s and never showed in the depth.
    const waiting = queue.get();
    queue.add('c');
    assert.equal(await waiting, 'c');
    assert.deepEqual(seen.waited, [1.5, 2, 0]);
    assert.deepEqual(seen.depths, [1, 2, 1, 0]);
    close(queue, clock);
  });

  test('the wait of a key re-added while processing starts at the add', async () => {
    const clock = new FakeClock();
    const { observer, seen } = recorder();
    const queue = new Workqueue({ clock, observer });
    queue.add('a');
    await queue.get();
    queue.add('a');
    await clock.advance(250);
    queue.done('a');
    await queue.get();
    assert.deepEqual(seen.waited, [0, 0.25]);
    close(queue, clock);
  });

  test('shutDown resolves waiting callers, refuses adds without counting drops, and clears timers', async () => {
    const clock = new FakeClock();
    const { observer, seen } = recorder();
    const queue = new Workqueue({ clock, observer });
    const waiting = [queue.get(), queue.get()];
    queue.addAfter('later', 60_000);
    queue.addRateLimited('retry');
    assert.equal(clock.pending, 1, 'one timer for all delayed keys');
    queue.shutDown();
    assert.deepEqual(await Promise.all(waiting), [undefined, undefined]);
    assert.equal(clock.pending, 0);
    assert.equal(queue.shuttingDown, true);
    assert.equal(queue.add('a'), false);
    queue.addAfter('b', 10);
    queue.addRateLimited('c');
    assert.equal(await queue.get(), undefined);
    assert.deepEqual(seen.dropped, []);
    assert.equal(clock.pending, 0);
    queue.shutDown();
  });

  test('shutDown discards keys not yet handed out; handed-out keys still finish', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.add('a');
    queue.add('b');
    assert.equal(await queue.get(), 'a');
    queue.add('a');
    queue.shutDown();
    assert.equal(queue.length, 0);
    assert.equal(queue.processing, 1);
    queue.done('a');
    assert.equal(queue.processing, 0);
    assert.equal(await queue.get(), undefined, 'the rerun mark was discarded at shutdown');
    assert.equal(clock.pending, 0);
  });

  test('shutDownWithDrain waits for keys in flight', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.add('a');
    queue.add('b');
    await takeAll(queue);
    let drained = false;
    const drain = queue.shutDownWithDrain().then(() => (drained = true));
    queue.done('a');
    await flushMicrotasks();
    assert.equal(drained, false, 'b is still processing');
    queue.done('b');
    await drain;
    assert.equal(drained, true);
    assert.equal(clock.pending, 0);
    await queue.shutDownWithDrain();
  });

  test('shutDownWithDrain gives up when its signal aborts', async () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ clock });
    queue.add('stuck');
    await queue.get();
    const controller = new AbortController();
    const drain = queue.shutDownWithDrain(controller.signal);
    controller.abort();
    await drain;
    assert.equal(queue.processing, 1);
    await queue.shutDownWithDrain(AbortSignal.abort());
    assert.equal(clock.pending, 0);
  });

  test('rejects a maxDepth below 1', () => {
    assert.throws(() => new Workqueue({ maxDepth: 0 }), RuntimeError);
    assert.throws(() => new Workqueue({ maxDepth: Number.NaN }), /maxDepth/);
  });
});
