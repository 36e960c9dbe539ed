// CRD removal and return (SPEC §3.1, §4.5): while a managed CRD is Terminating the runtime keeps handling its custom
// resources' deletion (onDelete, then its finalizers), so the CRD goes; the CRD is then `pending`, and once recreated
// it is active again within a second. And the finalizer rule: katalog's finalizer only where deletion needs katalog.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { CLEANUP_FINALIZER } from '../../src/operatorbox/generic-box.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, crdObjectName, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: { finalizers?: string[]; deletionTimestamp?: string; uid?: string }; status?: { conditions?: Array<{ type: string; status: string }> } };

const GADGET: CrdSpec = { kind: 'Gadget', plural: 'gadgets' };
const CRD_API = 'apiextensions.k8s.io/v1';

function gadget(server: TestApiServer, name: string): Obj | undefined {
  return server.get('example.io/v1', 'Gadget', name, 'default') as Obj | undefined;
}

function ready(object: Obj | undefined): boolean {
  return object?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

describe('CRD removal and return', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test('a Terminating CRD completes: every onDelete runs, the finalizers go, the CRD is pending, and recreated it is active within 1 s', async () => {
    server.reset();
    server.applyCrd(crdManifest(GADGET));
    const deleted: string[] = [];
    const events: string[] = [];
    const runtime = createRuntime(
      katalog({
        gadget: katalogEntry(GADGET, {
          operatorBox: { hooks: { function: 'GadgetHooks' }, onCreate: { configMaps: [{ name: '{{ .metadata.name }}-config', data: { a: 'b' } }] } },
        }),
      }),
      {
        kubeConfig: server.kubeConfig,
        watch: FAST_WATCH,
        rateLimiter: { baseDelay: 5, maxDelay: 200 },
        hooks: { GadgetHooks: { onDelete: (ctx) => void deleted.push(ctx.object.metadata?.name ?? '') } },
      },
    );
    runtime.on('activated', ({ crd }) => void events.push(`activated ${crd}`));
    runtime.on('deactivated', ({ crd }) => void events.push(`deactivated ${crd}`));
    await runtime.start();
    try {
      const names = ['g1', 'g2', 'g3', 'g4', 'g5'];
      for (const name of names) server.create(customResource(GADGET, name, { n: name }));
      await waitFor('every gadget Ready with the finalizer', () => names.every((name) => ready(gadget(server, name)) && gadget(server, name)?.metadata?.finalizers?.includes(CLEANUP_FINALIZER)));

      server.delete(CRD_API, 'CustomResourceDefinition', crdObjectName(GADGET));
      await waitFor('the CRD gone', () => server.get(CRD_API, 'CustomResourceDefinition', crdObjectName(GADGET)) === undefined, 10_000);
      assert.deepEqual([...deleted].sort(), names, 'onDelete ran once for each custom resource');
      await waitFor('gadget pending', () => runtime.slot('gadget')?.health.state === 'pending');
      assert.match(runtime.slot('gadget')?.health.pendingReason ?? '', /to be installed/);
      await server.settled();
      assert.equal(server.objects({ kind: 'ConfigMap', namespace: 'default' }).length, 0, 'the children were collected');

      const recreated = Date.now();
      server.applyCrd(crdManifest(GADGET));
      await waitFor('gadget active again', () => runtime.slot('gadget')?.health.state === 'healthy', 5000);
      const elapsed = Date.now() - recreated;
      assert.ok(elapsed < 1000, `active again ${elapsed} ms after the CRD came back`);
      server.create(customResource(GADGET, 'g6'));
      await waitFor('a new gadget reconciled', () => ready(gadget(server, 'g6')) && server.get('v1', 'ConfigMap', 'g6-config', 'default') !== undefined);
      assert.deepEqual(events, ['activated gadget', 'deactivated gadget', 'activated gadget']);
    } finally {
      await runtime.stop();
    }
  });

  test('without deletion work, custom resources carry no katalog finalizer: removing the operator and then the CRD strands nothing', async () => {
    server.reset();
    server.applyCrd(crdManifest(GADGET));
    const runtime = createRuntime(
      katalog({ gadget: katalogEntry(GADGET, { operatorBox: { onCreate: { configMaps: [{ name: '{{ .metadata.name }}-config', data: { a: 'b' } }] } } }) }),
      { kubeConfig: server.kubeConfig, watch: FAST_WATCH },
    );
    await runtime.start();
    try {
      server.create(customResource(GADGET, 'plain'));
      // An object an earlier version of katalog finalized: the finalizer goes, since nothing needs it.
      server.create({ ...customResource(GADGET, 'old'), metadata: { name: 'old', namespace: 'default', finalizers: [CLEANUP_FINALIZER] } });
      await waitFor('both reconciled', () => ready(gadget(server, 'plain')) && ready(gadget(server, 'old')) && server.get('v1', 'ConfigMap', 'plain-config', 'default') !== undefined);
      await waitFor('the old finalizer removed', () => (gadget(server, 'old')?.metadata?.finalizers ?? []).length === 0);
      assert.deepEqual(gadget(server, 'plain')?.metadata?.finalizers ?? [], []);
    } finally {
      await runtime.stop();
    }
    // The operator is gone; its CRD is deleted next, and nothing waits for it.
    server.delete(CRD_API, 'CustomResourceDefinition', crdObjectName(GADGET));
    await waitFor('the CRD gone without the operator', () => server.get(CRD_API, 'CustomResourceDefinition', crdObjectName(GADGET)) === undefined, 5000);
    await server.settled();
    assert.equal(server.objects({ kind: 'ConfigMap', namespace: 'default' }).length, 0, 'the garbage collector took the children');
  });

  test('a cluster-scoped child needs the finalizer: it is added before the child is created, and the child is deleted with the parent', async () => {
    server.reset();
    server.applyCrd(crdManifest(GADGET));
    const runtime = createRuntime(
      katalog({
        gadget: katalogEntry(GADGET, {
          operatorBox: {
            onCreate: {
              configMaps: [{ name: '{{ .metadata.name }}-config', data: { a: 'b' } }],
              resources: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'gadget-{{ .metadata.name }}', rules: [] }],
            },
          },
        }),
      }),
      { kubeConfig: server.kubeConfig, watch: FAST_WATCH },
    );
    await runtime.start();
    try {
      server.create(customResource(GADGET, 'wide'));
      const role = await waitFor('the ClusterRole', () => server.get('rbac.authorization.k8s.io/v1', 'ClusterRole', 'gadget-wide') as Obj | undefined);
      assert.ok(role);
      assert.deepEqual(gadget(server, 'wide')?.metadata?.finalizers, [CLEANUP_FINALIZER]);
      server.delete('example.io/v1', 'Gadget', 'wide', 'default');
      await waitFor('the parent gone', () => gadget(server, 'wide') === undefined);
      assert.equal(server.get('rbac.authorization.k8s.io/v1', 'ClusterRole', 'gadget-wide'), undefined, 'the cluster-scoped child was deleted');
    } finally {
      await runtime.stop();
    }
  });
});
