// The HTTP-less methods of the test API server (test setup and assertions) and reset().
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, CustomObjectsApi, Watch } from '@kubernetes/client-node';
import { StatusError, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';
import { widget, widgetCrd } from './widget-crd.js';
import { waitFor } from './wait-for.js';

describe('direct access', () => {
  let server: TestApiServer;
  const clock = new FakeClock(Date.UTC(2030, 4, 6, 7, 8, 9));

  before(async () => {
    server = await startTestApiServer({ clock, namespaces: ['default', 'team'] });
  });
  after(() => server.stop());

  test('direct writes behave like API writes: resourceVersion, managed fields, events to watches, injected clock', async () => {
    const events: string[] = [];
    const controller = await new Watch(server.kubeConfig).watch('/api/v1/namespaces/team/configmaps', {}, (type, obj: { metadata: { name: string } }) => events.push(`${type} ${obj.metadata.name}`), () => undefined);
    const created = server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'direct', namespace: 'team' }, data: { a: '1' } });
    const meta = created['metadata'] as Record<string, unknown>;
    assert.equal(meta['creationTimestamp'], '2030-05-06T07:08:09Z');
    assert.equal((meta['managedFields'] as { manager: string }[])[0]?.manager, 'katalog-testing');
    const updated = server.update({ ...created, data: { a: '2' } });
    assert.ok(Number((updated['metadata'] as Record<string, unknown>)['resourceVersion']) > Number(meta['resourceVersion']));
    server.patch('v1', 'ConfigMap', 'direct', { data: { b: '3' } }, { namespace: 'team' });
    assert.deepEqual(server.get('v1', 'ConfigMap', 'direct', 'team')?.['data'], { a: '2', b: '3' });
    server.delete('v1', 'ConfigMap', 'direct', 'team');
    assert.equal(server.get('v1', 'ConfigMap', 'direct', 'team'), undefined);
    await waitFor(() => events.length === 4, 'four events');
    assert.deepEqual(events, ['ADDED direct', 'MODIFIED direct', 'MODIFIED direct', 'DELETED direct']);
    controller.abort();
  });

  test('errors are thrown as StatusError with the HTTP status and reason', () => {
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dup' } });
    assert.throws(
      () => server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dup' } }),
      (error: unknown) => error instanceof StatusError && error.status === 409 && error.reason === 'AlreadyExists' && error.code === 'E_KUBE',
    );
    assert.throws(() => server.create({ apiVersion: 'nope/v1', kind: 'Thing', metadata: { name: 'x' } }), (error: unknown) => error instanceof StatusError && error.status === 404);
  });

  test('applyCrd makes the kind servable at once and replaces an existing CRD; updateStatus writes status', async () => {
    server.applyCrd(widgetCrd());
    const custom = server.kubeConfig.makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets', body: widget('w') });
    const w = server.get('example.com/v1', 'Widget', 'w');
    assert.ok(w);
    const withStatus = server.updateStatus({ ...w, status: { ready: true } });
    assert.deepEqual(withStatus['status'], { ready: true });
    const crd = widgetCrd();
    crd.spec.names.shortNames = ['wdg'];
    const replaced = server.applyCrd(crd);
    assert.equal((replaced['metadata'] as { generation: number }).generation, 2);
    const discovery = (await fetch(`${server.url}/apis/example.com/v1`).then((r) => r.json())) as { resources: { shortNames?: string[] }[] };
    assert.deepEqual(discovery.resources[0]?.shortNames, ['wdg']);
  });

  test('objects() returns deep copies, filtered', () => {
    const copies = server.objects({ kind: 'Widget' });
    assert.equal(copies.length, 1);
    (copies[0]?.['spec'] as Record<string, unknown>)['size'] = 999;
    assert.equal((server.get('example.com/v1', 'Widget', 'w')?.['spec'] as Record<string, unknown>)['size'], 1);
    assert.deepEqual(
      server.objects({ apiVersion: 'v1', kind: 'Namespace' }).map((n) => (n['metadata'] as { name: string }).name),
      ['default', 'team'],
    );
    assert.equal(server.objects({ namespace: 'team' }).length, 0);
  });

  test('reset drops objects and CRDs, keeps the seeded namespaces, and expires old resourceVersions', async () => {
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    const rv = (await core.listNamespace()).metadata?.resourceVersion;
    await core.createNamespace({ body: { metadata: { name: 'extra' } } });
    server.reset();
    assert.equal(server.requests.count(), 0, 'the request log is cleared');
    assert.deepEqual(
      server.objects().map((o) => (o['metadata'] as { name: string }).name),
      ['default', 'team'],
    );
    assert.equal((await fetch(`${server.url}/apis/example.com/v1`)).status, 404);
    const expired = await fetch(`${server.url}/api/v1/namespaces?watch=true&resourceVersion=${rv}`).then((r) => r.text());
    assert.match(expired, /"code":410/);
  });
});
