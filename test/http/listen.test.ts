// The router on a real listening server (port 0 + fetch), standalone and mounted under /ops in a host app.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, Agent } from 'node:http';
import { Hono } from 'hono';
import { RuntimeError } from '../../src/errors.js';
import { listen } from '../../src/http/listen.js';
import { createInspectionRouter } from '../../src/http/router.js';
import { scene } from './fake-view.js';

/** A raw HTTP request over a keep-alive agent (fetch hides HEAD bodies and connection reuse). */
function raw(url: string, method: string, agent: Agent): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('listen()', () => {
  test('serves the router standalone: /katalog, /metrics, 405, HEAD, 404', async () => {
    const { view } = scene();
    const server = await listen(createInspectionRouter(view), { port: 0, hostname: '127.0.0.1' });
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(server.port > 0);
      const list = await fetch(`${server.url}/katalog`);
      assert.equal(list.status, 200);
      assert.equal(list.headers.get('content-type'), 'application/json');
      const body = (await list.json()) as { total: number; crds: Array<{ name: string; endpoints: unknown }> };
      assert.equal(body.total, 3);
      assert.deepEqual(body.crds[1]?.endpoints, { health: '/katalog/website/health', info: '/katalog/website' });

      const metrics = await fetch(`${server.url}/metrics`);
      assert.equal(metrics.status, 200);
      assert.equal(metrics.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
      assert.equal(await metrics.text(), '# HELP up 1\n');

      const post = await fetch(`${server.url}/katalog`, { method: 'POST', body: '{"spec":{}}' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
      assert.deepEqual(await post.json(), { error: 'method_not_allowed', message: 'method POST is not allowed on /katalog; use GET or HEAD', status: 405 });

      const degraded = await fetch(`${server.url}/katalog/database/health`);
      assert.equal(degraded.status, 503);
      assert.equal(((await degraded.json()) as { consecutiveFails: number }).consecutiveFails, 5);

      const missing = await fetch(`${server.url}/nope`);
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), { error: 'not_found', message: 'no inspection endpoint at /nope', status: 404 });

      const agent = new Agent({ keepAlive: true });
      const head = await raw(`${server.url}/katalog`, 'HEAD', agent);
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers['content-type'], 'application/json');
      agent.destroy();
    } finally {
      await server.close();
    }
  });

  test('serves a host app that mounts the router under /ops, next to its own routes', async () => {
    const { view } = scene();
    const host = new Hono();
    host.get('/', (c) => c.text('host home'));
    host.route('/ops', createInspectionRouter(view));
    const server = await listen(host, { port: 0, hostname: '127.0.0.1' });
    try {
      assert.equal(await (await fetch(`${server.url}/`)).text(), 'host home');
      const list = (await (await fetch(`${server.url}/ops/katalog`)).json()) as { crds: Array<{ endpoints: { health: string; info: string } }> };
      const website = list.crds[1];
      assert.deepEqual(website?.endpoints, { health: '/ops/katalog/website/health', info: '/ops/katalog/website' });
      const detail = await fetch(`${server.url}${website?.endpoints.info ?? ''}`);
      assert.equal(detail.status, 200);
      assert.equal(((await detail.json()) as { name: string }).name, 'website');
      const metrics = await fetch(`${server.url}/ops/metrics`);
      assert.equal(metrics.status, 200);
      const del = await fetch(`${server.url}/ops/katalog/website`, { method: 'DELETE' });
      assert.equal(del.status, 405);
      assert.equal(del.headers.get('allow'), 'GET, HEAD');
    } finally {
      await server.close();
    }
  });

  test('close() resolves promptly with a keep-alive connection open, is idempotent, and frees the port', async () => {
    const { view } = scene();
    const server = await listen(createInspectionRouter(view), { port: 0, hostname: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    assert.equal((await raw(`${server.url}/health`, 'GET', agent)).status, 200);
    const started = Date.now();
    await Promise.all([server.close(), server.close()]);
    assert.ok(Date.now() - started < 1000, 'close() waited for the keep-alive connection');
    await server.close();
    agent.destroy();
    const again = await listen(createInspectionRouter(view), { port: server.port, hostname: '127.0.0.1' });
    await again.close();
  });

  test('close() does not wait for a request still in flight', { timeout: 5000 }, async () => {
    const { view } = scene();
    let arrived: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    view.metrics = () => {
      arrived();
      return new Promise(() => undefined); // a collector that never answers
    };
    const server = await listen(createInspectionRouter(view), { port: 0, hostname: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true });
    const pending = raw(`${server.url}/metrics`, 'GET', agent).then(
      () => 'answered',
      () => 'connection closed',
    );
    await inFlight;
    const started = Date.now();
    await server.close();
    assert.ok(Date.now() - started < 1000, 'close() waited for the in-flight request');
    assert.equal(await pending, 'connection closed');
    agent.destroy();
  });

  test('a port in use rejects with E_LISTEN; an invalid port is refused before binding', async () => {
    const { view } = scene();
    const first = await listen(createInspectionRouter(view), { port: 0, hostname: '127.0.0.1' });
    try {
      await assert.rejects(listen(createInspectionRouter(view), { port: first.port, hostname: '127.0.0.1' }), (error: unknown) => {
        assert.ok(error instanceof RuntimeError);
        assert.equal(error.code, 'E_LISTEN');
        assert.match(error.message, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${first.port}: .*EADDRINUSE`));
        return true;
      });
    } finally {
      await first.close();
    }
    for (const port of [-1, 65_536, 1.5, Number.NaN]) {
      await assert.rejects(listen(createInspectionRouter(view), { port }), /port must be an integer from 0 to 65535/);
    }
  });

  test('leaves the global Request and Response alone', async () => {
    const before = [globalThis.Request, globalThis.Response];
    const { view } = scene();
    const server = await listen(createInspectionRouter(view), { port: 0, hostname: '127.0.0.1' });
    try {
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
      assert.deepEqual([globalThis.Request, globalThis.Response], before);
    } finally {
      await server.close();
    }
  });

  test('binds every interface by default and reports a loopback URL', async () => {
    const { view } = scene();
    const server = await listen(createInspectionRouter(view), { port: 0 });
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
    } finally {
      await server.close();
    }
  });
});
