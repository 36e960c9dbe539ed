// Watches through client-node's low-level Watch: resourceVersion semantics, replay, 410, bookmarks, timeouts.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { waitFor } from './wait-for.js';

interface Seen {
  type: string;
  name: string;
  rv: string;
  object: Record<string, any>;
}

describe('watch', () => {
  let server: TestApiServer;
  let core: CoreV1Api;
  const controllers: AbortController[] = [];

  /** Opens a watch; returns the events seen so far and how it ended (undefined while open). */
  const open = async (path: string, query: Record<string, string | number | boolean | undefined>): Promise<{ events: Seen[]; ended: () => unknown }> => {
    const events: Seen[] = [];
    let end: unknown;
    let ended = false;
    const controller = await new Watch(server.kubeConfig).watch(
      path,
      query,
      (type, object: Record<string, any>) => events.push({ type, name: object['metadata']?.['name'], rv: object['metadata']?.['resourceVersion'], object }),
      (err) => {
        ended = true;
        end = err;
      },
    );
    controllers.push(controller);
    return { events, ended: () => (ended ? (end ?? null) : undefined) };
  };

  before(async () => {
    server = await startTestApiServer({ bookmarkIntervalMs: 50 });
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  afterEach(() => {
    for (const c of controllers.splice(0)) c.abort();
  });
  after(() => server.stop());

  test('without a resourceVersion: synthetic ADDED for the current state, then live events with kind and apiVersion', async () => {
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'existing', namespace: 'default' } });
    const w = await open('/api/v1/namespaces/default/configmaps', {});
    await waitFor(() => w.events.length === 1, 'the synthetic ADDED');
    assert.equal(w.events[0]?.type, 'ADDED');
    assert.equal(w.events[0]?.name, 'existing');
    assert.equal(w.events[0]?.object['kind'], 'ConfigMap');
    assert.equal(w.events[0]?.object['apiVersion'], 'v1');
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'live' } } });
    await waitFor(() => w.events.length === 2, 'the live ADDED');
    assert.deepEqual(
      w.events.map((e) => `${e.type} ${e.name}`),
      ['ADDED existing', 'ADDED live'],
    );
  });

  test('from a resourceVersion: replays what happened after it, then streams; DELETED carries the last state with a new resourceVersion', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const from = list.metadata?.resourceVersion ?? '';
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'replayed' }, data: { a: '1' } } });
    await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'replayed', body: { ...cm, data: { a: '2' } } });
    const w = await open('/api/v1/namespaces/default/configmaps', { resourceVersion: from });
    await waitFor(() => w.events.length === 2, 'the replay');
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'replayed' });
    await waitFor(() => w.events.length === 3, 'the DELETED');
    assert.deepEqual(
      w.events.map((e) => `${e.type} ${e.name}`),
      ['ADDED replayed', 'MODIFIED replayed', 'DELETED replayed'],
    );
    const [added, modified, deleted] = w.events;
    assert.ok(Number(added?.rv) < Number(modified?.rv) && Number(modified?.rv) < Number(deleted?.rv));
    assert.deepEqual(deleted?.object['data'], { a: '2' });
  });

  test('a resourceVersion older than the history: 200, one ERROR 410 Expired event, then the end of the stream', async () => {
    const before = (await core.listNamespacedConfigMap({ namespace: 'default' })).metadata?.resourceVersion ?? '';
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'after-compaction' } } });
    server.faults.expireResourceVersions();
    const w = await open('/api/v1/namespaces/default/configmaps', { resourceVersion: before });
    await waitFor(() => w.ended() !== undefined, 'the end of the stream');
    assert.equal(w.ended(), null);
    assert.equal(w.events.length, 1);
    assert.equal(w.events[0]?.type, 'ERROR');
    assert.equal(w.events[0]?.object['code'], 410);
    assert.equal(w.events[0]?.object['reason'], 'Expired');
    assert.match(w.events[0]?.object['message'], /^too old resource version: \d+ \(\d+\)$/);
  });

  test('the history window is bounded: a watch from before the window expires', async () => {
    const small = await startTestApiServer({ historyWindow: 3 });
    try {
      const start = Number((await fetch(`${small.url}/api/v1/namespaces`).then((r) => r.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
      for (let i = 0; i < 5; i++) small.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `h${i}` } });
      const expired = await fetch(`${small.url}/api/v1/configmaps?watch=true&resourceVersion=${start}`).then((r) => r.text());
      assert.match(expired, /"type":"ERROR".*"code":410/);
      const recent = await fetch(`${small.url}/api/v1/configmaps?watch=true&resourceVersion=${start + 3}&timeoutSeconds=1`).then((r) => r.text());
      assert.deepEqual(
        recent.trim().split('\n').map((l) => (JSON.parse(l) as { object: { metadata: { name: string } } }).object.metadata.name),
        ['h3', 'h4'],
      );
    } finally {
      await small.stop();
    }
  });

  test('bookmarks carry the current resourceVersion when allowed', async () => {
    const w = await open('/api/v1/namespaces/default/configmaps', { allowWatchBookmarks: true, resourceVersion: '0' });
    const rv = (await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'bm' } } })).metadata?.resourceVersion;
    // A bookmark may have gone out before the create (the interval runs on its own): look at the first one after it.
    const seen = w.events.length;
    const bookmark = await waitFor(() => w.events.slice(seen).find((e) => e.type === 'BOOKMARK'), 'a bookmark after the create');
    assert.equal(bookmark.object['kind'], 'ConfigMap');
    assert.ok(Number(bookmark.rv) >= Number(rv));
  });

  test('timeoutSeconds ends the stream cleanly', async () => {
    const started = Date.now();
    const w = await open('/api/v1/namespaces/default/configmaps', { timeoutSeconds: 1, resourceVersion: String(Number.MAX_SAFE_INTEGER) });
    await waitFor(() => w.ended() !== undefined, 'the timeout', 3000);
    assert.equal(w.ended(), null);
    assert.ok(Date.now() - started >= 900);
  });

  test('label-selected watches see objects enter (ADDED) and leave (DELETED) the selection', async () => {
    const w = await open('/api/v1/namespaces/default/configmaps', { labelSelector: 'watched=yes' });
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'mover' } } });
    const inside = await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'mover', body: { ...cm, metadata: { ...cm.metadata, labels: { watched: 'yes' } } } });
    const changed = await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'mover', body: { ...inside, data: { x: '1' } } });
    const outside = await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'mover', body: { ...changed, metadata: { ...changed.metadata, labels: {} } } });
    await waitFor(() => w.events.length === 3, 'three events');
    assert.deepEqual(
      w.events.map((e) => e.type),
      ['ADDED', 'MODIFIED', 'DELETED'],
    );
    assert.equal(w.events[2]?.rv, outside.metadata?.resourceVersion);
    assert.deepEqual(w.events[2]?.object['metadata']['labels'], { watched: 'yes' }, 'the last state that matched');
  });

  test('watches filter by namespace and field selector; all-namespace watches see every namespace', async () => {
    const all = await open('/api/v1/configmaps', { resourceVersion: String(Number.MAX_SAFE_INTEGER - 1) });
    const named = await open('/api/v1/namespaces/kube-system/configmaps', { fieldSelector: 'metadata.name=target' });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target', namespace: 'kube-system' } });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'kube-system' } });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target', namespace: 'default' } });
    await waitFor(() => all.events.length === 3, 'three events');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(
      named.events.map((e) => `${e.object['metadata']['namespace']}/${e.name}`),
      ['kube-system/target'],
    );
  });

  test('closeWatches ends streams cleanly; dropWatches destroys them (Premature close)', async () => {
    const clean = await open('/api/v1/namespaces/default/configmaps', { resourceVersion: String(Number.MAX_SAFE_INTEGER) });
    await waitFor(() => server.watchCount({ resource: 'configmaps' }) > 0, 'the watch to register');
    server.faults.closeWatches({ resource: 'configmaps' });
    await waitFor(() => clean.ended() !== undefined, 'the clean end');
    assert.equal(clean.ended(), null);
    const dropped = await open('/api/v1/namespaces/default/configmaps', { resourceVersion: String(Number.MAX_SAFE_INTEGER) });
    server.faults.dropWatches();
    await waitFor(() => dropped.ended() !== undefined, 'the drop');
    // client-node 1.4 (node-fetch) says "Premature close"; 2.x (undici) says "terminated".
    assert.match(String(dropped.ended()), /Premature close|terminated|aborted|ECONNRESET|socket hang up/);
  });

  test('sendInitialEvents: the current state, then a bookmark marking the end of the initial events', async () => {
    const w = await open('/api/v1/namespaces/default/configmaps', { sendInitialEvents: true, allowWatchBookmarks: true, resourceVersionMatch: 'NotOlderThan' });
    const end = await waitFor(() => w.events.find((e) => e.type === 'BOOKMARK'), 'the initial-events-end bookmark');
    assert.equal(end.object['metadata']['annotations']['k8s.io/initial-events-end'], 'true');
    const before = w.events.slice(0, w.events.indexOf(end));
    assert.ok(before.length > 0 && before.every((e) => e.type === 'ADDED'));
  });

  test('the legacy /watch/ path prefix and watch=1 are watches too', async () => {
    const legacy = await fetch(`${server.url}/api/v1/watch/namespaces/default/configmaps?timeoutSeconds=1&resourceVersion=${Number.MAX_SAFE_INTEGER}`);
    assert.equal(legacy.status, 200);
    assert.equal(await legacy.text(), '');
    const numeric = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&labelSelector=none`);
    assert.equal(await numeric.text(), '');
  });

  test('an injected 410 answers the watch request itself with HTTP 410', async () => {
    server.faults.failRequests({ verb: 'watch', resource: 'configmaps', status: 410, times: 1 });
    const w = await open('/api/v1/namespaces/default/configmaps', { resourceVersion: '1' });
    await waitFor(() => w.ended() !== undefined, 'the failure');
    assert.equal((w.ended() as { statusCode?: number }).statusCode, 410);
  });
});
