// The inspection API contract (SPEC §6) through app.request(), with a fake view and a hand-set clock.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createInspectionRouter, isCrdName, normalizeMountPath } from '../../src/http/router.js';
import { fakeCrd, FakeView, ManualClock, scene } from './fake-view.js';

const JSON_TYPE = 'application/json';

async function get(app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> }, path: string, init?: RequestInit) {
  const response = await app.request(path, init);
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), allow: response.headers.get('allow'), text, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

describe('GET /health', () => {
  test('200 with uptime and startedAt while running', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/health');
    assert.equal(res.status, 200);
    assert.equal(res.type, JSON_TYPE);
    assert.deepEqual(res.body, { status: 'ok', uptime: '5m3s', startedAt: '2026-01-01T00:00:00.000Z' });
  });

  test('503 stopping, then stopped', async () => {
    const { view } = scene();
    const app = createInspectionRouter(view);
    view.runtime.markStopping();
    assert.deepEqual(await get(app, '/health').then((r) => [r.status, r.body]), [503, { status: 'stopping' }]);
    view.runtime.markStopped();
    assert.deepEqual(await get(app, '/health').then((r) => [r.status, r.body]), [503, { status: 'stopped' }]);
  });
});

describe('GET /ready', () => {
  test('200 with every CRD state once started and every active cache is synced (pending ones do not count)', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/ready');
    assert.equal(res.status, 200);
    assert.equal(res.type, JSON_TYPE);
    assert.deepEqual(res.body, { status: 'ready', crds: { database: 'degraded', website: 'healthy', cache: 'pending' } });
  });

  test('503 with every reason while starting and while a cache is not synced', async () => {
    const { view, website } = scene();
    view.started = false;
    website.synced = false;
    const res = await get(createInspectionRouter(view), '/ready');
    assert.equal(res.status, 503);
    assert.deepEqual(res.body, { status: 'not ready', reasons: ['runtime has not finished starting', 'CRD website: cache not synced'] });
  });

  test('503 while stopping', async () => {
    const { view } = scene();
    view.runtime.markStopping();
    const res = await get(createInspectionRouter(view), '/ready');
    assert.deepEqual([res.status, res.body], [503, { status: 'not ready', reasons: ['runtime is stopping'] }]);
  });
});

describe('GET /metrics', () => {
  test('serves the registry text with the registry content type', async () => {
    const { view } = scene();
    view.metricsText = { contentType: 'text/plain; version=0.0.4; charset=utf-8', text: 'controller_reconcile_total{crd="website",result="success"} 1\n' };
    const response = await createInspectionRouter(view).request('/metrics');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    assert.equal(await response.text(), 'controller_reconcile_total{crd="website",result="success"} 1\n');
  });

  test('a failing collection is a 500 JSON body that keeps the error text to itself, and onError hears of it', async () => {
    const { view } = scene();
    view.metrics = () => Promise.reject(new Error('collector secret-token-123 exploded'));
    const seen: string[] = [];
    const app = createInspectionRouter(view, { onError: (error, request) => seen.push(`${request.method} ${request.path}: ${error.message}`) });
    const res = await get(app, '/metrics');
    assert.equal(res.status, 500);
    assert.equal(res.type, JSON_TYPE);
    assert.deepEqual(res.body, { error: 'internal', message: 'the inspection API failed to answer GET /metrics', status: 500 });
    assert.ok(!res.text.includes('secret-token-123'));
    assert.deepEqual(seen, ['GET /metrics: collector secret-token-123 exploded']);
  });
});

describe('GET /katalog', () => {
  test('lists every managed CRD in view order with the exact summary shape', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/katalog');
    assert.equal(res.status, 200);
    assert.equal(res.type, JSON_TYPE);
    assert.deepEqual(res.body, {
      total: 3,
      crds: [
        {
          name: 'database',
          mode: 'dynamic',
          gvk: { group: 'example.io', version: 'v1', kind: 'Database' },
          workers: 2,
          resync: '10m0s',
          healthy: false,
          uptime: '5m3s',
          endpoints: { health: '/katalog/database/health', info: '/katalog/database' },
          state: 'degraded',
        },
        {
          name: 'website',
          mode: 'dynamic',
          gvk: { group: 'example.io', version: 'v1', kind: 'Website' },
          workers: 3,
          resync: '1m30s',
          healthy: true,
          uptime: '5m3s',
          endpoints: { health: '/katalog/website/health', info: '/katalog/website' },
          state: 'healthy',
        },
        {
          name: 'cache',
          mode: 'typed',
          gvk: { group: 'example.io', version: 'v1beta1', kind: 'Cache' },
          workers: 2,
          resync: '10m0s',
          healthy: false,
          uptime: '0s',
          endpoints: { health: '/katalog/cache/health', info: '/katalog/cache' },
          state: 'pending',
        },
      ],
    });
  });

  test('an empty katalog (every CRD disabled) is {"total":0,"crds":[]}', async () => {
    const view = new FakeView(new ManualClock());
    assert.deepEqual((await get(createInspectionRouter(view), '/katalog')).body, { total: 0, crds: [] });
  });

  test('a resync of 0 (no periodic resync) prints "0s"', async () => {
    const clock = new ManualClock();
    const view = new FakeView(clock).add(
      fakeCrd({
        name: 'quiet',
        clock,
        settings: {
          workers: { value: 1, source: 'override' },
          resync: { value: 0, source: 'override' },
          maxDepth: { value: 10, source: 'override' },
          failureThreshold: { value: 1, source: 'override' },
        },
      }),
    );
    const body = (await get(createInspectionRouter(view), '/katalog')).body as { crds: Array<{ resync: string }> };
    assert.equal(body.crds[0]?.resync, '0s');
  });

  test('mountPath option prefixes the endpoints, normalised', async () => {
    const { view } = scene();
    for (const mountPath of ['/ops', '/ops/', 'ops']) {
      const body = (await get(createInspectionRouter(view, { mountPath }), '/katalog')).body as { crds: Array<{ endpoints: unknown }> };
      assert.deepEqual(body.crds[1]?.endpoints, { health: '/ops/katalog/website/health', info: '/ops/katalog/website' }, mountPath);
    }
    const root = (await get(createInspectionRouter(view, { mountPath: '/' }), '/katalog')).body as { crds: Array<{ endpoints: unknown }> };
    assert.deepEqual(root.crds[1]?.endpoints, { health: '/katalog/website/health', info: '/katalog/website' });
  });
});

