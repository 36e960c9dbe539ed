// Hooks, versions and cluster-scoped children against the test API server: a failing hook degrades the CRD and
// sets Ready False with its message, recovery sets it True; a CRD served at three versions hands v1 objects to
// templates and hooks; hooks see the children; cluster-scoped children are deleted with their parent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import type { HookContext } from '../../src/operatorbox/types.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; status?: Record<string, unknown> };

const readyOf = (object: Obj | undefined): Record<string, unknown> | undefined =>
  ((object?.status?.['conditions'] as Array<Record<string, unknown>> | undefined) ?? []).find((condition) => condition['type'] === 'Ready');

describe('operatorBox: hooks, versions and cleanup', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test('a failing hook degrades the CRD at the threshold with Ready False and its message; recovery sets Ready True', async () => {
    server.reset();
    const APP: CrdSpec = { kind: 'App', plural: 'apps' };
    server.applyCrd(crdManifest(APP));
    let failing = true;
    const runtime = createRuntime(
      katalog({
        app: katalogEntry(APP, {
          queue: { failureThreshold: 3 },
          operatorBox: { onCreate: { configMaps: [{ name: '{{ .metadata.name }}', data: { a: 'b' } }] }, hooks: { function: 'AppHooks' } },
        }),
      }),
      {
        kubeConfig: server.kubeConfig,
        watch: FAST_WATCH,
        rateLimiter: { baseDelay: 5, maxDelay: 50 },
        hooks: {
          AppHooks: {
            onReconcile: () => {
              if (failing) throw new Error('database unreachable');
            },
          },
        },
      },
    );
    await runtime.start();
    try {
      server.create(customResource(APP, 'one'));
      await waitFor('degraded', () => runtime.slot('app')?.health.state === 'degraded');
      const failed = readyOf(server.get('example.io/v1', 'App', 'one', 'default') as Obj);
      assert.equal(failed?.['status'], 'False');
      assert.equal(failed?.['reason'], 'ReconcileError');
      assert.equal(failed?.['message'], 'database unreachable');
      assert.ok(server.get('v1', 'ConfigMap', 'one', 'default'), 'templates ran before the hook');
      failing = false;
      await waitFor('recovered', () => runtime.slot('app')?.health.state === 'healthy', 3000);
      await waitFor('Ready True', () => readyOf(server.get('example.io/v1', 'App', 'one', 'default') as Obj)?.['status'] === 'True');
    } finally {
      await runtime.stop();
    }
  });

  test('a CRD served at v1alpha1, v1beta1 and v1 hands v1 objects to templates and hooks', async () => {
    server.reset();
    const SITE: CrdSpec = {
      kind: 'Site',
      plural: 'sites',
      versions: [
        { name: 'v1alpha1', served: true, storage: false },
        { name: 'v1beta1', served: true, storage: true },
        { name: 'v1', served: true, storage: false },
      ],
    };
    server.applyCrd(crdManifest(SITE));
    const seen: string[] = [];
    const runtime = createRuntime(
      katalog({
        site: katalogEntry(SITE, {
          operatorBox: {
            onCreate: { configMaps: [{ name: '{{ .metadata.name }}-version', data: { apiVersion: '{{ .apiVersion }}' } }] },
            hooks: { function: 'SiteHooks' },
          },
        }),
      }),
      {
        kubeConfig: server.kubeConfig,
        watch: FAST_WATCH,
        hooks: { SiteHooks: { onReconcile: (ctx: HookContext) => void seen.push(ctx.object.apiVersion ?? '') } },
      },
    );
    await runtime.start();
    try {
      assert.equal(runtime.slot('site')?.activated?.target.resource.version, 'v1');
      server.create({ ...customResource(SITE, 'old'), apiVersion: 'example.io/v1alpha1' });
      const map = await waitFor('the ConfigMap', () => server.get('v1', 'ConfigMap', 'old-version', 'default') as Obj | undefined);
      assert.deepEqual(map['data'], { apiVersion: 'example.io/v1' });
      await waitFor('the hook ran', () => seen.length > 0);
      assert.ok(seen.every((version) => version === 'example.io/v1'), seen.join(', '));
    } finally {
      await runtime.stop();
    }
  });

  test('hooks see the children; cluster-scoped children are deleted with their parent', async () => {
    server.reset();
    const TEAM: CrdSpec = { kind: 'Team', plural: 'teams' };
    server.applyCrd(crdManifest(TEAM));
    const observed: Array<HookContext['children']> = [];
    const runtime = createRuntime(
      katalog({
        team: katalogEntry(TEAM, {
          operatorBox: {
            onCreate: {
              namespaces: [{ name: 'team-{{ .metadata.name }}' }],
              clusterRoles: [{ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }],
              serviceAccounts: [{ name: '{{ .metadata.name }}' }],
            },
            hooks: { function: 'TeamHooks' },
          },
        }),
      }),
      {
        kubeConfig: server.kubeConfig,
        watch: FAST_WATCH,
        hooks: { TeamHooks: { onReconcile: (ctx: HookContext) => void observed.push(ctx.children) } },
      },
    );
    await runtime.start();
    try {
      server.create(customResource(TEAM, 'red'));
      await waitFor('namespace', () => server.get('v1', 'Namespace', 'team-red'));
      await waitFor('cluster role', () => server.get('rbac.authorization.k8s.io/v1', 'ClusterRole', 'default-red-clusterrole'));
      const first = await waitFor('the hook ran', () => observed[0]);
      assert.ok(first?.['namespaces']?.['team-red'], 'the hook of the first reconcile sees the children just created');
      assert.ok(first['serviceAccounts']?.['red']);
      assert.ok(first['clusterRoles']?.['default-red-clusterrole']);
      const namespace = server.get('v1', 'Namespace', 'team-red') as Obj;
      assert.equal(namespace.metadata?.['ownerReferences'], undefined, 'no owner reference across scopes');

      server.delete('example.io/v1', 'Team', 'red', 'default');
      await waitFor('parent gone', () => server.get('example.io/v1', 'Team', 'red', 'default') === undefined);
      await server.settled();
      await waitFor('namespace deleted', () => {
        const current = server.get('v1', 'Namespace', 'team-red') as Obj | undefined;
        return current === undefined || current.metadata?.['deletionTimestamp'] !== undefined;
      });
      assert.equal(server.get('rbac.authorization.k8s.io/v1', 'ClusterRole', 'default-red-clusterrole'), undefined);
    } finally {
      await runtime.stop();
    }
  });
});
