// Orkestra admission rules end to end: the admission router of the definition is served over https (its own
// port, no runtime needed), registered in the test API server with the configurations webhookConfigurations()
// builds, and every write of the real client-node goes through it: an invalid custom resource is refused with
// Orkestra's message as kube-apiserver words it, defaults are written into the stored object (and reach the
// children the runtime renders), a warn rule answers a Warning header, and deletion protection holds until the
// label is removed. The refusal carries the rules' text, never a field's value.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { AdmissionregistrationV1Api, CoreV1Api, CustomObjectsApi, type V1MutatingWebhookConfiguration, type V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { Hono } from 'hono';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { createAdmissionRouter, DELETION_PROTECTION_LABEL, listen, webhookConfigurations, type ListeningServer } from '../../src/index.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'demo.orkestra.io';
const VERSION = 'v1alpha1';
const PLURAL = 'pipelines';

interface KubeErrorLike {
  code?: number;
  body?: unknown;
}

function statusOf(error: unknown): { code: number; message: string; reason?: string } {
  const body = (error as KubeErrorLike).body;
  const parsed = (typeof body === 'string' ? JSON.parse(body) : body) as { code: number; message: string; reason?: string };
  return parsed;
}

describe('Orkestra admission through the test API server', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  let server: TestApiServer;
  let webhook: ListeningServer;
  let runtime: Runtime;
  let definition: Definition;
  let objects: CustomObjectsApi;
  const decisions: string[] = [];

  before(async () => {
    server = await startTestApiServer();
    definition = await loadDefinition('test/fixtures/admission/pipeline-admission.yaml');
    server.applyCrd(crdManifest({ group: GROUP, kind: 'Pipeline', plural: PLURAL, scope: 'Namespaced', versions: [{ name: VERSION, served: true, storage: true, status: true }] }));
    const tls = await selfSignedCertificate();
    const app = new Hono().route('/admission', createAdmissionRouter(definition, { onDecision: (d) => decisions.push(`${d.webhook} ${d.operation} ${d.allowed}`) }));
    webhook = await listen(app, { port: 0, hostname: '127.0.0.1', tls });
    const configs = webhookConfigurations(definition, { url: `${webhook.url}/admission`, caBundle: tls.cert, failurePolicy: 'Fail' });
    const admission = server.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    assert.ok(configs.validating !== undefined && configs.mutating !== undefined);
    await admission.createMutatingWebhookConfiguration({ body: configs.mutating as V1MutatingWebhookConfiguration });
    await admission.createValidatingWebhookConfiguration({ body: configs.validating as V1ValidatingWebhookConfiguration });
    objects = server.kubeConfig.makeApiClient(CustomObjectsApi);
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });

  after(async () => {
    await runtime.stop();
    await webhook.close();
    await server.stop();
  });

  const create = (name: string, spec: Record<string, unknown>, labels: Record<string, string> = { team: 'data' }) =>
    objects.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: 'default',
      plural: PLURAL,
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Pipeline', metadata: { name, labels }, spec },
    });

  test('an invalid custom resource is refused with every violated rule, as kube-apiserver words a webhook denial', async () => {
    const secretish = 'value-that-must-not-echo-42';
    const error = await create('bad', { replicas: 12, note: secretish }).then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    const status = statusOf(error);
    assert.equal(status.code, 400);
    assert.equal(status.reason, undefined, 'the router gives no reason, and kube-apiserver adds none');
    assert.ok(status.message.startsWith('admission webhook "validate.katalog.dev" denied the request: '), status.message);
    assert.match(status.message, /\[Orkestra Validation\] validation failed/);
    assert.match(status.message, /Pipeline\/bad\/default was blocked due to the following policies:\n field "spec\.image": spec\.image is required; field "spec\.replicas": replicas cannot exceed 10/);
    assert.ok(!status.message.includes('12') && !status.message.includes(secretish), 'no field value in the message');
    await assert.rejects(() => objects.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'bad' }), 'nothing stored');
  });

  test('mutation defaults are stored and reach the children; the new object gets the deletion-protection label', async () => {
    await create('good', { image: 'busybox' });
    const stored = (await objects.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'good' })) as {
      spec: Record<string, unknown>;
      metadata: { labels: Record<string, string> };
    };
    assert.deepEqual(stored.spec, { image: 'busybox', logLevel: 'info', replicas: 2 });
    assert.equal(stored.metadata.labels[DELETION_PROTECTION_LABEL], 'true');
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    const config = await waitFor('the ConfigMap child', async () => {
      try {
        return await core.readNamespacedConfigMap({ namespace: 'default', name: 'good-config' });
      } catch {
        return undefined;
      }
    });
    assert.deepEqual(config.data, { level: 'info', replicas: '2' });
  });

  test('a value the user gave is kept (default applies to absent or empty fields only)', async () => {
    await create('tuned', { image: 'busybox', logLevel: 'debug', replicas: 5 });
    const stored = (await objects.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'tuned' })) as { spec: Record<string, unknown> };
    assert.deepEqual(stored.spec, { image: 'busybox', logLevel: 'debug', replicas: 5 });
  });

  test('an update is validated too', async () => {
    const current = (await objects.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'tuned' })) as Record<string, unknown> & { spec: Record<string, unknown> };
    const error = await objects
      .replaceNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'tuned', body: { ...current, spec: { ...current.spec, replicas: 50 } } })
      .then(
        () => assert.fail('expected a refusal'),
        (e: unknown) => e,
      );
    assert.match(statusOf(error).message, /replicas cannot exceed 10/);
  });

  test('deletion protection refuses DELETE until the label is removed', async () => {
    const error = await objects.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'good' }).then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    const status = statusOf(error);
    assert.equal(status.code, 403);
    assert.match(status.message, /admission webhook "validate\.katalog\.dev" denied the request: \[Orkestra Deletion Protection\] Pipeline\/good in namespace default is protected from deletion/);
    const current = (await objects.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'good' })) as Record<string, unknown> & { metadata: Record<string, unknown> & { labels: Record<string, string> } };
    const { [DELETION_PROTECTION_LABEL]: _removed, ...labels } = current.metadata.labels;
    await objects.replaceNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'good', body: { ...current, metadata: { ...current.metadata, labels } } });
    await objects.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'good' });
    await waitFor('the object is gone', async () => {
      try {
        await objects.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'good' });
        return undefined;
      } catch {
        return true;
      }
    });
    assert.ok(decisions.includes('validate DELETE false') && decisions.includes('validate DELETE true'));
  });
});

