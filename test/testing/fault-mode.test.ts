// The fault mode of katalog/testing (docs/testing.md, "Fault mode"): faults by subresource, answers lost after the
// write committed, stalled watches, outages on the same port, and a chaos preset that a seed makes repeatable.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { expectStatus, waitFor } from './wait-for.js';
import { errorChain } from '../support/client-node-version.js';

describe('fault mode', () => {
  let server: TestApiServer;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer();
    server.applyCrd(crdManifest({ group: 'example.io', kind: 'Gadget', plural: 'gadgets' }));
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  afterEach(() => server.faults.clear());
  after(() => server.stop());

  test('a rule by subresource fails status writes only', async () => {
    server.create({ apiVersion: 'example.io/v1', kind: 'Gadget', metadata: { name: 'st', namespace: 'default' }, spec: { a: 1 } });
    server.faults.failRequests({ verb: 'patch', resource: 'gadgets', subresource: 'status', status: 503 });
    const patch = { headers: { 'content-type': 'application/merge-patch+json' }, method: 'PATCH' };
    const status = await fetch(`${server.url}/apis/example.io/v1/namespaces/default/gadgets/st/status`, { ...patch, body: '{"status":{"x":1}}' });
    assert.equal(status.status, 503);
    const main = await fetch(`${server.url}/apis/example.io/v1/namespaces/default/gadgets/st`, { ...patch, body: '{"spec":{"a":2}}' });
    assert.equal(main.status, 200);
  });

  test('a lost answer: the write is committed, the client gets 504 (or a cut connection)', async () => {
    server.faults.loseAnswers({ verb: 'create', resource: 'configmaps', times: 1 });
    await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'lost' } } }), 504);
    assert.ok(server.get('v1', 'ConfigMap', 'lost', 'default'), 'the create happened');
    await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'lost' } } }), 409);

    server.faults.loseAnswers({ verb: 'patch', resource: 'gadgets', answer: 'cut', times: 1 });
    await assert.rejects(() =>
      fetch(`${server.url}/apis/example.io/v1/namespaces/default/gadgets/st`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: '{"spec":{"a":3}}',
      }),
    );
    assert.equal((server.get('example.io/v1', 'Gadget', 'st', 'default') as { spec: { a: number } }).spec.a, 3, 'the patch happened');
    const log = server.requests.log().filter((r) => r.resource === 'gadgets' && r.verb === 'patch');
    assert.equal(log.at(-1)?.status, 0, 'the request log shows the cut answer as status 0');

    // A write that fails on its own merits is answered as usual.
    server.faults.loseAnswers({ verb: 'create', resource: 'configmaps' });
    await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'lost' } } }), 409);
  });

  test('a stalled watch stays open and silent, without bookmarks or its time-out end, until it is dropped', async () => {
    const events: string[] = [];
    let ended: unknown = 'open';
    const { metadata } = await core.listNamespacedConfigMap({ namespace: 'default' });
    const watch = await new Watch(server.kubeConfig).watch(
      '/api/v1/namespaces/default/configmaps',
      { allowWatchBookmarks: true, timeoutSeconds: 1, resourceVersion: metadata?.resourceVersion },
      (type, object: { metadata?: { name?: string } }) => void events.push(`${type} ${object.metadata?.name ?? ''}`),
      (error) => void (ended = error),
    );
    await waitFor(() => server.watchCount({ resource: 'configmaps' }) === 1, 'the watch');
    assert.equal(server.faults.stallWatches({ resource: 'configmaps', forMs: 1500 }), 1);
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unseen', namespace: 'default' } });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    assert.equal(ended, 'open', 'past its timeoutSeconds, the stalled watch is still open');
    assert.deepEqual(events, [], 'nothing reaches a stalled watch');
    await waitFor(() => ended !== 'open', 'the stalled watch dropped after forMs', 3000);
    assert.notEqual(ended, null, 'a dropped connection, not a clean end');
    watch.abort();
  });

  test('an outage: the port refuses connections, then the same port serves the same state', async () => {
    const url = server.url;
    const outage = server.faults.outage({ downtimeMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await core.listNamespace().then(
      () => 'answered',
      (error: unknown) => errorChain(error),
    );
    await outage;
    assert.match(refused, /ECONNREFUSED/); // client-node 1.4: in the message; 2.x: in the cause of "fetch failed"

    assert.equal(server.url, url);
    assert.ok(await core.readNamespacedConfigMap({ namespace: 'default', name: 'lost' }));
  });

  test('chaos: the same seed makes the same choices; stop() removes every fault', async () => {
    const statuses = async (seed: number): Promise<number[]> => {
      const run = server.faults.chaos({ seed, errorRate: 0.3, lostAnswerRate: 0, latencyMs: 0, outage: false, resources: ['configmaps'] });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await fetch(`${server.url}/api/v1/namespaces/default/configmaps`)).status);
      await run.stop();
      return out;
    };
    const first = await statuses(7);
    assert.deepEqual(await statuses(7), first);
    assert.notDeepEqual(await statuses(8), first);
    assert.ok(first.some((s) => s === 429) && first.some((s) => s === 500 || s === 503) && first.some((s) => s === 200), `a mix: ${first.join(',')}`);
    assert.equal((await fetch(`${server.url}/api/v1/namespaces/default/secrets`)).status, 200, 'resources outside the chaos are spared');
    for (let i = 0; i < 20; i++) assert.equal((await fetch(`${server.url}/api/v1/namespaces/default/configmaps`)).status, 200, 'no fault after stop()');
  });

  test('chaos with its outage: stop() waits until the server listens again', async () => {
    const run = server.faults.chaos({ seed: 3, outage: { afterMs: 20, downtimeMs: 200 } });
    await waitFor(() => run.stats.outages === 1, 'the outage');
    await run.stop();
    assert.equal((await fetch(`${server.url}/api/v1/namespaces`)).status, 200);
  });
});
