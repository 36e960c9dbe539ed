// Child operations beyond the example: custom-resource children found by discovery and kept in line, create-only
// entries left alone, renamed children pruned, and a failed onDelete Job run again while the finalizer stays.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; data?: Record<string, unknown> };

const STORE: CrdSpec = { kind: 'Store', plural: 'stores' };
const CACHE: CrdSpec = { kind: 'Cache', plural: 'caches', group: 'cache.example.io' };

describe('operatorBox: child operations', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test('custom-resource children are applied and corrected; create-only children are left alone; renamed children are pruned', async () => {
    server.reset();
    server.applyCrd(crdManifest(STORE));
    server.applyCrd(crdManifest(CACHE));
    const runtime = createRuntime(
      katalog({
        store: katalogEntry(STORE, {
          operatorBox: {
            onCreate: {
              configMaps: [{ name: 'seed-{{ .metadata.name }}', data: { created: 'once' } }],
              resources: [{ apiVersion: 'cache.example.io/v1', kind: 'Cache', name: '{{ .spec.cacheName }}', reconcile: true, spec: { size: '{{ .spec.size }}' } }],
            },
          },
        }),
      }),
      { kubeConfig: server.kubeConfig, watch: FAST_WATCH },
    );
    await runtime.start();
    try {
      server.create(customResource(STORE, 'shop', { cacheName: 'shop-cache', size: 3 }));
      const cache = await waitFor('the Cache', () => server.get('cache.example.io/v1', 'Cache', 'shop-cache', 'default') as Obj | undefined);
      assert.deepEqual(cache.spec, { size: 3 });
      await waitFor('the seed ConfigMap', () => server.get('v1', 'ConfigMap', 'seed-shop', 'default'));

      server.patch('v1', 'ConfigMap', 'seed-shop', { data: { created: 'edited' } }, { namespace: 'default' });
      server.patch('cache.example.io/v1', 'Cache', 'shop-cache', { spec: { size: 99 } }, { namespace: 'default' });
      await waitFor('the Cache corrected', () => (server.get('cache.example.io/v1', 'Cache', 'shop-cache', 'default') as Obj | undefined)?.spec?.['size'] === 3, 1000);
      assert.equal((server.get('v1', 'ConfigMap', 'seed-shop', 'default') as Obj).data?.['created'], 'edited', 'reconcile: false leaves the child alone');

      server.patch('example.io/v1', 'Store', 'shop', { spec: { cacheName: 'shop-cache-2' } }, { namespace: 'default' });
      await waitFor('the new Cache', () => server.get('cache.example.io/v1', 'Cache', 'shop-cache-2', 'default'));
      await waitFor('the old Cache pruned', () => server.get('cache.example.io/v1', 'Cache', 'shop-cache', 'default') === undefined);
    } finally {
      await runtime.stop();
    }
  });

  test('a failed onDelete Job keeps the finalizer and runs again; success lets the parent go', async () => {
    server.reset();
    server.applyCrd(crdManifest(STORE));
    const runtime = createRuntime(
      katalog({ store: katalogEntry(STORE, { operatorBox: { onDelete: { jobs: [{ name: '{{ .metadata.name }}-backup', image: 'busybox' }] } } }) }),
      { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 50 } },
    );
    await runtime.start();
    try {
      server.create(customResource(STORE, 'shop'));
      await waitFor('finalizer added', () => ((server.get('example.io/v1', 'Store', 'shop', 'default') as Obj | undefined)?.metadata?.['finalizers'] as string[] | undefined)?.includes('katalog.dev/cleanup'));
      server.delete('example.io/v1', 'Store', 'shop', 'default');
      const first = await waitFor('the backup Job', () => server.get('batch/v1', 'Job', 'shop-backup', 'default') as Obj | undefined);
      server.updateStatus({ ...first, status: { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] } });
      const second = await waitFor('a new Job', () => {
        const job = server.get('batch/v1', 'Job', 'shop-backup', 'default') as Obj | undefined;
        return job !== undefined && job.metadata?.['uid'] !== first.metadata?.['uid'] ? job : undefined;
      });
      assert.ok(server.get('example.io/v1', 'Store', 'shop', 'default'), 'the parent waits');
      server.updateStatus({ ...second, status: { succeeded: 1 } });
      await waitFor('parent gone', () => server.get('example.io/v1', 'Store', 'shop', 'default') === undefined);
    } finally {
      await runtime.stop();
    }
  });
});
