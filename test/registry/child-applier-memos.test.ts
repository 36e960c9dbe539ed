// ChildApplier (registry/child-applier.ts): what a child write returned stands in for the cache only while the cache
// lags behind the write; when the write's own watch event reached the cache before its answer, nothing is kept.
// Real HTTP with the real client against katalog/testing; the lookup is the cache the applier reads.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';
import { ChildApplier } from '../../src/registry/child-applier.js';
import type { ChildLookup } from '../../src/registry/child-watches.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { systemClock } from '../../src/util/clock.js';

const CONFIG_MAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

const desired = (name: string, value: string) => ({
  source: 'test',
  resource: CONFIG_MAPS,
  reconcile: true,
  manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { value } } as KubeObject,
});

describe('ChildApplier memos', () => {
  let server: TestApiServer;
  let client: KubeClient;
  before(async () => {
    server = await startTestApiServer();
    client = new KubeClient(server.kubeConfig);
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  /** A cache that either has caught up with the server at once (the event came first) or still holds `stale`. */
  const applierWith = (caughtUp: () => boolean, stale: () => KubeObject | undefined): ChildApplier => {
    const lookup: ChildLookup = {
      watches: () => true,
      get: (_resource, namespace, name) => (caughtUp() ? server.get('v1', 'ConfigMap', name, namespace) : stale()),
      ownedBy: () => [],
    };
    return new ChildApplier({ client, lookup, clock: systemClock, fieldManager: 'katalog', force: true });
  };

  test("a write whose watch event is cached before its answer keeps no memo; one whose event lags keeps it", async () => {
    server.reset();
    const signal = new AbortController().signal;
    let caughtUp = false;
    let stale: KubeObject | undefined;
    const applier = applierWith(() => caughtUp, () => stale);

    // The cache lags: the answer stands in for it until the event arrives.
    const created = await applier.apply(desired('lagging', 'a'), signal);
    assert.equal(created.action, 'created');
    assert.equal(applier.memoCount, 1);
    // While the cache still shows the state before the write, the same child is not written again.
    assert.equal((await applier.apply(desired('lagging', 'a'), signal)).action, 'unchanged');
    // Its event arrives: the memo goes.
    assert.equal(applier.observed(server.get('v1', 'ConfigMap', 'lagging', 'default') as KubeObject), true);
    assert.equal(applier.memoCount, 0);

    // The cache has caught up before the answer is read: nothing is kept, and the cache answers from then on.
    caughtUp = true;
    assert.equal((await applier.apply(desired('prompt', 'b'), signal)).action, 'created');
    assert.equal(applier.memoCount, 0);
    assert.equal((await applier.apply(desired('prompt', 'b'), signal)).action, 'unchanged');
    // A change applied later, its event again first: still nothing kept, and the server has the change.
    assert.equal((await applier.apply(desired('prompt', 'c'), signal)).action, 'applied');
    assert.equal(applier.memoCount, 0);
    assert.deepEqual(server.get('v1', 'ConfigMap', 'prompt', 'default')?.['data'], { value: 'c' });
    stale = undefined;
  });
});
