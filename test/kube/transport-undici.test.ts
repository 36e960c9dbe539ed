// Requests over undici: kept-alive reuse, writes never share a connection with another request in flight, only an
// unanswered GET is sent again, a change of TLS material opens a new pool, and close() lets the process exit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeError } from '../../src/errors.js';
import { KubeClient } from '../../src/kube/client.js';
import type { ResourceRef } from '../../src/kube/resource.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

/** These tests are about the undici engine, which is not the default (see transport.ts). */
const UNDICI = { transport: { engine: 'undici' as const } };

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
});
after(async () => {
  await server.stop();
});

/** A plain HTTP server on 127.0.0.1 and a KubeConfig pointing at it. */
async function rawServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ kubeConfig: KubeConfig; close: () => void }> {
  const raw = createServer(handler);
  raw.listen(0, '127.0.0.1');
  await once(raw, 'listening');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'raw', server: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, skipTLSVerify: true }, { name: 'raw' });
  return {
    kubeConfig,
    close: () => {
      raw.closeAllConnections();
      raw.close();
    },
  };
}

test('sequential requests reuse one kept-alive connection, and a burst opens no more than its requests', async () => {
  const client = new KubeClient(server.kubeConfig, UNDICI);
  try {
    for (let i = 0; i < 20; i++) await client.apply(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `undici-${i}`, namespace: 'default' } }, { fieldManager: 'test' });
    assert.equal(client.transport.openSockets, 1);
    await Promise.all(Array.from({ length: 30 }, (_, i) => client.get(CONFIGMAPS, `undici-${i % 20}`, 'default')));
    const afterBurst = client.transport.openSockets;
    assert.ok(afterBurst >= 1 && afterBurst <= 30, `${afterBurst} connections`);
    for (let i = 0; i < 20; i++) await client.get(CONFIGMAPS, `undici-${i}`, 'default');
    assert.equal(client.transport.openSockets, afterBurst, 'sequential requests after a burst reuse the idle connections');
  } finally {
    client.close();
  }
});

test('a write is never sent on a connection that has another request in flight', async () => {
  // Answers after a pause, and records how many requests each connection had unanswered when a write arrived.
  const inFlight = new Map<Socket, number>();
  let worst = 0;
  let writes = 0;
  const raw = await rawServer((req, res) => {
    const socket = req.socket;
    const now = (inFlight.get(socket) ?? 0) + 1;
    inFlight.set(socket, now);
    if (req.method !== 'GET') {
      writes++;
      worst = Math.max(worst, now);
    }
    req.resume();
    setTimeout(() => {
      inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    }, 5);
  });
  const client = new KubeClient(raw.kubeConfig, UNDICI);
  try {
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? client.request('PATCH', `/w/${i}`, { body: { i }, contentType: 'application/merge-patch+json' }) : client.request('GET', `/r/${i}`),
      ),
    );
    assert.equal(writes, 20);
    assert.equal(worst, 1, 'a write shared its connection with an unanswered request');
  } finally {
    client.close();
    raw.close();
  }
});

test('a GET whose connection closes unanswered is sent once more; a write is not, and its caller sees the error', async () => {
  const seen: string[] = [];
  const raw = await rawServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    // The first request of each path loses its connection without an answer; the next one is answered.
    if (seen.filter((line) => line === `${req.method} ${req.url}`).length === 1) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  });
  const client = new KubeClient(raw.kubeConfig, UNDICI);
  try {
    assert.deepEqual(await client.request('GET', '/read'), { ok: true });
    await assert.rejects(client.request('PATCH', '/write', { body: {}, contentType: 'application/merge-patch+json' }), (error: Error) => error instanceof KubeError && /PATCH \/write/.test(error.message));
    assert.deepEqual(seen, ['GET /read', 'GET /read', 'PATCH /write']);
  } finally {
    client.close();
    raw.close();
  }
});

test('a change of TLS material (a CA rotated by an authenticator) opens a new pool that uses it', async () => {
  const secure = await startTestApiServer({ tls: true });
  const rightCa = secure.kubeConfig.getCurrentCluster()?.caData ?? '';
  assert.notEqual(rightCa, '', 'the TLS test server gives its CA inline');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'tls', server: secure.url, caData: rightCa, skipTLSVerify: false }, { name: 'tls' });
  let ca: Buffer | undefined = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  kubeConfig.addAuthenticator({
    isAuthProvider: () => true,
    applyAuthentication: async (_user, options) => {
      if (ca !== undefined) options.ca = ca;
    },
  });
  const client = new KubeClient(kubeConfig, UNDICI);
  try {
    await assert.rejects(client.get(CONFIGMAPS, 'none', 'default'), KubeError, 'a CA that signed nothing is refused');
    ca = undefined;
    assert.equal(await client.get(CONFIGMAPS, 'none', 'default'), undefined);
    assert.equal(await client.get(CONFIGMAPS, 'none', 'default'), undefined);
  } finally {
    client.close();
    await secure.stop();
  }
});

test('close() ends every connection at once, idle, in use and watching, as the server sees it', async () => {
  const raw = createServer((req, res) => {
    if (req.url?.includes('watch=true') === true) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).write('');
      return;
    }
    if (req.url?.startsWith('/hang') === true) return;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  // The server keeps idle connections and unanswered requests far longer than the wait below: only the client can
  // have closed them.
  raw.keepAliveTimeout = 120_000;
  raw.requestTimeout = 0;
  raw.listen(0, '127.0.0.1');
  await once(raw, 'listening');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'raw', server: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, skipTLSVerify: true }, { name: 'raw' });
  const client = new KubeClient(kubeConfig, UNDICI);
  const connections = (): Promise<number> => new Promise((resolve, reject) => raw.getConnections((error, count) => (error === null ? resolve(count) : reject(error))));
  try {
    const watch = client.watch(CONFIGMAPS, { namespace: 'default' }, () => undefined);
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.request('GET', `/idle/${i}`)));
    const hanging = client.request('GET', '/hang');
    await waitFor(async () => (await connections()) >= 3, 'the watch, the hanging request and an idle connection are open');
    const hangingFails = assert.rejects(hanging, (error: Error) => error instanceof KubeError && /GET \/hang .*the Kubernetes client is closed/.test(error.message));
    client.close();
    await waitFor(async () => (await connections()) === 0, 'every connection closed');
    await hangingFails;
    assert.ok((await watch.done).error !== undefined, 'the watch cut by close() ends with an error');
  } finally {
    client.close();
    raw.closeAllConnections();
    raw.close();
  }
});

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('close() ends every connection: a process that used requests and a watch exits by itself', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/transport-exit-child.ts', server.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  // Generous: on a loaded machine tsx alone can take tens of seconds to start the child.
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    const exitedAt = Date.now();
    assert.equal(code, 0, output);
    assert.match(output, /open [2-9]/);
    assert.match(output, /sockets 0/, 'no socket is left open after close()');
    // The server closes idle connections after 5 s: a client socket left open would keep the child alive longer.
    const closedAt = Number(/closed (\d+)/.exec(output)?.[1]);
    assert.ok(Number.isFinite(closedAt), output);
    assert.ok(exitedAt - closedAt < 4500, `exited ${exitedAt - closedAt}ms after close()`);
  } finally {
    clearTimeout(killer);
  }
});
