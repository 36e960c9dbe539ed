// What a new custom resource costs (SPEC §8): one write per child and one status write, plus the finalizer only
// where the finalizer rule asks for it; no request that the runtime's own earlier write makes conflict (no 409, no
// re-read); and an unchanged object costs nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

const GIZMO: CrdSpec = { kind: 'Gizmo', plural: 'gizmos' };
type Obj = { metadata?: { finalizers?: string[] }; status?: { observedGeneration?: number; conditions?: Array<{ type: string; status: string }> } };

const CHILDREN = {
  configMaps: [
    { name: '{{ .metadata.name }}-settings', reconcile: true, data: { size: '{{ .spec.size }}' } },
    { name: '{{ .metadata.name }}-seed', data: { once: 'yes' } },
  ],
  services: [{ name: '{{ .metadata.name }}', reconcile: true, ports: [{ port: 80 }] }],
};

/** Resolves once no reconcile has run for `quietMs` (the echoes of the runtime's own writes included). */
async function quiet(runtime: Runtime, quietMs = 400): Promise<void> {
  let last = Date.now();
  const onReconciled = (): void => void (last = Date.now());
  runtime.on('reconciled', onReconciled);
  try {
    await waitFor('the runtime to go quiet', () => Date.now() - last >= quietMs, 10_000);
  } finally {
    runtime.off('reconciled', onReconciled);
  }
}

function writes(server: TestApiServer, resource: string): { verb: string; subresource: string; status: number }[] {
  return server.requests
    .log()
    .filter((r) => r.resource === resource && r.verb !== 'get' && r.verb !== 'list' && r.verb !== 'watch')
    .map((r) => ({ verb: r.verb, subresource: r.subresource, status: r.status }));
}

