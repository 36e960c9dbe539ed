// One child informer per kind for the whole runtime (registry/child-informers.ts): three CRDs whose templates all
// make ConfigMaps open one ConfigMap list and one watch, each CRD still gets its children, a hand edit of one child is
// corrected and reconciles its own parent only, a CRD activated late lists nothing (its children are already
// cached), and stop() leaves no watch open. Real HTTP with the real client against katalog/testing; the server's
// request log counts the lists and watches it received.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, quietFor, waitFor, type CrdSpec } from '../support/cluster.js';

const NAMES = ['alpha', 'beta', 'gamma'] as const;
const spec = (name: string): CrdSpec => ({ kind: `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`, plural: `${name}s` });
/** Each CRD's parent makes a ConfigMap `<parent>-<crd>`, kept in line. */
const entry = (name: string): Record<string, unknown> =>
  katalogEntry(spec(name), { resync: '0s', operatorBox: { onCreate: { configMaps: [{ name: `{{ .metadata.name }}-${name}`, reconcile: true, data: { owner: name } }] } } });

type ConfigMap = { metadata?: { labels?: Record<string, string> }; data?: Record<string, string> };

describe('one child informer per kind for the whole runtime', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  const configMap = (name: string): ConfigMap | undefined => server.get('v1', 'ConfigMap', name, 'default') as ConfigMap | undefined;
  const lists = (): number => server.requests.count({ verb: 'list', resource: 'configmaps' });
  const watches = (): number => server.requests.count({ verb: 'watch', resource: 'configmaps' });

  test('three CRDs making ConfigMaps: one list, one watch; a hand edit reconciles its own parent only; stop() closes it', async () => {
    server.reset();
    for (const name of NAMES) server.applyCrd(crdManifest(spec(name)));
    await server.settled();
    const runtime = createRuntime(katalog(Object.fromEntries(NAMES.map((name) => [name, entry(name)]))), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    const reconciles: string[] = [];
    runtime.on('reconciled', ({ crd, key }: { crd: string; key: string }) => void reconciles.push(`${crd} ${key}`));
    await runtime.start();
    try {
      assert.equal(lists(), 1, 'one ConfigMap list for three CRDs');
      await waitFor('the ConfigMap watch open', () => server.watchCount({ resource: 'configmaps' }) === 1);

      for (const name of NAMES) server.create(customResource(spec(name), 'shop'));
      for (const name of NAMES) {
        const child = await waitFor(`the child of ${name}`, () => configMap(`shop-${name}`));
        assert.equal(child.metadata?.labels?.['katalog.dev/crd'], name);
        assert.equal(child.data?.['owner'], name);
      }
      await quietFor(() => reconciles.length);

      const mark = reconciles.length;
      server.patch('v1', 'ConfigMap', 'shop-beta', { data: { owner: 'edited' } }, { namespace: 'default' });
      await waitFor('the edit corrected', () => configMap('shop-beta')?.data?.['owner'] === 'beta', 2000);
      await quietFor(() => reconciles.length);
      const after = reconciles.slice(mark);
      assert.ok(after.length > 0, 'the edit reconciled');
      assert.deepEqual([...new Set(after)], ['beta default/shop'], `only the edited child's parent reconciled: ${after.join(', ')}`);
      assert.equal(configMap('shop-alpha')?.data?.['owner'], 'alpha');
      assert.equal(configMap('shop-gamma')?.data?.['owner'], 'gamma');

      assert.equal(watches(), 1, 'still the one watch request');
      assert.equal(server.watchCount({ resource: 'configmaps' }), 1);
      assert.equal(lists(), 1);
    } finally {
      await runtime.stop();
    }
    await waitFor('no watch left open', () => server.watchCount() === 0, 2000);
  });

  test('a CRD activated late lists no ConfigMaps: its children were cached from the start', async () => {
    server.reset();
    for (const name of ['alpha', 'beta']) server.applyCrd(crdManifest(spec(name)));
    await server.settled();
    // A child of gamma's parent from an earlier run, edited since: gamma's first reconcile puts it back.
    server.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shop-gamma', namespace: 'default', labels: { 'app.kubernetes.io/managed-by': 'katalog', 'katalog.dev/crd': 'gamma', 'katalog.dev/owner': 'gamma.default.shop' } },
      data: { owner: 'stale' },
    });
    const runtime = createRuntime(katalog(Object.fromEntries(NAMES.map((name) => [name, entry(name)]))), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    const activated: string[] = [];
    runtime.on('activated', ({ crd }: { crd: string }) => void activated.push(crd));
    await runtime.start();
    try {
      assert.deepEqual(activated.sort(), ['alpha', 'beta'], 'gamma waits for its CRD');
      assert.equal(lists(), 1);
      server.applyCrd(crdManifest(spec('gamma')));
      await waitFor('gamma activated', () => activated.includes('gamma'));
      assert.equal(lists(), 1, 'no list of its own for the CRD activated late');
      server.create(customResource(spec('gamma'), 'shop'));
      await waitFor("gamma's child put back", () => configMap('shop-gamma')?.data?.['owner'] === 'gamma');
      assert.equal(watches(), 1);
    } finally {
      await runtime.stop();
    }
    await waitFor('no watch left open', () => server.watchCount() === 0, 2000);
  });
});
