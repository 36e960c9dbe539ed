// Workqueue throughput: add/get/done of 100k distinct keys, and addAfter of 100k keys with random deadlines, each
// against a plain-array baseline measured in the same run. Run: npx tsx bench/workqueue.ts [keys]
import { performance } from 'node:perf_hooks';
import type { Clock, TimerHandle } from '../src/util/clock.js';
import { Workqueue } from '../src/controller/workqueue.js';

const keys = Number(process.argv[2] ?? 100_000);
const names = Array.from({ length: keys }, (_, i) => `namespace-${i % 97}/object-${i}`);
const delays = Array.from({ length: keys }, (_, i) => ((i * 7919) % 10_000) + 1);

/** A clock whose single pending timer the bench fires by hand (the workqueue keeps at most one). */
class ManualClock implements Clock {
  private current = 0;
  private timer: { at: number; fn: () => void } | undefined;
  now(): number {
    return this.current;
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    this.timer = { at: this.current + ms, fn };
    return this.timer;
  }
  clearTimeout(handle: TimerHandle): void {
    if (handle === this.timer) this.timer = undefined;
  }
  /** Fires timers until none is left; returns how many fired. */
  runAll(): number {
    let fired = 0;
    for (let timer = this.timer; timer !== undefined; timer = this.timer) {
      this.timer = undefined;
      this.current = Math.max(this.current, timer.at);
      timer.fn();
      fired += 1;
    }
    return fired;
  }
}

async function best(label: string, run: () => Promise<void> | void, repeats = 3): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  console.log(`${label.padEnd(48)} ${fastest.toFixed(1).padStart(8)} ms  ${((keys / fastest) * 1000).toFixed(0).padStart(10)} keys/s`);
  return fastest;
}

const syncArray = await best('baseline: array push + shift', () => {
  const queue: string[] = [];
  for (const name of names) queue.push(name);
  let seen = 0;
  while (queue.length > 0) if (queue.shift() !== undefined) seen += 1;
  if (seen !== keys) throw new Error('baseline lost keys');
});

const asyncArray = await best('baseline: array push + awaited shift', async () => {
  const queue: string[] = [];
  for (const name of names) queue.push(name);
  let seen = 0;
  while (queue.length > 0) if ((await Promise.resolve(queue.shift())) !== undefined) seen += 1;
  if (seen !== keys) throw new Error('baseline lost keys');
});

const workqueue = await best('Workqueue: add, then get + done', async () => {
  const queue = new Workqueue({ clock: new ManualClock() });
  for (const name of names) queue.add(name);
  let seen = 0;
  for (let key = await queue.get(); key !== undefined; key = queue.length > 0 ? await queue.get() : undefined) {
    queue.done(key);
    seen += 1;
  }
  queue.shutDown();
  if (seen !== keys) throw new Error(`workqueue handed out ${seen} of ${keys} keys`);
});

const sorted = await best('baseline: array of deadlines, sorted once', () => {
  const entries = names.map((name, i) => ({ name, at: delays[i] ?? 0 }));
  entries.sort((a, b) => a.at - b.at);
  if (entries.length !== keys) throw new Error('baseline lost keys');
});

const delayed = await best('Workqueue: addAfter (random deadlines), fire all', () => {
  const clock = new ManualClock();
  const queue = new Workqueue({ clock });
  names.forEach((name, i) => queue.addAfter(name, delays[i] ?? 0));
  clock.runAll();
  if (queue.length !== keys) throw new Error(`only ${queue.length} of ${keys} delayed keys fell due`);
  queue.shutDown();
});

console.log();
console.log(`Workqueue add/get/done vs array push/shift:          ${(workqueue / syncArray).toFixed(2)}x the time`);
console.log(`Workqueue add/get/done vs array push/awaited shift:  ${(workqueue / asyncArray).toFixed(2)}x the time`);
console.log(`Workqueue addAfter + due vs one sort of deadlines:   ${(delayed / sorted).toFixed(2)}x the time`);
