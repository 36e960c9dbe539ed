// Autoscale time windows end to end against the test API server (real client-node over HTTP), on an injected clock
// that stands one second before 09:00 on a Monday and moves only when the test moves it (the runtime's `clock`
// option): a CRD declared with one worker runs one reconcile at a time; at 09:00 exactly Orkestra's
// `cron: "0 9 * * 1-5"` window opens and four run at once, although the rule's interval is an hour (the autoscaler
// evaluates at the window's boundary); the window closes after its `duration` and, after the cool-down, the declared
// single worker is back. Real time only carries the HTTP traffic, so a loaded machine cannot move a boundary.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Logger } from '../../src/observe/logger.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';
import { FakeClock, flushMicrotasks } from '../support/fake-clock.js';

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

/** 09:00 local time on Monday 5 January 2026; the runtime starts a second before it. */
const OPENING = new Date(2026, 0, 5, 9, 0).getTime();
const WINDOW_MS = 5000;
const COOLDOWN_MS = 300;

describe('autoscale time windows: the rule follows the clock, at its boundaries', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const logs: string[] = [];
  let running = 0;
  const waiting: Array<() => void> = [];
  const clock = new FakeClock(OPENING - 1000);
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
    const stopping = runtime.stop();
    await clock.advance(60_000);
    await stopping;
    await server.stop();
  });
  /** What the log says about the autoscaler, after the moved clock's timers and their promise chains have run. */
  const autoscaleLog = async (): Promise<string[]> => {
    await flushMicrotasks();
    return logs.filter((line) => line.startsWith('autoscale'));
  };
  const workersMax = async (): Promise<string | undefined> => /controller_workers_max\{crd="task"\} (\d+)/.exec(await runtime.registry.metrics())?.[1];

  test('one worker before 09:00, four from 09:00, one again after the window and the cool-down', async () => {
    for (let i = 0; i < 6; i++) server.create(task(`t${i}`));
    await waitFor('the first task running', () => running === 1);
    await clock.advance(999);
    assert.deepEqual(await autoscaleLog(), [], 'nothing at 08:59:59.999');
    assert.equal(running, 1, 'one worker before 09:00');
    assert.equal(await workersMax(), '1');

    await clock.advance(1);
    assert.deepEqual(await autoscaleLog(), ['autoscale: override applied'], 'applied at 09:00, not an interval (1 h) later');
    await waitFor('four tasks at once from 09:00', () => running === 4);
    assert.equal(await workersMax(), '4');

    await clock.advance(WINDOW_MS - 1);
    assert.deepEqual(await autoscaleLog(), ['autoscale: override applied'], 'still in force at the last instant of the window');
    await clock.advance(1 + COOLDOWN_MS - 1);
    assert.deepEqual(await autoscaleLog(), ['autoscale: override applied'], 'the window closed, the cool-down not over yet');
    await clock.advance(1);
    assert.deepEqual(await autoscaleLog(), ['autoscale: override applied', 'autoscale: declared settings restored'], 'restored when the cool-down ends');
    assert.equal(await workersMax(), '1');
    assert.equal(running, 4, 'the four reconciles under way finish; no new one starts beside them');
  });
});