describe('the corpus: early/komposer-basic/namespace-katalog.yaml (a warn rule on Namespaces)', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  let server: TestApiServer;
  let webhook: ListeningServer;

  before(async () => {
    server = await startTestApiServer();
    const definition = await loadDefinition('test/fixtures/orkestra/early/komposer-basic/namespace-katalog.yaml');
    const tls = await selfSignedCertificate();
    webhook = await listen(createAdmissionRouter(definition), { port: 0, hostname: '127.0.0.1', tls });
    const configs = webhookConfigurations(definition, { url: webhook.url, caBundle: tls.cert });
    assert.equal(configs.mutating, undefined, 'no mutation rules, no protection: no mutating webhook');
    await server.kubeConfig.makeApiClient(AdmissionregistrationV1Api).createValidatingWebhookConfiguration({ body: configs.validating as V1ValidatingWebhookConfiguration });
  });

  after(async () => {
    await webhook.close();
    await server.stop();
  });

  test('a Namespace without a team label is created with Orkestra\'s warning; with the label, without one', async () => {
    const post = (name: string, labels?: Record<string, string>) =>
      fetch(`${server.url}/api/v1/namespaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels === undefined ? {} : { labels }) } }) });
    const unlabelled = await post('no-team');
    assert.equal(unlabelled.status, 201);
    assert.equal(unlabelled.headers.get('warning'), '299 - "orkestra: field \\"metadata.labels.team\\": all namespaces must declare a team owner"');
    const labelled = await post('with-team', { team: 'platform' });
    assert.equal(labelled.status, 201);
    assert.equal(labelled.headers.get('warning'), null);
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    assert.equal((await core.readNamespace({ name: 'no-team' })).metadata?.name, 'no-team');
  });
});
