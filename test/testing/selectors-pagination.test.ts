// Label and field selectors, and list pagination with limit/continue, as the API server implements them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { expectStatus } from './wait-for.js';

describe('selectors and pagination', () => {
  let server: TestApiServer;
  let core: CoreV1Api;
  const names = async (labelSelector?: string, fieldSelector?: string, namespace = 'default'): Promise<string[]> => {
    const list = await core.listNamespacedConfigMap({
      namespace,
      ...(labelSelector === undefined ? {} : { labelSelector }),
      ...(fieldSelector === undefined ? {} : { fieldSelector }),
    });
    return list.items.map((i) => i.metadata?.name ?? '');
  };

  before(async () => {
    server = await startTestApiServer();
    core = server.kubeConfig.makeApiClient(CoreV1Api);
    const labels: Record<string, Record<string, string>> = {
      a: { app: 'web', tier: 'front', rank: '1' },
      b: { app: 'web', tier: 'back', rank: '5' },
      c: { app: 'db', rank: '10' },
      d: {},
    };
    for (const [name, l] of Object.entries(labels)) server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: l } });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'kube-system', labels: { app: 'web' } } });
  });
  after(() => server.stop());

  test('label selector operators', async () => {
    assert.deepEqual(await names('app=web'), ['a', 'b']);
    assert.deepEqual(await names('app==web'), ['a', 'b']);
    assert.deepEqual(await names('app!=web'), ['c', 'd']);
    assert.deepEqual(await names('tier in (front, back)'), ['a', 'b']);
    assert.deepEqual(await names('tier notin (front)'), ['b', 'c', 'd']);
    assert.deepEqual(await names('tier'), ['a', 'b']);
    assert.deepEqual(await names('!tier'), ['c', 'd']);
    assert.deepEqual(await names('app=web,tier=back'), ['b']);
    assert.deepEqual(await names('rank>2'), ['b', 'c']);
    assert.deepEqual(await names(''), ['a', 'b', 'c', 'd']);
  });

  test('field selectors on metadata.name and metadata.namespace; unsupported labels are 400', async () => {
    assert.deepEqual(await names(undefined, 'metadata.name=b'), ['b']);
    assert.deepEqual(await names(undefined, 'metadata.name!=b'), ['a', 'c', 'd']);
    assert.deepEqual(await names(undefined, 'metadata.name==c,metadata.namespace=default'), ['c']);
    const all = await core.listConfigMapForAllNamespaces({ fieldSelector: 'metadata.namespace=kube-system' });
    assert.deepEqual(
      all.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`),
      ['kube-system/a'],
    );
    const status = await expectStatus(() => core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'data.x=1' }), 400);
    assert.match(status.message ?? '', /field label not supported: data.x/);
    await expectStatus(() => core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'a in (' }), 400);
  });

  test('kind-specific field selectors (Pod status.phase)', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'x' }] } } });
    const pending = await core.listNamespacedPod({ namespace: 'default', fieldSelector: 'status.phase=Pending' });
    assert.equal(pending.items.length, 1);
    const running = await core.listNamespacedPod({ namespace: 'default', fieldSelector: 'status.phase=Running' });
    assert.equal(running.items.length, 0);
    // A Node's own label, as kube-apiserver's: spec.unschedulable (and no metadata.namespace: cluster-scoped).
    server.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: { unschedulable: true } });
    const cordoned = await core.listNode({ fieldSelector: 'spec.unschedulable=true' });
    assert.deepEqual(cordoned.items.map((n) => n.metadata?.name), ['n1']);
    await expectStatus(() => core.listNode({ fieldSelector: 'metadata.namespace=x' }), 400);
  });

  test('limit/continue pages through a stable order with remainingItemCount; later pages keep the first resourceVersion', async () => {
    const first = await core.listConfigMapForAllNamespaces({ limit: 2 });
    assert.deepEqual(
      first.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`),
      ['default/a', 'default/b'],
    );
    assert.equal(first.metadata?.remainingItemCount, 3);
    const token = first.metadata?._continue;
    assert.ok(token);
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'zz' } });
    const second = await core.listConfigMapForAllNamespaces({ limit: 2, _continue: token });
    assert.deepEqual(
      second.items.map((i) => i.metadata?.name),
      ['c', 'd'],
    );
    assert.equal(second.metadata?.resourceVersion, first.metadata?.resourceVersion);
    // 'zz' was created after the first page: later pages read the state at its resourceVersion, without it.
    const third = await core.listConfigMapForAllNamespaces({ limit: 2, _continue: second.metadata?._continue ?? '' });
    assert.deepEqual(
      third.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`),
      ['kube-system/a'],
    );
    assert.equal(third.metadata?._continue, undefined);
    await expectStatus(() => core.listConfigMapForAllNamespaces({ limit: 2, _continue: 'garbage' }), 400);
  });

  test("later pages read the state at the first page's resourceVersion: nothing created since, deleted objects still there, changed ones as they were", async () => {
    const namespace = 'snapshot-ns';
    server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    for (const name of ['s1', 's2', 's3', 's4', 's5', 's6']) {
      server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { v: 'old' } }, data: { v: 'old' } });
    }
    const uidOf = async (name: string): Promise<string | undefined> => (await core.readNamespacedConfigMap({ name, namespace })).metadata?.uid;
    const s5 = await uidOf('s5');
    const first = await core.listNamespacedConfigMap({ namespace, limit: 2 });
    const selective = await core.listNamespacedConfigMap({ namespace, labelSelector: 'v=old', limit: 1 });
    assert.deepEqual(first.items.map((i) => i.metadata?.name), ['s1', 's2']);
    assert.equal(first.metadata?.remainingItemCount, 4);
    assert.deepEqual(selective.items.map((i) => i.metadata?.name), ['s1']);

    // Between the pages: one created, one deleted, one changed, one deleted and created again, one relabelled.
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 's2a', namespace, labels: { v: 'old' } }, data: { v: 'new' } });
    await core.deleteNamespacedConfigMap({ name: 's3', namespace });
    const s4 = await core.readNamespacedConfigMap({ name: 's4', namespace });
    await core.replaceNamespacedConfigMap({ name: 's4', namespace, body: { ...s4, data: { v: 'new' } } });
    await core.deleteNamespacedConfigMap({ name: 's5', namespace });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 's5', namespace, labels: { v: 'old' } }, data: { v: 'new' } });
    const s2 = await core.readNamespacedConfigMap({ name: 's2', namespace });
    await core.replaceNamespacedConfigMap({ name: 's2', namespace, body: { ...s2, metadata: { ...s2.metadata, labels: { v: 'new' } } } });

    const second = await core.listNamespacedConfigMap({ namespace, limit: 2, _continue: first.metadata?._continue ?? '' });
    assert.deepEqual(second.items.map((i) => i.metadata?.name), ['s3', 's4']);
    assert.equal(second.items[1]?.data?.['v'], 'old');
    assert.equal(second.metadata?.resourceVersion, first.metadata?.resourceVersion);
    assert.equal(second.metadata?.remainingItemCount, 2);
    const third = await core.listNamespacedConfigMap({ namespace, limit: 2, _continue: second.metadata?._continue ?? '' });
    assert.deepEqual(third.items.map((i) => `${i.metadata?.name}:${i.data?.['v']}`), ['s5:old', 's6:old']);
    assert.equal(third.items[0]?.metadata?.uid, s5);
    assert.equal(third.metadata?._continue, undefined);
    // A selector matches the labels an object had then: s2 was relabelled after the first page.
    const rest: string[] = [];
    let token = selective.metadata?._continue;
    while (token !== undefined) {
      const page = await core.listNamespacedConfigMap({ namespace, labelSelector: 'v=old', limit: 2, _continue: token });
      rest.push(...page.items.map((i) => i.metadata?.name ?? ''));
      token = page.metadata?._continue;
    }
    assert.deepEqual(rest, ['s2', 's3', 's4', 's5', 's6']);

    // A new list reads the current state.
    const now = await core.listNamespacedConfigMap({ namespace });
    assert.deepEqual(now.items.map((i) => `${i.metadata?.name}:${i.data?.['v']}`), ['s1:old', 's2:old', 's2a:new', 's4:new', 's5:new', 's6:old']);
    // Once the history no longer reaches back to the first page, a later page is 410, as after etcd's compaction; the
    // Status carries a token that reads on from the same key at the newest state, with what changed since mixed in.
    const again = await core.listNamespacedConfigMap({ namespace, limit: 2 });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 's3', namespace }, data: { v: 'new' } });
    server.faults.expireResourceVersions();
    const expired = await expectStatus(() => core.listNamespacedConfigMap({ namespace, limit: 2, _continue: again.metadata?._continue ?? '' }), 410);
    assert.equal(expired.reason, 'Expired');
    assert.match(expired.message ?? '', /^The provided continue parameter is too old to display a consistent list result\. .*use the continue token in this response/);
    const fresh = expired.metadata?.continue ?? '';
    assert.notEqual(fresh, '');
    const inconsistent = await core.listNamespacedConfigMap({ namespace, limit: 2, _continue: fresh });
    assert.deepEqual(inconsistent.items.map((i) => i.metadata?.name), ['s2a', 's3']);
    const newest = (await core.listNamespacedConfigMap({ namespace })).metadata?.resourceVersion;
    assert.equal(inconsistent.metadata?.resourceVersion, newest);
    // Its next page is a consistent continuation of the newest state it read.
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 's4a', namespace }, data: { v: 'new' } });
    const last = await core.listNamespacedConfigMap({ namespace, limit: 10, _continue: inconsistent.metadata?._continue ?? '' });
    assert.deepEqual(last.items.map((i) => i.metadata?.name), ['s4', 's5', 's6']);
    assert.equal(last.metadata?.resourceVersion, newest);
  });

  test('pages of a selective list, in every namespace, join into the whole list, also when the last key of a page was deleted', async () => {
    for (let i = 0; i < 30; i++) {
      const namespace = i % 3 === 0 ? 'kube-system' : 'default';
      server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `page-${String(i).padStart(2, '0')}`, namespace, labels: { paged: i % 2 === 0 ? 'even' : 'odd' } } });
    }
    const key = (item: { metadata?: { namespace?: string; name?: string } }): string => `${item.metadata?.namespace}/${item.metadata?.name}`;
    const whole = (await core.listConfigMapForAllNamespaces({ labelSelector: 'paged=even' })).items.map(key);
    assert.equal(whole.length, 15);
    const paged: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await core.listConfigMapForAllNamespaces({ labelSelector: 'paged=even', limit: 4, ...(token === undefined ? {} : { _continue: token }) });
      paged.push(...page.items.map(key));
      token = page.metadata?._continue;
      pages += 1;
      // The key a token points at is gone before the next page: that page starts at the key after it.
      if (pages === 1) await core.deleteNamespacedConfigMap({ name: page.items[3]?.metadata?.name ?? '', namespace: page.items[3]?.metadata?.namespace ?? '' });
    } while (token !== undefined);
    assert.deepEqual(paged, whole);
    assert.equal(pages, 4);
    const unfiltered = await core.listNamespacedConfigMap({ namespace: 'kube-system', limit: 3 });
    const all = (await core.listNamespacedConfigMap({ namespace: 'kube-system' })).items.length;
    assert.equal(unfiltered.metadata?.remainingItemCount, all - 3);
    const rest = await core.listNamespacedConfigMap({ namespace: 'kube-system', limit: 3, _continue: unfiltered.metadata?._continue ?? '' });
    assert.equal(rest.metadata?.remainingItemCount, all - 6);
  });

  test('the list of one namespace, and its pages, see objects added to and removed from it since the last list, and only its own', async () => {
    const namespace = 'paging-ns';
    const inNamespace = async (): Promise<string[]> => (await core.listNamespacedConfigMap({ namespace })).items.map((i) => i.metadata?.name ?? '');
    for (const name of [namespace, 'other-ns']) server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    for (const name of ['m', 'c', 'x']) server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
    assert.deepEqual(await inNamespace(), ['c', 'm', 'x']);
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace } });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'other-ns' } });
    assert.deepEqual(await inNamespace(), ['a', 'c', 'm', 'x']);
    await core.deleteNamespacedConfigMap({ name: 'm', namespace });
    assert.deepEqual(await inNamespace(), ['a', 'c', 'x']);
    // Pages read the same order: nothing changes between the two pages (a change between pages is the case of the
    // test above), but 'd' arrives after the last list.
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', namespace } });
    const first = await core.listNamespacedConfigMap({ namespace, limit: 2 });
    assert.deepEqual(first.items.map((i) => i.metadata?.name), ['a', 'c']);
    const second = await core.listNamespacedConfigMap({ namespace, limit: 2, _continue: first.metadata?._continue ?? '' });
    assert.deepEqual(second.items.map((i) => i.metadata?.name), ['d', 'x']);
  });

  test('a selector with a limit has no remainingItemCount', async () => {
    const page = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'app', limit: 1 });
    assert.equal(page.items.length, 1);
    assert.ok(page.metadata?._continue);
    assert.equal(page.metadata?.remainingItemCount, undefined);
  });
});
