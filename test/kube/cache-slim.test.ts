// The informer cache keeps what reconcile and drift correction read, without managedFields or kubectl's
// last-applied-configuration copy, both from the first list and from watch events.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeClient } from '../../src/kube/client.js';
import { LAST_APPLIED_ANNOTATION, SHARED_STRINGS, slimForCache, StringPool, managedFieldsFingerprint, cloneMetadata } from '../../src/kube/cache-slim.js';
import { Informer } from '../../src/kube/informer.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
});
after(async () => {
  await server.stop();
});

function kubectlApplied(name: string, annotations: Record<string, string> = {}): KubeObject {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { app: 'x' } }, data: { key: 'value' } };
  return { ...object, metadata: { ...object.metadata, annotations: { ...annotations, [LAST_APPLIED_ANNOTATION]: JSON.stringify(object) } } };
}

test('cached objects lose managedFields and last-applied-configuration and keep everything else', async () => {
  const client = new KubeClient(server.kubeConfig);
  await client.apply(CONFIGMAPS, kubectlApplied('listed', { team: 'a' }), { fieldManager: 'kubectl' });
  const fromServer = await client.get(CONFIGMAPS, 'listed', 'default');
  assert.ok(fromServer?.metadata?.managedFields !== undefined, 'the server records managedFields on apply');
  const seen: KubeObject[] = [];
  const informer = new Informer({ client, resource: CONFIGMAPS, namespace: 'default', onEvent: (event) => seen.push(event.object) });
  await informer.start();
  try {
    await client.apply(CONFIGMAPS, kubectlApplied('watched'), { fieldManager: 'kubectl' });
    await waitUntil(() => informer.get('default/watched') !== undefined);
    const listed = informer.get('default/listed');
    assert.deepEqual(listed?.metadata?.annotations, { team: 'a' });
    assert.deepEqual(listed?.metadata?.labels, { app: 'x' });
    assert.deepEqual(listed?.data, { key: 'value' });
    assert.equal(listed?.metadata?.managedFields, undefined);
    const watched = informer.get('default/watched');
    assert.equal(watched?.metadata?.managedFields, undefined);
    assert.equal(watched?.metadata?.annotations, undefined, 'an annotations map left empty is dropped');
    assert.equal(watched?.metadata?.uid, (await client.get(CONFIGMAPS, 'watched', 'default'))?.metadata?.uid);
    assert.ok(seen.every((object) => object.metadata?.managedFields === undefined));
  } finally {
    await informer.stop();
    client.close();
  }
});

async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('slimming keeps every other field, in order, and sharing strings changes no value (also when the pool fills up)', () => {
  const make = (name: string): KubeObject => ({
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app: 'web', tier: name },
      annotations: { team: 'a', [LAST_APPLIED_ANNOTATION]: '{}' },
      ownerReferences: [{ apiVersion: 'example.io/v1', kind: 'Site', name: 'owner', uid: 'u1' }],
      managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
      resourceVersion: '7',
    },
    spec: { size: 3 },
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'ReconcileSucceeded', lastTransitionTime: '2026-01-01T00:00:01Z' }] },
  });
  const pool = new StringPool(3);
  for (const name of ['a', 'b', 'c', 'd']) {
    const expected = structuredClone(make(name)) as KubeObject & { metadata: Record<string, unknown> };
    delete expected.metadata['managedFields'];
    expected.metadata['annotations'] = { team: 'a' };
    const slim = slimForCache(make(name), pool);
    // Only a fingerprint of managedFields stays, under a symbol key JSON does not see (the managedFieldsChanged sentinel).
    assert.deepEqual(JSON.parse(JSON.stringify(slim)), expected);
    assert.equal(managedFieldsFingerprint(slim.metadata), managedFieldsFingerprint({ managedFields: [{ manager: 'kubectl', operation: 'Apply' }] }));
    assert.notEqual(managedFieldsFingerprint(slim.metadata), managedFieldsFingerprint({ managedFields: [{ manager: 'kubectl', operation: 'Update' }] }));
    assert.equal(managedFieldsFingerprint(cloneMetadata(slim.metadata ?? {})), managedFieldsFingerprint(slim.metadata), 'a copy keeps it');
    assert.deepEqual(Object.keys(slim.metadata ?? {}), ['name', 'namespace', 'uid', 'creationTimestamp', 'labels', 'annotations', 'ownerReferences', 'resourceVersion']);
  }
  const untouched = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } };
  assert.equal(slimForCache(untouched), untouched, 'nothing to drop: the same object');
  assert.deepEqual(untouched, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } });
});

