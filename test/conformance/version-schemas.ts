// A CRD whose versions' schemas differ, converted by the `None` strategy (the apiVersion alone): kube-apiserver's
// converter prunes what it converts to the schema of the version it is now at. A write in v1beta1 keeps only what
// v1beta1 declares, and is stored with only what v1 (the storage version) declares, with v1's defaults; a read,
// list or watch in v1beta1 shows only what v1beta1 declares. So a field one version lacks is lost through it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crdManifest } from '../../src/testing/index.js';
import type { Backend, Json } from './backend.js';
import { raw, rawWatch, type RawAnswer } from './raw-http.js';

const GROUP = 'pruned.conformance.katalog.dev';
const path = (version: string): string => `/apis/${GROUP}/${version}/namespaces/default/knobs`;

function specOf(answer: RawAnswer): unknown {
  assert.ok(answer.status < 300, JSON.stringify(answer.body));
  return (answer.body as Json).spec;
}

export function versionSchemaSuite(backend: () => Backend): void {
  describe('versions whose schemas differ (None strategy)', () => {
    test('a write or read in a version keeps what its schema declares; the stored object, what the storage version declares', async () => {
      await backend().applyCrd(
        crdManifest({
          group: GROUP,
          kind: 'Knob',
          plural: 'knobs',
          versions: [
            { name: 'v1beta1', schema: { type: 'object', properties: { spec: { type: 'object', properties: { count: { type: 'integer' }, mode: { type: 'string', default: 'fast' } } } } } },
            {
              name: 'v1',
              storage: true,
              schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, mode: { type: 'string' }, fresh: { type: 'string', default: 'new' } } } } },
            },
          ],
        }),
      );
      const kubeConfig = backend().kubeConfig;
      const post = (version: string, name: string, spec: Json): Promise<RawAnswer> => raw(kubeConfig, 'POST', path(version), JSON.stringify({ apiVersion: `${GROUP}/${version}`, kind: 'Knob', metadata: { name }, spec }));
      const get = (version: string, name = ''): Promise<RawAnswer> => raw(kubeConfig, 'GET', name === '' ? path(version) : `${path(version)}/${name}`);

      // The API server may answer 404 or 503 until it serves the CRD.
      let created = await post('v1beta1', 'a', { count: 5, fresh: 'x' });
      for (let i = 0; i < 100 && (created.status === 404 || created.status === 503); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        created = await post('v1beta1', 'a', { count: 5, fresh: 'x' });
      }
      // fresh is pruned in v1beta1 (defaulted mode kept), count when stored in v1, whose default fills fresh in.
      assert.deepEqual(specOf(created), { mode: 'fast' });
      assert.deepEqual(specOf(await get('v1', 'a')), { fresh: 'new', mode: 'fast' });
      assert.deepEqual(specOf(await get('v1beta1', 'a')), { mode: 'fast' });

      assert.deepEqual(specOf(await post('v1', 'b', { size: 50, mode: 'slow' })), { fresh: 'new', mode: 'slow', size: 50 });
      assert.deepEqual(specOf(await get('v1beta1', 'b')), { mode: 'slow' });
      const list = await get('v1beta1');
      assert.equal(list.status, 200);
      assert.deepEqual((list.body['items'] as Json[]).map((item) => item.spec), [{ mode: 'fast' }, { mode: 'slow' }]);
      const version = String((list.body['metadata'] as Json)['resourceVersion']);

      // A write through v1beta1 stores what v1beta1 held: b's size is gone.
      const merged = await raw(kubeConfig, 'PATCH', `${path('v1beta1')}/b`, JSON.stringify({ metadata: { labels: { through: 'v1beta1' } } }), 'application/merge-patch+json');
      assert.deepEqual(specOf(merged), { mode: 'slow' });
      assert.deepEqual(specOf(await get('v1', 'b')), { fresh: 'new', mode: 'slow' });

      const watch = await rawWatch(kubeConfig, `${path('v1beta1')}?watch=true&resourceVersion=${version}`, (events) => events.length >= 1, 10_000);
      assert.deepEqual(
        watch.events.map((event) => [event.type, (event.object as Json).apiVersion, (event.object as Json).spec]),
        [['MODIFIED', `${GROUP}/v1beta1`, { mode: 'slow' }]],
      );
      for (const name of ['a', 'b']) await backend().delete(`${GROUP}/v1`, 'Knob', name, 'default');
    });
  });
}
