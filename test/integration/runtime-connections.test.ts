// The runtime's connections to the API server: reconciling many objects reuses a handful of kept-alive connections
// instead of opening one per request, and stop() closes every one of them (idle ones included).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { createRuntime } from '../../src/create-runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor } from '../support/cluster.js';

const GADGET = { kind: 'Gadget', plural: 'gadgets' };
const COUNT = 30;
let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
  server.applyCrd(crdManifest(GADGET));
  await server.settled();
});
after(async () => {
  await server.stop();
});

/** A TCP relay in front of the server that counts the connections the runtime opens and still holds. */
async function relay(target: URL): Promise<{ url: string; opened: () => number; open: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let opened = 0;
  const relayServer: Server = createServer((socket) => {
    opened++;
    sockets.add(socket);
    const upstream = connect(Number(target.port), target.hostname);
    socket.pipe(upstream).pipe(socket);
    const end = (): void => {
      sockets.delete(socket);
      socket.destroy();
      upstream.destroy();
    };
    socket.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => relayServer.listen(0, '127.0.0.1', resolve));
  const address = relayServer.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    opened: () => opened,
    open: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relayServer.close(() => resolve()));
    },
  };
}

test('a runtime reconciles many objects over a few kept-alive connections and stop() closes them all', async () => {
  const proxy = await relay(new URL(server.url));
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'relay', server: proxy.url, skipTLSVerify: true }, { name: 'relay' });
  for (let i = 0; i < COUNT; i++) server.create(customResource(GADGET, `g${i}`));
  const runtime = createRuntime(
    katalog({ gadget: katalogEntry(GADGET, { workers: 2, operatorBox: { onCreate: { configMaps: [{ name: '{{ .metadata.name }}', reconcile: true, data: { a: 'b' } }] } } }) }),
    { kubeConfig, watch: FAST_WATCH },
  );
  try {
    await runtime.start();
    await waitFor('every child applied', () => server.objects({ kind: 'ConfigMap' }).filter((object) => (object['metadata'] as { name: string }).name.startsWith('g')).length === COUNT, 20_000);
    // Every object costs several requests; with a connection per request this would be well over COUNT.
    assert.ok(proxy.opened() < 15, `${proxy.opened()} connections opened for ${COUNT} objects`);
    assert.ok(proxy.open() > 0);
  } finally {
    await runtime.stop();
  }
  try {
    // Well within the server's 5 s keep-alive time-out, which would otherwise close idle connections by itself.
    await waitFor('every connection closed after stop()', () => proxy.open() === 0, 2000);
  } finally {
    await proxy.close();
  }
});
