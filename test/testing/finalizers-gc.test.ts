// Finalizers, deletionTimestamp, owner-reference garbage collection and namespace deletion.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { widget, widgetCrd } from './widget-crd.js';
import { expectStatus, waitFor } from './wait-for.js';
import { raw } from '../conformance/raw-http.js';

type Json = Record<string, any>;
const W = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets' };
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

describe('finalizers and garbage collection', () => {
  let server: TestApiServer;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;

  const owned = (name: string, owner: Json, extra: Json = {}): Json => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'default',
      ownerReferences: [{ apiVersion: owner['apiVersion'], kind: owner['kind'], name: owner['metadata']['name'], uid: owner['metadata']['uid'] }],
      ...extra,
    },
  });
  const exists = (name: string): boolean => server.get('v1', 'ConfigMap', name) !== undefined;
  /** A dependent whose reference blocks its owner's foreground deletion, held by a finalizer of its own. */
  const blockingDependent = (name: string, owner: Json): Json => {
    const dependent = owned(name, owner, { finalizers: ['example.com/slow'] });
    dependent['metadata']['ownerReferences'] = (dependent['metadata']['ownerReferences'] as Json[]).map((ref) => ({ ...ref, blockOwnerDeletion: true }));
    return dependent;
  };

  before(async () => {
    server = await startTestApiServer();
    core = server.kubeConfig.makeApiClient(CoreV1Api);
    custom = server.kubeConfig.makeApiClient(CustomObjectsApi);
    server.applyCrd(widgetCrd());
  });
  after(() => server.stop());

  test('delete with finalizers marks the object (deletionTimestamp, grace 0, MODIFIED); removing the last finalizer deletes it', async () => {
    const events: string[] = [];
    const watch = await new Watch(server.kubeConfig).watch(
      '/apis/example.com/v1/namespaces/default/widgets',
      { resourceVersion: String(Number.MAX_SAFE_INTEGER) },
      (type, obj: Json) => events.push(`${type} ${obj['metadata']['name']} ${obj['metadata']['deletionTimestamp'] === undefined ? '' : 'deleting'}`.trim()),
      () => undefined,
    );
    try {
      await custom.createNamespacedCustomObject({ ...W, body: widget('fin', {}, { finalizers: ['example.com/a', 'example.com/b'] }) });
      const marked = (await custom.deleteNamespacedCustomObject({ ...W, name: 'fin' })) as Json;
      assert.ok(marked['metadata']['deletionTimestamp']);
      assert.equal(marked['metadata']['deletionGracePeriodSeconds'], 0);
      assert.equal(marked['metadata']['generation'], 2, 'marking for deletion bumps the generation');
      const again = (await custom.deleteNamespacedCustomObject({ ...W, name: 'fin' })) as Json;
      assert.equal(again['metadata']['resourceVersion'], marked['metadata']['resourceVersion'], 'a second delete changes nothing');
      const adding = await expectStatus(
        () => custom.patchNamespacedCustomObject({ ...W, name: 'fin', body: { metadata: { finalizers: ['example.com/a', 'example.com/b', 'example.com/c'] } } }, merge),
        422,
      );
      assert.match(adding.message ?? '', /no new finalizers can be added if the object is being deleted/);
      await custom.patchNamespacedCustomObject({ ...W, name: 'fin', body: { metadata: { finalizers: ['example.com/b'] } } }, merge);
      assert.ok(server.get('example.com/v1', 'Widget', 'fin'));
      await custom.patchNamespacedCustomObject({ ...W, name: 'fin', body: { metadata: { finalizers: [] } } }, merge);
      assert.equal(server.get('example.com/v1', 'Widget', 'fin'), undefined);
      await waitFor(() => events.length === 4, 'four events');
      assert.deepEqual(events, ['ADDED fin', 'MODIFIED fin deleting', 'MODIFIED fin deleting', 'DELETED fin deleting']);
    } finally {
      watch.abort();
    }
  });

  test('background propagation: dependents whose owners are all gone are deleted', async () => {
    const owner = server.create(widget('owner-bg'));
    server.create(owned('dep-bg-1', owner));
    server.create(owned('dep-bg-2', owner));
    const other = server.create(widget('other-owner'));
    const shared = owned('dep-shared', owner);
    (shared['metadata']['ownerReferences'] as Json[]).push({ apiVersion: 'example.com/v1', kind: 'Widget', name: 'other-owner', uid: (other['metadata'] as Json)['uid'] });
    server.create(shared);
    await custom.deleteNamespacedCustomObject({ ...W, name: 'owner-bg' });
    await waitFor(() => !exists('dep-bg-1') && !exists('dep-bg-2'), 'the dependents to be collected');
    const survivor = await waitFor(() => {
      const cm = server.get('v1', 'ConfigMap', 'dep-shared');
      return cm !== undefined && (cm['metadata'] as Json)['ownerReferences'].length === 1 ? cm : undefined;
    }, 'the dangling reference to be dropped');
    assert.equal((survivor['metadata'] as Json)['ownerReferences'][0]['name'], 'other-owner');
  });

  test('a dependent with its own finalizer is only marked; an object created with a missing owner is collected', async () => {
    const owner = server.create(widget('owner-fin'));
    server.create(owned('dep-held', owner, { finalizers: ['example.com/keep'] }));
    server.delete('example.com/v1', 'Widget', 'owner-fin');
    const held = await waitFor(() => {
      const cm = server.get('v1', 'ConfigMap', 'dep-held');
      return cm !== undefined && (cm['metadata'] as Json)['deletionTimestamp'] !== undefined ? cm : undefined;
    }, 'the dependent to be marked');
    assert.ok(held);
    server.create(owned('orphan-at-birth', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ghost', uid: '00000000-0000-0000-0000-000000000000' } }));
    await waitFor(() => !exists('orphan-at-birth'), 'the dangling dependent to be collected');
  });

  test('orphan propagation removes the owner reference and keeps the dependents', async () => {
    const owner = server.create(widget('owner-orphan'));
    server.create(owned('dep-orphan', owner));
    await custom.deleteNamespacedCustomObject({ ...W, name: 'owner-orphan', propagationPolicy: 'Orphan' });
    await server.settled();
    const dep = server.get('v1', 'ConfigMap', 'dep-orphan');
    assert.ok(dep);
    assert.equal((dep['metadata'] as Json)['ownerReferences'], undefined);
  });

  test('foreground propagation: the owner waits (foregroundDeletion) until no dependent that blocks it is left', async () => {
    const owner = server.create(widget('owner-fg'));
    server.create(blockingDependent('dep-fg', owner));
    server.create(owned('dep-fg-free', owner));
    const marked = (await custom.deleteNamespacedCustomObject({ ...W, name: 'owner-fg', propagationPolicy: 'Foreground' })) as Json;
    assert.deepEqual(marked['metadata']['finalizers'], ['foregroundDeletion']);
    await server.settled();
    assert.ok(server.get('example.com/v1', 'Widget', 'owner-fg'), 'owner still there');
    assert.equal(exists('dep-fg-free'), false, 'every dependent is deleted, not only the blocking ones');
    server.patch('v1', 'ConfigMap', 'dep-fg', { metadata: { finalizers: null } });
    await waitFor(() => server.get('example.com/v1', 'Widget', 'owner-fg') === undefined, 'the owner to go');
    assert.equal(exists('dep-fg'), false);
  });

  test('foreground propagation does not wait for a dependent without blockOwnerDeletion, nor for an owner without dependents', async () => {
    const owner = server.create(widget('owner-fg-2'));
    server.create(owned('dep-fg-2', owner, { finalizers: ['example.com/slow'] }));
    await custom.deleteNamespacedCustomObject({ ...W, name: 'owner-fg-2', propagationPolicy: 'Foreground' });
    await server.settled();
    assert.equal(server.get('example.com/v1', 'Widget', 'owner-fg-2'), undefined, 'the owner is gone');
    const left = server.get('v1', 'ConfigMap', 'dep-fg-2') as Json;
    assert.ok(left['metadata']['deletionTimestamp'], 'the dependent is being deleted, held by its own finalizer');
    server.patch('v1', 'ConfigMap', 'dep-fg-2', { metadata: { finalizers: null } });
    await server.settled();
    assert.equal(exists('dep-fg-2'), false);
    // Alone, the owner is answered as kube-apiserver answers it (marked, with the finalizer), then released.
    server.create(widget('owner-fg-3'));
    const events: string[] = [];
    const watch = await new Watch(server.kubeConfig).watch(
      '/apis/example.com/v1/namespaces/default/widgets',
      { fieldSelector: 'metadata.name=owner-fg-3' },
      (type, object: Json) => events.push(`${type} ${String(object['metadata']['finalizers'] ?? '')}`),
      () => undefined,
    );
    const lonely = (await custom.deleteNamespacedCustomObject({ ...W, name: 'owner-fg-3', propagationPolicy: 'Foreground' })) as Json;
    assert.deepEqual([lonely['metadata']['finalizers'], lonely['metadata']['deletionGracePeriodSeconds']], [['foregroundDeletion'], 0]);
    await server.settled();
    assert.equal(server.get('example.com/v1', 'Widget', 'owner-fg-3'), undefined);
    await waitFor(() => events.length >= 3, 'the watch to see the deletion');
    // The DELETED event carries the last state stored, the finalizer still in it, as kube-apiserver's does.
    assert.deepEqual(events, ['ADDED ', 'MODIFIED foregroundDeletion', 'DELETED foregroundDeletion'], 'marked, then released by the collector');
    watch.abort();
  });

  test('an owner waiting in the foreground is released when its blocking dependent stops blocking it', async () => {
    const owner = server.create(widget('owner-fg-4'));
    server.create(blockingDependent('dep-fg-4', owner));
    await custom.deleteNamespacedCustomObject({ ...W, name: 'owner-fg-4', propagationPolicy: 'Foreground' });
    await server.settled();
    assert.ok(server.get('example.com/v1', 'Widget', 'owner-fg-4'), 'owner still there');
    const refs = ((server.get('v1', 'ConfigMap', 'dep-fg-4') as Json)['metadata']['ownerReferences'] as Json[]).map((ref) => ({ ...ref, blockOwnerDeletion: false }));
    server.patch('v1', 'ConfigMap', 'dep-fg-4', { metadata: { ownerReferences: refs } });
    await server.settled();
    assert.equal(server.get('example.com/v1', 'Widget', 'owner-fg-4'), undefined, 'released');
    server.patch('v1', 'ConfigMap', 'dep-fg-4', { metadata: { finalizers: null } });
    await server.settled();
  });

  test('a Deployment owning ReplicaSets (built-in kinds) is collected in the background', async () => {
    const apps = server.kubeConfig.makeApiClient(AppsV1Api);
    const template = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
    const deploy = await apps.createNamespacedDeployment({ namespace: 'default', body: { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template } } });
    await apps.createNamespacedReplicaSet({
      namespace: 'default',
      body: {
        metadata: { name: 'd-1', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: deploy.metadata?.uid ?? '', controller: true }] },
        spec: { selector: { matchLabels: { a: 'b' } }, template },
      },
    });
    await apps.deleteNamespacedDeployment({ namespace: 'default', name: 'd' });
    await waitFor(() => server.get('apps/v1', 'ReplicaSet', 'd-1') === undefined, 'the ReplicaSet to be collected');
  });

  test('deleting a namespace terminates it, deletes its content, then removes it', async () => {
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace: 'doomed' } });
    server.create({ ...widget('w', {}, { finalizers: ['example.com/last'] }), metadata: { name: 'w', namespace: 'doomed', finalizers: ['example.com/last'] } });
    // A dry run answers the mark and changes nothing (kube-apiserver's namespace registry). Read raw: client-node
    // types a Namespace's DELETE answer as a Status.
    const wouldBe = (await raw(server.kubeConfig, 'DELETE', '/api/v1/namespaces/doomed?dryRun=All')).body as { metadata: Json; status: Json };
    assert.deepEqual([wouldBe.status['phase'], typeof wouldBe.metadata['deletionTimestamp']], ['Terminating', 'string']);
    assert.equal((await core.readNamespace({ name: 'doomed' })).status?.phase, 'Active');
    const terminating = await core.deleteNamespace({ name: 'doomed' });
    assert.ok(terminating);
    const ns = await core.readNamespace({ name: 'doomed' });
    assert.equal(ns.status?.phase, 'Terminating');
    assert.equal(ns.metadata?.deletionGracePeriodSeconds, undefined, 'a Namespace is marked without a grace period');
    const refused = await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'late' } } }), 403);
    assert.match(refused.message ?? '', /because it is being terminated/);
    await server.settled();
    assert.equal(server.get('v1', 'ConfigMap', 'c1', 'doomed'), undefined);
    assert.ok(server.get('v1', 'Namespace', 'doomed'), 'held by the widget finalizer');
    server.patch('example.com/v1', 'Widget', 'w', { metadata: { finalizers: null } }, { namespace: 'doomed' });
    await waitFor(() => server.get('v1', 'Namespace', 'doomed') === undefined, 'the namespace to go');
  });
});
