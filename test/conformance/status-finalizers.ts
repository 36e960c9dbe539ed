// The status subresource's rules and deletion with finalizers, on a custom resource.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

const MERGE = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
import { crdManifest } from '../../src/testing/index.js';
import { unique, waitFor, type Backend, type Json } from './backend.js';
import { raw } from './raw-http.js';

async function installThings(backend: Backend): Promise<{ group: string; apiVersion: string }> {
  const group = `${unique('status')}.conformance.katalog.dev`;
  await backend.applyCrd(crdManifest({ group, kind: 'Thing', plural: 'things' }));
  return { group, apiVersion: `${group}/v1` };
}

export function statusAndFinalizerSuite(backend: () => Backend): void {
  describe('status subresource', () => {
    test('create and update ignore status; /status ignores everything but status; generation moves on spec only', async () => {
      const { group, apiVersion } = await installThings(backend());
      const api = backend().kubeConfig.makeApiClient(CustomObjectsApi);
      const at = { group, version: 'v1', namespace: 'default', plural: 'things' };
      const created = (await api.createNamespacedCustomObject({ ...at, body: { apiVersion, kind: 'Thing', metadata: { name: 'one' }, spec: { size: 1 }, status: { phase: 'Made-up' } } })) as Json;
      assert.equal(created.status, undefined, 'status is dropped on create');
      assert.equal(created.metadata?.['generation'], 1);

      const sameSpec = (await api.replaceNamespacedCustomObject({ ...at, name: 'one', body: { ...created, status: { phase: 'Ignored' } } })) as Json;
      assert.equal(sameSpec.status, undefined, 'status is ignored on the main resource');
      assert.equal(sameSpec.metadata?.['generation'], 1);

      const withStatus = (await api.replaceNamespacedCustomObjectStatus({ ...at, name: 'one', body: { ...sameSpec, spec: { size: 99 }, status: { phase: 'Ready' } } })) as Json;
      assert.deepEqual(withStatus.status, { phase: 'Ready' });
      assert.deepEqual(withStatus.spec, { size: 1 }, 'spec is ignored on /status');
      assert.equal(withStatus.metadata?.['generation'], 1, 'a status write does not move generation');

      const newSpec = (await api.patchNamespacedCustomObject({ ...at, name: 'one', body: { spec: { size: 2 } } }, MERGE)) as Json;
      assert.equal(newSpec.metadata?.['generation'], 2);
      assert.deepEqual(newSpec.status, { phase: 'Ready' }, 'a spec write keeps status');

      await assert.rejects(
        api.replaceNamespacedCustomObjectStatus({ ...at, name: 'one', body: { ...created, status: { phase: 'Stale' } } }),
        (error: unknown) => error instanceof ApiException && error.code === 409,
        'a stale resourceVersion on /status is a conflict',
      );
    });
    test("a Pod's /status write as its status strategy leaves it: conditions as Go writes them, qosClass and observed generations kept", async () => {
      const kc = backend().kubeConfig;
      const name = unique('pod-status');
      const path = `/api/v1/namespaces/default/pods/${name}`;
      const created = await raw(kc, 'POST', '/api/v1/namespaces/default/pods', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } }));
      assert.deepEqual(created.body['status'], { phase: 'Pending', qosClass: 'BestEffort' });
      const write = async (status: Json): Promise<Json> => {
        const current = (await raw(kc, 'GET', path)).body;
        const answer = await raw(kc, 'PUT', `${path}/status`, JSON.stringify({ ...current, status }));
        assert.equal(answer.status, 200);
        return answer.body['status'] as Json;
      };
      // What an operator's test writes to make a Pod ready: the rest is filled in as a cluster fills it in.
      assert.deepEqual(await write({ phase: 'Running', conditions: [{ message: '', reason: '', status: 'True', type: 'Ready' }] }), {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: null }],
        qosClass: 'BestEffort',
      });
      await write({ observedGeneration: 1, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1, lastTransitionTime: '2026-01-01T00:00:00Z' }] });
      assert.deepEqual(await write({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False', reason: 'Stopped' }] }), {
        observedGeneration: 1,
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False', observedGeneration: 1, lastProbeTime: null, lastTransitionTime: null, reason: 'Stopped' }],
        qosClass: 'BestEffort',
      });
    });
  });

  describe('finalizers and deletion', () => {
    test("a built-in kind's /status write takes the request's metadata too (a Deployment's labels excepted), and so does its managedFields entry", async () => {
      const name = unique('status-meta');
      const template = { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
      const body = { metadata: { name, labels: { l: '1' } }, spec: { replicas: 1, selector: { matchLabels: { app: name } }, template } };
      const change = { metadata: { labels: { l: '2', n: 'new' }, annotations: { a: 'b' }, finalizers: ['example.com/f'] }, spec: { replicas: 5 }, status: { replicas: 1 } };
      const seen: Record<string, unknown> = {};
      for (const plural of ['deployments', 'replicasets']) {
        const base = `/apis/apps/v1/namespaces/default/${plural}`;
        assert.equal((await raw(backend().kubeConfig, 'POST', `${base}?fieldManager=m`, JSON.stringify(body))).status, 201);
        const answer = await raw(backend().kubeConfig, 'PATCH', `${base}/${name}/status?fieldManager=st`, JSON.stringify(change), 'application/merge-patch+json');
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const object = answer.body as Json;
        const entry = (object.metadata?.['managedFields'] as Json[]).find((e) => e['manager'] === 'st');
        seen[plural] = [object.metadata?.['labels'], object.metadata?.['annotations'], object.metadata?.['finalizers'], object.spec?.['replicas'], object.status?.['replicas'], entry?.['subresource'], entry?.['fieldsV1']];
        await raw(backend().kubeConfig, 'PATCH', `${base}/${name}`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json');
        await raw(backend().kubeConfig, 'DELETE', `${base}/${name}`);
      }
      const owned = { 'f:annotations': { '.': {}, 'f:a': {} }, 'f:finalizers': { '.': {}, 'v:"example.com/f"': {} } };
      assert.deepEqual(seen, {
        deployments: [{ l: '1' }, { a: 'b' }, ['example.com/f'], 1, 1, 'status', { 'f:metadata': owned, 'f:status': { 'f:replicas': {} } }],
        replicasets: [{ l: '2', n: 'new' }, { a: 'b' }, ['example.com/f'], 1, 1, 'status', { 'f:metadata': { ...owned, 'f:labels': { 'f:l': {}, 'f:n': {} } }, 'f:status': { 'f:replicas': {} } }],
      });
    });

    test('delete marks a finalized object; no finalizer may be added then; removing the last one deletes it', async () => {
      const { group, apiVersion } = await installThings(backend());
      const api = backend().kubeConfig.makeApiClient(CustomObjectsApi);
      const at = { group, version: 'v1', namespace: 'default', plural: 'things' };
      await api.createNamespacedCustomObject({ ...at, body: { apiVersion, kind: 'Thing', metadata: { name: 'held', finalizers: ['example.io/one'] }, spec: {} } });
      await api.deleteNamespacedCustomObject({ ...at, name: 'held' });
      const marked = await backend().get(apiVersion, 'Thing', 'held', 'default');
      assert.ok(marked !== undefined, 'still there while a finalizer holds it');
      assert.match(String(marked.metadata?.['deletionTimestamp']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(marked.metadata?.['deletionGracePeriodSeconds'], 0);
      const generation = marked.metadata?.['generation'];
      assert.equal(generation, 2, 'marking for deletion moves generation');

      await assert.rejects(
        api.patchNamespacedCustomObject({ ...at, name: 'held', body: { metadata: { finalizers: ['example.io/one', 'example.io/two'] } } }, MERGE),
        (error: unknown) => error instanceof ApiException && error.code === 422,
        'a new finalizer on an object being deleted is invalid',
      );
      // Spec can still change; the deletion itself moved generation once.
      const edited = (await api.patchNamespacedCustomObject({ ...at, name: 'held', body: { spec: { note: 'closing' } } }, MERGE)) as Json;
      assert.equal(edited.metadata?.['generation'], Number(generation) + 1);

      await api.patchNamespacedCustomObject({ ...at, name: 'held', body: { metadata: { finalizers: null } } }, MERGE);
      await waitFor('the object gone', async () => (await backend().get(apiVersion, 'Thing', 'held', 'default')) === undefined);
    });

    test('delete preconditions are refused in kube-apiserver words; a foreground delete answers the object marked', async () => {
      const { group, apiVersion } = await installThings(backend());
      const api = backend().kubeConfig.makeApiClient(CustomObjectsApi);
      const at = { group, version: 'v1', namespace: 'default', plural: 'things' };
      const created = (await api.createNamespacedCustomObject({ ...at, body: { apiVersion, kind: 'Thing', metadata: { name: 'guarded' }, spec: {} } })) as Json;
      const uid = String(created.metadata?.['uid']);
      const rv = String(created.metadata?.['resourceVersion']);
      const refused = async (preconditions: Record<string, string>): Promise<Json> => {
        const error = await api.deleteNamespacedCustomObject({ ...at, name: 'guarded', body: { preconditions } }).then(
          () => assert.fail('expected a conflict'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof ApiException && error.code === 409, String(error));
        return JSON.parse(String(error.body)) as Json;
      };
      const byUid = await refused({ uid: 'abc' });
      assert.equal(byUid['message'], `Operation cannot be fulfilled on Thing.${group} "guarded": the UID in the precondition (abc) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
      assert.deepEqual(byUid['details'], { name: 'guarded', group, kind: 'Thing' });
      const byVersion = await refused({ resourceVersion: '1' });
      assert.equal(byVersion['message'], `Operation cannot be fulfilled on Thing.${group} "guarded": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified`);
      // Foreground: marked with foregroundDeletion even without dependents (the garbage collector, where there is
      // one, then releases it).
      const marked = (await api.deleteNamespacedCustomObject({ ...at, name: 'guarded', propagationPolicy: 'Foreground' })) as Json;
      assert.deepEqual([marked.metadata?.['finalizers'], marked.metadata?.['deletionGracePeriodSeconds'], typeof marked.metadata?.['deletionTimestamp']], [['foregroundDeletion'], 0, 'string']);
    });
  });
}
