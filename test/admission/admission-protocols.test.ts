// Protocol clients where external calls are declared but no client can make them: createRuntime and
// createAdmissionRouter refuse, naming the call, the protocol and the option, before anything starts; bad
// externalProtocols values are option errors. With the host's client the admission router makes the rules' calls
// (within the request's budget) and router.close() closes the client.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { createAdmissionRouter, createRuntime, RuntimeError, type ExternalProtocolClient, type ExternalProtocolRequest } from '../../src/index.js';

const definition = (where: 'box' | 'validation' | 'mutation', protocol = 'mongo') => {
  const call = `{ name: docs, protocol: ${protocol}, url: "mongodb://m:27017", query: "app.stores" }`;
  return parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: shop }
spec:
  crds:
    store:
      apiTypes: { group: shop.example.io, version: v1, kind: Store, plural: stores }
${where === 'box' ? `      operatorBox:\n        external: [${call}]\n` : `      ${where}:\n        external: [${call}]\n`}${where === 'validation' ? '        rules:\n          - { field: "{{ .external.docs.count }}", equals: "0", message: "a store of that name exists" }\n' : ''}${where === 'mutation' ? '        rules: []\n' : ''}`);
};

function review(name: string): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u-1', kind: { group: 'shop.example.io', version: 'v1', kind: 'Store' }, resource: { group: 'shop.example.io', version: 'v1', resource: 'stores' }, name, namespace: 'shop', operation: 'CREATE', object: { metadata: { name }, spec: {} } },
  });
}

describe('a call without a protocol client', () => {
  test('createRuntime refuses, naming the call, the protocol and the option; validation.external counts (it runs at reconcile too)', () => {
    for (const where of ['box', 'validation'] as const) {
      assert.throws(
        () => createRuntime(definition(where)),
        (error: unknown) =>
          error instanceof RuntimeError &&
          error.code === 'E_OPTIONS' &&
          error.message.includes(`spec.crds.store.${where === 'box' ? 'operatorBox' : 'validation'}.external: call "docs" uses protocol mongo`) &&
          error.message.includes('externalProtocols.mongo option'),
      );
    }
    const client: ExternalProtocolClient = { fetch: () => Promise.resolve({ result: '', error: '' }) };
    assert.doesNotThrow(() => createRuntime(definition('box'), { externalProtocols: { mongo: client } }));
    assert.doesNotThrow(() => createRuntime(definition('box', 'redis')), 'redis has a built-in client');
    assert.doesNotThrow(() => createRuntime(definition('mutation')), 'mutation.external is the admission router\'s only');
  });

  test('createAdmissionRouter refuses the same for the rules\' calls', () => {
    assert.throws(() => createAdmissionRouter(definition('mutation', 'kafka')), /spec\.crds\.store\.mutation\.external: call "docs" uses protocol kafka.*externalProtocols\.kafka option/s);
    assert.doesNotThrow(() => createAdmissionRouter(definition('box', 'kafka')), 'the router makes no reconcile calls');
  });

  test('bad externalProtocols values are option errors', () => {
    const client: ExternalProtocolClient = { fetch: () => Promise.resolve({}) };
    assert.throws(() => createRuntime(definition('box', 'redis'), { externalProtocols: { nats: client } }), /externalProtocols\.nats: katalog makes no "nats" calls/);
    assert.throws(() => createRuntime(definition('box', 'redis'), { externalProtocols: { mongo: {} as ExternalProtocolClient } }), /externalProtocols\.mongo: must be an object with a fetch\(request\) method/);
    assert.throws(() => createAdmissionRouter(definition('box'), { externalProtocols: { grpc: client } }), /externalProtocols\.grpc/);
  });
});

test("the admission router makes a rule's call with the host's client, cut to the budget; close() closes the client", async () => {
  const seen: ExternalProtocolRequest[] = [];
  let closed = 0;
  const mongo: ExternalProtocolClient = {
    fetch: (request) => {
      seen.push(request);
      const count = request.url.includes('m:27017') ? '1' : '0';
      return Promise.resolve({ result: '', documents: [], count, error: '', called: 'true' });
    },
    close: () => {
      closed += 1;
      return Promise.resolve();
    },
  };
  const router = createAdmissionRouter(definition('validation'), { externalProtocols: { mongo }, externalBudgetMs: 1500 });
  const response = await router.request('/validate', { method: 'POST', body: review('corner'), headers: { 'content-type': 'application/json' } });
  const body = (await response.json()) as { response: { allowed: boolean; status?: { message: string } } };
  assert.equal(body.response.allowed, false);
  assert.match(body.response.status?.message ?? '', /a store of that name exists/);
  assert.equal(seen[0]?.query, 'app.stores');
  assert.ok((seen[0]?.timeoutMs ?? Infinity) <= 1500, `the call's timeout was cut to the budget: ${seen[0]?.timeoutMs}`);
  await router.close();
  assert.equal(closed, 1);
});
