// Fault injection, request counting, restarts and shutdown of the test API server.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { errorChain } from '../support/client-node-version.js';
import { expectStatus, waitFor } from './wait-for.js';

describe('faults', () => {
  let server: TestApiServer;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer();
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  afterEach(() => server.faults.clear());
  after(() => server.stop());

  test('429 with Retry-After for the chosen verb and resource only, a given number of times', async () => {
    server.faults.failRequests({ verb: 'create', resource: 'configmaps', status: 429, retryAfterSeconds: 2, times: 2 });
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'x' } }),
    });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '2');
    const body = (await res.json()) as { reason: string; details: { retryAfterSeconds: number } };
    assert.equal(body.reason, 'TooManyRequests');
    assert.equal(body.details.retryAfterSeconds, 2);
    await core.listNamespacedConfigMap({ namespace: 'default' });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 's' } } });
    const second = await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' } } }), 429);
    assert.equal(second.reason, 'TooManyRequests');
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' } } });
  });

  test('500 and 503 by name and namespace, removable', async () => {
    const remove = server.faults.failRequests({ verb: 'get', resource: 'configmaps', name: 'x', namespace: 'default', status: 500 });
    const failed = await expectStatus(() => core.readNamespacedConfigMap({ namespace: 'default', name: 'x' }), 500);
    assert.equal(failed.reason, 'InternalError');
    await expectStatus(() => core.readNamespacedConfigMap({ namespace: 'default', name: 'x' }), 500);
    remove();
    await core.readNamespacedConfigMap({ namespace: 'default', name: 'x' });
    server.faults.failRequests({ status: 503 });
    const unavailable = await expectStatus(() => core.listNamespace(), 503);
    assert.equal(unavailable.reason, 'ServiceUnavailable');
    assert.equal((await fetch(`${server.url}/api/v1`)).status, 503, 'a rule without fields applies to discovery too');
  });

  test('probability: some requests fail, the others are served', async () => {
    server.faults.failRequests({ verb: 'list', resource: 'configmaps', status: 500, probability: 0.5 });
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => core.listNamespacedConfigMap({ namespace: 'default' })));
    const failed = results.filter((r) => r.status === 'rejected').length;
    assert.ok(failed > 0 && failed < 40, `${failed} of 40 failed`);
  });

  test('latency delays matching requests', async () => {
    server.faults.latency({ verb: 'get', resource: 'configmaps', ms: 150 });
    const started = performance.now();
    await core.readNamespacedConfigMap({ namespace: 'default', name: 'x' });
    assert.ok(performance.now() - started >= 140);
    const quick = performance.now();
    await core.listNamespacedConfigMap({ namespace: 'default' });
    assert.ok(performance.now() - quick < 140);
    server.faults.clear();
    const removeAll = server.faults.latency(100);
    const all = performance.now();
    await core.listNamespace();
    assert.ok(performance.now() - all >= 90);
    removeAll();
  });

  test('request counts by verb, resource and namespace; the log names each request', async () => {
    server.requests.reset();
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'counted' } } });
    await core.readNamespacedConfigMap({ namespace: 'default', name: 'counted' });
    await core.readNamespacedConfigMap({ namespace: 'default', name: 'counted' });
    await core.listConfigMapForAllNamespaces();
    await expectStatus(() => core.readNamespacedConfigMap({ namespace: 'default', name: 'missing' }), 404);
    assert.equal(server.requests.count(), 5);
    assert.equal(server.requests.count({ verb: 'get', resource: 'configmaps' }), 3);
    assert.equal(server.requests.count({ verb: 'list' }), 1);
    assert.equal(server.requests.count({ namespace: 'default' }), 4);
    const last = server.requests.log().at(-1);
    assert.deepEqual(last, {
      method: 'GET',
      verb: 'get',
      resource: 'configmaps',
      namespace: 'default',
      name: 'missing',
      subresource: '',
      status: 404,
      path: '/api/v1/namespaces/default/configmaps/missing',
    });
  });

  test('restart: watches end, the same port serves again with the same state and resourceVersions', async () => {
    const before = await core.readNamespacedConfigMap({ namespace: 'default', name: 'counted' });
    let ended: unknown = 'open';
    const controller = await new Watch(server.kubeConfig).watch('/api/v1/configmaps', { resourceVersion: before.metadata?.resourceVersion }, () => undefined, (err) => {
      ended = err;
    });
    const url = server.url;
    await server.restart({ downtimeMs: 50 });
    await waitFor(() => ended !== 'open', 'the watch to end');
    assert.equal(ended, null, 'watches end cleanly on restart');
    assert.equal(server.url, url);
    const after = await core.readNamespacedConfigMap({ namespace: 'default', name: 'counted' });
    assert.equal(after.metadata?.resourceVersion, before.metadata?.resourceVersion);
    assert.equal(after.metadata?.uid, before.metadata?.uid);
    controller.abort();
  });

  test('while the port is closed, clients get connection errors', async () => {
    const restarting = server.restart({ downtimeMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await assert.rejects(() => core.listNamespace(), (error) => /ECONNREFUSED/.test(errorChain(error)));
    await restarting;
    await core.listNamespace();
  });
});

describe('stop', () => {
  test('stop ends open watches and closes every connection; later requests are refused', async () => {
    const server = await startTestApiServer();
    let ended: unknown = 'open';
    await new Watch(server.kubeConfig).watch('/api/v1/configmaps', {}, () => undefined, (err) => {
      ended = err;
    });
    await server.stop();
    await waitFor(() => ended !== 'open', 'the watch to end');
    await assert.rejects(() => server.kubeConfig.makeApiClient(CoreV1Api).listNamespace(), (error) => /ECONNREFUSED/.test(errorChain(error)));
    await server.stop();
  });
});
