// An autoscale condition's own `source` that names a CRD of the same definition is not fetched: the runtime holds
// that CRD's figures in process (Orkestra's registry, which it reads first too), as a cross entry's source beside a
// CRD of the definition is not used (docs/orkestra-compatibility.md#autoscale-condition-source). End to end: the
// processor's rule reads cross.loader.metrics.queueDepth with a source on 127.0.0.1 that would answer an empty
// queue; a backlog of the loader run by the same runtime brings four workers (the in-process figure), and the
// source's server is never asked, although the rule is evaluated every 50 ms.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';
import { localServer } from '../support/local-server.js';

const katalog = (port: number): string => `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: sibling-source }
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
                source: { host: "http://127.0.0.1:${port}", type: metrics }
          do: { workers: 4 }
`;

describe("autoscale condition source naming a CRD of the same definition: read in process, never fetched", () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const waiting: Array<() => void> = [];
  const asked: string[] = [];
  const source = localServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'loader', metrics: { queueDepth: 0 } }));
  });
  const hooks: Record<string, Hooks> = {
    LoaderHooks: { onReconcile: () => new Promise<void>((resolve) => waiting.push(resolve)) },
  };
  const metric = async (pattern: RegExp): Promise<string | undefined> => pattern.exec(await runtime.registry.metrics())?.[1];
  const workersMax = (crd: string): Promise<string | undefined> => metric(new RegExp(`controller_workers_max\\{crd="${crd}"\\} (\\d+)`));

  before(async () => {
    const port = await source.start();
    server = await startTestApiServer();
    for (const kind of ['Loader', 'Processor']) {
      server.create(crdManifest({ group: 'demo.orkestra.io', kind, plural: `${kind.toLowerCase()}s`, scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(parseDefinition(katalog(port)), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, hooks, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    for (const release of waiting.splice(0)) release();
    await runtime.stop();
    await server.stop();
    await source.stop();
  });

  test("a loader backlog brings the processor's four workers from the in-process figure; the source is not asked", async () => {
    assert.equal(await workersMax('processor'), '1');
    for (let i = 0; i < 8; i++) server.create({ apiVersion: 'demo.orkestra.io/v1alpha1', kind: 'Loader', metadata: { name: `l${i}`, namespace: 'default' }, spec: {} });
    await waitFor("the processor's rule applied", async () => (await workersMax('processor')) === '4');
    await waitFor('the loader drained and the processor back to one worker', async () => {
      for (const release of waiting.splice(0)) release();
      return (await workersMax('processor')) === '1';
    });
    assert.deepEqual(asked, [], 'no request went to the source: the figures were read in process');
    assert.equal(await metric(/controller_cross_source_failures_total\{crd="processor"\} (\d+)/), '0');
  });
});
