// Random operations against a workqueue drained by simulated concurrent workers.
// (`addLow`, the resync's lane, is mixed in.) Checked: (1) no key is held by two workers at once, (2) no lost wakeup: once everything has settled, every key
// accepted to run was processed after the request, (3) the ready queue never exceeds maxDepth; and the queue leaves
// no timer behind at shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Workqueue } from '../../src/controller/workqueue.js';
import { FakeClock } from '../support/fake-clock.js';

type Op =
  | { readonly kind: 'add'; readonly key: string }
  | { readonly kind: 'addLow'; readonly key: string }
  | { readonly kind: 'addAfter'; readonly key: string; readonly delay: number }
  | { readonly kind: 'addRateLimited'; readonly key: string }
  | { readonly kind: 'forget'; readonly key: string }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'finish'; readonly worker: number };

const key = fc.constantFrom('ns/a', 'ns/b', 'ns/c', 'ns/d', 'ns/e', 'other/a');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), key }),
  fc.record({ kind: fc.constant('addLow' as const), key }),
  fc.record({ kind: fc.constant('addAfter' as const), key, delay: fc.integer({ min: -5, max: 2000 }) }),
  fc.record({ kind: fc.constant('addRateLimited' as const), key }),
  fc.record({ kind: fc.constant('forget' as const), key }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 1500 }) }),
  fc.record({ kind: fc.constant('finish' as const), worker: fc.nat({ max: 3 }) }),
  fc.record({ kind: fc.constant('finish' as const), worker: fc.nat({ max: 3 }) }),
);

/** Lets every pending promise continuation run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function run(workers: number, maxDepth: number, ops: readonly Op[]): Promise<void> {
  const clock = new FakeClock();
  const problems: string[] = [];
  /** Key -> the step of its oldest request not yet followed by the start of a processing. */
  const owed = new Map<string, number>();
  const queue = new Workqueue({
    clock,
    maxDepth,
    observer: {
      depth: (n) => {
        if (n > maxDepth) problems.push(`depth ${n} > maxDepth ${maxDepth}`);
      },
      // A refused request is not owed a run (SPEC §5: the next resync brings it back).
      dropped: (k) => void owed.delete(k),
    },
  });
  const holder = new Map<string, number>();
  const gates = new Map<number, () => void>();
  let step = 0;

  const worker = async (id: number): Promise<void> => {
    for (;;) {
      const k = await queue.get();
      if (k === undefined) return;
      const other = holder.get(k);
      if (other !== undefined) problems.push(`step ${step}: ${k} handed to worker ${id} while worker ${other} holds it`);
      holder.set(k, id);
      owed.delete(k);
      await new Promise<void>((resolve) => gates.set(id, resolve));
      holder.delete(k);
      queue.done(k);
    }
  };
  const finish = async (id: number): Promise<void> => {
    const open = gates.get(id);
    gates.delete(id);
    open?.();
    await settle();
  };
  const request = (k: string): void => {
    if (!owed.has(k)) owed.set(k, step);
  };

  const running = Array.from({ length: workers }, (_, id) => worker(id));
  for (const next of ops) {
    step += 1;
    switch (next.kind) {
      case 'add':
        if (queue.add(next.key)) request(next.key);
        break;
      case 'addLow':
        if (queue.addLow(next.key)) request(next.key);
        break;
      case 'addAfter':
        request(next.key);
        queue.addAfter(next.key, next.delay);
        break;
      case 'addRateLimited':
        request(next.key);
        queue.addRateLimited(next.key);
        break;
      case 'forget':
        queue.forget(next.key);
        break;
      case 'advance':
        await clock.advance(next.ms);
        break;
      case 'finish':
        await finish(next.worker % workers);
        break;
    }
    await settle();
    if (queue.length > maxDepth) problems.push(`step ${step}: length ${queue.length} > maxDepth ${maxDepth}`);
    if (queue.processing !== holder.size) problems.push(`step ${step}: processing ${queue.processing} but ${holder.size} held`);
  }

  // Quiescence: let every deadline pass (backoff caps at 1000 s) and let the workers finish whatever they hold.
  for (let round = 0; round < 500 && (holder.size > 0 || queue.length > 0 || queue.delayed > 0); round++) {
    await clock.advance(1_000_001);
    for (let id = 0; id < workers; id++) await finish(id);
  }
  assert.deepEqual(problems, []);
  assert.equal(holder.size, 0, 'quiescence reached');
  assert.deepEqual([...owed], [], 'keys requested but never processed afterwards (lost wakeup)');

  queue.shutDown();
  await Promise.all(running);
  assert.equal(clock.pending, 0, 'a timer outlived shutDown()');
}

test('workqueue: exclusive hand-out, no lost wakeup, bounded depth under random operations', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }),
      fc.constantFrom(Infinity, 1, 2, 3, 5),
      fc.array(op, { minLength: 1, maxLength: 80, size: 'max' }),
      (workers, maxDepth, ops) => run(workers, maxDepth, ops),
    ),
    { numRuns: 300 },
  );
});
