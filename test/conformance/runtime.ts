// The runtime on top of the server: drift correction of a child, Lease election between two replicas, and the six
// inspection endpoints during a real run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createRuntime } from '../../src/create-runtime.js';
import { crdManifest } from '../../src/testing/index.js';
import { FAST_WATCH, katalog } from '../support/cluster.js';
import { unique, waitFor, type Backend, type Json } from './backend.js';

interface Kind {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
}

async function install(backend: Backend, prefix: string, kind: string, plural: string): Promise<Kind> {
  const group = `${unique(prefix)}.conformance.katalog.dev`;
  await backend.applyCrd(crdManifest({ group, kind, plural }));
  return { group, kind, plural };
}

function entry(kind: Kind, extra: Record<string, unknown>): Record<string, unknown> {
  return { apiTypes: { group: kind.group, version: 'v1', kind: kind.kind, plural: kind.plural }, ...extra };
}

function object(kind: Kind, name: string, spec: Record<string, unknown> = {}): Json {
  return { apiVersion: `${kind.group}/v1`, kind: kind.kind, metadata: { name, namespace: 'default' }, spec };
}

export function runtimeSuite(backend: () => Backend): void {
  describe('the runtime on the server', () => {
    test('drift correction: a manual edit of a reconciled child is undone and counted; the child is owned by its parent', async () => {
      const site = await install(backend(), 'drift', 'Site', 'sites');
      const registry = new Registry();
      const runtime = createRuntime(
        katalog({
          site: entry(site, { operatorBox: { onCreate: { configMaps: [{ name: '{{ .metadata.name }}-conf', reconcile: true, data: { color: '{{ .spec.color }}' } }] } } }),
        }),
        { kubeConfig: backend().kubeConfig, watch: FAST_WATCH, registry, rateLimiter: { baseDelay: 5, maxDelay: 200 } },
      );
      await runtime.start();
      try {
        const name = unique('site');
        const parent = await backend().create(object(site, name, { color: 'blue' }));
        const child = await waitFor('the ConfigMap', () => backend().get('v1', 'ConfigMap', `${name}-conf`, 'default'));
        assert.deepEqual(child.data, { color: 'blue' });
        const owners = child.metadata?.['ownerReferences'] as Array<Record<string, unknown>>;
        assert.deepEqual(owners.map((o) => ({ kind: o['kind'], name: o['name'], uid: o['uid'], controller: o['controller'] })), [
          { kind: 'Site', name, uid: parent.metadata?.['uid'], controller: true },
        ]);
        await backend().patch('v1', 'ConfigMap', `${name}-conf`, { data: { color: 'red' } }, { namespace: 'default', fieldManager: 'kubectl-edit' });
        await waitFor('the edit undone', async () => (await backend().get('v1', 'ConfigMap', `${name}-conf`, 'default'))?.data?.['color'] === 'blue');
        await waitFor('the correction counted', async () => /controller_drift_corrections_total\{crd="site"\} [1-9]/.test(await registry.metrics()));
      } finally {
        await runtime.stop();
      }
    });

    test('Lease election: one replica leads and holds the Lease; when it stops, the other takes over', async () => {
      const chore = await install(backend(), 'lease', 'Chore', 'chores');
      const lease = unique('chores');
      const replica = (identity: string) =>
        createRuntime(katalog({ chore: entry(chore, { operatorBox: { onCreate: { configMaps: [{ name: '{{ .metadata.name }}-done', data: { by: identity } }] } } }) }), {
          kubeConfig: backend().kubeConfig,
          watch: FAST_WATCH,
          leaderElection: { namespace: 'default', name: lease, identity, leaseDuration: '3s', renewDeadline: '2s', retryPeriod: '250ms' },
        });
      const a = replica('replica-a');
      const b = replica('replica-b');
      await a.start();
      try {
        await waitFor('a leads', () => a.leader);
        await b.start();
        const held = await waitFor('the Lease', () => backend().get('coordination.k8s.io/v1', 'Lease', lease, 'default'));
        assert.equal(held.spec?.['holderIdentity'], 'replica-a');
        assert.equal(held.spec?.['leaseDurationSeconds'], 3);
        assert.match(String(held.spec?.['renewTime']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, 'MicroTime');
        assert.equal(b.leader, false);
        const first = unique('chore');
        await backend().create(object(chore, first));
        const done = await waitFor('the leader reconciled', () => backend().get('v1', 'ConfigMap', `${first}-done`, 'default'));
        assert.equal(done.data?.['by'], 'replica-a');

        await a.stop();
        await waitFor('b leads', () => b.leader, 15_000);
        const taken = await backend().get('coordination.k8s.io/v1', 'Lease', lease, 'default');
        assert.equal(taken?.spec?.['holderIdentity'], 'replica-b');
        assert.ok(Number(taken?.spec?.['leaseTransitions']) >= 1, 'the transition is counted');
        const second = unique('chore');
        await backend().create(object(chore, second));
        const doneByB = await waitFor('the new leader reconciled', () => backend().get('v1', 'ConfigMap', `${second}-done`, 'default'));
        assert.equal(doneByB.data?.['by'], 'replica-b');
      } finally {
        await a.stop();
        await b.stop();
      }
    });

    test('the six inspection endpoints answer during a real run', async () => {
      const app = await install(backend(), 'endpoints', 'App', 'apps');
      const runtime = createRuntime(katalog({ app: entry(app, { operatorBox: { onCreate: { configMaps: [{ name: '{{ .metadata.name }}-cfg', data: { a: 'b' } }] } } }) }), {
        kubeConfig: backend().kubeConfig,
        watch: FAST_WATCH,
      });
      await runtime.start();
      try {
        const name = unique('app');
        await backend().create(object(app, name));
        await waitFor('the child', () => backend().get('v1', 'ConfigMap', `${name}-cfg`, 'default'));
        const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> | string }> => {
          const response = await runtime.router.request(path);
          const text = await response.text();
          return { status: response.status, body: response.headers.get('content-type')?.includes('json') === true ? (JSON.parse(text) as Record<string, unknown>) : text };
        };
        const health = await get('/health');
        assert.equal(health.status, 200);
        assert.equal((health.body as Record<string, unknown>)['status'], 'ok');
        const ready = await get('/ready');
        assert.deepEqual([ready.status, (ready.body as Record<string, unknown>)['crds']], [200, { app: 'healthy' }]);
        const metrics = await waitFor('a successful reconcile counted', async () => {
          const m = await get('/metrics');
          return /controller_reconcile_total\{crd="app",result="success"\} [1-9]/.test(String(m.body)) ? m : undefined;
        });
        assert.equal(metrics.status, 200);
        const list = await get('/katalog');
        assert.equal((list.body as { total?: number }).total, 1);
        const detail = await waitFor('resourceCount 1', async () => {
          const d = await get('/katalog/app');
          return (d.body as { resourceCount?: number }).resourceCount === 1 ? d : undefined;
        });
        assert.equal(detail.status, 200);
        assert.deepEqual((detail.body as { gvk?: unknown }).gvk, { group: app.group, version: 'v1', kind: 'App' });
        const crdHealth = await get('/katalog/app/health');
        assert.deepEqual([crdHealth.status, (crdHealth.body as { healthy?: boolean }).healthy], [200, true]);
      } finally {
        await runtime.stop();
      }
    });
  });
}
