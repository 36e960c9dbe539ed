// ChildWatches (registry/child-watches.ts) on the runtime's shared child informers (registry/child-informers.ts):
// one informer per child kind for several CRDs, each CRD seeing its own children only (get, ownedBy, onChange),
// routed by the katalog.dev/crd label. Real HTTP with the real client against katalog/testing; children are written
// through the server's direct access (its watches see those writes as any other).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';
import { ChildInformers } from '../../src/registry/child-informers.js';
import { ChildWatches } from '../../src/registry/child-watches.js';
import { CHILDREN_SELECTOR_LIMIT, CRD_LABEL, OWNER_LABEL, ownerOf, stampOwnership, type Owner } from '../../src/registry/ownership.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { systemClock } from '../../src/util/clock.js';
import { waitFor } from '../support/cluster.js';

const CONFIG_MAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
const TUNING = { backoff: { initialMs: 20, maxMs: 200 } };

/** A parent of CRD `crd` (kind Site) named `name` in `namespace`. */
const parent = (crd: string, name: string, namespace = 'default'): Owner =>
  ownerOf(crd, { apiVersion: 'example.io/v1', kind: 'Site', metadata: { name, namespace } });

/** A ConfigMap child of `owner`, as the applier stamps it. */
const child = (owner: Owner, name: string, namespace = owner.namespace ?? 'default', data: Record<string, string> = {}): KubeObject =>
  stampOwnership({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data }, owner);

