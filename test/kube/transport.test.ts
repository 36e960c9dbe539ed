// The kept-alive transport: requests and watches reuse connections, an abort after the answer leaves the pool
// usable, TLS works, and close() ends every connection so the process can exit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeError } from '../../src/errors.js';
import { KubeClient } from '../../src/kube/client.js';
import type { ResourceRef } from '../../src/kube/resource.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
});
after(async () => {
  await server.stop();
});

const configMap = (name: string): { apiVersion: string; kind: string; metadata: { name: string; namespace: string } } => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
});

test('sequential requests share one connection; concurrent ones open no more connections than requests in flight', async () => {
  const client = new KubeClient(server.kubeConfig);
  try {
    for (let i = 0; i < 20; i++) await client.apply(CONFIGMAPS, { ...configMap(`seq-${i}`), data: { i: String(i) } }, { fieldManager: 'test' });
    assert.equal(client.transport.openSockets, 1);
    await Promise.all(Array.from({ length: 40 }, (_, i) => client.get(CONFIGMAPS, `seq-${i % 20}`, 'default')));
    assert.ok(client.transport.openSockets <= 40, `${client.transport.openSockets} connections`);
    const before = client.transport.openSockets;
    for (let i = 0; i < 20; i++) await client.get(CONFIGMAPS, `seq-${i}`, 'default');
    assert.equal(client.transport.openSockets, before, 'sequential requests after a burst reuse the idle connections');
  } finally {
    client.close();
  }
});

test('a watch the server ends hands its connection back to the pool', async () => {
  const client = new KubeClient(server.kubeConfig);
  try {
    await client.get(CONFIGMAPS, 'none', 'default');
    assert.equal(client.transport.openSockets, 1);
    server.create(configMap('handed-back'));
    const seen: string[] = [];
    const handle = client.watch(CONFIGMAPS, { namespace: 'default', timeoutSeconds: 1 }, (type, object) => seen.push(`${type} ${object.metadata?.name}`));
    const { error } = await handle.done;
    assert.equal(error, undefined);
    assert.ok(seen.includes('ADDED handed-back'), seen.join(', '));
    await client.get(CONFIGMAPS, 'none', 'default');
    assert.equal(client.transport.openSockets, 1, 'the watch and the requests used one connection, one after the other');
  } finally {
    client.close();
  }
});

test('with undici, a watch the server ends hands its connection back to the watches pool', async () => {
  const client = new KubeClient(server.kubeConfig, { transport: { engine: 'undici' } });
  try {
    await client.get(CONFIGMAPS, 'none', 'default');
    assert.equal(client.transport.openSockets, 1);
    server.create(configMap('watched'));
    const seen: string[] = [];
    const handle = client.watch(CONFIGMAPS, { namespace: 'default', timeoutSeconds: 1 }, (type, object) => seen.push(`${type} ${object.metadata?.name}`));
    const { error } = await handle.done;
    assert.equal(error, undefined);
    assert.ok(seen.includes('ADDED watched'), seen.join(', '));
    await client.get(CONFIGMAPS, 'none', 'default');
    assert.equal(client.transport.openSockets, 2, 'one idle connection for requests, one handed back by the watch');
    const again = client.watch(CONFIGMAPS, { namespace: 'default', timeoutSeconds: 1 }, () => undefined);
    assert.equal((await again.done).error, undefined);
    assert.equal(client.transport.openSockets, 2, "the second watch reused the first one's connection");
  } finally {
    client.close();
  }
});

test('aborting a request after its answer arrived, or a watch from inside its event, leaves the pool usable', async () => {
  const client = new KubeClient(server.kubeConfig);
  try {
    const controller = new AbortController();
    await client.get(CONFIGMAPS, 'none', 'default', controller.signal);
    controller.abort();
    assert.equal(await client.get(CONFIGMAPS, 'none', 'default'), undefined);
    server.create(configMap('abort-in-event'));
    const handle = client.watch(CONFIGMAPS, { namespace: 'default' }, () => handle.abort());
    assert.deepEqual(await handle.done, { error: undefined });
    assert.equal(await client.get(CONFIGMAPS, 'none', 'default'), undefined);
    const early = new AbortController();
    early.abort();
    await assert.rejects(client.get(CONFIGMAPS, 'none', 'default', early.signal), KubeError);
  } finally {
    client.close();
  }
});

test('a watch that cannot start reports the status, so that 410 Gone is recognised', async () => {
  const client = new KubeClient(server.kubeConfig);
  try {
    server.faults.failRequests({ verb: 'watch', resource: 'configmaps', status: 500, times: 1 });
    const { error } = await client.watch(CONFIGMAPS, { namespace: 'default' }, () => undefined).done;
    assert.ok(error instanceof KubeError && error.status === 500, String(error));
  } finally {
    server.faults.clear();
    client.close();
  }
});

test('close() ends idle and watching connections, and later requests fail with a clear error', async () => {
  const client = new KubeClient(server.kubeConfig);
  let events = 0;
  const handle = client.watch(CONFIGMAPS, { namespace: 'default' }, () => events++);
  server.create(configMap('before-close'));
  await waitUntil(() => events > 0);
  await client.get(CONFIGMAPS, 'none', 'default');
  assert.equal(client.transport.openSockets, 2, 'one watching, one idle');
  client.close();
  await waitUntil(() => client.transport.openSockets === 0);
  assert.ok((await handle.done).error !== undefined, 'a watch cut by close() ends with an error');
  await assert.rejects(client.get(CONFIGMAPS, 'none', 'default'), /the Kubernetes client is closed/);
});

test('over TLS the connection is verified against the kubeconfig CA and reused', async () => {
  const secure = await startTestApiServer({ tls: true });
  const client = new KubeClient(secure.kubeConfig);
  try {
    for (let i = 0; i < 10; i++) await client.get(CONFIGMAPS, 'none', 'default');
    assert.equal(client.transport.openSockets, 1);
  } finally {
    client.close();
    await secure.stop();
  }
});

async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('a request aborted before its answer, or whose connection drops mid-answer, fails and says which', async () => {
  // A server that answers /hang never and /drop with half a body before it cuts the connection.
  const raw = createServer((req, res) => {
    if (req.url?.startsWith('/drop') === true) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"kind":');
      setImmediate(() => res.socket?.destroy());
    }
  });
  raw.listen(0, '127.0.0.1');
  await once(raw, 'listening');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'raw', server: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, skipTLSVerify: true }, { name: 'raw' });
  const client = new KubeClient(kubeConfig);
  try {
    const controller = new AbortController();
    const hanging = client.request('GET', '/hang', { signal: controller.signal });
    setImmediate(() => controller.abort(new Error('test gave up')));
    await assert.rejects(hanging, (error: Error) => error instanceof KubeError && /aborted: test gave up/.test(error.message));
    await assert.rejects(client.request('GET', '/drop'), (error: Error) => error instanceof KubeError && /closed|aborted|socket hang up/.test(error.message));
  } finally {
    client.close();
    raw.closeAllConnections();
    raw.close();
  }
});
