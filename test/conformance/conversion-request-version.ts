// A write in a version other than the storage version of a CRD that converts through a webhook is made at the
// request's version, as kube-apiserver makes it: that version's schema validates, defaults and prunes it, its CEL
// rules judge it (ratcheted against the stored object converted there), and only the result is converted to the
// storage version, pruned to that version's schema and stored. `count` in v1beta1 (at most 10, never 7, `mode`
// defaulted to fast) is `size` in v1 (at most 100, never 8, `fresh` defaulted to new), stored as v1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { crdManifest } from '../../src/testing/index.js';
import type { FakeWebhook } from '../support/fake-webhook.js';
import type { Backend, Json } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';
import { renamingWebhook } from './renaming-webhook.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'requested.conformance.katalog.dev';
const path = (version: string): string => `/apis/${GROUP}/${version}/namespaces/default/meters`;

function specOf(answer: RawAnswer): unknown {
  assert.ok(answer.status < 300, JSON.stringify(answer.body));
  return (answer.body as Json).spec;
}

/** A 422's message and its causes' fields. */
function refusal(answer: RawAnswer): [number, unknown, unknown] {
  const causes = ((answer.body['details'] as Json | undefined)?.['causes'] ?? []) as Json[];
  return [answer.status, answer.body['message'], causes.map((cause) => cause['field'])];
}

