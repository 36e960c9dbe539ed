// The only door to the API server: plain JSON through client-node's transport, errors that name the request,
// and the optional client-side rate limit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { KubeError } from '../../src/errors.js';
import { KubeClient } from '../../src/kube/client.js';
import type { ResourceRef } from '../../src/kube/resource.js';
import { VERSION } from '../../src/util/version.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
});
after(async () => {
  await server.stop();
});

test('lists of built-in kinds come back with kind and apiVersion on every item, and pages carry continue tokens', async () => {
  const client = new KubeClient(server.kubeConfig);
  for (let i = 0; i < 5; i++) server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `page-${i}`, namespace: 'default' } });
  const first = await client.list(CONFIGMAPS, { namespace: 'default', limit: 2 });
  assert.equal(first.items.length, 2);
  assert.ok(first.continue !== undefined);
  assert.deepEqual([first.items[0]?.kind, first.items[0]?.apiVersion], ['ConfigMap', 'v1']);
  const second = await client.list(CONFIGMAPS, { namespace: 'default', limit: 2, continue: first.continue });
  assert.equal(second.items.length, 2);
});

test('a failed request is a KubeError with the status, the reason and what was asked', async () => {
  const client = new KubeClient(server.kubeConfig);
  assert.equal(await client.get(CONFIGMAPS, 'missing', 'default'), undefined);
  await assert.rejects(client.create(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'nowhere' } }), (error: unknown) => {
    assert.ok(error instanceof KubeError);
    assert.equal(error.status, 404);
    assert.equal(error.reason, 'NotFound');
    assert.equal(error.message, 'POST /api/v1/namespaces/nowhere/configmaps: 404 NotFound');
    return true;
  });
});

test('the client-side rate limit spaces requests after the burst', async () => {
  const client = new KubeClient(server.kubeConfig, { rateLimit: { qps: 20, burst: 2 } });
  const started = Date.now();
  for (let i = 0; i < 6; i++) await client.get(CONFIGMAPS, 'missing', 'default');
  const elapsed = Date.now() - started;
  assert.ok(elapsed >= 190, `6 requests at 20/s after a burst of 2 took only ${elapsed}ms`);
});

test('the version sent in the User-Agent is the package version', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});
