// managedFields of a custom resource whose CRD converts through a webhook between versions that name a field
// differently (`count` in v1beta1, `size` in v1, stored as v1): each entry is recorded at the version it was written
// in and compared in its own version, the objects converted to it, so a conflict or a change is found whichever
// version names the field, and is reported in the words of the entry's version.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { crdManifest } from '../../src/testing/index.js';
import type { FakeWebhook } from '../support/fake-webhook.js';
import type { Backend, Json } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';
import { renamingWebhook } from './renaming-webhook.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'renamed.conformance.katalog.dev';
const path = (version: string): string => `/apis/${GROUP}/${version}/namespaces/default/dials`;

/** Each entry as [manager, operation, version, subresource, fieldsV1]. */
function entries(answer: RawAnswer): unknown[] {
  assert.ok(answer.status < 300, JSON.stringify(answer.body));
  const managed = ((answer.body as Json).metadata?.['managedFields'] ?? []) as Array<Record<string, unknown>>;
  return managed.map((entry) => [entry['manager'], entry['operation'], String(entry['apiVersion']).slice(GROUP.length + 1), entry['subresource'] ?? '', entry['fieldsV1']]);
}

export function conversionManagedFieldsSuite(backend: () => Backend): void {
  describe('managedFields across versions a conversion webhook renames', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
    let webhook: FakeWebhook;

    before(async () => {
      const renaming = await renamingWebhook();
      webhook = renaming.webhook;
      const part = (field: string): Json => ({ type: 'object', properties: { [field]: { type: 'integer' }, other: { type: 'string' }, more: { type: 'string' } } }) as Json;
      const schema = (field: string): Json => ({ type: 'object', properties: { spec: part(field), status: part(field) } }) as Json;
      await backend().applyCrd(
        crdManifest({
          group: GROUP,
          kind: 'Dial',
          plural: 'dials',
          versions: [
            { name: 'v1beta1', schema: schema('count') },
            { name: 'v1', storage: true, schema: schema('size') },
          ],
          conversionWebhook: { url: `${webhook.url}/convert`, caBundle: renaming.caBundle },
        }),
      );
    });
    after(async () => {
      await webhook.close();
    });

    test('entries at the version written, compared in their own: conflicts and changes found whichever version names the field', async () => {
      const kubeConfig = backend().kubeConfig;
      const apply = (version: string, manager: string, spec: Json, force = false): Promise<RawAnswer> =>
        raw(kubeConfig, 'PATCH', `${path(version)}/d?fieldManager=${manager}${force ? '&force=true' : ''}`, JSON.stringify({ apiVersion: `${GROUP}/${version}`, kind: 'Dial', metadata: { name: 'd' }, spec }), 'application/apply-patch+yaml');
      const merge = (version: string, manager: string, body: Json, subresource = ''): Promise<RawAnswer> =>
        raw(kubeConfig, 'PATCH', `${path(version)}/d${subresource}?fieldManager=${manager}`, JSON.stringify(body), 'application/merge-patch+json');

      // The API server may answer 404 or 503 until it serves the CRD.
      let created = await apply('v1beta1', 'a', { count: 1, other: 'o' });
      for (let i = 0; i < 100 && (created.status === 404 || created.status === 503); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        created = await apply('v1beta1', 'a', { count: 1, other: 'o' });
      }
      assert.deepEqual(entries(created), [['a', 'Apply', 'v1beta1', '', { 'f:spec': { 'f:count': {}, 'f:other': {} } }]]);
      // v1's size is v1beta1's count: b's change takes it from a's entry.
      assert.deepEqual(entries(await merge('v1', 'b', { spec: { size: 2 } })), [
        ['a', 'Apply', 'v1beta1', '', { 'f:spec': { 'f:other': {} } }],
        ['b', 'Update', 'v1', '', { 'f:spec': { 'f:size': {} } }],
      ]);
      assert.deepEqual((entries(await merge('v1beta1', 'b', { spec: { more: 'm' } })) as unknown[][]).map((entry) => entry.slice(0, 3)), [
        ['a', 'Apply', 'v1beta1'],
        ['b', 'Update', 'v1'],
        ['b', 'Update', 'v1beta1'],
      ]);
      // Applying count in v1beta1 conflicts with b's size in v1, named in v1's words.
      for (const [version, spec] of [['v1beta1', { count: 3, other: 'o' }], ['v1', { size: 3, other: 'o' }]] as const) {
        const conflict = await apply(version, 'a', spec);
        assert.equal(conflict.status, 409);
        assert.equal(conflict.body['message'], `Apply failed with 1 conflict: conflict with "b" using ${GROUP}/v1: .spec.size`, version);
      }
      assert.deepEqual(entries(await apply('v1', 'a', { size: 3, other: 'o' }, true)), [
        ['a', 'Apply', 'v1', '', { 'f:spec': { 'f:other': {}, 'f:size': {} } }],
        ['b', 'Update', 'v1beta1', '', { 'f:spec': { 'f:more': {} } }],
      ]);
      const conflict = await apply('v1beta1', 'c', { count: 4 });
      assert.equal(conflict.body['message'], 'Apply failed with 1 conflict: conflict with "a": .spec.size', "an applier's entry names no version");
      // A status write in v1beta1, then one in v1 that takes the field from it.
      await merge('v1beta1', 's', { status: { count: 7 } }, '/status');
      assert.deepEqual((entries(await merge('v1', 't', { status: { size: 8 } }, '/status')) as unknown[][]).filter((entry) => entry[3] === 'status'), [
        ['s', 'Update', 'v1beta1', 'status', { 'f:status': {} }],
        ['t', 'Update', 'v1', 'status', { 'f:status': { 'f:size': {} } }],
      ]);
      // A PUT in v1beta1 takes what it changes from a's v1 entry, which goes when left with nothing.
      const current = (await raw(kubeConfig, 'GET', `${path('v1beta1')}/d`)).body as Json;
      const put = await raw(kubeConfig, 'PUT', `${path('v1beta1')}/d?fieldManager=p`, JSON.stringify({ ...current, spec: { ...(current['spec'] as Json), count: 10, other: 'q' } }));
      assert.deepEqual((entries(put) as unknown[][]).filter((entry) => entry[3] === ''), [
        ['b', 'Update', 'v1beta1', '', { 'f:spec': { 'f:more': {} } }],
        ['p', 'Update', 'v1beta1', '', { 'f:spec': { 'f:count': {}, 'f:other': {} } }],
      ]);
      await backend().delete(`${GROUP}/v1`, 'Dial', 'd', 'default');
    });
  });
}
