// What a CRD's conversion webhook is sent and how its answer is taken: the ConversionReview as the API server's
// client writes it (with the empty response it decodes the answer into), each stored object as the storage decodes
// it (no resourceVersion), a converted object keeping the stored metadata but for its labels and annotations, and a
// bad answer refused in the webhook converter's words (a read naming the stored object it could not decode).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { crdManifest } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { webhookServer, type FakeWebhook } from '../support/fake-webhook.js';
import { masked, unique, type Backend, type Json } from './backend.js';
import { raw } from './raw-http.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'conversion.conformance.katalog.dev';
const THINGS = `/apis/${GROUP}/v1/namespaces/default/things`;
const THINGS_V2 = `/apis/${GROUP}/v2/namespaces/default/things`;

export function conversionWebhookSuite(backend: () => Backend): void {
  describe('what a conversion webhook is sent', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
    let webhook: FakeWebhook;
    /** What the webhook answers, given the objects converted to the desired version. */
    let answer: (review: Json, converted: Json[]) => Json = (review, converted) => ({ uid: review['uid'], result: { status: 'Success' }, convertedObjects: converted });
    const name = unique('thing');

    before(async () => {
      const tls = await selfSignedCertificate();
      webhook = await webhookServer(tls);
      webhook.answer = (request) => {
        const desired = String(request['desiredAPIVersion']);
        return answer(request, (request['objects'] as Json[]).map((object) => ({ ...object, apiVersion: desired })));
      };
      const schema = { type: 'object', properties: { spec: { type: 'object', properties: { z: { type: 'string' }, a: { type: 'integer' } } } } };
      await backend().applyCrd(
        crdManifest({
          group: GROUP,
          kind: 'Thing',
          plural: 'things',
          versions: [
            { name: 'v1', storage: true, status: false, schema },
            { name: 'v2', status: false, schema },
          ],
          conversionWebhook: { url: `${webhook.url}/convert`, caBundle: tls.cert },
        }),
      );
      const created = await raw(backend().kubeConfig, 'POST', THINGS, JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name, labels: { b: '1', a: '2' } }, spec: { z: 'z', a: 1 } }));
      assert.equal(created.status, 201);
    });
    after(async () => {
      await webhook.close();
    });

    test('a read in another version: the review as the API server writes it, the stored object without its resourceVersion; the answer keeps the stored metadata but for labels and annotations', async () => {
      answer = (review, converted) => ({
        uid: review['uid'],
        result: { status: 'Success' },
        convertedObjects: converted.map((object) => ({ ...object, metadata: { ...object.metadata, generation: 7, managedFields: [], labels: { added: 'yes' }, annotations: { note: 'n' } } })),
      });
      webhook.calls.length = 0;
      const read = await raw(backend().kubeConfig, 'GET', `${THINGS_V2}/${name}`);
      assert.equal(read.status, 200);
      const text = masked(webhook.calls[0]?.text ?? '');
      assert.equal(
        text,
        `{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"~","desiredAPIVersion":"${GROUP}/v2","objects":[{"apiVersion":"${GROUP}/v1","kind":"Thing","metadata":{"creationTimestamp":"~","generation":1,"labels":{"a":"2","b":"1"},"managedFields":[{"apiVersion":"${GROUP}/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:a":{},"f:b":{}}},"f:spec":{".":{},"f:a":{},"f:z":{}}},"manager":"unknown","operation":"Update","time":"~"}],"name":"${name}","namespace":"default","uid":"~"},"spec":{"a":1,"z":"z"}}]},"response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}}\n`,
      );
      const metadata = (read.body as Json).metadata ?? {};
      assert.equal((read.body as Json)['apiVersion'], `${GROUP}/v2`);
      assert.equal(metadata['generation'], 1);
      assert.deepEqual(metadata['labels'], { added: 'yes' });
      assert.deepEqual(metadata['annotations'], { note: 'n' });
      assert.equal((metadata['managedFields'] as unknown[]).length, 1);
      assert.equal(typeof metadata['resourceVersion'], 'string');
    });

    test("a bad answer is a 500 in the webhook converter's words; a read names the stored object it could not decode", async () => {
      const base = (review: Json): Json => ({ uid: review['uid'], result: { status: 'Success' } });
      const cases: Array<[(review: Json, converted: Json[]) => Json, string]> = [
        [(review) => ({ uid: review['uid'], result: { status: 'Failure', message: 'no way' } }), 'failed: no way'],
        [(review) => ({ uid: review['uid'], result: {} }), "failed: response.result.status was '', not 'Success'"],
        [(review) => ({ ...base(review), convertedObjects: [] }), 'returned 0 objects, expected 1'],
        [(review, converted) => ({ ...base(review), convertedObjects: converted.map((o) => ({ ...o, metadata: { ...o.metadata, name: 'other' } })) }), `returned invalid object: must have the same name: ${name} != other`],
        [(review) => ({ ...base(review), convertedObjects: review['objects'] }), `returned invalid object at index 0: invalid groupVersion (expected ${GROUP}/v2, received ${GROUP}/v1)`],
        [(review, converted) => ({ ...base(review), convertedObjects: converted.map((o) => ({ ...o, kind: 'Other' })) }), 'returned invalid object at index 0: invalid kind (expected Thing, received Other)'],
        [(review, converted) => ({ ...base(review), convertedObjects: converted.map((o) => ({ ...o, metadata: { ...o.metadata, labels: { a: 1 } } })) }), 'returned invalid metadata: metadata.labels[a] must be a string, but is int64 in converted object'],
        // Documents that are not a v1 ConversionReview with a response, as the client and the converter refuse them.
        [() => ({ $review: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'Other' } }), 'failed: no kind "Other" is registered for version "apiextensions.k8s.io/v1" in scheme "pkg/runtime/scheme.go:111"'],
        [() => ({ $review: { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview' } }), 'failed: converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion'],
        [() => ({ $review: {} }), 'failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind='],
        [() => ({ $review: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' } }), 'failed: no response provided'],
      ];
      for (const [answerWith, why] of cases) {
        answer = answerWith;
        const read = await raw(backend().kubeConfig, 'GET', `${THINGS_V2}/${name}`);
        assert.equal(read.status, 500, why);
        const message = String(read.body['message']).replace(/revision=\d+/, 'revision=N');
        assert.equal(
          message,
          `Internal error occurred: StorageError: corrupt object, Code: 7, Key: /${GROUP}/things/default/${name}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=N: conversion webhook for ${GROUP}/v1, Kind=Thing ${why}`,
        );
      }
    });
  });
}
