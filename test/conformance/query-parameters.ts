// Query parameters as kube-apiserver converts and validates them: Go's integer parsing, resourceVersion forms,
// resourceVersionMatch, dryRun and propagationPolicy, with the same status codes and Status messages.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';

const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';

function summary(answer: RawAnswer): { status: number; reason: unknown; message: unknown } {
  return { status: answer.status, reason: answer.body['reason'], message: answer.body['message'] };
}

export function queryParameterSuite(backend: () => Backend): void {
  describe('query parameters', () => {
    test('integers go through Go\'s ParseInt: a bad one is 400 with its error; a negative limit lists everything; the first of repeated values counts', async () => {
      const kc = backend().kubeConfig;
      assert.deepEqual(summary(await raw(kc, 'GET', `${CONFIG_MAPS}?limit=abc`)), { status: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "abc": invalid syntax' });
      assert.deepEqual(summary(await raw(kc, 'GET', `${CONFIG_MAPS}?limit=99999999999999999999`)), { status: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "99999999999999999999": value out of range' });
      assert.deepEqual(summary(await raw(kc, 'GET', `${CONFIG_MAPS}?watch=1&timeoutSeconds=x`)), { status: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "x": invalid syntax' });
      assert.equal((await raw(kc, 'GET', `${CONFIG_MAPS}?limit=-1`)).status, 200);
      const first = await raw(kc, 'GET', `${CONFIG_MAPS}?limit=1&limit=abc`);
      assert.equal(first.status, 200);
      const name = unique('qp');
      await backend().create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
      assert.deepEqual(summary(await raw(kc, 'DELETE', `${CONFIG_MAPS}/${name}?gracePeriodSeconds=x`)), { status: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "x": invalid syntax' });
      assert.ok((await backend().get('v1', 'ConfigMap', name)) !== undefined, 'a refused delete deletes nothing');
    });

    test('resourceVersion and resourceVersionMatch: 400 on a list, 500 on a watch, 422 on the options', async () => {
      const kc = backend().kubeConfig;
      const detail = 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax';
      assert.deepEqual(summary(await raw(kc, 'GET', `${CONFIG_MAPS}?resourceVersion=abc`)), { status: 400, reason: 'BadRequest', message: `invalid resource version: ${detail}` });
      assert.deepEqual(summary(await raw(kc, 'GET', `${CONFIG_MAPS}?watch=1&resourceVersion=abc`)), { status: 500, reason: undefined, message: detail });
      const bogus = await raw(kc, 'GET', `${CONFIG_MAPS}?resourceVersion=1&resourceVersionMatch=Bogus`);
      const unsupported = 'Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""';
      assert.deepEqual(
        { ...summary(bogus), details: bogus.body['details'] },
        {
          status: 422,
          reason: 'Invalid',
          message: `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: ${unsupported}`,
          details: { group: 'meta.k8s.io', kind: 'ListOptions', causes: [{ reason: 'FieldValueNotSupported', message: unsupported, field: 'resourceVersionMatch' }] },
        },
      );
      assert.deepEqual(summary(await raw(kc, 'GET', `${CONFIG_MAPS}?resourceVersionMatch=NotOlderThan`)), {
        status: 422,
        reason: 'Invalid',
        message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      });
    });

    test('dryRun=All answers the write and stores nothing; another value, or an unknown propagationPolicy, is 422 on the options', async () => {
      const kc = backend().kubeConfig;
      const name = unique('dry');
      const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"a":"1"}}`;
      const dry = await raw(kc, 'POST', `${CONFIG_MAPS}?dryRun=All&dryRun=All`, body);
      assert.equal(dry.status, 201);
      assert.deepEqual(dry.body['data'], { a: '1' });
      assert.equal(await backend().get('v1', 'ConfigMap', name), undefined, 'a dry run stores nothing');
      const bogus = await raw(kc, 'POST', `${CONFIG_MAPS}?dryRun=Bogus`, body);
      assert.deepEqual(summary(bogus), { status: 422, reason: 'Invalid', message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Bogus"]: supported values: "All"' });
      await backend().create(JSON.parse(body));
      assert.equal((await raw(kc, 'DELETE', `${CONFIG_MAPS}/${name}?dryRun=All`)).status, 200);
      assert.ok((await backend().get('v1', 'ConfigMap', name)) !== undefined, 'a dry-run delete deletes nothing');
      const policy = await raw(kc, 'DELETE', `${CONFIG_MAPS}/${name}?propagationPolicy=Bogus`);
      assert.deepEqual(summary(policy), {
        status: 422,
        reason: 'Invalid',
        message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"',
      });
      assert.ok((await backend().get('v1', 'ConfigMap', name)) !== undefined);
    });

    test('a fieldManager over 128 bytes is 422 on the options; a PATCH of no patch type is 415, bare for a built-in kind', async () => {
      const kc = backend().kubeConfig;
      const name = unique('qp-manager');
      const long = 'm'.repeat(129);
      const created = await raw(kc, 'POST', `${CONFIG_MAPS}?fieldManager=${long}`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }));
      const message = 'Too long: may not be more than 128 bytes';
      assert.deepEqual(
        { status: created.status, message: created.body['message'], details: created.body['details'] },
        {
          status: 422,
          message: `CreateOptions.meta.k8s.io "" is invalid: fieldManager: ${message}`,
          details: { group: 'meta.k8s.io', kind: 'CreateOptions', causes: [{ reason: 'FieldValueTooLong', message, field: 'fieldManager' }] },
        },
      );
      assert.equal((await raw(kc, 'POST', CONFIG_MAPS, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }))).status, 201);
      const patched = await raw(kc, 'PATCH', `${CONFIG_MAPS}/${name}?fieldManager=${long}`, '{"data":{"a":"b"}}', 'application/merge-patch+json');
      assert.deepEqual({ status: patched.status, message: patched.body['message'] }, { status: 422, message: `PatchOptions.meta.k8s.io "" is invalid: fieldManager: ${message}` });

      for (const type of ['application/json', 'text/plain']) {
        const answer = await raw(kc, 'PATCH', `${CONFIG_MAPS}/${name}`, '{"data":{"a":"b"}}', type);
        assert.deepEqual(
          { status: answer.status, reason: answer.body['reason'], message: answer.body['message'], details: answer.body['details'] },
          { status: 415, reason: 'UnsupportedMediaType', message: '415: Unsupported Media Type', details: {} },
          type,
        );
      }
    });
  });
}
