// DELETE as kube-apiserver does it: graceful deletion of Pods, what a DELETE answers (a Status, or the object for
// the kinds that return it; a dry run's would-be answer; deletecollection's list), the garbage collector's
// finalizers the options set, where the options are read from, and a finalizer released by an update. No kubelet
// and no kube-controller-manager run beside either server here, so nothing finishes a deletion but the test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crdManifest } from '../../src/testing/index.js';
import { unique, type Backend, type Json } from './backend.js';
import { raw, rawWatch, type RawAnswer } from './raw-http.js';

const PODS = '/api/v1/namespaces/default/pods';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

function pod(name: string, spec: Json = {}, metadata: Json = {}): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });
}

/** The deletion fields of an answer's object. */
function mark(answer: RawAnswer): unknown[] {
  const metadata = (answer.body as Json).metadata ?? {};
  return [answer.status, answer.body['kind'], metadata['generation'], metadata['deletionGracePeriodSeconds'], metadata['finalizers']];
}

function seconds(from: unknown, to: unknown): number {
  return (Date.parse(String(to)) - Date.parse(String(from))) / 1000;
}

/** The watch events of one object since `resourceVersion`, as `TYPE grace finalizers`. */
async function eventsOf(backend: Backend, path: string, name: string, resourceVersion: string, count: number): Promise<string[]> {
  const watch = await rawWatch(backend.kubeConfig, `${path}?watch=true&resourceVersion=${resourceVersion}&fieldSelector=metadata.name%3D${name}`, (events) => events.length >= count, 10_000);
  return watch.events.map((e) => {
    const metadata = (e.object as Json).metadata ?? {};
    return `${e.type} ${String(metadata['deletionGracePeriodSeconds'] ?? '-')} ${String(metadata['finalizers'] ?? '-')}`;
  });
}

