// client-node's own informer (makeInformer / ListWatch) against the test API server, including its recovery paths.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, ListWatch, Watch, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { waitFor } from './wait-for.js';

describe('informers', () => {
  let server: TestApiServer;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer();
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => server.stop());

  const cm = (name: string, data: Record<string, string> = {}): V1ConfigMap => ({ metadata: { name }, data });

  test('start lists and watches; adds, updates and deletes reach the handlers and the cache', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('before-start') });
    const informer = makeInformer(server.kubeConfig, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    await informer.start();
    try {
      assert.deepEqual(seen, ['add before-start']);
      const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('live') });
      await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'live', body: { ...created, data: { x: '1' } } });
      await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'before-start' });
      await waitFor(() => seen.length === 4, 'four events');
      assert.deepEqual(seen, ['add before-start', 'add live', 'update live', 'delete before-start']);
      assert.deepEqual(informer.get('live', 'default')?.data, { x: '1' });
      assert.equal(informer.list('default').length, 1);
    } finally {
      await informer.stop();
    }
  });

  test('after closeWatches the informer re-watches from its resourceVersion without relisting', async () => {
    const informer = makeInformer(server.kubeConfig, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const added: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (o) => added.push(o.metadata?.name ?? ''));
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      server.requests.reset();
      server.faults.closeWatches();
      await waitFor(() => server.requests.count({ verb: 'watch', resource: 'configmaps' }) === 1, 'the re-watch');
      await core.createNamespacedConfigMap({ namespace: 'default', body: cm('after-close') });
      await waitFor(() => added.includes('after-close'), 'the event after the reconnect');
      assert.equal(server.requests.count({ verb: 'list', resource: 'configmaps' }), 0, 'no relist');
      const watch = server.requests.log().find((r) => r.verb === 'watch');
      assert.match(watch?.path ?? '', /resourceVersion=\d+/);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });

  test('after expireResourceVersions the informer gets 410, relists and sees what changed while it was away', async () => {
    const informer = makeInformer(server.kubeConfig, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    await informer.start();
    try {
      seen.length = 0;
      server.requests.reset();
      // Disconnected: the next watch attempt is refused (the informer stops), then compaction, then changes.
      server.faults.failRequests({ verb: 'watch', resource: 'configmaps', status: 500, times: 1 });
      const stopped = new Promise<void>((resolve) => informer.on('error', () => resolve()));
      server.faults.closeWatches();
      await stopped;
      server.delete('v1', 'ConfigMap', 'live');
      server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'while-away' } });
      server.faults.expireResourceVersions();
      await informer.start();
      await waitFor(() => seen.length === 2, 'the relist diff');
      assert.deepEqual(seen.sort(), ['add while-away', 'delete live']);
      assert.ok(server.requests.count({ verb: 'list', resource: 'configmaps' }) >= 1);
      const statuses = server.requests
        .log()
        .filter((r) => r.verb === 'watch')
        .map((r) => r.status);
      assert.deepEqual(statuses.slice(0, 2), [500, 200], 'the refused watch, then the watch that got the 410 event');
    } finally {
      await informer.stop();
    }
  });

  test('ListWatch with a field selector caches only the selected object', async () => {
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'picked', labels: { pick: 'me' } } });
    const listFn = (): Promise<{ items: V1ConfigMap[]; metadata?: { resourceVersion?: string } }> =>
      core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'metadata.name=picked' });
    const lw = new ListWatch<V1ConfigMap>('/api/v1/namespaces/default/configmaps', new Watch(server.kubeConfig), listFn, false, undefined, 'metadata.name=picked');
    await lw.start();
    try {
      assert.deepEqual(
        lw.list().map((o) => o.metadata?.name),
        ['picked'],
      );
      server.patch('v1', 'ConfigMap', 'picked', { data: { v: '2' } });
      server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'not-picked' } });
      await waitFor(() => lw.get('picked', 'default')?.data?.['v'] === '2', 'the update');
      assert.equal(lw.get('not-picked', 'default'), undefined);
    } finally {
      await lw.stop();
    }
  });
});
