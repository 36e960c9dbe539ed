// operatorBox.autoscale end to end against the test API server (real client-node over HTTP): a CRD declared with
// one worker runs its reconciles one at a time; a backlog deeper than the rule's threshold brings the rule's four
// workers (four hooks at once, never five); once the queue has drained and the cool-down passed, the declared
// single worker is back (a small batch runs one at a time again).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Logger } from '../../src/observe/logger.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: scaling }
spec:
  crds:
    task:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Task, plural: tasks }
      operatorBox:
        hooks: { function: TaskHooks }
        status: { conditions: false }
        reconciler:
          workers: 1
          autoscale:
            interval: 50ms
            cooldown: 300ms
            conditions:
              when:
                - field: metrics.queueDepth
                  greaterThan: "3"
            do: { workers: 4 }
`;

describe('autoscale: workers follow the queue between the declared count and the rule', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const logs: string[] = [];
  let running = 0;
  let peak = 0;
  const waiting: Array<() => void> = [];
  const hooks: Record<string, Hooks> = {
    TaskHooks: {
      onReconcile: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => waiting.push(resolve));
        running--;
      },
    },
  };
  const logger = (): Logger => {
    const line = (message: string): void => void logs.push(message);
    return { debug: () => undefined, info: line, warn: line, error: line, child: () => logger() };
  };
  const releaseAll = (): void => {
    for (const release of waiting.splice(0)) release();
  };
  const task = (name: string): Record<string, unknown> => ({ apiVersion: 'demo.orkestra.io/v1alpha1', kind: 'Task', metadata: { name, namespace: 'default' }, spec: {} });

  before(async () => {
    server = await startTestApiServer();
    server.create(crdManifest({ group: 'demo.orkestra.io', kind: 'Task', plural: 'tasks', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, hooks, logger: logger(), rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    releaseAll();
    await runtime.stop();
    await server.stop();
  });

  test('a backlog brings four workers; after the cool-down one again', async () => {
    for (let i = 0; i < 12; i++) server.create(task(`t${i}`));
    await waitFor('the rule applied and four hooks running at once', () => running === 4);
    assert.ok(logs.includes('autoscale: override applied'));
    assert.match(await runtime.registry.metrics(), /controller_workers_max\{crd="task"\} 4/, 'the saturation gauge follows the override');
    // Drain the backlog: release whatever runs until every task has had its cycle.
    await waitFor('the backlog drained', () => {
      releaseAll();
      return running === 0 && logs.includes('autoscale: declared settings restored');
    });
    assert.equal(peak, 4, 'never more than the rule asked for');
    assert.match(await runtime.registry.metrics(), /controller_workers_max\{crd="task"\} 1/);
    peak = 0;
    for (let i = 0; i < 3; i++) server.create(task(`small${i}`));
    await waitFor('the small batch started', () => running === 1);
    // One worker: the other two wait in the queue (depth 2, under the threshold) until the first is released.
    for (let i = 0; i < 3; i++) {
      await waitFor(`task ${i} of the batch running alone`, () => running === 1 && waiting.length === 1);
      assert.equal(peak, 1);
      releaseAll();
    }
  });
});
