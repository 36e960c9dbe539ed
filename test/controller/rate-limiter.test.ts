import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeError } from '../../src/errors.js';
import {
  ExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  TokenBucketRateLimiter,
  defaultControllerRateLimiter,
  type RateLimiter,
} from '../../src/controller/rate-limiter.js';
import { FakeClock } from '../support/fake-clock.js';

function fixed(delay: number, requeues = 0): RateLimiter & { forgotten: string[] } {
  const forgotten: string[] = [];
  return { forgotten, when: () => delay, forget: (key) => void forgotten.push(key), numRequeues: () => requeues };
}

describe('ExponentialFailureRateLimiter', () => {
  test('doubles from 5 ms and caps at 1000 s', () => {
    const limiter = new ExponentialFailureRateLimiter();
    const delays = Array.from({ length: 30 }, () => limiter.when('ns/a'));
    assert.deepEqual(delays.slice(0, 6), [5, 10, 20, 40, 80, 160]);
    // 5 * 2^17 = 655 360 ms is the last step under 1000 s; from the 19th failure on the cap holds.
    assert.equal(delays[17], 655_360);
    assert.deepEqual(delays.slice(18), Array(12).fill(1_000_000));
    assert.equal(limiter.numRequeues('ns/a'), 30);
  });

  test('stays at the cap after a very long run of failures', () => {
    const limiter = new ExponentialFailureRateLimiter({ baseDelayMs: 1, maxDelayMs: 50 });
    let last = 0;
    for (let i = 0; i < 1500; i++) last = limiter.when('k');
    assert.equal(last, 50);
  });

  test('counts per key, and forget resets only that key', () => {
    const limiter = new ExponentialFailureRateLimiter();
    limiter.when('a');
    limiter.when('a');
    limiter.when('b');
    assert.equal(limiter.numRequeues('a'), 2);
    assert.equal(limiter.numRequeues('b'), 1);
    limiter.forget('a');
    assert.equal(limiter.numRequeues('a'), 0);
    assert.equal(limiter.when('a'), 5);
    assert.equal(limiter.when('b'), 10);
  });

  test('takes its base and cap from options', () => {
    const limiter = new ExponentialFailureRateLimiter({ baseDelayMs: 100, maxDelayMs: 250 });
    assert.deepEqual([limiter.when('k'), limiter.when('k'), limiter.when('k')], [100, 200, 250]);
  });

  test('rejects impossible options', () => {
    assert.throws(() => new ExponentialFailureRateLimiter({ baseDelayMs: -1 }), RuntimeError);
    assert.throws(() => new ExponentialFailureRateLimiter({ baseDelayMs: Number.NaN }), RuntimeError);
    assert.throws(() => new ExponentialFailureRateLimiter({ baseDelayMs: 10, maxDelayMs: 5 }), /maxDelayMs/);
  });
});

describe('TokenBucketRateLimiter', () => {
  test('lets a burst of 100 through, then spaces retries 100 ms apart at 10 qps', async () => {
    const clock = new FakeClock();
    const limiter = new TokenBucketRateLimiter({ clock });
    for (let i = 0; i < 100; i++) assert.equal(limiter.when(), 0, `call ${i}`);
    assert.deepEqual([limiter.when(), limiter.when(), limiter.when()], [100, 200, 300]);
    // Three tokens are reserved ahead; after 300 ms they are paid back and the next waits one interval.
    await clock.advance(300);
    assert.equal(limiter.when(), 100);
    await clock.advance(100);
    assert.equal(limiter.when(), 100);
    assert.equal(clock.pending, 0);
  });

  test('refills while quiet, but never above the burst', async () => {
    const clock = new FakeClock();
    const limiter = new TokenBucketRateLimiter({ clock, qps: 2, burst: 3 });
    assert.deepEqual([limiter.when(), limiter.when(), limiter.when(), limiter.when()], [0, 0, 0, 500]);
    await clock.advance(60_000);
    assert.deepEqual([limiter.when(), limiter.when(), limiter.when(), limiter.when()], [0, 0, 0, 500]);
  });

  test('is global: neither counts nor forgets keys', () => {
    const limiter = new TokenBucketRateLimiter({ clock: new FakeClock(), burst: 1 });
    assert.equal(limiter.when(), 0);
    limiter.forget();
    assert.equal(limiter.when(), 100);
    assert.equal(limiter.numRequeues(), 0);
  });

  test('rejects impossible options', () => {
    assert.throws(() => new TokenBucketRateLimiter({ qps: 0 }), /qps/);
    assert.throws(() => new TokenBucketRateLimiter({ burst: 0 }), /burst/);
    assert.throws(() => new TokenBucketRateLimiter({ burst: 1.5 }), /burst/);
  });
});

describe('MaxOfRateLimiter', () => {
  test('returns the larger delay, asking every child', () => {
    const calls: string[] = [];
    const a: RateLimiter = { when: (k) => (calls.push(`a:${k}`), 30), forget: () => undefined, numRequeues: () => 1 };
    const b: RateLimiter = { when: (k) => (calls.push(`b:${k}`), 70), forget: () => undefined, numRequeues: () => 4 };
    assert.equal(new MaxOfRateLimiter(a, b).when('k'), 70);
    assert.equal(new MaxOfRateLimiter(b, a).when('k'), 70);
    assert.deepEqual(calls, ['a:k', 'b:k', 'b:k', 'a:k']);
    assert.equal(new MaxOfRateLimiter(a, b).numRequeues('k'), 4);
  });

  test('forgets in every child; with no child every delay is 0', () => {
    const a = fixed(1);
    const b = fixed(2);
    new MaxOfRateLimiter(a, b).forget('k');
    assert.deepEqual([a.forgotten, b.forgotten], [['k'], ['k']]);
    assert.equal(new MaxOfRateLimiter().when('k'), 0);
  });
});

describe('defaultControllerRateLimiter', () => {
  test('backs off per key and forgets after success', () => {
    const limiter = defaultControllerRateLimiter({ clock: new FakeClock() });
    assert.deepEqual([limiter.when('a'), limiter.when('a'), limiter.when('a')], [5, 10, 20]);
    assert.equal(limiter.numRequeues('a'), 3);
    limiter.forget('a');
    assert.equal(limiter.numRequeues('a'), 0);
    assert.equal(limiter.when('a'), 5);
  });

  test('the global bucket takes over when many keys fail at once', () => {
    const limiter = defaultControllerRateLimiter({ clock: new FakeClock() });
    for (let i = 0; i < 96; i++) assert.equal(limiter.when(`key-${i}`), 5);
    // 96 + 4 = 100 tokens spent; the 101st retry waits for the bucket, not for its own 5 ms backoff.
    assert.deepEqual([limiter.when('x'), limiter.when('x'), limiter.when('x'), limiter.when('x')], [5, 10, 20, 40]);
    assert.equal(limiter.when('y'), 100);
  });

  test('passes its options to both limiters', () => {
    const limiter = defaultControllerRateLimiter({ clock: new FakeClock(), baseDelayMs: 1, maxDelayMs: 3, qps: 1, burst: 2 });
    assert.deepEqual([limiter.when('a'), limiter.when('a'), limiter.when('a'), limiter.when('a')], [1, 2, 1000, 2000]);
  });
});
