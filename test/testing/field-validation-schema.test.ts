// fieldValidation follows a CRD's schema as it changes: the server keeps each version's schema node between
// requests (known-fields.ts), and an updated CRD must be checked against its new schema at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiextensionsV1Api, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

let server: TestApiServer;
let crds: ApiextensionsV1Api;

function gizmoCrd(specFields: readonly string[]): V1CustomResourceDefinition {
  const properties = Object.fromEntries(specFields.map((field) => [field, { type: 'string' }]));
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } } } }],
    },
  };
}

/** A merge patch of the Gizmo; answers the Warning headers and the stored spec. */
async function patchSpec(spec: Record<string, string>): Promise<{ warnings: string[]; spec: unknown }> {
  const response = await fetch(`${server.url}/apis/example.com/v1/namespaces/default/gizmos/g1`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ spec }),
  });
  assert.equal(response.status, 200);
  const body = (await response.json()) as { spec?: unknown };
  return { warnings: response.headers.get('warning')?.split(', ') ?? [], spec: body.spec };
}

before(async () => {
  server = await startTestApiServer();
  crds = server.kubeConfig.makeApiClient(ApiextensionsV1Api);
  await crds.createCustomResourceDefinition({ body: gizmoCrd(['size']) });
  await server.settled();
  server.create({ apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g1', namespace: 'default' }, spec: { size: 'S' } });
});
after(() => server.stop());

test('a field the schema does not declare is pruned with a warning, and kept once an updated CRD declares it', async () => {
  const first = await patchSpec({ colour: 'red' });
  assert.deepEqual(first.warnings, ['299 - "unknown field \\"spec.colour\\""']);
  assert.deepEqual(first.spec, { size: 'S' });

  const current = await crds.readCustomResourceDefinition({ name: 'gizmos.example.com' });
  await crds.replaceCustomResourceDefinition({ name: 'gizmos.example.com', body: { ...gizmoCrd(['size', 'colour']), metadata: { ...current.metadata, name: 'gizmos.example.com' } } });
  await server.settled();

  const second = await patchSpec({ colour: 'red' });
  assert.deepEqual(second.warnings, []);
  assert.deepEqual(second.spec, { size: 'S', colour: 'red' });
});