describe('what a new custom resource costs', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test('a single create costs two requests in all, as the hand-written loop: the child apply and the status write', async () => {
    // bench/peers' job: one ConfigMap kept in line and the Ready status. A hand-written client-node loop sends
    // exactly these two requests; the runtime may send no more (no read, no finalizer, no retry), watches aside.
    server.reset();
    server.applyCrd(crdManifest(GIZMO));
    const operatorBox = { onCreate: { configMaps: [{ name: '{{ .metadata.name }}', reconcile: true, data: { size: '{{ .spec.size }}' } }] } };
    const runtime = createRuntime(katalog({ gizmo: katalogEntry(GIZMO, { operatorBox }) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    await runtime.start();
    try {
      await quiet(runtime);
      const reconciles = new Map<string, number>();
      runtime.on('reconciled', ({ key }: { key: string }) => void reconciles.set(key, (reconciles.get(key) ?? 0) + 1));
      for (const name of ['s1', 's2', 's3']) {
        server.requests.reset();
        server.create(customResource(GIZMO, name, { size: 1 }));
        await waitFor(`${name} Ready`, () => {
          const object = server.get('example.io/v1', 'Gizmo', name, 'default') as Obj | undefined;
          return object?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
        });
        await quiet(runtime);
        const sent = server.requests
          .log()
          .filter((r) => r.verb !== 'watch')
          .map((r) => `${r.verb} ${r.resource}${r.subresource === '' ? '' : `/${r.subresource}`} ${r.status}`);
        assert.deepEqual(sent.sort(), ['patch configmaps 201', 'patch gizmos/status 200'], `the requests of creating ${name}`);
        // The child's watch event that only echoes the runtime's own apply does not reconcile the parent again.
        assert.equal(reconciles.get(`default/${name}`), 1, `reconciles of ${name}`);
      }
    } finally {
      await runtime.stop();
    }
  });

  test('a status field that reads the children is still brought up to date by the echo of the child write', async () => {
    // The first reconcile renders the status before its own child reaches the cache; the child's watch event must
    // then reconcile the parent again (resync is off, so nothing else would).
    server.reset();
    server.applyCrd(crdManifest(GIZMO));
    const operatorBox = {
      onCreate: { configMaps: [{ name: '{{ .metadata.name }}', reconcile: true, data: { size: '{{ .spec.size }}' } }] },
      status: { fields: [{ path: 'children', value: '{{ len .children.configMaps }}' }] },
    };
    const runtime = createRuntime(katalog({ gizmo: katalogEntry(GIZMO, { operatorBox, resync: '0s' }) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    await runtime.start();
    try {
      server.create(customResource(GIZMO, 'counted', { size: 1 }));
      await waitFor('status.children = 1', () => {
        const object = server.get('example.io/v1', 'Gizmo', 'counted', 'default') as { status?: { children?: unknown } } | undefined;
        return String(object?.status?.children) === '1';
      });
    } finally {
      await runtime.stop();
    }
  });

  test('a child whose quantities the API server rewrites (cpu: 0.5 → 500m, 1024Mi → 1Gi) is not written again when nothing changed', async () => {
    server.reset();
    server.applyCrd(crdManifest(GIZMO));
    const resources = { limits: { cpu: 0.5, memory: '1024Mi' }, requests: { cpu: '0.0001' } };
    const operatorBox = { onCreate: { deployments: [{ name: '{{ .metadata.name }}', image: 'nginx:1.27', reconcile: true, resources }] } };
    const runtime = createRuntime(katalog({ gizmo: katalogEntry(GIZMO, { operatorBox }) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    await runtime.start();
    try {
      server.create(customResource(GIZMO, 'g2', { size: 1 }));
      await waitFor('the Deployment', () => server.get('apps/v1', 'Deployment', 'g2', 'default'));
      await quiet(runtime);
      const deployment = server.get('apps/v1', 'Deployment', 'g2', 'default') as { spec: { template: { spec: { containers: Array<{ resources: unknown }> } } } };
      assert.deepEqual(deployment.spec.template.spec.containers[0]?.resources, { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '1m' } }, 'stored as kube-apiserver stores it');
      server.requests.reset();
      server.patch('example.io/v1', 'Gizmo', 'g2', { metadata: { labels: { touched: 'yes' } } }, { namespace: 'default' });
      await quiet(runtime);
      assert.deepEqual(writes(server, 'deployments'), [], 'no write to the Deployment: its quantities are the same values');
    } finally {
      await runtime.stop();
    }
  });

  for (const finalized of [false, true]) {
    test(`one write per child and one status write${finalized ? ', plus the finalizer a declared finalizer asks for' : ', and no finalizer'}; no 409; nothing for an unchanged object`, async () => {
      server.reset();
      server.applyCrd(crdManifest(GIZMO));
      const operatorBox = finalized ? { finalizers: ['example.io/audit'], onCreate: CHILDREN } : { onCreate: CHILDREN };
      const runtime = createRuntime(katalog({ gizmo: katalogEntry(GIZMO, { operatorBox }) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
      await runtime.start();
      try {
        server.requests.reset();
        server.create(customResource(GIZMO, 'g1', { size: 1 }));
        await waitFor('g1 Ready', () => {
          const object = server.get('example.io/v1', 'Gizmo', 'g1', 'default') as Obj | undefined;
          return object?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
        });
        await quiet(runtime);
        const expected = [
          ...(finalized ? [{ verb: 'patch', subresource: '', status: 200 }] : []),
          { verb: 'patch', subresource: 'status', status: 200 },
        ];
        assert.deepEqual(writes(server, 'gizmos'), expected, 'writes to the custom resource');
        assert.deepEqual(
          writes(server, 'configmaps').map((w) => w.verb).sort(),
          ['create', 'patch'],
          'one apply for the kept-in-line ConfigMap, one create for the create-only one',
        );
        assert.deepEqual(writes(server, 'services').map((w) => w.verb), ['patch'], 'one apply for the Service');
        assert.equal(server.requests.log().filter((r) => r.status === 409).length, 0, 'no 409 Conflict');
        assert.equal(server.requests.count({ verb: 'get', resource: 'gizmos' }), 0, 'no re-read of the custom resource');
        const meta = (server.get('example.io/v1', 'Gizmo', 'g1', 'default') as Obj).metadata;
        assert.deepEqual(meta?.finalizers ?? [], finalized ? ['katalog.dev/cleanup', 'example.io/audit'] : []);

        // A spec change costs one apply of the child that changes and one status write (observedGeneration).
        server.requests.reset();
        server.patch('example.io/v1', 'Gizmo', 'g1', { spec: { size: 2 } }, { namespace: 'default' });
        await waitFor('g1 observed at generation 2', () => (server.get('example.io/v1', 'Gizmo', 'g1', 'default') as Obj).status?.observedGeneration === 2);
        await quiet(runtime);
        assert.deepEqual(writes(server, 'gizmos'), [{ verb: 'patch', subresource: 'status', status: 200 }]);
        assert.deepEqual(writes(server, 'configmaps').map((w) => w.verb), ['patch']);
        assert.deepEqual(writes(server, 'services'), []);

        // Unchanged (a label only): a reconcile, and no write at all.
        server.requests.reset();
        server.patch('example.io/v1', 'Gizmo', 'g1', { metadata: { labels: { touched: 'yes' } } }, { namespace: 'default' });
        await quiet(runtime);
        for (const resource of ['gizmos', 'configmaps', 'services']) assert.deepEqual(writes(server, resource), [], `no write to ${resource}`);
      } finally {
        await runtime.stop();
      }
    });
  }
});