export function conversionRequestVersionSuite(backend: () => Backend): void {
  describe('a write in another version of a CRD converting through a webhook', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
    let webhook: FakeWebhook;

    before(async () => {
      const renaming = await renamingWebhook();
      webhook = renaming.webhook;
      const spec = (field: string, maximum: number, unlucky: number, properties: Json): Json => ({
        type: 'object',
        'x-kubernetes-validations': [{ rule: `self.${field} != ${unlucky}`, message: `${unlucky} is unlucky` }],
        properties: { [field]: { type: 'integer', maximum }, ...properties },
      });
      const schema = (field: string, maximum: number, unlucky: number, properties: Json): Json => ({
        type: 'object',
        properties: { spec: spec(field, maximum, unlucky, properties), status: { type: 'object', properties: { [field]: { type: 'integer', maximum } } } },
      });
      await backend().applyCrd(
        crdManifest({
          group: GROUP,
          kind: 'Meter',
          plural: 'meters',
          versions: [
            { name: 'v1beta1', schema: schema('count', 10, 7, { mode: { type: 'string', default: 'fast' }, tag: { type: 'string', maxLength: 3 }, old: { type: 'string' } }) },
            { name: 'v1', storage: true, schema: schema('size', 100, 8, { mode: { type: 'string' }, tag: { type: 'string' }, fresh: { type: 'string', default: 'new' } }) },
          ],
          conversionWebhook: { url: `${webhook.url}/convert`, caBundle: renaming.caBundle },
        }),
      );
    });
    after(async () => {
      await webhook.close();
    });

    test("validated, defaulted and pruned at the request's version; stored as the storage version's schema keeps it", async () => {
      const kubeConfig = backend().kubeConfig;
      const post = (version: string, name: string, spec: Json, query = ''): Promise<RawAnswer> =>
        raw(kubeConfig, 'POST', `${path(version)}${query}`, JSON.stringify({ apiVersion: `${GROUP}/${version}`, kind: 'Meter', metadata: { name }, spec }));
      const get = (version: string, name: string): Promise<RawAnswer> => raw(kubeConfig, 'GET', `${path(version)}/${name}`);
      const merge = (name: string, body: Json, subresource = ''): Promise<RawAnswer> => raw(kubeConfig, 'PATCH', `${path('v1beta1')}/${name}${subresource}`, JSON.stringify(body), 'application/merge-patch+json');

      // The API server may answer 404 or 503 until it serves the CRD.
      let created = await post('v1beta1', 'a', { count: 1, old: 'o', fresh: 'x' });
      for (let i = 0; i < 100 && (created.status === 404 || created.status === 503); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        created = await post('v1beta1', 'a', { count: 1, old: 'o', fresh: 'x' });
      }
      // v1beta1 defaults mode and prunes fresh; v1 prunes old and defaults fresh.
      assert.deepEqual(specOf(created), { count: 1, mode: 'fast' });
      assert.deepEqual(specOf(await get('v1', 'a')), { fresh: 'new', mode: 'fast', size: 1 });

      assert.deepEqual(refusal(await post('v1beta1', 'b', { count: 50 })), [
        422,
        `Meter.${GROUP} "b" is invalid: spec.count: Invalid value: 50: spec.count in body should be less than or equal to 10`,
        ['spec.count'],
      ]);
      assert.deepEqual(refusal(await post('v1beta1', 'b', { count: 7 })), [422, `Meter.${GROUP} "b" is invalid: spec: Invalid value: 7 is unlucky`, ['spec']]);
      assert.deepEqual(refusal(await post('v1beta1', 'b', { count: 1, tag: 'abcd' })).slice(0, 1), [422]);
      // v1's rule is not v1beta1's: 8 is written.
      assert.deepEqual(specOf(await post('v1beta1', 'b', { count: 8 })), { count: 8, mode: 'fast' });
      const dry = await post('v1beta1', 'c', { count: 2 }, '?dryRun=All');
      assert.deepEqual([dry.status, specOf(dry)], [201, { count: 2, mode: 'fast' }]);
      assert.equal((await get('v1', 'c')).status, 404);

      // An object written in v1 with a size v1beta1 refuses: a PUT in v1beta1 that leaves it is ratcheted, one that
      // changes it is refused.
      assert.deepEqual(specOf(await post('v1', 'h', { size: 50 })), { fresh: 'new', size: 50 });
      const held = (await get('v1beta1', 'h')).body as Json;
      assert.deepEqual(held.spec, { count: 50 });
      const put = await raw(kubeConfig, 'PUT', `${path('v1beta1')}/h`, JSON.stringify({ ...held, metadata: { ...held.metadata, labels: { put: 'v1beta1' } } }));
      assert.deepEqual(specOf(put), { count: 50, mode: 'fast' });
      const current = put.body as Json;
      assert.deepEqual(refusal(await raw(kubeConfig, 'PUT', `${path('v1beta1')}/h`, JSON.stringify({ ...current, spec: { count: 60 } }))).slice(0, 2), [
        422,
        `Meter.${GROUP} "h" is invalid: spec.count: Invalid value: 60: spec.count in body should be less than or equal to 10`,
      ]);

      // Patches and an apply, at v1beta1.
      assert.deepEqual(refusal(await merge('a', { spec: { count: 11 } })).slice(0, 1), [422]);
      assert.deepEqual(specOf(await merge('a', { spec: { count: 9 } })), { count: 9, mode: 'fast' });
      const applied = await raw(kubeConfig, 'PATCH', `${path('v1beta1')}/i?fieldManager=ap`, JSON.stringify({ apiVersion: `${GROUP}/v1beta1`, kind: 'Meter', metadata: { name: 'i' }, spec: { count: 3 } }), 'application/apply-patch+yaml');
      assert.deepEqual([applied.status, specOf(applied)], [201, { count: 3, mode: 'fast' }]);
      assert.deepEqual(refusal(await merge('a', { status: { count: 20 } }, '/status')), [
        422,
        `Meter.${GROUP} "a" is invalid: status.count: Invalid value: 20: count in body should be less than or equal to 10`,
        ['status.count'],
      ]);
      assert.deepEqual((await merge('a', { status: { count: 4 } }, '/status')).body['status'], { count: 4 });
      assert.deepEqual((await get('v1', 'a')).body['status'], { size: 4 });
      for (const name of ['a', 'b', 'h', 'i']) await backend().delete(`${GROUP}/v1`, 'Meter', name, 'default');
    });
  });
}
