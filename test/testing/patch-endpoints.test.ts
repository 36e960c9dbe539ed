// PATCH on the test API server: content types, preconditions, and server-side apply with managers and conflicts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiextensionsV1Api, CoreV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions, type KubernetesObject } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { widget, widgetCrd } from './widget-crd.js';
import { expectStatus } from './wait-for.js';

type Json = Record<string, any>;

describe('patch and server-side apply', () => {
  let server: TestApiServer;
  let core: CoreV1Api;
  let objects: KubernetesObjectApi;

  const rawPatch = (path: string, contentType: string, body: string, query = ''): Promise<Response> =>
    fetch(`${server.url}${path}${query}`, { method: 'PATCH', headers: { 'content-type': contentType }, body });

  before(async () => {
    server = await startTestApiServer();
    core = server.kubeConfig.makeApiClient(CoreV1Api);
    objects = KubernetesObjectApi.makeApiClient(server.kubeConfig);
    await server.kubeConfig.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: widgetCrd() });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1', b: '2' } });
  });
  after(() => server.stop());

  test('JSON patch is the CoreV1Api default; a failed test operation is 422', async () => {
    const patched = await core.patchNamespacedConfigMap({ namespace: 'default', name: 'cfg', body: [{ op: 'add', path: '/data/c', value: '3' }] });
    assert.deepEqual(patched.data, { a: '1', b: '2', c: '3' });
    const failed = await expectStatus(
      () => core.patchNamespacedConfigMap({ namespace: 'default', name: 'cfg', body: [{ op: 'test', path: '/data/a', value: 'nope' }] }),
      422,
    );
    assert.equal(failed.reason, 'Invalid');
  });

  test('merge patch removes keys with null; a resourceVersion in the patch is a precondition', async () => {
    const current = await core.readNamespacedConfigMap({ namespace: 'default', name: 'cfg' });
    const merged = await core.patchNamespacedConfigMap(
      { namespace: 'default', name: 'cfg', body: { data: { b: null }, metadata: { resourceVersion: current.metadata?.resourceVersion } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.deepEqual(merged.data, { a: '1', c: '3' });
    const stale = await expectStatus(
      () =>
        core.patchNamespacedConfigMap(
          { namespace: 'default', name: 'cfg', body: { data: { a: 'x' }, metadata: { resourceVersion: current.metadata?.resourceVersion } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
      409,
    );
    assert.equal(stale.reason, 'Conflict');
  });

  test('unknown patch content types are 415; a patch of a missing object is 404', async () => {
    const res = await rawPatch('/api/v1/namespaces/default/configmaps/cfg', 'application/xml', '<x/>');
    assert.equal(res.status, 415);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const missing = await rawPatch('/api/v1/namespaces/default/configmaps/none', 'application/merge-patch+json', '{}');
    assert.equal(missing.status, 404);
  });

  test('server-side apply creates a missing object, records the manager, and is idempotent', async () => {
    const applied = await objects.patch<KubernetesObject & Json>(
      { ...widget('ssa', { size: 1, color: 'blue' }) },
      undefined,
      undefined,
      'operator',
      true,
      PatchStrategy.ServerSideApply,
    );
    assert.equal(applied['spec']['color'], 'blue');
    const managers = (applied.metadata?.managedFields ?? []).map((m) => `${m.manager}/${m.operation}`);
    assert.deepEqual(managers, ['operator/Apply']);
    const again = await objects.patch<KubernetesObject>(widget('ssa', { size: 1, color: 'blue' }), undefined, undefined, 'operator', true, PatchStrategy.ServerSideApply);
    assert.equal(again.metadata?.resourceVersion, applied.metadata?.resourceVersion, 'an identical apply is a no-op');
    const read = (await fetch(`${server.url}/apis/example.com/v1/namespaces/default/widgets/ssa`).then((r) => r.json())) as Json;
    assert.equal(read['metadata']['managedFields'][0]['manager'], 'operator');
    assert.equal(read['metadata']['managedFields'][0]['fieldsType'], 'FieldsV1');
  });

  test('apply conflicts with another manager are 409 with FieldManagerConflict causes; force takes over', async () => {
    await objects.patch(widget('ssa', { size: 2 }), undefined, undefined, 'someone-else', true, PatchStrategy.ServerSideApply);
    const res = await rawPatch(
      '/apis/example.com/v1/namespaces/default/widgets/ssa',
      'application/apply-patch+yaml',
      JSON.stringify(widget('ssa', { size: 3, color: 'blue' })),
      '?fieldManager=operator',
    );
    assert.equal(res.status, 409);
    const status = (await res.json()) as Json;
    assert.equal(status['reason'], 'Conflict');
    assert.match(status['message'], /^Apply failed with 1 conflict: conflict with "someone-else": \.spec\.size$/);
    assert.deepEqual(status['details']['causes'], [{ reason: 'FieldManagerConflict', message: 'conflict with "someone-else"', field: '.spec.size' }]);
    const forced = await rawPatch(
      '/apis/example.com/v1/namespaces/default/widgets/ssa',
      'application/apply-patch+yaml',
      JSON.stringify(widget('ssa', { size: 3, color: 'blue' })),
      '?fieldManager=operator&force=true',
    );
    assert.equal(forced.status, 200);
    assert.equal(((await forced.json()) as Json)['spec']['size'], 3);
  });

  test('apply takes YAML bodies and needs a fieldManager', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\n  namespace: default\ndata:\n  k: v\n';
    const missing = await rawPatch('/api/v1/namespaces/default/configmaps/from-yaml', 'application/apply-patch+yaml', yaml);
    assert.equal(missing.status, 400);
    const created = await rawPatch('/api/v1/namespaces/default/configmaps/from-yaml', 'application/apply-patch+yaml', yaml, '?fieldManager=tool');
    assert.equal(created.status, 201);
    assert.deepEqual(((await created.json()) as Json)['data'], { k: 'v' });
  });

  test('apply with a status subresource ignores status on the main resource and applies it on /status', async () => {
    const withStatus = { ...widget('ssa', { size: 3, color: 'blue' }), status: { phase: 'Ready' } };
    const main = await rawPatch('/apis/example.com/v1/namespaces/default/widgets/ssa', 'application/apply-patch+yaml', JSON.stringify(withStatus), '?fieldManager=operator');
    assert.equal(((await main.json()) as Json)['status'], undefined);
    const status = await rawPatch(
      '/apis/example.com/v1/namespaces/default/widgets/ssa/status',
      'application/apply-patch+yaml',
      JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'ssa', namespace: 'default' }, status: { phase: 'Ready' } }),
      '?fieldManager=operator-status',
    );
    const body = (await status.json()) as Json;
    assert.deepEqual(body['status'], { phase: 'Ready' });
    assert.ok((body['metadata']['managedFields'] as Json[]).some((m) => m['manager'] === 'operator-status' && m['subresource'] === 'status'));
  });

  test('non-apply writes are recorded as Update by their fieldManager', async () => {
    const patched = await core.patchNamespacedConfigMap(
      { namespace: 'default', name: 'cfg', body: { data: { z: '26' } }, fieldManager: 'my-controller' },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const entry = patched.metadata?.managedFields?.find((m) => m.manager === 'my-controller');
    assert.equal(entry?.operation, 'Update');
    assert.deepEqual(entry?.fieldsV1, { 'f:data': { 'f:z': {} } });
  });
});
