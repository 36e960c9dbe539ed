// Orkestra's `conversion` end to end: the conversion router of the definition is served over https (its own port,
// no runtime needed); `installCrds` with `conversionWebhook` installs the CRD with `spec.conversion.strategy:
// Webhook` pointing at it; the test API server then calls it whenever the real client-node reads or writes a
// Website in v1alpha1 (the CRD stores v1): a create, a get, a list, a watch, an update, and a conversion that fails
// (an error the client sees, nothing written). The runtime reconciles at the storage version. The router's metrics
// count each review the server sent, by result, with its objects and its time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, Watch } from '@kubernetes/client-node';
import { Hono } from 'hono';
import { Registry } from 'prom-client';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { createConversionRouter, listen, type ConversionOutcome, type ListeningServer } from '../../src/index.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'demo.orkestra.io';
const PLURAL = 'websites';

type Json = Record<string, unknown> & { metadata: Record<string, unknown>; spec: Record<string, unknown> };

function statusOf(error: unknown): { code: number; message: string } {
  const body = (error as { body?: unknown }).body;
  return (typeof body === 'string' ? JSON.parse(body) : body) as { code: number; message: string };
}

describe('Orkestra conversion through the test API server', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  let server: TestApiServer;
  let webhook: ListeningServer;
  let runtime: Runtime;
  let objects: CustomObjectsApi;
  const outcomes: ConversionOutcome[] = [];
  const registry = new Registry();

  const at = (version: string) => ({ group: GROUP, version, namespace: 'default', plural: PLURAL });
  const get = async (version: string, name: string): Promise<Json> => (await objects.getNamespacedCustomObject({ ...at(version), name })) as Json;
  const alpha = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Website', metadata: { name }, spec });

  before(async () => {
    server = await startTestApiServer();
    const definition = await loadDefinition('test/fixtures/conversion/katalog.yaml');
    const tls = await selfSignedCertificate();
    const app = new Hono().route('/conversion', createConversionRouter(definition, { onConversion: (outcome) => outcomes.push(outcome), metrics: { registry } }));
    webhook = await listen(app, { port: 0, hostname: '127.0.0.1', tls });
    objects = server.kubeConfig.makeApiClient(CustomObjectsApi);
    runtime = createRuntime(definition, {
      kubeConfig: server.kubeConfig,
      installCrds: true,
      conversionWebhook: { url: `${webhook.url}/conversion`, caBundle: tls.cert },
      watch: FAST_WATCH,
      rateLimiter: { baseDelay: 5, maxDelay: 200 },
    });
    await runtime.start();
  });

  after(async () => {
    await runtime.stop();
    await webhook.close();
    await server.stop();
  });

  test('installCrds writes spec.conversion: strategy Webhook, the router\'s /convert URL, its CA, review version v1', async () => {
    const crd = await server.kubeConfig.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name: `${PLURAL}.${GROUP}` });
    const conversion = crd.spec.conversion;
    assert.equal(conversion?.strategy, 'Webhook');
    assert.equal(conversion?.webhook?.clientConfig?.url, `${webhook.url}/conversion/convert`);
    assert.ok((conversion?.webhook?.clientConfig?.caBundle ?? '').length > 0);
    assert.deepEqual(conversion?.webhook?.conversionReviewVersions, ['v1']);
  });

  test('created in v1alpha1, stored and read in v1 (and back), reconciled at v1', async () => {
    const created = (await objects.createNamespacedCustomObject({ ...at('v1alpha1'), body: alpha('blog', { image: 'myorg/nginx:1.25', replicas: 2, theme: 'dark' }) })) as Json;
    // The answer is the stored v1 object converted back: theme is what the v1 → v1alpha1 path writes.
    assert.equal(created.apiVersion, `${GROUP}/v1alpha1`);
    assert.deepEqual(created.spec, { image: 'myorg/nginx:1.25', replicas: 2, theme: 'default' });
    // Read once the runtime has reconciled it (its status written), so both reads are of the same revision.
    await waitFor('the runtime to report blog Ready', async () => ((await get('v1', 'blog'))['status'] as { observedGeneration?: number } | undefined)?.observedGeneration === 1 || undefined);
    const v1 = await get('v1', 'blog');
    assert.equal(v1.apiVersion, `${GROUP}/v1`);
    assert.deepEqual(v1.spec, { image: 'myorg/nginx:1.25', replicas: 2, seo: { enabled: false } });
    assert.equal(v1.metadata['uid'], created.metadata['uid']);
    assert.equal(server.get(`${GROUP}/v1`, 'Website', 'blog', 'default')?.['apiVersion'], `${GROUP}/v1`, 'stored at the storage version');
    const back = await get('v1alpha1', 'blog');
    assert.deepEqual(back.spec, { image: 'myorg/nginx:1.25', replicas: 2, theme: 'default' });
    assert.equal(back.metadata['resourceVersion'], v1.metadata['resourceVersion']);
    const config = await waitFor('the ConfigMap the runtime renders from the v1 object', async () => {
      try {
        return await server.kubeConfig.makeApiClient(CoreV1Api).readNamespacedConfigMap({ namespace: 'default', name: 'blog-site' });
      } catch {
        return undefined;
      }
    });
    assert.deepEqual(config.data, { image: 'myorg/nginx:1.25', seo: 'false' });
  });

  test('a list in v1alpha1 converts every item; an update in v1alpha1 is stored as v1', async () => {
    await objects.createNamespacedCustomObject({ ...at('v1'), body: { apiVersion: `${GROUP}/v1`, kind: 'Website', metadata: { name: 'shop' }, spec: { image: 'shop:1', replicas: 1, seo: { enabled: true } } } });
    const list = (await objects.listNamespacedCustomObject(at('v1alpha1'))) as { apiVersion: string; items: Json[] };
    assert.equal(list.apiVersion, `${GROUP}/v1alpha1`);
    assert.deepEqual(list.items.map((item) => [item.apiVersion, item.metadata['name'], item.spec['theme']]), [
      [`${GROUP}/v1alpha1`, 'blog', 'default'],
      [`${GROUP}/v1alpha1`, 'shop', 'default'],
    ]);
    const current = await get('v1alpha1', 'shop');
    const updated = (await objects.replaceNamespacedCustomObject({ ...at('v1alpha1'), name: 'shop', body: { ...current, spec: { ...current.spec, image: 'shop:2' } } })) as Json;
    assert.equal(updated.spec['image'], 'shop:2');
    assert.deepEqual((await get('v1', 'shop')).spec, { image: 'shop:2', replicas: 1, seo: { enabled: false } });
  });

  test('a watch in v1alpha1 sees objects written in v1 converted', async () => {
    const events: Json[] = [];
    const watch = await new Watch(server.kubeConfig).watch(`/apis/${GROUP}/v1alpha1/namespaces/default/${PLURAL}`, {}, (type, object: Json) => {
      if (type === 'ADDED' || type === 'MODIFIED') events.push(object);
    }, () => undefined);
    try {
      await objects.createNamespacedCustomObject({ ...at('v1'), body: { apiVersion: `${GROUP}/v1`, kind: 'Website', metadata: { name: 'docs' }, spec: { image: 'docs:1', replicas: 3 } } });
      const seen = await waitFor('the docs Website in the watch', () => events.find((event) => event.metadata['name'] === 'docs'));
      assert.equal(seen.apiVersion, `${GROUP}/v1alpha1`);
      assert.deepEqual(seen.spec, { image: 'docs:1', replicas: 3, theme: 'default' });
      assert.ok(events.every((event) => event.apiVersion === `${GROUP}/v1alpha1` && event.spec['theme'] === 'default'));
    } finally {
      watch.abort();
    }
  });

  test('a conversion that fails is a 500 the client sees, and nothing is written', async () => {
    const error = await objects.createNamespacedCustomObject({ ...at('v1alpha1'), body: alpha('broken', { image: 'x:1', replicas: 'many' }) }).then(
      () => assert.fail('expected the create to fail'),
      (e: unknown) => e,
    );
    const status = statusOf(error);
    assert.equal(status.code, 500);
    assert.match(status.message, /^Internal error occurred: conversion webhook for demo\.orkestra\.io\/v1alpha1, Kind=Website failed: converting spec from v1alpha1 to v1: /);
    await assert.rejects(() => get('v1', 'broken'), (e: unknown) => statusOf(e).code === 404, 'nothing stored');
    // A stored object the down-conversion cannot read: its get and the list in v1alpha1 fail; v1 still serves.
    await objects.createNamespacedCustomObject({ ...at('v1'), body: { apiVersion: `${GROUP}/v1`, kind: 'Website', metadata: { name: 'odd' }, spec: { image: 'odd:1', replicas: 'many' } } });
    await assert.rejects(() => get('v1alpha1', 'odd'), (e: unknown) => statusOf(e).code === 500);
    await assert.rejects(() => objects.listNamespacedCustomObject(at('v1alpha1')), (e: unknown) => /converting spec from v1 to v1alpha1/.test(statusOf(e).message));
    assert.equal((await get('v1', 'odd')).spec['replicas'], 'many');
    assert.ok(outcomes.some((outcome) => !outcome.succeeded) && outcomes.some((outcome) => outcome.succeeded));
  });

  test('the router\'s metrics count every review the server sent, by result, with its objects and conversion time', async () => {
    const values = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values ?? [];
    const of = async (name: string, result: string): Promise<number> =>
      (await values(name)).filter((value) => value.labels['kind'] === 'Website' && value.labels['result'] === result).reduce((sum, value) => sum + value.value, 0);
    const succeeded = outcomes.filter((outcome) => outcome.succeeded);
    const failed = outcomes.filter((outcome) => !outcome.succeeded);
    assert.ok(succeeded.length > 0 && failed.length > 0, 'the tests above made both');
    assert.equal(await of('conversion_webhook_reviews_total', 'success'), succeeded.length);
    assert.equal(await of('conversion_webhook_reviews_total', 'failure'), failed.length);
    assert.equal(await of('conversion_webhook_objects_total', 'success'), succeeded.reduce((sum, outcome) => sum + outcome.objects, 0));
    const count = (await values('conversion_webhook_duration_seconds')).find((value) => (value as { metricName?: string }).metricName === 'conversion_webhook_duration_seconds_count' && value.labels['kind'] === 'Website');
    assert.equal(count?.value, outcomes.length, 'one conversion time per review');
    const text = await registry.metrics();
    assert.doesNotMatch(text, /blog|shop|nginx|many/, 'no object name or value in the metrics');
  });
});
