// The delayed-keys heap under the workqueue's addAfter: due order, earliest-deadline dedup and its single timer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DelayedKeys } from '../../src/controller/delaying.js';
import { FakeClock } from '../support/fake-clock.js';

type Op =
  | { readonly kind: 'schedule'; readonly key: number; readonly delay: number }
  | { readonly kind: 'delete'; readonly key: number }
  | { readonly kind: 'advance'; readonly ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('schedule' as const), key: fc.nat({ max: 80 }), delay: fc.integer({ min: 0, max: 1000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.nat({ max: 80 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 400 }) }) },
);

test('keys fall due at their earliest deadline, in deadline then scheduling order, with one timer at most', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 300, size: 'max' }), async (ops) => {
      const clock = new FakeClock();
      const fired: Array<[string, number]> = [];
      const delayed = new DelayedKeys(clock, (key) => void fired.push([key, clock.now()]));
      // Reference model: key -> [deadline, order of the last change].
      const model = new Map<string, [number, number]>();
      const expected: Array<[string, number]> = [];
      let order = 0;
      for (const next of ops) {
        if (next.kind === 'schedule') {
          const key = `k${next.key}`;
          const at = clock.now() + next.delay;
          const current = model.get(key);
          if (current === undefined || at < current[0]) model.set(key, [at, order++]);
          delayed.schedule(key, next.delay);
        } else if (next.kind === 'delete') {
          model.delete(`k${next.key}`);
          delayed.delete(`k${next.key}`);
        } else {
          const target = clock.now() + next.ms;
          const due = [...model].filter(([, [at]]) => at <= target).sort(([, a], [, b]) => a[0] - b[0] || a[1] - b[1]);
          for (const [key, [at]] of due) {
            expected.push([key, at]);
            model.delete(key);
          }
          await clock.advance(next.ms);
        }
        assert.equal(delayed.size, model.size);
        assert.equal(clock.pending, model.size === 0 ? 0 : 1);
      }
      assert.deepEqual(fired, expected);
      delayed.clear();
      assert.equal(clock.pending, 0);
    }),
    { numRuns: 120 },
  );
});

test('waits longer than a Node timer can hold are done in steps', async () => {
  const clock = new FakeClock();
  const fired: string[] = [];
  const delayed = new DelayedKeys(clock, (key) => void fired.push(key));
  delayed.schedule('far', 5_000_000_000);
  await clock.advance(2_147_483_647);
  assert.deepEqual(fired, []);
  assert.equal(clock.pending, 1);
  await clock.advance(5_000_000_000 - 2_147_483_648);
  assert.deepEqual(fired, []);
  await clock.advance(1);
  assert.deepEqual(fired, ['far']);
  assert.equal(clock.pending, 0);
});

test('a timer is replaced only when an earlier deadline arrives', async () => {
  const clock = new FakeClock();
  const fired: string[] = [];
  const delayed = new DelayedKeys(clock, (key) => void fired.push(key));
  delayed.schedule('a', 100);
  delayed.schedule('b', 300);
  assert.equal(clock.pending, 1);
  delayed.schedule('c', 50);
  assert.equal(clock.pending, 1);
  delayed.delete('c');
  // The 50 ms timer may stay armed; firing early must not release anything before its deadline.
  await clock.advance(99);
  assert.deepEqual(fired, []);
  await clock.advance(1);
  assert.deepEqual(fired, ['a']);
  delayed.clear();
  assert.equal(clock.pending, 0);
});