describe('ChildWatches on shared child informers', () => {
  let server: TestApiServer;
  let client: KubeClient;
  const running: ChildWatches[] = [];
  before(async () => {
    server = await startTestApiServer();
    client = new KubeClient(server.kubeConfig);
  });
  after(async () => {
    await Promise.all(running.splice(0).map((watches) => watches.stop()));
    client.close();
    await server.stop();
  });
  beforeEach(async () => {
    await Promise.all(running.splice(0).map((watches) => watches.stop()));
    server.reset();
  });

  /** A CRD's watches on ConfigMaps, recording the names (`namespace/name@crd-label`) of the changes it hears. */
  const watchesOf = (crd: string, table: ChildInformers) => {
    const seen: string[] = [];
    const restarts: string[] = [];
    const watches = new ChildWatches({
      client,
      clock: systemClock,
      crd,
      resources: [CONFIG_MAPS],
      tuning: TUNING,
      informers: table,
      onChange: (object) => void seen.push(`${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}@${object.metadata?.labels?.[CRD_LABEL] ?? ''}`),
      onRestart: (reason) => void restarts.push(reason),
    });
    running.push(watches);
    return { watches, seen, restarts };
  };
  const lists = (): number => server.requests.count({ verb: 'list', resource: 'configmaps' });
  const names = (children: ReadonlyArray<{ object: KubeObject }>): string[] => children.map(({ object }) => `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`).sort();

  test('two CRDs share one watch; each sees only its own children, even one of the same name', async () => {
    const table = new ChildInformers(['alpha', 'beta']);
    const alphaSite = parent('alpha', 'site');
    const betaSite = parent('beta', 'site', 'kube-public');
    server.create(child(alphaSite, 'web'));
    server.create(child(betaSite, 'web'));
    // Not a child of this runtime's CRDs: the selector leaves it out.
    server.create(child(parent('stranger', 'site'), 'other'));
    const alpha = watchesOf('alpha', table);
    const beta = watchesOf('beta', table);
    await Promise.all([alpha.watches.start(), beta.watches.start()]);
    assert.ok(alpha.watches.synced && beta.watches.synced);
    assert.equal(lists(), 1, 'one list for both CRDs');
    await waitFor('the shared watch open', () => server.watchCount({ resource: 'configmaps' }) === 1);

    assert.equal(alpha.watches.get(CONFIG_MAPS, 'default', 'web')?.metadata?.labels?.[CRD_LABEL], 'alpha');
    assert.equal(alpha.watches.get(CONFIG_MAPS, 'kube-public', 'web'), undefined, "beta's child of the same name is not alpha's");
    assert.equal(beta.watches.get(CONFIG_MAPS, 'kube-public', 'web')?.metadata?.labels?.[CRD_LABEL], 'beta');
    assert.equal(beta.watches.get(CONFIG_MAPS, 'default', 'web'), undefined);
    assert.equal(alpha.watches.get(CONFIG_MAPS, 'default', 'other'), undefined, 'another runtime’s child is not cached');
    assert.deepEqual(names(alpha.watches.ownedBy(alphaSite)), ['default/web']);
    assert.deepEqual(names(beta.watches.ownedBy(betaSite)), ['kube-public/web']);
    assert.deepEqual(alpha.watches.ownedBy(parent('alpha', 'site', 'kube-public')), [], "alpha has no parent site in kube-public: beta's child is not one of its");

    server.patch('v1', 'ConfigMap', 'web', { data: { edited: 'yes' } }, { namespace: 'default' });
    server.create(child(betaSite, 'second'));
    await waitFor('both changes heard', () => alpha.seen.length > 0 && beta.seen.length > 0);
    assert.deepEqual(alpha.seen, ['default/web@alpha'], 'the first list is not a change; beta’s new child is not alpha’s');
    assert.deepEqual(beta.seen, ['kube-public/second@beta']);
    assert.deepEqual(names(beta.watches.ownedBy(betaSite)), ['kube-public/second', 'kube-public/web']);

    // The re-watch after the server ends the stream fails once: a restart, which every subscribed CRD reports.
    server.faults.failRequests({ verb: 'watch', resource: 'configmaps', status: 503, times: 1 });
    server.faults.closeWatches({ resource: 'configmaps' });
    await waitFor('the restart reported to both CRDs', () => alpha.restarts.length > 0 && beta.restarts.length > 0);
  });

  test('a child whose crd label changes is heard by both CRDs: the old one sees it as it was, the new one as it is', async () => {
    const table = new ChildInformers(['alpha', 'beta']);
    const alphaSite = parent('alpha', 'site');
    const betaSite = parent('beta', 'site');
    server.create(child(alphaSite, 'moving'));
    const alpha = watchesOf('alpha', table);
    const beta = watchesOf('beta', table);
    await Promise.all([alpha.watches.start(), beta.watches.start()]);
    assert.deepEqual(names(alpha.watches.ownedBy(alphaSite)), ['default/moving']);

    server.patch('v1', 'ConfigMap', 'moving', { metadata: { labels: { [CRD_LABEL]: 'beta', [OWNER_LABEL]: betaSite.label } } }, { namespace: 'default' });
    await waitFor('both CRDs told', () => alpha.seen.length > 0 && beta.seen.length > 0);
    assert.deepEqual(alpha.seen, ['default/moving@alpha'], 'alpha hears the state it knew (its child left)');
    assert.deepEqual(beta.seen, ['default/moving@beta']);
    assert.equal(alpha.watches.get(CONFIG_MAPS, 'default', 'moving'), undefined);
    assert.ok(beta.watches.get(CONFIG_MAPS, 'default', 'moving') !== undefined);
    assert.deepEqual(alpha.watches.ownedBy(alphaSite), []);
    assert.deepEqual(names(beta.watches.ownedBy(betaSite)), ['default/moving']);
  });

  test('a CRD that subscribes later finds its children cached, without a list of its own', async () => {
    const table = new ChildInformers(['alpha', 'beta']);
    const betaSite = parent('beta', 'late');
    const alpha = watchesOf('alpha', table);
    await alpha.watches.start();
    server.create(child(betaSite, 'early', 'default', { a: '1' }));
    await waitFor('the child cached', () => table.of(CONFIG_MAPS, { client, clock: systemClock }).get('default/early') !== undefined);
    assert.deepEqual(alpha.seen, [], 'not alpha’s child');

    const beta = watchesOf('beta', table);
    const before = lists();
    await beta.watches.start();
    assert.equal(lists(), before, 'no list for the CRD that joined');
    assert.deepEqual(names(beta.watches.ownedBy(betaSite)), ['default/early'], 'the owner index was kept from the first list on');
    assert.deepEqual(beta.watches.get(CONFIG_MAPS, 'default', 'early')?.['data'], { a: '1' });
    assert.deepEqual(beta.seen, [], 'children already there are not changes');
    server.patch('v1', 'ConfigMap', 'early', { data: { a: '2' } }, { namespace: 'default' });
    await waitFor('the late CRD hears changes', () => beta.seen.length > 0);
    assert.deepEqual(beta.seen, ['default/early@beta']);
  });

  test('the informer stops with the last CRD out, and opens again (listing afresh) for the next one', async () => {
    const table = new ChildInformers(['alpha', 'beta']);
    const alpha = watchesOf('alpha', table);
    const beta = watchesOf('beta', table);
    await alpha.watches.start();
    await beta.watches.start();
    await waitFor('one watch open', () => server.watchCount({ resource: 'configmaps' }) === 1);
    await alpha.watches.stop();
    assert.equal(alpha.watches.synced, false);
    assert.ok(beta.watches.synced, 'kept open for beta');
    assert.equal(server.watchCount({ resource: 'configmaps' }), 1);
    server.create(child(parent('alpha', 'site'), 'unheard'));
    server.create(child(parent('beta', 'site'), 'heard'));
    await waitFor('beta hears its child', () => beta.seen.length > 0);
    assert.deepEqual(alpha.seen, [], 'a stopped CRD hears nothing');
    await beta.watches.stop();
    assert.equal(table.of(CONFIG_MAPS, { client, clock: systemClock }).size, 0);
    await waitFor('the watch closed with the last CRD', () => server.watchCount({ resource: 'configmaps' }) === 0);

    const before = lists();
    await alpha.watches.start();
    assert.equal(lists(), before + 1, 'opened again: listed');
    assert.deepEqual(names(alpha.watches.ownedBy(parent('alpha', 'site'))), ['default/unheard'], 'a fresh index from the new list');
    await alpha.watches.stop();
    await waitFor('closed again', () => server.watchCount({ resource: 'configmaps' }) === 0);
  });

  test('a first list that fails rejects start and leaves nothing open; a later start tries again', async () => {
    const table = new ChildInformers(['alpha', 'beta']);
    const alpha = watchesOf('alpha', table);
    const removeFailure = server.faults.failRequests({ verb: 'list', resource: 'configmaps', status: 500 });
    try {
      await assert.rejects(alpha.watches.start());
    } finally {
      removeFailure();
    }
    const shared = table.of(CONFIG_MAPS, { client, clock: systemClock });
    assert.equal(shared.size, 0, 'unsubscribed');
    assert.equal(alpha.watches.synced, false);
    assert.equal(server.watchCount({ resource: 'configmaps' }), 0);
    server.create(child(parent('alpha', 'site'), 'there'));
    await alpha.watches.start();
    assert.ok(alpha.watches.synced);
    assert.ok(alpha.watches.get(CONFIG_MAPS, 'default', 'there') !== undefined);
  });

  test('past 4,096 characters the selector only requires the crd label, and routing keeps each CRD to its own', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `a-rather-long-crd-name-${String(i).padStart(3, '0')}`);
    const table = new ChildInformers(many);
    assert.equal(table.selector, 'app.kubernetes.io/managed-by=katalog,katalog.dev/crd');
    const small = new ChildInformers(many.slice(0, 10));
    assert.ok(small.selector.startsWith('app.kubernetes.io/managed-by=katalog,katalog.dev/crd in (a-rather-long-crd-name-000,'));
    assert.ok(small.selector.length <= CHILDREN_SELECTOR_LIMIT);

    const [first = '', second = ''] = many;
    const firstSite = parent(first, 'site');
    server.create(child(firstSite, 'mine'));
    server.create(child(parent('stranger', 'site'), 'theirs'));
    server.create(child(parent(second, 'site'), 'sibling'));
    const watches = watchesOf(first, table);
    await watches.watches.start();
    const shared = table.of(CONFIG_MAPS, { client, clock: systemClock });
    assert.ok(shared.get('default/theirs') !== undefined, 'the wider selector caches other runtimes’ children too');
    assert.equal(watches.watches.get(CONFIG_MAPS, 'default', 'theirs'), undefined, 'but no CRD is answered them');
    assert.deepEqual(names(watches.watches.ownedBy(firstSite)), ['default/mine']);
    server.patch('v1', 'ConfigMap', 'theirs', { data: { x: '1' } }, { namespace: 'default' });
    server.patch('v1', 'ConfigMap', 'sibling', { data: { x: '1' } }, { namespace: 'default' });
    server.patch('v1', 'ConfigMap', 'mine', { data: { x: '1' } }, { namespace: 'default' });
    await waitFor('its own change heard', () => watches.seen.length > 0);
    assert.deepEqual(watches.seen, [`default/mine@${first}`]);
  });
});
