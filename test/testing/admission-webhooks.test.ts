// The test API server calls admission webhooks registered in it (admissionregistration.k8s.io/v1), over real
// HTTPS with the configuration's caBundle: a denial is worded as kube-apiserver words it, a JSONPatch answer is
// applied before the object is stored, warnings become Warning headers, an unreachable or slow webhook fails the
// write under failurePolicy Fail and is skipped under Ignore, and writes to other resources are not sent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { AdmissionregistrationV1Api, AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { configuration, webhookServer, type FakeWebhook } from '../support/fake-webhook.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

function statusOf(error: unknown): { code: number; message: string; reason?: string; details?: unknown } {
  const body = (error as { body?: unknown }).body;
  return (typeof body === 'string' ? JSON.parse(body) : body) as { code: number; message: string; reason?: string };
}

describe('admission webhooks in the test API server', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  let server: TestApiServer;
  let webhook: FakeWebhook;
  let tls: { key: string; cert: string };
  let admission: AdmissionregistrationV1Api;
  let core: CoreV1Api;

  before(async () => {
    tls = await selfSignedCertificate();
    server = await startTestApiServer();
    webhook = await webhookServer(tls);
    admission = server.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(async () => {
    await webhook.close();
    await server.stop();
  });

  const clear = async (): Promise<void> => {
    for (const item of (await admission.listValidatingWebhookConfiguration()).items) await admission.deleteValidatingWebhookConfiguration({ name: item.metadata?.name ?? '' });
    for (const item of (await admission.listMutatingWebhookConfiguration()).items) await admission.deleteMutatingWebhookConfiguration({ name: item.metadata?.name ?? '' });
    webhook.seen.length = 0;
  };

  test('a denial without a code is 400 without a reason, worded as kube-apiserver words it; nothing is stored', async () => {
    await clear();
    webhook.answer = () => ({ allowed: false, status: { message: 'no thanks' } });
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', webhook.url, tls.cert) });
    const error = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'refused' } } }).then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    const status = statusOf(error);
    assert.equal(status.code, 400);
    assert.equal(status.reason, undefined);
    assert.equal(status.message, 'admission webhook "validating.test.example.com" denied the request: no thanks');
    assert.equal(status.details, undefined);
    const request = webhook.seen[0] as { operation: string; resource: unknown; object: { metadata: { name: string } }; name: string; namespace: string };
    assert.equal(request.operation, 'CREATE');
    assert.deepEqual(request.resource, { group: '', version: 'v1', resource: 'configmaps' });
    assert.equal(request.object.metadata.name, 'refused');
    await assert.rejects(() => core.readNamespacedConfigMap({ namespace: 'default', name: 'refused' }));
  });

  test('a mutating answer is applied before the validating webhook sees the object, and stored', async () => {
    await clear();
    const patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/data', value: { added: 'yes' } }])).toString('base64');
    webhook.answer = (request) => (request.object !== null && (request.object as { data?: unknown }).data === undefined ? { allowed: true, patchType: 'JSONPatch', patch } : { allowed: true, warnings: ['looked at it'] });
    await admission.createMutatingWebhookConfiguration({ body: configuration('mutating', webhook.url, tls.cert) });
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', webhook.url, tls.cert) });
    const response = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' } }) });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('warning'), '299 - "looked at it"');
    const stored = await core.readNamespacedConfigMap({ namespace: 'default', name: 'patched' });
    assert.deepEqual(stored.data, { added: 'yes' });
    assert.deepEqual(
      webhook.seen.map((r) => (r.object as { data?: unknown }).data),
      [undefined, { added: 'yes' }],
      'mutating first, then validating on the mutated object',
    );
  });

  test('a custom resource reaches a mutating webhook with its schema defaults filled in, as kube-apiserver decodes it first', async () => {
    await clear();
    server.applyCrd({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'dials.admission.example.com' },
      spec: {
        group: 'admission.example.com',
        scope: 'Namespaced',
        names: { plural: 'dials', singular: 'dial', kind: 'Dial' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { level: { type: 'integer', default: 3 } } } } } },
          },
        ],
      },
    });
    await server.settled();
    webhook.answer = () => ({ allowed: true });
    const rules = [{ operations: ['CREATE'], apiGroups: ['admission.example.com'], apiVersions: ['v1'], resources: ['dials'] }];
    await admission.createMutatingWebhookConfiguration({ body: configuration('mutating', webhook.url, tls.cert, { rules }) });
    const response = await fetch(`${server.url}/apis/admission.example.com/v1/namespaces/default/dials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'admission.example.com/v1', kind: 'Dial', metadata: { name: 'd1' }, spec: {} }),
    });
    assert.equal(response.status, 201);
    assert.deepEqual(
      webhook.seen.map((r) => (r.object as { spec?: unknown }).spec),
      [{ level: 3 }],
    );
  });

  test('a write through /scale reaches a webhook of deployments/scale as an autoscaling/v1 Scale; its patch is what is stored', async () => {
    await clear();
    const rules = { rules: [{ operations: ['UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] }] };
    // Both webhooks answer alike: more than 5 replicas are capped at 5 (a patch), 0 is refused.
    const cap = Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: 5 }])).toString('base64');
    webhook.answer = (request) => {
      const replicas = (request.object as { spec?: { replicas?: number } }).spec?.replicas ?? 0;
      if (request.operation === 'UPDATE' && replicas > 5) return { allowed: true, patchType: 'JSONPatch', patch: cap };
      return replicas === 0 ? { allowed: false, status: { message: 'keep one' } } : { allowed: true };
    };
    await admission.createMutatingWebhookConfiguration({ body: configuration('mutating', webhook.url, tls.cert, rules) });
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', webhook.url, tls.cert, rules) });
    const deployment = {
      metadata: { name: 'capped' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'capped' } }, template: { metadata: { labels: { app: 'capped' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    const apps = server.kubeConfig.makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment });
    assert.equal(webhook.seen.length, 0, 'a write of the Deployment itself is not a write of its scale');
    const scaled = await apps.replaceNamespacedDeploymentScale({ namespace: 'default', name: 'capped', body: { metadata: { name: 'capped' }, spec: { replicas: 9 } } });
    assert.equal(scaled.spec?.replicas, 5);
    assert.equal((await apps.readNamespacedDeployment({ namespace: 'default', name: 'capped' })).spec?.replicas, 5);
    const [mutating, validating] = webhook.seen as { kind: unknown; resource: unknown; subResource: string; object: { apiVersion: string; kind: string; spec: { replicas: number } }; oldObject: { spec: { replicas: number } } }[];
    assert.deepEqual(mutating?.kind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    assert.deepEqual(mutating?.resource, { group: 'apps', version: 'v1', resource: 'deployments' });
    assert.equal(mutating?.subResource, 'scale');
    assert.deepEqual([mutating?.object.apiVersion, mutating?.object.kind, mutating?.object.spec.replicas, mutating?.oldObject.spec.replicas], ['autoscaling/v1', 'Scale', 9, 1]);
    assert.equal(validating?.object.spec.replicas, 5, 'the validating webhook sees the mutated Scale');
    const error = await apps.replaceNamespacedDeploymentScale({ namespace: 'default', name: 'capped', body: { metadata: { name: 'capped' }, spec: { replicas: 0 } } }).then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    assert.equal(statusOf(error).message, 'admission webhook "mutating.test.example.com" denied the request: keep one');
    assert.equal((await apps.readNamespacedDeployment({ namespace: 'default', name: 'capped' })).spec?.replicas, 5);
  });

  test('DELETE sends the stored object as oldObject; a denial keeps it', async () => {
    await clear();
    webhook.answer = (request) => (request.operation === 'DELETE' ? { allowed: false, status: { code: 409, message: 'keep it' } } : { allowed: true });
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', webhook.url, tls.cert) });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'kept' } } });
    const status = statusOf(await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'kept' }).then(() => assert.fail('expected a refusal'), (e: unknown) => e));
    assert.equal(status.code, 409);
    const request = webhook.seen.at(-1) as { object: unknown; oldObject: { metadata: { name: string } } };
    assert.equal(request.object, null);
    assert.equal(request.oldObject.metadata.name, 'kept');
    await core.readNamespacedConfigMap({ namespace: 'default', name: 'kept' });
  });

  test('an unreachable webhook fails the write under Fail (500 InternalError) and is skipped under Ignore', async () => {
    await clear();
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', 'https://127.0.0.1:1', tls.cert) });
    const status = statusOf(await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'unreachable' } } }).then(() => assert.fail('expected a failure'), (e: unknown) => e));
    assert.equal(status.code, 500);
    assert.equal(status.reason, 'InternalError');
    assert.match(status.message, /^Internal error occurred: failed calling webhook "validating\.test\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:1\/validating\?timeout=10s": /);
    await clear();
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', 'https://127.0.0.1:1', tls.cert, { failurePolicy: 'Ignore' }) });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'ignored' } } });
  });

  test('a certificate the caBundle does not vouch for is a failed call', async () => {
    await clear();
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', webhook.url, undefined) });
    const status = statusOf(await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'untrusted' } } }).then(() => assert.fail('expected a failure'), (e: unknown) => e));
    assert.equal(status.code, 500);
    assert.match(status.message, /failed calling webhook/);
  });

  test('timeoutSeconds bounds the wait: a webhook that never answers fails the write after it', async () => {
    await clear();
    webhook.answer = () => 'hang';
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', webhook.url, tls.cert, { timeoutSeconds: 1 }) });
    const started = Date.now();
    const status = statusOf(await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'slow' } } }).then(() => assert.fail('expected a failure'), (e: unknown) => e));
    assert.equal(status.code, 500);
    assert.match(status.message, /\?timeout=1s": context deadline exceeded/);
    assert.ok(Date.now() - started >= 900, 'waited for the timeout');
  });

  test('other resources and other operations are not sent to the webhook', async () => {
    await clear();
    webhook.answer = () => ({ allowed: false });
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', webhook.url, tls.cert) });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'not-matched' } } });
    assert.equal(webhook.seen.length, 0);
  });
  test('an eviction is admitted as the Eviction (pods/eviction): a webhook that refuses it keeps the Pod, one that allows it lets it go', async () => {
    await clear();
    webhook.answer = (request) => ((request.object as { metadata?: { name?: string } } | null)?.metadata?.name === 'guarded' ? { allowed: false, status: { code: 429, reason: 'TooManyRequests', message: 'not now' } } : { allowed: true });
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/eviction'] }];
    await admission.createValidatingWebhookConfiguration({ body: configuration('validating', webhook.url, tls.cert, { rules }) });
    for (const name of ['guarded', 'free']) await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
    const evict = (name: string): Promise<unknown> => core.createNamespacedPodEviction({ namespace: 'default', name, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } } });
    const status = statusOf(await evict('guarded').then(() => assert.fail('expected a refusal'), (e: unknown) => e));
    assert.deepEqual([status.code, status.reason, status.message], [429, 'TooManyRequests', 'admission webhook "validating.test.example.com" denied the request: not now']);
    assert.equal((await core.readNamespacedPod({ namespace: 'default', name: 'guarded' })).status?.conditions, undefined, 'refused before the Pod was marked');
    await evict('free');
    await assert.rejects(() => core.readNamespacedPod({ namespace: 'default', name: 'free' }));
    const request = webhook.seen[0] as { kind: unknown; resource: unknown; subResource: string; operation: string; object: { kind: string } };
    assert.deepEqual([request.kind, request.resource, request.subResource, request.operation, request.object.kind], [{ group: 'policy', version: 'v1', kind: 'Eviction' }, { group: '', version: 'v1', resource: 'pods' }, 'eviction', 'CREATE', 'Eviction']);
  });
});
