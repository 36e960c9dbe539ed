// inspectionViewOf(runtime) against a real runtime on the test API server: what the router reports for an active
// CRD served at a newer version, a pending one, a disabled one, and that no custom-resource content ever leaks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { createInspectionRouter } from '../../src/http/router.js';
import { inspectionViewOf } from '../../src/http/view.js';
import { resolveOptions } from '../../src/options.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { waitFor } from '../support/cluster.js';
import { silentLogger } from '../../src/observe/logger.js';

const SECRET = 'hunter2-do-not-echo';

const KATALOG = `
apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: shop }
spec:
  finalizers: [example.io/audit]
  crds:
    website:
      apiTypes: { group: example.io, version: v1alpha1, kind: Website, plural: websites }
      workers: 3
      resync: 90s
      operatorBox:
        hooks: { function: WebsiteHooks }
    cache:
      apiTypes: { group: example.io, version: v1, kind: Cache, plural: caches }
      dependsOn: [website]
    old:
      enabled: false
      apiTypes: { group: example.io, version: v1, kind: Old, plural: olds }
`;

describe('inspectionViewOf(runtime)', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  let reconciled = 0;

  before(async () => {
    server = await startTestApiServer();
    server.applyCrd(crdManifest({ group: 'example.io', kind: 'Website', plural: 'websites', versions: [{ name: 'v1alpha1' }, { name: 'v1', storage: true }] }));
    server.create({ apiVersion: 'example.io/v1', kind: 'Website', metadata: { name: 'shop', namespace: 'default' }, spec: { password: SECRET, host: `${SECRET}.example.io` } });
    runtime = new Runtime(
      parseDefinition(KATALOG, { source: 'katalog.yaml' }),
      resolveOptions({
        kubeConfig: server.kubeConfig,
        logger: silentLogger,
        hooks: { WebsiteHooks: { onReconcile: () => { reconciled++; } } },
      }),
    );
  });

  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  test('before start: live, not ready, every managed CRD pending at its declared version', async () => {
    const app = createInspectionRouter(inspectionViewOf(runtime));
    assert.equal((await app.request('/health')).status, 200);
    const ready = await app.request('/ready');
    assert.equal(ready.status, 503);
    const list = (await (await app.request('/katalog')).json()) as { total: number; crds: Array<{ name: string; state: string; gvk: unknown }> };
    assert.deepEqual(list.crds.map((crd) => [crd.name, crd.state]), [['website', 'pending'], ['cache', 'pending']]);
    assert.deepEqual(list.crds[0]?.gvk, { group: 'example.io', version: 'v1alpha1', kind: 'Website' });
  });

  test('after start: the active CRD at its internal version, the pending one waiting, the disabled one absent', async () => {
    await runtime.start();
    await waitFor('the first reconcile', () => reconciled > 0 && runtime.slot('website')?.health.lastReconcile !== null);
    const app = createInspectionRouter(inspectionViewOf(runtime));

    const ready = await app.request('/ready');
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', crds: { website: 'healthy', cache: 'pending' } });

    const list = (await (await app.request('/katalog')).json()) as { total: number; crds: Array<Record<string, unknown>> };
    assert.equal(list.total, 2);
    const website = list.crds[0] ?? {};
    assert.deepEqual(
      { name: website['name'], gvk: website['gvk'], workers: website['workers'], resync: website['resync'], healthy: website['healthy'], state: website['state'], endpoints: website['endpoints'] },
      {
        name: 'website',
        gvk: { group: 'example.io', version: 'v1', kind: 'Website' },
        workers: 3,
        resync: '1m30s',
        healthy: true,
        state: 'healthy',
        endpoints: { health: '/katalog/website/health', info: '/katalog/website' },
      },
    );

    const detail = (await (await app.request('/katalog/website')).json()) as Record<string, unknown>;
    assert.equal(detail['declaredVersion'], 'v1alpha1');
    assert.deepEqual(detail['gvk'], { group: 'example.io', version: 'v1', kind: 'Website' });
    assert.equal(detail['resourceCount'], 1);
    assert.deepEqual(detail['workers'], { value: 3, source: 'definition' });
    assert.deepEqual(detail['queueDepth'], { value: 1000, source: 'default', current: 0 });
    assert.deepEqual(detail['reconciler'], {
      type: 'generic',
      hooks: { configured: true, source: 'yaml', function: 'WebsiteHooks' },
      constructor: { configured: false, source: null, function: null },
      finalizers: { values: ['katalog.dev/cleanup', 'example.io/audit'], source: 'yaml' },
      templates: {},
    });
    assert.equal(typeof detail['lastReconcile'], 'string');

    const health = await app.request('/katalog/website/health');
    assert.equal(health.status, 200);
    const pending = await app.request('/katalog/cache/health');
    assert.equal(pending.status, 503);
    assert.deepEqual(await pending.json(), { name: 'cache', healthy: false, started: false, message: 'waiting for CRD caches.example.io to be installed', status: 503 });

    assert.equal((await app.request('/katalog/old')).status, 404);
    assert.equal((await app.request('/katalog/old/health')).status, 404);

    const metrics = await app.request('/metrics');
    assert.equal(metrics.status, 200);
    assert.equal(metrics.headers.get('content-type'), runtime.registry.contentType);
    assert.match(await metrics.text(), /controller_reconcile_total\{crd="website",result="success"\} [1-9]/);
  });

  test('a pending CRD turns healthy in the list when its CRD is installed', async () => {
    const app = createInspectionRouter(inspectionViewOf(runtime));
    server.applyCrd(crdManifest({ group: 'example.io', kind: 'Cache', plural: 'caches' }));
    await waitFor('cache to activate', () => runtime.slot('cache')?.health.state === 'healthy');
    const list = (await (await app.request('/katalog')).json()) as { crds: Array<{ name: string; state: string; healthy: boolean }> };
    assert.deepEqual(list.crds.map((crd) => [crd.name, crd.state, crd.healthy]), [['website', 'healthy', true], ['cache', 'healthy', true]]);
    assert.equal((await app.request('/katalog/cache/health')).status, 200);
  });

  test('no response ever carries custom-resource contents', async () => {
    const app = createInspectionRouter(inspectionViewOf(runtime));
    const paths = ['/health', '/ready', '/metrics', '/katalog', '/katalog/website', '/katalog/website/health', '/katalog/cache', '/katalog/cache/health', '/katalog/shop', '/katalog/default'];
    for (const path of paths) {
      const text = await (await app.request(path)).text();
      assert.ok(!text.includes(SECRET), `${path} echoed the custom resource`);
      assert.ok(!text.includes('"spec"'), `${path} carries a spec`);
    }
  });
});