test('one string pool for the whole process stays within its bound however many objects and informers pass through it', () => {
  const pool = new StringPool(100);
  for (let i = 0; i < 1000; i++) {
    slimForCache({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}`, namespace: 'default', labels: { owner: `owner-${i}` }, managedFields: [] } }, pool);
    assert.ok(pool.size <= 100, `${pool.size} strings pooled after ${i + 1} objects`);
  }
  assert.equal(pool.share('default'), 'default');
  assert.ok(SHARED_STRINGS.size <= 16_384);
});

test('only an informer asked for it keeps the managedFields fingerprint; without it, listed and watched objects carry none', async () => {
  const client = new KubeClient(server.kubeConfig);
  const plain = new Informer({ client, resource: CONFIGMAPS, namespace: 'default', onEvent: () => undefined });
  const fingerprinted = new Informer({ client, resource: CONFIGMAPS, namespace: 'default', managedFieldsFingerprint: true, onEvent: () => undefined });
  await client.apply(CONFIGMAPS, kubectlApplied('fp-listed'), { fieldManager: 'kubectl' });
  await Promise.all([plain.start(), fingerprinted.start()]);
  try {
    await client.apply(CONFIGMAPS, kubectlApplied('fp-watched'), { fieldManager: 'kubectl' });
    await waitUntil(() => plain.get('default/fp-watched') !== undefined && fingerprinted.get('default/fp-watched') !== undefined);
    for (const name of ['fp-listed', 'fp-watched']) {
      const live = await client.get(CONFIGMAPS, name, 'default');
      const expected = managedFieldsFingerprint(live?.metadata);
      assert.equal(typeof expected, 'number');
      assert.equal(managedFieldsFingerprint(fingerprinted.get(`default/${name}`)?.metadata), expected, `${name}: the fingerprint of what the server holds`);
      // No fingerprint means no hash was computed: the watch cut the field out unparsed, the list dropped it unhashed.
      assert.equal(managedFieldsFingerprint(plain.get(`default/${name}`)?.metadata), undefined, `${name}: nothing kept without the flag`);
      // JSON does not see the symbol key the fingerprint is kept under.
      assert.deepEqual(JSON.parse(JSON.stringify(plain.get(`default/${name}`))), JSON.parse(JSON.stringify(fingerprinted.get(`default/${name}`))), `${name}: the same object otherwise`);
      assert.deepEqual(Object.keys(plain.get(`default/${name}`)?.metadata ?? {}), Object.keys(fingerprinted.get(`default/${name}`)?.metadata ?? {}));
    }
  } finally {
    await Promise.all([plain.stop(), fingerprinted.stop()]);
    client.close();
  }
});

test('answers of applies and patches asked without managedFields come back without them, everything else as the server sent it', async () => {
  const client = new KubeClient(server.kubeConfig);
  try {
    const whole = await client.apply(CONFIGMAPS, kubectlApplied('answer'), { fieldManager: 'kubectl' });
    assert.ok(whole.metadata?.managedFields !== undefined);
    const applied = await client.apply(CONFIGMAPS, kubectlApplied('answer'), { fieldManager: 'kubectl', withoutManagedFields: true });
    const { managedFields: _dropped, ...metadata } = whole.metadata ?? {};
    assert.deepEqual(applied, { ...whole, metadata });
    const patched = await client.patch(CONFIGMAPS, 'answer', 'default', { data: { key: 'other' } }, { fieldManager: 'test', withoutManagedFields: true });
    assert.equal(patched.metadata?.managedFields, undefined);
    assert.deepEqual(patched['data'], { key: 'other' });
    assert.notEqual(patched.metadata?.resourceVersion, applied.metadata?.resourceVersion);
  } finally {
    client.close();
  }
});
