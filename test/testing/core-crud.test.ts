// CRUD on built-in kinds through client-node's CoreV1Api: the rules of a real API server that operators rely on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubernetesObjectApi, RbacAuthorizationV1Api, type KubernetesObject, type V1ConfigMap } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { expectStatus } from './wait-for.js';
import { CLIENT_NODE_FIELD_MANAGER } from '../support/client-node-version.js';

describe('built-in CRUD', () => {
  let server: TestApiServer;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer();
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => server.stop());

  test('create returns the stored object with uid, creationTimestamp and a resourceVersion; get reads it back', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'one' }, data: { a: '1' } } });
    assert.equal(created.kind, 'ConfigMap');
    assert.equal(created.apiVersion, 'v1');
    assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(created.metadata?.creationTimestamp instanceof Date);
    assert.match(created.metadata?.resourceVersion ?? '', /^\d+$/);
    assert.equal(created.metadata?.generation, undefined, 'ConfigMaps have no generation');
    assert.equal(created.metadata?.namespace, 'default');
    const read = await core.readNamespacedConfigMap({ namespace: 'default', name: 'one' });
    assert.deepEqual(read.data, { a: '1' });
    assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);
    assert.equal(read.metadata?.managedFields?.[0]?.manager, CLIENT_NODE_FIELD_MANAGER, 'the default field manager comes from the User-Agent');
  });

  test('resourceVersion is one global counter that increases across kinds', async () => {
    const a = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'rv-a' } } });
    const b = await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'rv-b' }, stringData: { x: 'y' } } });
    assert.ok(Number(b.metadata?.resourceVersion) > Number(a.metadata?.resourceVersion));
  });

  test('errors are Kubernetes Status objects: AlreadyExists, NotFound, namespace not found, invalid name', async () => {
    const exists = await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'one' } } }), 409);
    assert.equal(exists.reason, 'AlreadyExists');
    assert.equal(exists.message, 'configmaps "one" already exists');
    const missing = await expectStatus(() => core.readNamespacedConfigMap({ namespace: 'default', name: 'nope' }), 404);
    assert.equal(missing.reason, 'NotFound');
    assert.equal(missing.message, 'configmaps "nope" not found');
    assert.deepEqual(missing.details, { name: 'nope', kind: 'configmaps' });
    const noNs = await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'ghost', body: { metadata: { name: 'x' } } }), 404);
    assert.equal(noNs.message, 'namespaces "ghost" not found');
    const badName = await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'Bad_Name' } } }), 422);
    assert.equal(badName.reason, 'Invalid');
    assert.match(badName.message ?? '', /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value/);
    const noName = await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: {} } }), 422);
    assert.match(noName.message ?? '', /name or generateName is required/);
  });

  test('generateName picks a unique name; a body namespace must match the URL', async () => {
    const generated = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'gen-' } } });
    assert.match(generated.metadata?.name ?? '', /^gen-[a-z0-9]{5}$/);
    const mismatch = await expectStatus(
      () => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x', namespace: 'kube-system' } } }),
      400,
    );
    assert.equal(mismatch.reason, 'BadRequest');
  });

  test('update: stale resourceVersion is 409 Conflict; built-ins update unconditionally without one', async () => {
    const cm = await core.readNamespacedConfigMap({ namespace: 'default', name: 'one' });
    const updated = await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'one', body: { ...cm, data: { a: '2' } } });
    assert.ok(Number(updated.metadata?.resourceVersion) > Number(cm.metadata?.resourceVersion));
    assert.equal(updated.metadata?.uid, cm.metadata?.uid);
    assert.deepEqual(updated.metadata?.creationTimestamp, cm.metadata?.creationTimestamp);
    const stale = await expectStatus(() => core.replaceNamespacedConfigMap({ namespace: 'default', name: 'one', body: { ...cm, data: { a: '3' } } }), 409);
    assert.equal(stale.reason, 'Conflict');
    assert.equal(
      stale.message,
      'Operation cannot be fulfilled on configmaps "one": the object has been modified; please apply your changes to the latest version and try again',
    );
    const unconditional: V1ConfigMap = { metadata: { name: 'one' }, data: { a: '4' } };
    const forced = await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'one', body: unconditional });
    assert.deepEqual(forced.data, { a: '4' });
  });

  test('a no-op update keeps the resourceVersion', async () => {
    const cm = await core.readNamespacedConfigMap({ namespace: 'default', name: 'one' });
    const again = await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'one', body: cm });
    assert.equal(again.metadata?.resourceVersion, cm.metadata?.resourceVersion);
  });

  test('update of a missing object is 404; a name that differs from the URL is 400', async () => {
    await expectStatus(() => core.replaceNamespacedConfigMap({ namespace: 'default', name: 'absent', body: { metadata: { name: 'absent' } } }), 404);
    const status = await expectStatus(() => core.replaceNamespacedConfigMap({ namespace: 'default', name: 'one', body: { metadata: { name: 'two' } } }), 400);
    assert.match(status.message ?? '', /does not match the name on the URL/);
  });

  test('list: built-in items carry no kind/apiVersion, the list carries the global resourceVersion', async () => {
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const list = (await res.json()) as { kind: string; apiVersion: string; metadata: { resourceVersion: string }; items: Record<string, unknown>[] };
    assert.equal(list.kind, 'ConfigMapList');
    assert.equal(list.apiVersion, 'v1');
    assert.ok(list.items.length >= 3);
    assert.equal(list.items[0]?.['kind'], undefined);
    assert.equal(list.items[0]?.['apiVersion'], undefined);
    const typed = await core.listNamespacedConfigMap({ namespace: 'default' });
    assert.equal(typed.items.length, list.items.length);
    const all = await core.listConfigMapForAllNamespaces();
    assert.equal(all.items.length, list.items.length);
  });

  test('delete of a built-in answers a Success Status with details; the object is gone', async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'doomed' } } });
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps/doomed`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ propagationPolicy: 'Background' }),
    });
    assert.equal(res.status, 200);
    const status = (await res.json()) as { kind: string; status: string; details: { name: string; kind: string; uid: string } };
    assert.equal(status.kind, 'Status');
    assert.equal(status.status, 'Success');
    assert.deepEqual(status.details, { name: 'doomed', kind: 'configmaps', uid: cm.metadata?.uid });
    await expectStatus(() => core.readNamespacedConfigMap({ namespace: 'default', name: 'doomed' }), 404);
    await expectStatus(() => core.deleteNamespacedConfigMap({ namespace: 'default', name: 'doomed' }), 404);
  });

  test('delete preconditions: a wrong uid or resourceVersion is 409', async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'guarded' } } });
    const wrongUid = await expectStatus(() => core.deleteNamespacedConfigMap({ namespace: 'default', name: 'guarded', body: { preconditions: { uid: 'other' } } }), 409);
    assert.match(wrongUid.message ?? '', /the UID in the precondition \(other\) does not match the UID in record/);
    await expectStatus(() => core.deleteNamespacedConfigMap({ namespace: 'default', name: 'guarded', body: { preconditions: { resourceVersion: '1' } } }), 409);
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'guarded', body: { preconditions: { uid: cm.metadata?.uid ?? '', resourceVersion: cm.metadata?.resourceVersion ?? '' } } });
  });

  test('cluster-scoped kinds and names with colons (RBAC); deletecollection by label', async () => {
    const rbac = server.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    const role = await rbac.createClusterRole({ body: { metadata: { name: 'system:test:reader', labels: { t: 'x' } }, rules: [] } });
    assert.equal(role.metadata?.namespace, undefined);
    await rbac.createClusterRole({ body: { metadata: { name: 'other', labels: { t: 'x' } } } });
    await rbac.deleteCollectionClusterRole({ labelSelector: 't=x' });
    const left = await rbac.listClusterRole();
    assert.equal(left.items.length, 0);
  });

  test('dryRun=All answers as if written and stores nothing', async () => {
    const dry = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'dry' } }, dryRun: 'All' });
    assert.equal(dry.metadata?.name, 'dry');
    await expectStatus(() => core.readNamespacedConfigMap({ namespace: 'default', name: 'dry' }), 404);
  });

  test('KubernetesObjectApi uses the context namespace and discovery; unknown kinds fail', async () => {
    const objects = KubernetesObjectApi.makeApiClient(server.kubeConfig);
    const created: KubernetesObject = await objects.create<KubernetesObject>({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
    assert.equal(created.metadata?.namespace, 'default');
    const read = await objects.read({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'default' } });
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    await assert.rejects(() => objects.create({ apiVersion: 'v1', kind: 'Unicorn', metadata: { name: 'u' } }), /Unrecognized API version and kind/);
  });

  test('namespaces: protected ones cannot be deleted; a new one is Active with the kubernetes finalizer', async () => {
    const forbidden = await expectStatus(() => core.deleteNamespace({ name: 'default' }), 403);
    assert.equal(forbidden.reason, 'Forbidden');
    const ns = await core.createNamespace({ body: { metadata: { name: 'team-a' } } });
    assert.equal(ns.status?.phase, 'Active');
    assert.deepEqual(ns.spec?.finalizers, ['kubernetes']);
  });
});
