// The headers every request sends over node:http, now given to node:http as a list built once per credentials:
// what reaches the server is what node:http sent when it built them itself (Host, the token or basic auth, the
// request's own headers winning over a credential's of the same name in any case, Content-Length of every body).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { KubeClient } from '../../src/kube/client.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: readonly string[];
  readonly body: string;
}

/** A server that answers every request with `{}` and records what it was sent. */
async function recorder(): Promise<{ port: number; seen: Seen[]; close(): void }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw: req.rawHeaders, body });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

function clientFor(port: number, user: User): KubeClient {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }, user);
  return new KubeClient(kubeConfig, { userAgent: 'test-agent' });
}

test('a token, the Host and every body length reach the server, and a DELETE body is not read as the next request', async () => {
  const server = await recorder();
  const client = clientFor(server.port, { name: 'u', token: 'abc' });
  try {
    const patch = { data: { greeting: 'grüße' } };
    await client.request('PATCH', '/p', { body: patch, contentType: 'application/merge-patch+json' });
    await client.request('DELETE', '/d', { body: { propagationPolicy: 'Background' } });
    await client.request('GET', '/g');
    assert.deepEqual(server.seen.map(({ method, url }) => `${method} ${url}`), ['PATCH /p', 'DELETE /d', 'GET /g']);
    const [written, deleted, read] = server.seen;
    for (const seen of server.seen) {
      assert.equal(seen.headers.host, `127.0.0.1:${server.port}`);
      assert.equal(seen.headers.authorization, 'Bearer abc');
      assert.equal(seen.headers['user-agent'], 'test-agent');
      assert.equal(seen.headers.accept, 'application/json');
      assert.equal(seen.headers.connection, 'keep-alive');
    }
    assert.equal(written?.headers['content-type'], 'application/merge-patch+json');
    assert.equal(written?.headers['content-length'], String(Buffer.byteLength(JSON.stringify(patch))), 'bytes, not characters');
    assert.deepEqual(JSON.parse(written?.body ?? ''), patch);
    assert.deepEqual(JSON.parse(deleted?.body ?? ''), { propagationPolicy: 'Background' });
    assert.equal(read?.headers['content-length'], undefined);
    assert.equal(read?.body, '');
    assert.equal(client.transport.openSockets, 1, 'the three requests went over one connection');
  } finally {
    client.close();
    server.close();
  }
});

test('basic auth is sent as node:http sends it, and a header the request sets wins over a credential of that name', async () => {
  const server = await recorder();
  const basic = clientFor(server.port, { name: 'b', username: 'ann', password: 's3cret' });
  const custom = clientFor(server.port, { name: 'c' });
  custom.kubeConfig.addAuthenticator({
    isAuthProvider: () => true,
    applyAuthentication: async (_user, options) => {
      options.headers = { ...options.headers, accept: 'text/plain', 'X-Tenant': 'blue', Authorization: 'Bearer from-plugin' };
    },
  });
  try {
    await basic.request('GET', '/basic');
    await custom.request('GET', '/custom');
    await custom.request('GET', '/custom');
    const [fromBasic, fromCustom, again] = server.seen;
    assert.equal(fromBasic?.headers.authorization, `Basic ${Buffer.from('ann:s3cret').toString('base64')}`);
    for (const seen of [fromCustom, again]) {
      assert.equal(seen?.headers.authorization, 'Bearer from-plugin');
      assert.equal(seen?.headers['x-tenant'], 'blue');
      const accepts = (seen?.raw ?? []).filter((_, i, raw) => i % 2 === 0 && raw[i]?.toLowerCase() === 'accept');
      assert.equal(accepts.length, 1, 'one Accept header');
      assert.equal(seen?.headers.accept, 'application/json');
    }
  } finally {
    basic.close();
    custom.close();
    server.close();
  }
});
