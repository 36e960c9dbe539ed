// Autoscale time windows end to end against the test API server (real client-node over HTTP), on a clock shifted to
// just before 09:00 on a Monday (the runtime's `clock` option; timers stay real): a CRD declared with one worker
// runs one reconcile at a time; at 09:00 Orkestra's `cron: "0 9 * * 1-5"` window opens and four run at once,
// although the rule's interval is an hour (the autoscaler evaluates at the window's boundary); the window closes
// after its `duration` and, after the cool-down, the declared single worker is back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Logger } from '../../src/observe/logger.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { systemClock, type Clock } from '../../src/util/clock.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: office-hours }
spec:
  crds:
    task:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Task, plural: tasks }
      operatorBox:
        hooks: { function: TaskHooks }
        status: { conditions: false }
        reconciler: { workers: 1 }
        autoscale:
          interval: 1h
          cooldown: 300ms
          conditions:
            or:
              - cron: "0 9 * * 1-5"
                duration: 5s
          do: { workers: 4 }
`;

/** 09:00 local time on Monday 5 January 2026, and how long before it the runtime starts. */
const OPENING = new Date(2026, 0, 5, 9, 0).getTime();
const LEAD_MS = 4000;
/** The window's length: long enough that an evaluation delayed by a loaded machine still falls inside it. */
const WINDOW_MS = 5000;

describe('autoscale time windows: the rule follows the clock, at its boundaries', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const logs: string[] = [];
  let running = 0;
  const waiting: Array<() => void> = [];
  const offset = OPENING - LEAD_MS - Date.now();
  const clock: Clock = { now: () => Date.now() + offset, setTimeout: systemClock.setTimeout, clearTimeout: systemClock.clearTimeout };
  const hooks: Record<string, Hooks> = {
    TaskHooks: {
      onReconcile: async () => {
        running++;
        await new Promise<void>((resolve) => waiting.push(resolve));
        running--;
      },
    },
  };
  const logger = (): Logger => {
    const line = (message: string): void => void logs.push(message);
    return { debug: () => undefined, info: line, warn: line, error: line, child: () => logger() };
  };
  const task = (name: string): Record<string, unknown> => ({ apiVersion: 'demo.orkestra.io/v1alpha1', kind: 'Task', metadata: { name, namespace: 'default' }, spec: {} });

  before(async () => {
    server = await startTestApiServer();
    server.create(crdManifest({ group: 'demo.orkestra.io', kind: 'Task', plural: 'tasks', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, hooks, logger: logger(), clock, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    for (const release of waiting.splice(0)) release();
    await runtime.stop();
    await server.stop();
  });

  test('one worker before 09:00, four from 09:00, one again after the window and the cool-down', async () => {
    assert.ok(clock.now() < OPENING, `the runtime started before the window opened (it took over ${LEAD_MS} ms)`);
    for (let i = 0; i < 6; i++) server.create(task(`t${i}`));
    await waitFor('the first task running', () => running === 1);
    assert.ok(clock.now() < OPENING - 200, 'checked before the window opens');
    assert.equal(running, 1, 'one worker before 09:00');
    await waitFor('four tasks at once after 09:00', () => running === 4, 15_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; at 09:00 + ${clock.now() - OPENING} ms, ${running} running, log: ${logs.join(' | ')}`);
    });
    assert.ok(clock.now() >= OPENING, 'not before the window opened');
    assert.ok(clock.now() < OPENING + WINDOW_MS, 'at the boundary, not an interval (1 h) later');
    assert.match(await runtime.registry.metrics(), /controller_workers_max\{crd="task"\} 4/);
    await waitFor('the declared single worker back after the window and the cool-down', () => logs.includes('autoscale: declared settings restored'), 10_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; at 09:00 + ${clock.now() - OPENING} ms, log: ${logs.join(' | ')}`);
    });
    assert.ok(clock.now() >= OPENING + WINDOW_MS + 300, 'not before the window closed and the cool-down passed');
    assert.match(await runtime.registry.metrics(), /controller_workers_max\{crd="task"\} 1/);
  });
});
