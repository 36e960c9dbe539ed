// Mounting the inspection router in a host Hono app: the endpoint prefix, the host's own routes and 404s.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { createInspectionRouter } from '../../src/http/router.js';
import { scene } from './fake-view.js';

async function get(app: Hono, path: string, init?: RequestInit) {
  const response = await app.request(path, init);
  const text = await response.text();
  return { status: response.status, allow: response.headers.get('allow'), body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

describe('mounting', () => {
  test('derives the mount prefix from the request when mounted with app.route()', async () => {
    const { view } = scene();
    const host = new Hono();
    host.route('/ops', createInspectionRouter(view));
    host.route('/a/b', createInspectionRouter(view));
    const ops = (await get(host, '/ops/katalog')).body as { crds: Array<{ endpoints: unknown }> };
    assert.deepEqual(ops.crds[1]?.endpoints, { health: '/ops/katalog/website/health', info: '/ops/katalog/website' });
    const nested = (await get(host, '/a/b/katalog')).body as { crds: Array<{ endpoints: unknown }> };
    assert.deepEqual(nested.crds[1]?.endpoints, { health: '/a/b/katalog/website/health', info: '/a/b/katalog/website' });
    const root = (await get(createInspectionRouter(view), '/katalog')).body as { crds: Array<{ endpoints: unknown }> };
    assert.deepEqual(root.crds[1]?.endpoints, { health: '/katalog/website/health', info: '/katalog/website' });
    const based = new Hono().basePath('/api');
    based.route('/ops', createInspectionRouter(view));
    const api = (await get(based, '/api/ops/katalog')).body as { crds: Array<{ endpoints: unknown }> };
    assert.deepEqual(api.crds[1]?.endpoints, { health: '/api/ops/katalog/website/health', info: '/api/ops/katalog/website' });
  });

  test('an explicit mountPath wins over the request path (a proxy that strips a prefix)', async () => {
    const { view } = scene();
    const host = new Hono();
    host.route('/internal', createInspectionRouter(view, { mountPath: '/public/ops' }));
    const body = (await get(host, '/internal/katalog')).body as { crds: Array<{ endpoints: unknown }> };
    assert.deepEqual(body.crds[1]?.endpoints, { health: '/public/ops/katalog/website/health', info: '/public/ops/katalog/website' });
  });

  test('the endpoints it lists answer under the mount', async () => {
    const { view } = scene();
    const host = new Hono();
    host.route('/ops', createInspectionRouter(view));
    const list = (await get(host, '/ops/katalog')).body as { crds: Array<{ name: string; endpoints: { health: string; info: string } }> };
    for (const crd of list.crds) {
      assert.equal((await get(host, crd.endpoints.info)).status, 200, crd.endpoints.info);
      assert.equal(((await get(host, crd.endpoints.health)).body as { name: string }).name, crd.name);
    }
  });

  test("the host's own routes keep working, before and after the mount, and its 404 answers outside /katalog", async () => {
    const { view } = scene();
    const host = new Hono();
    host.get('/ops/version', (c) => c.text('1.2.3'));
    host.route('/ops', createInspectionRouter(view));
    host.get('/ops/later', (c) => c.text('later'));
    host.post('/ops/katalog-admin', (c) => c.text('admin'));
    host.notFound((c) => c.text('host 404', 404));
    assert.equal(await (await host.request('/ops/version')).text(), '1.2.3');
    assert.equal(await (await host.request('/ops/later')).text(), 'later');
    assert.equal(await (await host.request('/ops/katalog-admin', { method: 'POST' })).text(), 'admin');
    assert.equal(await (await host.request('/ops/elsewhere')).text(), 'host 404');
    const deeper = await get(host, '/ops/katalog/website/extra');
    assert.deepEqual([deeper.status, deeper.body], [404, { error: 'not_found', message: 'no inspection endpoint at /ops/katalog/website/extra', status: 404 }]);
    const post = await get(host, '/ops/katalog', { method: 'POST' });
    assert.deepEqual([post.status, post.allow], [405, 'GET, HEAD']);
    assert.equal((await host.request('/ops/katalog', { method: 'HEAD' })).status, 200);
  });
});