export function deletionSuite(backend: () => Backend): void {
  describe('deletion', () => {
    test('a Pod bound to a node is deleted gracefully: marked for its grace period, which a DELETE may only shorten, then removed by a DELETE with a grace period of 0', async () => {
      const kc = backend().kubeConfig;
      const name = unique('graceful');
      const created = await raw(kc, 'POST', PODS, pod(name, { nodeName: 'conformance-node' }));
      assert.equal(created.status, 201);
      const createdAt = String((created.body as Json).metadata?.['creationTimestamp']);
      const rv = String((created.body as Json).metadata?.['resourceVersion']);

      const first = await raw(kc, 'DELETE', `${PODS}/${name}`);
      assert.deepEqual(mark(first), [200, 'Pod', 2, 30, undefined], 'the Pod, marked with its terminationGracePeriodSeconds (30 by default)');
      const at30 = (first.body as Json).metadata?.['deletionTimestamp'];
      assert.ok(Math.abs(seconds(createdAt, at30) - 30) <= 1, `deletionTimestamp ${String(at30)} is 30 s ahead of ${createdAt}`);

      const again = await raw(kc, 'DELETE', `${PODS}/${name}`);
      assert.deepEqual(again.body, first.body, 'a DELETE without a grace period changes nothing');
      const shorter = await raw(kc, 'DELETE', `${PODS}/${name}?gracePeriodSeconds=10`);
      assert.deepEqual(mark(shorter), [200, 'Pod', 2, 10, undefined]);
      assert.equal(seconds((shorter.body as Json).metadata?.['deletionTimestamp'], at30), 20, 'the mark moves back by the difference');
      const longer = await raw(kc, 'DELETE', `${PODS}/${name}?gracePeriodSeconds=20`);
      assert.deepEqual(longer.body, shorter.body, 'a longer grace period changes nothing');

      const recreate = await raw(kc, 'POST', PODS, pod(name, { nodeName: 'conformance-node' }));
      assert.deepEqual([recreate.status, recreate.body['reason'], recreate.body['message']], [409, 'AlreadyExists', `object is being deleted: pods "${name}" already exists`]);

      // A body's options are read and the query's are not: this query's 20 would change nothing.
      const last = await raw(kc, 'DELETE', `${PODS}/${name}?gracePeriodSeconds=20`, JSON.stringify({ gracePeriodSeconds: 0 }));
      assert.deepEqual(mark(last), [200, 'Pod', 2, 0, undefined], 'the last state of the Pod answers its removal');
      assert.equal((await raw(kc, 'GET', `${PODS}/${name}`)).status, 404);
      assert.deepEqual(await eventsOf(backend(), PODS, name, rv, 4), ['MODIFIED 30 -', 'MODIFIED 10 -', 'MODIFIED 0 -', 'DELETED 0 -']);
    });

    test('a Pod no node runs, or one that has ended, goes at once, though it is marked first; a negative grace period is 1 second; finalizers do not end a grace period', async () => {
      const kc = backend().kubeConfig;
      const unbound = unique('unbound');
      const rv = String(((await raw(kc, 'POST', PODS, pod(unbound))).body as Json).metadata?.['resourceVersion']);
      assert.deepEqual(mark(await raw(kc, 'DELETE', `${PODS}/${unbound}`)), [200, 'Pod', 2, 0, undefined]);
      assert.equal((await raw(kc, 'GET', `${PODS}/${unbound}`)).status, 404);
      assert.deepEqual(await eventsOf(backend(), PODS, unbound, rv, 2), ['MODIFIED 0 -', 'DELETED 0 -']);

      const ended = unique('ended');
      await raw(kc, 'POST', PODS, pod(ended, { nodeName: 'conformance-node' }));
      assert.equal((await raw(kc, 'PATCH', `${PODS}/${ended}/status`, JSON.stringify({ status: { phase: 'Succeeded' } }), 'application/merge-patch+json')).status, 200);
      assert.deepEqual(mark(await raw(kc, 'DELETE', `${PODS}/${ended}`)), [200, 'Pod', 2, 0, undefined]);
      assert.equal((await raw(kc, 'GET', `${PODS}/${ended}`)).status, 404);

      const held = unique('held');
      await raw(kc, 'POST', PODS, pod(held, { nodeName: 'conformance-node' }, { finalizers: ['conformance.katalog.dev/hold'] }));
      assert.deepEqual(mark(await raw(kc, 'DELETE', `${PODS}/${held}?gracePeriodSeconds=-5`)), [200, 'Pod', 2, 1, ['conformance.katalog.dev/hold']]);
      const released = await raw(kc, 'PATCH', `${PODS}/${held}`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json');
      assert.equal(released.status, 200);
      assert.equal((await raw(kc, 'GET', `${PODS}/${held}`)).status, 200, 'still there: the grace period holds it');
      assert.deepEqual(mark(await raw(kc, 'DELETE', `${PODS}/${held}?gracePeriodSeconds=0`)), [200, 'Pod', 2, 0, undefined]);
      assert.equal((await raw(kc, 'GET', `${PODS}/${held}`)).status, 404);
    });

    test('a DELETE answers a Status (no code) for most kinds and custom resources, the object for Pods, Services and ServiceAccounts; a dry run answers what the delete would', async () => {
      const kc = backend().kubeConfig;
      const name = unique('answer');
      const cm = await raw(kc, 'POST', CONFIGMAPS, JSON.stringify({ metadata: { name } }));
      const uid = (cm.body as Json).metadata?.['uid'];
      const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, kind: 'configmaps', uid } };
      assert.deepEqual((await raw(kc, 'DELETE', `${CONFIGMAPS}/${name}?dryRun=All`)).body, status);
      assert.equal((await raw(kc, 'GET', `${CONFIGMAPS}/${name}`)).status, 200, 'a dry run deletes nothing');
      assert.deepEqual((await raw(kc, 'DELETE', `${CONFIGMAPS}/${name}`)).body, status);

      const held = unique('answer-held');
      const heldRv = ((await raw(kc, 'POST', CONFIGMAPS, JSON.stringify({ metadata: { name: held, finalizers: ['conformance.katalog.dev/hold'] } }))).body as Json).metadata?.['resourceVersion'];
      const dry = await raw(kc, 'DELETE', `${CONFIGMAPS}/${held}?dryRun=All`);
      assert.deepEqual([...mark(dry), (dry.body as Json).metadata?.['resourceVersion']], [200, 'ConfigMap', undefined, 0, ['conformance.katalog.dev/hold'], heldRv], 'the object as it would be marked');
      assert.equal(((await raw(kc, 'GET', `${CONFIGMAPS}/${held}`)).body as Json).metadata?.['deletionTimestamp'], undefined);
      await raw(kc, 'DELETE', `${CONFIGMAPS}/${held}`);
      await raw(kc, 'PATCH', `${CONFIGMAPS}/${held}`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json');

      for (const [plural, body] of [
        ['services', { metadata: { name }, spec: { ports: [{ port: 80 }] } }],
        ['serviceaccounts', { metadata: { name } }],
      ] as const) {
        await raw(kc, 'POST', `/api/v1/namespaces/default/${plural}`, JSON.stringify(body));
        const answer = await raw(kc, 'DELETE', `/api/v1/namespaces/default/${plural}/${name}`);
        assert.deepEqual([answer.status, answer.body['kind'], (answer.body as Json).metadata?.['name']], [200, plural === 'services' ? 'Service' : 'ServiceAccount', name]);
      }

      const group = `${unique('deleted')}.conformance.katalog.dev`;
      await backend().applyCrd(crdManifest({ group, kind: 'Thing', plural: 'things' }));
      const things = `/apis/${group}/v1/namespaces/default/things`;
      const thing = await raw(kc, 'POST', things, JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Thing', metadata: { name } }));
      const thingStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, group, kind: 'things', uid: (thing.body as Json).metadata?.['uid'] } };
      assert.deepEqual((await raw(kc, 'DELETE', `${things}/${name}?dryRun=All`)).body, thingStatus);
      assert.deepEqual((await raw(kc, 'DELETE', `${things}/${name}`)).body, thingStatus);
    });

    test('deletecollection answers the list it deleted from: the items as listed, at the list\'s resourceVersion', async () => {
      const kc = backend().kubeConfig;
      const label = unique('collection');
      const names = [`${label}-a`, `${label}-b`];
      await raw(kc, 'POST', CONFIGMAPS, JSON.stringify({ metadata: { name: names[0], labels: { set: label } } }));
      const last = await raw(kc, 'POST', CONFIGMAPS, JSON.stringify({ metadata: { name: names[1], labels: { set: label }, finalizers: ['conformance.katalog.dev/hold'] } }));
      const answer = await raw(kc, 'DELETE', `${CONFIGMAPS}?labelSelector=set%3D${label}`);
      const items = (answer.body['items'] as Json[]).map((item) => [item.metadata?.['name'], item.metadata?.['deletionTimestamp'], item['kind']]);
      assert.deepEqual([answer.status, answer.body['kind'], items], [200, 'ConfigMapList', names.map((n) => [n, undefined, undefined])]);
      assert.ok(Number((answer.body as Json).metadata?.['resourceVersion']) >= Number((last.body as Json).metadata?.['resourceVersion']));
      assert.equal(((await raw(kc, 'GET', `${CONFIGMAPS}/${names[1]}`)).body as Json).metadata?.['deletionGracePeriodSeconds'], 0, 'deleted all the same');
      await raw(kc, 'PATCH', `${CONFIGMAPS}/${names[1]}`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json');

      const group = `${unique('collection')}.conformance.katalog.dev`;
      await backend().applyCrd(crdManifest({ group, kind: 'Thing', plural: 'things' }));
      const things = `/apis/${group}/v1/namespaces/default/things`;
      await raw(kc, 'POST', things, JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Thing', metadata: { name: label } }));
      const list = await raw(kc, 'DELETE', things);
      assert.deepEqual([list.body['kind'], (list.body as Json).metadata?.['continue'], (list.body['items'] as Json[]).map((i) => i.metadata?.['name'])], ['ThingList', '', [label]], 'a custom resource list says continue, empty');
    });

    test('the garbage collector\'s finalizers: Orphan marks the owner with `orphan`, even a second DELETE does; options are never both orphanDependents and propagationPolicy', async () => {
      const kc = backend().kubeConfig;
      const name = unique('orphan');
      await raw(kc, 'POST', CONFIGMAPS, JSON.stringify({ metadata: { name } }));
      assert.deepEqual(mark(await raw(kc, 'DELETE', `${CONFIGMAPS}/${name}?propagationPolicy=Orphan`)), [200, 'ConfigMap', undefined, 0, ['orphan']]);

      const held = unique('orphan-held');
      await raw(kc, 'POST', CONFIGMAPS, JSON.stringify({ metadata: { name: held, finalizers: ['conformance.katalog.dev/hold'] } }));
      assert.deepEqual(mark(await raw(kc, 'DELETE', `${CONFIGMAPS}/${held}`)), [200, 'ConfigMap', undefined, 0, ['conformance.katalog.dev/hold']]);
      assert.deepEqual(mark(await raw(kc, 'DELETE', `${CONFIGMAPS}/${held}`, JSON.stringify({ propagationPolicy: 'Orphan' }))), [200, 'ConfigMap', undefined, 0, ['conformance.katalog.dev/hold', 'orphan']]);

      const both = await raw(kc, 'DELETE', `${CONFIGMAPS}/${held}`, JSON.stringify({ propagationPolicy: 'Orphan', orphanDependents: true }));
      assert.deepEqual([both.status, both.body['message']], [422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set']);
      await raw(kc, 'PATCH', `${CONFIGMAPS}/${held}`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json');
    });

    test("a DeleteOptions body Go's types cannot hold is 400 in its decoder's words", async () => {
      const kc = backend().kubeConfig;
      const name = unique('options');
      await raw(kc, 'POST', CONFIGMAPS, JSON.stringify({ metadata: { name } }));
      const refusals = [];
      for (const body of ['{"gracePeriodSeconds":1.5}', '{"propagationPolicy":5}', '{"preconditions":{"uid":5}}', '[]']) {
        const answer = await raw(kc, 'DELETE', `${CONFIGMAPS}/${name}`, body);
        refusals.push([answer.status, answer.body['message']]);
      }
      assert.deepEqual(refusals, [
        [400, 'json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64'],
        [400, 'json: cannot unmarshal number into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation'],
        [400, 'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID'],
        [400, 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
      ]);
      assert.equal((await raw(kc, 'GET', `${CONFIGMAPS}/${name}`)).status, 200, 'nothing deleted');
    });

    test('the update that removes the last finalizer removes the object: the writer gets what it wrote at the old resourceVersion, the DELETED event the last stored state', async () => {
      const kc = backend().kubeConfig;
      const name = unique('release');
      const rv = String(((await raw(kc, 'POST', CONFIGMAPS, JSON.stringify({ metadata: { name, finalizers: ['conformance.katalog.dev/hold'] } }))).body as Json).metadata?.['resourceVersion']);
      const marked = await raw(kc, 'DELETE', `${CONFIGMAPS}/${name}`);
      const released = await raw(kc, 'PATCH', `${CONFIGMAPS}/${name}`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json');
      assert.deepEqual(
        [released.status, (released.body as Json).metadata?.['finalizers'], (released.body as Json).metadata?.['resourceVersion']],
        [200, undefined, (marked.body as Json).metadata?.['resourceVersion']],
      );
      assert.deepEqual(await eventsOf(backend(), CONFIGMAPS, name, rv, 2), ['MODIFIED 0 conformance.katalog.dev/hold', 'DELETED 0 conformance.katalog.dev/hold']);
    });
  });
}