describe('GET /katalog/{crd}', () => {
  test('healthy CRD: the whole detail, settings with their sources, internal and declared versions', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/katalog/website');
    assert.equal(res.status, 200);
    assert.equal(res.type, JSON_TYPE);
    assert.deepEqual(res.body, {
      name: 'website',
      mode: 'dynamic',
      gvk: { group: 'example.io', version: 'v1', kind: 'Website' },
      declaredVersion: 'v1alpha1',
      workers: { value: 3, source: 'definition' },
      resync: { value: '1m30s', source: 'definition' },
      queueDepth: { value: 500, source: 'options', current: 4 },
      failureThreshold: { value: 5, source: 'env' },
      reconciler: {
        type: 'generic',
        hooks: { configured: true, source: 'yaml', function: 'WebsiteHooks' },
        constructor: { configured: false, source: null, function: null },
        finalizers: { values: ['katalog.dev/cleanup', 'example.io/audit'], source: 'yaml' },
        templates: { onCreate: { deployments: 1, services: 1 }, onReconcile: { configMaps: 2 } },
      },
      resourceCount: 12,
      healthy: true,
      errorRate: 0,
      state: 'healthy',
      dependsOn: [{ name: 'database', condition: 'healthy' }],
      uptime: '5m3s',
      lastReconcile: '2026-01-01T00:05:02.900Z',
      consecutiveFails: 0,
    });
  });

  test('degraded CRD', async () => {
    const { view } = scene();
    const body = (await get(createInspectionRouter(view), '/katalog/database')).body as Record<string, unknown>;
    assert.deepEqual(
      { healthy: body['healthy'], state: body['state'], errorRate: body['errorRate'], consecutiveFails: body['consecutiveFails'], lastReconcile: body['lastReconcile'], uptime: body['uptime'] },
      { healthy: false, state: 'degraded', errorRate: 1, consecutiveFails: 5, lastReconcile: '2026-01-01T00:01:00.000Z', uptime: '5m3s' },
    );
  });

  test('pending CRD: 200 (the detail exists), uptime 0s, no reconcile yet', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/katalog/cache');
    assert.equal(res.status, 200);
    const body = res.body as Record<string, unknown>;
    assert.deepEqual(
      { healthy: body['healthy'], state: body['state'], uptime: body['uptime'], lastReconcile: body['lastReconcile'], mode: body['mode'], gvk: body['gvk'] },
      { healthy: false, state: 'pending', uptime: '0s', lastReconcile: null, mode: 'typed', gvk: { group: 'example.io', version: 'v1beta1', kind: 'Cache' } },
    );
  });
});

describe('GET /katalog/{crd}/health', () => {
  test('healthy: 200 record', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/katalog/website/health');
    assert.equal(res.status, 200);
    assert.equal(res.type, JSON_TYPE);
    assert.deepEqual(res.body, { name: 'website', healthy: true, started: true, uptime: '5m3s', errorRate: 0, lastReconcile: '2026-01-01T00:05:02.900Z' });
  });

  test('degraded: 503 record with message, consecutiveFails, errorRate and status', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/katalog/database/health');
    assert.equal(res.status, 503);
    assert.equal(res.type, JSON_TYPE);
    assert.deepEqual(res.body, {
      name: 'database',
      healthy: false,
      message: 'database degraded: 5 consecutive failures; last error: failed to apply Deployment default/db-1: forbidden',
      consecutiveFails: 5,
      errorRate: 1,
      status: 503,
    });
  });

  test('pending: 503 record saying what it waits for', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/katalog/cache/health');
    assert.equal(res.status, 503);
    assert.deepEqual(res.body, { name: 'cache', healthy: false, started: false, message: 'waiting for CRD caches.example.io to be installed', status: 503 });
  });

  test('healthy again after one success', async () => {
    const { view, database } = scene();
    database.health.recordSuccess();
    const res = await get(createInspectionRouter(view), '/katalog/database/health');
    assert.equal(res.status, 200);
    assert.equal((res.body as { healthy: boolean }).healthy, true);
  });
});

