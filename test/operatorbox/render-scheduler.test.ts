// The render scheduler measures renders by the CPU they use: a render whose wall time grew while the thread was not
// computing (the machine was loaded, the thread was blocked) does not make its CRD rest; a render that computes for
// longer than the slice does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RENDER_SLICE_MS, REST_FACTOR, RenderScheduler } from '../../src/operatorbox/render-scheduler.js';
import { threadCpuMs } from '../../src/util/thread-cpu.js';

/** Blocks the thread for `ms` of wall time without using CPU (what a descheduled thread looks like from inside). */
function blockWithoutCpu(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Computes until the thread has used `ms` of CPU, however long that takes on a loaded machine. */
function spinCpu(ms: number): void {
  const until = threadCpuMs() + ms;
  let x = 0;
  while (threadCpuMs() < until) x += Math.sqrt(x + 1);
  assert.ok(x > 0);
}

// The first wait compiles and sets things up (a few ms of CPU): done once here, not inside a measured render.
blockWithoutCpu(1);

/**
 * The slice of the wall-time tests: above the CPU a thread spends around a blocking wait on a loaded machine (a few
 * ms at most: waking up, timers), far below the wall time the renders take.
 */
const SLICE_MS = 20;

/**
 * The wall-time tests need a CPU clock of this thread alone (Node 23.9+). On Node 20/22 the scheduler reads the
 * process's CPU, which adds V8's helper threads (concurrent GC and compilation): in a busy suite they spend more than
 * the slice during a 100 ms wait, so "no CPU" cannot be arranged there.
 */
const WALL_ONLY = typeof (process as unknown as { threadCpuUsage?: unknown }).threadCpuUsage === 'function' ? {} : { skip: 'needs process.threadCpuUsage (Node 23.9+)' };

/** The next event-loop iteration, where the slice of inline render time starts again. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Whether a cheap render of `crd` runs inline (synchronously inside `run`) rather than waiting for a turn. */
async function runsInline(scheduler: RenderScheduler, crd: string): Promise<{ inline: boolean; waitedMs: number }> {
  let ran = false;
  const asked = performance.now();
  const done = scheduler.run(crd, () => {
    ran = true;
    return performance.now();
  });
  const inline = ran;
  const at = await done;
  return { inline, waitedMs: at - asked };
}

test('a render slowed by wall time only (no CPU) does not make its CRD rest', WALL_ONLY, async () => {
  const scheduler = new RenderScheduler(SLICE_MS);
  const wall = 5 * SLICE_MS;
  const started = performance.now();
  const cpu = threadCpuMs();
  await scheduler.run('widget', () => blockWithoutCpu(wall));
  assert.ok(performance.now() - started >= wall - 1, 'the render took its wall time');
  assert.ok(threadCpuMs() - cpu < SLICE_MS, 'and used less CPU than the slice');
  await nextTurn();
  const next = await runsInline(scheduler, 'widget');
  assert.equal(next.inline, true, `the next render of the CRD waited ${next.waitedMs.toFixed(1)} ms`);
});

test('wall-time-only renders in one event-loop turn do not use up the slice', WALL_ONLY, async () => {
  const scheduler = new RenderScheduler(SLICE_MS);
  for (let i = 0; i < 3; i++) {
    const next = await runsInline(scheduler, `crd-${i}`);
    assert.equal(next.inline, true, `render ${i} waited for a turn`);
    await scheduler.run(`crd-${i}`, () => blockWithoutCpu(2 * SLICE_MS));
  }
});

test('a render that computes longer than the slice makes its CRD rest, and only that CRD', async () => {
  const scheduler = new RenderScheduler();
  const cpu = 4 * RENDER_SLICE_MS;
  await scheduler.run('hog', () => spinCpu(cpu));
  const after = performance.now();
  await nextTurn();
  const other = await runsInline(scheduler, 'calm');
  assert.equal(other.inline, true, 'another CRD does not rest');
  const next = await runsInline(scheduler, 'hog');
  assert.equal(next.inline, false, 'the CRD that computed rests');
  // It rests REST_FACTOR times the render's CPU time (wall time, from the end of the render).
  const rested = performance.now() - after;
  assert.ok(rested >= REST_FACTOR * cpu - 1, `it rested ${rested.toFixed(1)} ms, expected at least ${REST_FACTOR * cpu} ms`);
});
