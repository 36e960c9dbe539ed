// Resolving a child's kind for conditional pruning (Orkestra documents): a kind the API server does not serve names
// no child to delete, but a discovery that fails for another reason must fail the cycle (retried with backoff)
// rather than skip the deletion silently. Real HTTP against the test API server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeClient } from '../../src/kube/client.js';
import { ResourceResolver } from '../../src/registry/resource-resolver.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { widgetCrd } from '../testing/widget-crd.js';

let server: TestApiServer;
let client: KubeClient;

before(async () => {
  server = await startTestApiServer();
  server.create(widgetCrd() as unknown as Record<string, unknown>);
  client = new KubeClient(server.kubeConfig);
});

after(async () => {
  client.close();
  await server.stop();
});

test('a served kind resolves; a kind or a group version the server does not serve is undefined', async () => {
  const resolver = new ResourceResolver(client);
  assert.equal((await resolver.resolveIfServed('example.com/v1', 'Widget'))?.plural, 'widgets');
  assert.equal(await resolver.resolveIfServed('example.com/v1', 'Gadget'), undefined);
  assert.equal(await resolver.resolveIfServed('nothing.example.com/v1', 'Gadget'), undefined);
});

test('a discovery that fails for another reason (503) is thrown, for the cycle to retry', async () => {
  const resolver = new ResourceResolver(client);
  const remove = server.faults.failRequests({ status: 503 });
  try {
    await assert.rejects(resolver.resolveIfServed('example.com/v1', 'Widget'), /cannot find the resources of example\.com\/v1/);
  } finally {
    remove();
  }
  assert.equal((await resolver.resolveIfServed('example.com/v1', 'Widget'))?.plural, 'widgets', 'and works again once the server answers');
});