describe('404', () => {
  test('unknown and disabled CRDs: the exact body, on both CRD routes', async () => {
    const { view } = scene();
    const app = createInspectionRouter(view);
    for (const path of ['/katalog/x', '/katalog/x/health']) {
      const res = await get(app, path);
      assert.equal(res.status, 404, path);
      assert.equal(res.type, JSON_TYPE);
      assert.equal(res.text, '{"error":"not_found","message":"no CRD named \\"x\\" in this katalog","status":404}');
    }
  });

  test('names that are not RFC 1123 labels are 404 without reaching the view', async () => {
    const { view } = scene();
    const app = createInspectionRouter(view);
    const bad = ['Website', 'web_site', '-web', 'web-', 'a'.repeat(64), 'web.site', 'wéb', '%20', 'web%2Fsite', '..'];
    for (const name of bad) {
      const res = await get(app, `/katalog/${name}`);
      assert.equal(res.status, 404, name);
      assert.equal((res.body as { error: string }).error, 'not_found', name);
    }
    assert.equal(view.calls.crd, 0);
    const longest = await get(app, `/katalog/${'a'.repeat(63)}`);
    assert.equal(longest.status, 404);
    assert.equal(view.calls.crd, 1, 'a 63-character label is a valid name and is looked up');
  });

  test('a long name is cut in the message', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), `/katalog/${'x'.repeat(5000)}`);
    assert.equal(res.status, 404);
    assert.equal((res.body as { message: string }).message, `no CRD named "${'x'.repeat(100)}…" in this katalog`);
  });

  test('percent-encoded names are decoded before the check', async () => {
    const { view } = scene();
    const res = await get(createInspectionRouter(view), '/katalog/w%65bsite/health');
    assert.equal(res.status, 200);
  });

  test('unknown paths, trailing slashes and deeper paths are JSON 404s', async () => {
    const { view } = scene();
    const app = createInspectionRouter(view);
    for (const path of ['/', '/nope', '/katalog/', '/katalog/website/', '/katalog/website/health/extra', '/health/', '/KATALOG']) {
      const res = await get(app, path);
      assert.equal(res.status, 404, path);
      assert.equal(res.type, JSON_TYPE, path);
      assert.deepEqual(res.body, { error: 'not_found', message: `no inspection endpoint at ${path}`, status: 404 }, path);
    }
  });
});

describe('methods', () => {
  test('every non-GET method on the six paths is 405 with Allow: GET, HEAD and a JSON body', async () => {
    const { view } = scene();
    const app = createInspectionRouter(view);
    const paths = ['/health', '/ready', '/metrics', '/katalog', '/katalog/website', '/katalog/website/health', '/katalog/unknown'];
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const path of paths) {
        const res = await get(app, path, { method, ...(method === 'POST' || method === 'PUT' ? { body: '{"spec":1}' } : {}) });
        assert.equal(res.status, 405, `${method} ${path}`);
        assert.equal(res.allow, 'GET, HEAD', `${method} ${path}`);
        assert.equal(res.type, JSON_TYPE);
        assert.deepEqual(res.body, { error: 'method_not_allowed', message: `method ${method} is not allowed on ${path}; use GET or HEAD`, status: 405 });
      }
    }
  });

  test('HEAD answers with the GET status and headers and no body', async () => {
    const { view } = scene();
    const app = createInspectionRouter(view);
    for (const [path, status] of [['/health', 200], ['/katalog', 200], ['/katalog/website', 200], ['/katalog/database/health', 503], ['/katalog/x', 404], ['/metrics', 200]] as const) {
      const response = await app.request(path, { method: 'HEAD' });
      assert.equal(response.status, status, path);
      assert.equal(await response.text(), '', path);
      assert.ok(response.headers.get('content-type') !== null, path);
    }
  });
});

describe('helpers', () => {
  test('isCrdName follows RFC 1123 labels', () => {
    for (const ok of ['a', '0', 'website', 'web-site', 'a1-b2', 'a'.repeat(63)]) assert.equal(isCrdName(ok), true, ok);
    for (const bad of ['', 'A', '-a', 'a-', 'a_b', 'a.b', 'a'.repeat(64), ' a', 'a\n']) assert.equal(isCrdName(bad), false, JSON.stringify(bad));
  });

  test('normalizeMountPath', () => {
    assert.deepEqual(['', '/', '//', '/ops', '/ops/', 'ops', '/a/b//'].map(normalizeMountPath), ['', '', '', '/ops', '/ops', '/ops', '/a/b']);
  });
});
