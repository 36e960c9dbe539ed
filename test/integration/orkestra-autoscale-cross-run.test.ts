// Autoscale on another CRD's figures end to end against the test API server (real client-node over HTTP): the
// processor CRD's rule reads `cross.loader.metrics.queueDepth`, the live queue of the loader CRD run by the same
// runtime (Orkestra's in-process registry of autoscale metrics). A backlog on the loader brings the processor's
// four workers; once the loader has drained and the cool-down passed, the processor's declared worker is back.
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
metadata: { name: sibling }
spec:
  crds:
    loader:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Loader, plural: loaders }
      operatorBox:
        hooks: { function: LoaderHooks }
        status: { conditions: false }
        reconciler: { workers: 1 }
    processor:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Processor, plural: processors }
      operatorBox:
        status: { conditions: false }
        reconciler: { workers: 1 }
        autoscale:
          interval: 50ms
          cooldown: 300ms
          conditions:
            when:
              - field: cross.loader.metrics.queueDepth
                greaterThan: "3"
          do: { workers: 4 }
`;

describe("autoscale on another CRD's figures: the processor follows the loader's queue", () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const logs: string[] = [];
  const waiting: Array<() => void> = [];
  const hooks: Record<string, Hooks> = {
    LoaderHooks: { onReconcile: () => new Promise<void>((resolve) => waiting.push(resolve)) },
  };
  const logger = (): Logger => {
    const line = (message: string, fields?: Record<string, unknown>): void => void logs.push(`${String(fields?.crd ?? '')}: ${message}`);
    return { debug: () => undefined, info: line, warn: line, error: line, child: (fields) => ({ ...logger(), info: (m, f) => line(m, { ...fields, ...f }), warn: (m, f) => line(m, { ...fields, ...f }), error: (m, f) => line(m, { ...fields, ...f }) }) };
  };
  const workersMax = async (crd: string): Promise<string | undefined> => new RegExp(`controller_workers_max\\{crd="${crd}"\\} (\\d+)`).exec(await runtime.registry.metrics())?.[1];

  before(async () => {
    server = await startTestApiServer();
    for (const kind of ['Loader', 'Processor']) {
      server.create(crdManifest({ group: 'demo.orkestra.io', kind, plural: `${kind.toLowerCase()}s`, scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, hooks, logger: logger(), rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    for (const release of waiting.splice(0)) release();
    await runtime.stop();
    await server.stop();
  });

  test("a loader backlog brings the processor's four workers; after it drains and the cool-down, one again", async () => {
    assert.equal(await workersMax('processor'), '1');
    for (let i = 0; i < 8; i++) server.create({ apiVersion: 'demo.orkestra.io/v1alpha1', kind: 'Loader', metadata: { name: `l${i}`, namespace: 'default' }, spec: {} });
    await waitFor("the processor's rule applied", async () => (await workersMax('processor')) === '4');
    assert.ok(logs.includes('processor: autoscale: override applied'), logs.join(' | '));
    assert.equal(await workersMax('loader'), '1', "the loader's own workers are untouched");
    await waitFor('the loader drained and the processor back to one worker', async () => {
      for (const release of waiting.splice(0)) release();
      return (await workersMax('processor')) === '1';
    });
    assert.ok(logs.includes('processor: autoscale: declared settings restored'), logs.join(' | '));
  });
});
