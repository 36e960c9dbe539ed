// Orkestra's queue.behaviour conditions and retryBackoff.maxAttempts at run time, against the test API server with
// the real client-node over HTTP:
// - `ingest` (one worker, maxDepth 2, `onLimit.when: spec.tier equals batch`): while its worker is held by a
//   blocker, the queue fills; a new batch resource is dropped (counted), a new web one is admitted past maxDepth;
//   once the queue drains, the dropped key comes back and is reconciled too (nothing lost);
// - `flaky` (`retryBackoff: {initial: 5ms, maxAttempts: 2}`, a hook that always fails): two attempts, then no more;
//   a Warning Event RetriesExhausted on the resource, the metric, the inspection entry; a spec change runs it twice
//   again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const GROUP = 'drops.orkestra.io';
const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: drops }
spec:
  crds:
    ingest:
      apiTypes: { group: ${GROUP}, version: v1, kind: Ingest, plural: ingests }
      operatorBox:
        hooks: { function: IngestHooks }
        status: { conditions: false }
        reconciler:
          workers: 1
          queue:
            maxDepth: 2
            behaviour:
              onLimit:
                when:
                  - field: spec.tier
                    equals: batch
    flaky:
      apiTypes: { group: ${GROUP}, version: v1, kind: Flaky, plural: flakies }
      operatorBox:
        hooks: { function: FlakyHooks }
        reconciler:
          queue:
            retryBackoff: { initial: 5ms, max: 20ms, maxAttempts: 2 }
`;

describe('Orkestra queue drops and maxAttempts, run', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const reconciled: string[] = [];
  const held: Array<() => void> = [];
  let flakyAttempts = 0;
  const hooks: Record<string, Hooks> = {
    IngestHooks: {
      onReconcile: async (ctx) => {
        const name = ctx.object.metadata?.name ?? '';
        if (name === 'blocker') await new Promise<void>((resolve) => held.push(resolve));
        reconciled.push(name);
      },
    },
    FlakyHooks: {
      onReconcile: () => {
        flakyAttempts++;
        throw new Error('the backend refused the request');
      },
    },
  };
  const metric = async (name: string, crd: string): Promise<number> => Number(new RegExp(`${name}\\{crd="${crd}"\\} (\\d+)`).exec(await runtime.registry.metrics())?.[1] ?? 'NaN');
  const detail = async (crd: string): Promise<Record<string, unknown>> => (await (await runtime.router.request(`/katalog/${crd}`)).json()) as Record<string, unknown>;
  const ingest = (name: string, tier: string): void => void server.create({ apiVersion: `${GROUP}/v1`, kind: 'Ingest', metadata: { name, namespace: 'default' }, spec: { tier } });

  before(async () => {
    server = await startTestApiServer();
    for (const [kind, plural] of [['Ingest', 'ingests'], ['Flaky', 'flakies']] as const) {
      server.applyCrd(crdManifest({ group: GROUP, kind, plural, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(parseDefinition(KATALOG, { source: 'drops.yaml' }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, hooks, rateLimiter: { baseDelay: 5, maxDelay: 50 } });
    await runtime.start();
  });
  after(async () => {
    for (const release of held.splice(0)) release();
    await runtime.stop();
    await server.stop();
  });

  test('a full queue drops only the new keys whose objects match; the others wait past maxDepth; the dropped come back', async () => {
    ingest('blocker', 'web');
    await waitFor('the worker held by the blocker', () => held.length === 1);
    ingest('web-1', 'web');
    ingest('web-2', 'batch'); // below the bound: admitted whatever its tier
    await waitFor('two keys waiting', async () => ((await detail('ingest'))['queueDepth'] as { current: number }).current === 2);
    ingest('batch-3', 'batch');
    await waitFor('the batch key dropped', async () => (await metric('controller_queue_dropped_total', 'ingest')) === 1);
    ingest('web-4', 'web');
    await waitFor('the web key admitted past maxDepth', async () => ((await detail('ingest'))['queueDepth'] as { current: number }).current === 3);
    assert.equal(await metric('controller_queue_dropped_total', 'ingest'), 1);
    for (const release of held.splice(0)) release();
    await waitFor('every resource reconciled', () => ['blocker', 'web-1', 'web-2', 'batch-3', 'web-4'].every((name) => reconciled.includes(name)));
    assert.ok(reconciled.indexOf('web-4') < reconciled.indexOf('batch-3'), `the admitted key ran before the dropped one came back: ${reconciled.join(' ')}`);
  });

  test('maxAttempts 2: two attempts, then a Warning Event, the metric and the inspection entry; a spec change runs it again', async () => {
    server.create({ apiVersion: `${GROUP}/v1`, kind: 'Flaky', metadata: { name: 'f', namespace: 'default' }, spec: { size: 1 } });
    await waitFor('the give-up counted', async () => (await metric('controller_reconcile_retries_exhausted_total', 'flaky')) === 1);
    const events = await waitFor('the Warning Event', () => {
      const found = server.objects({ apiVersion: 'v1', kind: 'Event', namespace: 'default' }).filter((e) => e['reason'] === 'RetriesExhausted');
      return found.length > 0 && found;
    });
    assert.equal(events.length, 1);
    const event = events[0] ?? {};
    assert.equal(event['type'], 'Warning');
    assert.deepEqual({ kind: (event['involvedObject'] as Record<string, unknown>)['kind'], name: (event['involvedObject'] as Record<string, unknown>)['name'] }, { kind: 'Flaky', name: 'f' });
    assert.match(String(event['message']), /failed 2 times in a row \(queue\.retryBackoff\.maxAttempts: 2\).*the backend refused the request/);
    // No third attempt while nothing changes (retries would come every few ms).
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(flakyAttempts, 2);
    assert.equal(await metric('controller_reconcile_total', 'flaky'.concat('",result="error')), 2);
    const retries = (await detail('flaky'))['retries'] as Record<string, unknown>;
    assert.equal(retries['maxAttempts'], 2);
    assert.equal(retries['exhausted'], 1);
    assert.match(String(retries['lastExhausted']), /^\d{4}-\d\d-\d\dT/);
    assert.equal((await detail('ingest'))['retries'], undefined, 'only a CRD that declares maxAttempts shows it');

    server.patch(`${GROUP}/v1`, 'Flaky', 'f', { spec: { size: 2 } }, { namespace: 'default' });
    await waitFor('the second give-up', async () => (await metric('controller_reconcile_retries_exhausted_total', 'flaky')) === 2);
    assert.equal(flakyAttempts, 4);
  });
});
