// The CPU clock the render scheduler times renders with: it counts computation, never waiting, and never more than
// the time that passed (on Node 20/22, where only the process's clock exists, other threads would add to it).
// That waiting counts nothing is tested with the render scheduler (Node 23.9+ only: see WALL_ONLY there).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuMsSince, threadCpuMs } from '../../src/util/thread-cpu.js';

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test('a computation of 30 ms counts as about 30 ms of CPU, and never more than the wall time it took', () => {
  const cpuAt = threadCpuMs();
  const wallAt = performance.now();
  spin(30);
  const cpu = cpuMsSince(cpuAt, wallAt);
  const wall = performance.now() - wallAt;
  assert.ok(cpu <= wall, `${cpu} ms of CPU in ${wall} ms`);
  assert.ok(cpu >= 5, `a busy loop of 30 ms counted only ${cpu} ms of CPU`);
});
