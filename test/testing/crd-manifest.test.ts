// crdManifest(): a CRD a test can install without YAML, served as declared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crdManifest, startTestApiServer } from '../../src/testing/index.js';

test('crdManifest installs a servable CRD: versions, storage and the status subresource as declared', async () => {
  const server = await startTestApiServer();
  try {
    server.applyCrd(crdManifest({ group: 'fruit.io', kind: 'Apple', plural: 'apples', shortNames: ['ap'], versions: [{ name: 'v1beta1', status: false }, { name: 'v1', storage: true }] }));
    const discovery = async (version: string): Promise<string[]> => {
      const body = (await (await fetch(`${server.url}/apis/fruit.io/${version}`)).json()) as { resources: Array<{ name: string }> };
      return body.resources.map((resource) => resource.name);
    };
    assert.deepEqual(await discovery('v1'), ['apples', 'apples/status']);
    assert.deepEqual(await discovery('v1beta1'), ['apples']);
    const stored = server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'apples.fruit.io') as { status?: { storedVersions?: string[] } } | undefined;
    assert.deepEqual(stored?.status?.storedVersions, ['v1']);
    server.create({ apiVersion: 'fruit.io/v1', kind: 'Apple', metadata: { name: 'a', namespace: 'default' }, spec: { anything: { goes: true } } });
    assert.deepEqual((server.get('fruit.io/v1', 'Apple', 'a', 'default') as { spec: unknown }).spec, { anything: { goes: true } }, 'the open schema keeps every field');
  } finally {
    await server.stop();
  }
});

test("crdManifest with a version's schema validates and prunes by it; a conversion webhook is written as the API server reads it", async () => {
  const server = await startTestApiServer();
  try {
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1 } } } } };
    const webhook = { url: 'https://127.0.0.1:9443/convert', caBundle: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' };
    const manifest = crdManifest({ group: 'fruit.io', kind: 'Pear', plural: 'pears', versions: [{ name: 'v1', schema }] });
    server.applyCrd(manifest);
    // Over HTTP, as a client writes it: the body is decoded, an unknown field pruned.
    const created = await fetch(`${server.url}/apis/fruit.io/v1/namespaces/default/pears`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'fruit.io/v1', kind: 'Pear', metadata: { name: 'p' }, spec: { size: 2, unknown: true } }) });
    assert.equal(created.status, 201);
    assert.deepEqual((server.get('fruit.io/v1', 'Pear', 'p', 'default') as { spec: unknown }).spec, { size: 2 }, 'an unknown field is pruned');
    assert.throws(() => server.create({ apiVersion: 'fruit.io/v1', kind: 'Pear', metadata: { name: 'q', namespace: 'default' }, spec: { size: 0 } }), /spec\.size: Invalid value: 0: spec\.size in body should be greater than or equal to 1/);
    const converted = crdManifest({ group: 'fruit.io', kind: 'Plum', plural: 'plums', versions: [{ name: 'v1beta1' }, { name: 'v1', storage: true }], conversionWebhook: webhook }) as { spec: { conversion: unknown } };
    assert.deepEqual(converted.spec.conversion, {
      strategy: 'Webhook',
      webhook: { clientConfig: { url: webhook.url, caBundle: Buffer.from(webhook.caBundle).toString('base64') }, conversionReviewVersions: ['v1'] },
    });
    schema.properties.spec.properties.size.minimum = 5;
    assert.equal(((manifest as { spec: { versions: Array<{ schema: { openAPIV3Schema: typeof schema } }> } }).spec.versions[0]?.schema.openAPIV3Schema.properties.spec.properties.size.minimum), 1, 'the manifest keeps its own copy of the schema');
  } finally {
    await server.stop();
  }
});
