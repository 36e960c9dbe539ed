// PATCH and server-side apply go through the admission webhooks as in kube-apiserver: the webhooks see the patched
// object (not the patch) as an UPDATE with the stored object as oldObject, or as a CREATE when an apply creates the
// object; what a mutating webhook adds is stored; a validating refusal stores nothing; a dry run stores nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { AdmissionregistrationV1Api, CoreV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions, type KubernetesObject } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { configuration, webhookServer, type FakeWebhook } from '../support/fake-webhook.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

type Seen = { operation: string; dryRun: boolean; object: { data?: Record<string, string>; metadata?: { labels?: Record<string, string> } } | null; oldObject: { data?: Record<string, string> } | null };

const addLabel = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }])).toString('base64');

describe('admission of PATCH and server-side apply in the test API server', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  let server: TestApiServer;
  let mutating: FakeWebhook;
  let validating: FakeWebhook;
  let core: CoreV1Api;
  let objects: KubernetesObjectApi;

  before(async () => {
    const tls = await selfSignedCertificate();
    server = await startTestApiServer();
    mutating = await webhookServer(tls);
    validating = await webhookServer(tls);
    core = server.kubeConfig.makeApiClient(CoreV1Api);
    objects = KubernetesObjectApi.makeApiClient(server.kubeConfig);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cfg' }, data: { a: '1' } } });
    mutating.answer = (request) => ((request.object as Seen['object'])?.metadata?.labels?.['mutated'] === undefined ? { allowed: true, patchType: 'JSONPatch', patch: addLabel } : { allowed: true });
    validating.answer = (request) => ((request.object as Seen['object'])?.data?.['forbidden'] !== undefined ? { allowed: false, status: { code: 400, message: 'data.forbidden is not allowed' } } : { allowed: true });
    const admission = server.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    await admission.createMutatingWebhookConfiguration({ body: configuration('mutating', mutating.url, tls.cert) });
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', validating.url, tls.cert) });
  });
  after(async () => {
    await mutating.close();
    await validating.close();
    await server.stop();
  });

  const clear = (): void => {
    mutating.seen.length = 0;
    validating.seen.length = 0;
  };
  const seen = (webhook: FakeWebhook): Seen[] => webhook.seen as unknown as Seen[];

  test('a merge patch: the webhooks see the patched object as an UPDATE with the old object; the mutation is stored', async () => {
    clear();
    const patched = await core.patchNamespacedConfigMap({ namespace: 'default', name: 'cfg', body: { data: { b: '2' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    assert.deepEqual(patched.data, { a: '1', b: '2' });
    assert.deepEqual(patched.metadata?.labels, { mutated: 'yes' });
    const [first] = seen(mutating);
    assert.equal(first?.operation, 'UPDATE');
    assert.deepEqual(first?.object?.data, { a: '1', b: '2' }, 'the patched object, not the patch');
    assert.deepEqual(first?.oldObject?.data, { a: '1' });
    assert.deepEqual(seen(validating)[0]?.object?.metadata?.labels, { mutated: 'yes' }, 'validating webhooks see the mutated object');
  });

  test('a JSON patch and a strategic merge patch refused by the validating webhook store nothing', async () => {
    const before = await core.readNamespacedConfigMap({ namespace: 'default', name: 'cfg' });
    for (const [strategy, body] of [
      [PatchStrategy.JsonPatch, [{ op: 'add', path: '/data/forbidden', value: 'x' }]],
      [PatchStrategy.StrategicMergePatch, { data: { forbidden: 'x' } }],
    ] as const) {
      clear();
      const error = await core.patchNamespacedConfigMap({ namespace: 'default', name: 'cfg', body }, setHeaderOptions('Content-Type', strategy)).then(
        () => assert.fail(`${strategy}: expected a refusal`),
        (e: unknown) => e as { code?: number; body?: unknown },
      );
      const status = (typeof error.body === 'string' ? JSON.parse(error.body) : error.body) as { code: number; message: string };
      assert.equal(status.code, 400, strategy);
      assert.equal(status.message, 'admission webhook "validating.test.example.com" denied the request: data.forbidden is not allowed');
      assert.equal(seen(validating)[0]?.operation, 'UPDATE');
    }
    const after = await core.readNamespacedConfigMap({ namespace: 'default', name: 'cfg' });
    assert.equal(after.metadata?.resourceVersion, before.metadata?.resourceVersion);
    assert.equal(after.data?.['forbidden'], undefined);
  });

  test('server-side apply: CREATE when it creates the object, UPDATE after; the mutation is stored', async () => {
    clear();
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: 'default' }, data: { x: '1' } };
    const created = await objects.patch<KubernetesObject & { data?: Record<string, string> }>(body, undefined, undefined, 'tester', true, PatchStrategy.ServerSideApply);
    assert.deepEqual(created.metadata?.labels, { mutated: 'yes' });
    assert.deepEqual(seen(mutating).map((r) => [r.operation, r.oldObject]), [['CREATE', null]]);
    clear();
    const updated = await objects.patch<KubernetesObject & { data?: Record<string, string> }>({ ...body, data: { x: '2' } }, undefined, undefined, 'tester', true, PatchStrategy.ServerSideApply);
    assert.deepEqual(updated.data, { x: '2' });
    assert.deepEqual(seen(validating).map((r) => [r.operation, r.object?.data, r.oldObject?.data]), [['UPDATE', { x: '2' }, { x: '1' }]]);
  });

  test('an apply whose webhook call crosses a second is admitted once (its managed fields are stamped anew, the object did not change)', async () => {
    clear();
    const mutate = mutating.answer;
    mutating.answer = (request, path) => {
      // Answer only once the wall clock's second has turned: the write's timestamp then differs from the dry run's.
      const second = Math.floor(Date.now() / 1000);
      while (Math.floor(Date.now() / 1000) === second) {
        // spin (at most a second)
      }
      return mutate(request, path);
    };
    try {
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied-late', namespace: 'default' }, data: { x: '1' } };
      const created = await objects.patch<KubernetesObject>(body, undefined, undefined, 'tester', true, PatchStrategy.ServerSideApply);
      assert.deepEqual(created.metadata?.labels, { mutated: 'yes' });
      assert.deepEqual(seen(mutating).map((r) => r.operation), ['CREATE'], 'one admission, not one per second crossed');
    } finally {
      mutating.answer = mutate;
    }
  });

  test('a write that lands while the webhooks are called makes the admission run again on the new state', async () => {
    clear();
    const mutate = mutating.answer;
    let raced = false;
    mutating.answer = (request, path) => {
      // The first call: another writer changes the object meanwhile (directly in the store, not admitted).
      if (!raced) {
        raced = true;
        server.patch('v1', 'ConfigMap', 'cfg', { data: { raced: 'yes' } }, { namespace: 'default' });
      }
      return mutate(request, path);
    };
    try {
      const patched = await core.patchNamespacedConfigMap({ namespace: 'default', name: 'cfg', body: { data: { d: '4' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      assert.equal(patched.data?.['raced'], 'yes', 'the other write is kept');
      assert.equal(patched.data?.['d'], '4');
      const objects = seen(mutating).map((r) => r.object?.data?.['raced']);
      assert.deepEqual(objects, [undefined, 'yes'], 'called again with the patched new state');
    } finally {
      mutating.answer = mutate;
    }
  });

  test('a dry-run patch calls the webhooks with dryRun: true and stores nothing', async () => {
    clear();
    const before = await core.readNamespacedConfigMap({ namespace: 'default', name: 'cfg' });
    const response = await fetch(`${server.url}/api/v1/namespaces/default/configmaps/cfg?dryRun=All`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ data: { c: '3' } }),
    });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { data: Record<string, string> }).data['c'], '3');
    assert.deepEqual(seen(validating).map((r) => r.dryRun), [true]);
    const after = await core.readNamespacedConfigMap({ namespace: 'default', name: 'cfg' });
    assert.equal(after.metadata?.resourceVersion, before.metadata?.resourceVersion);
  });
});
