// A server-side apply is checked against the schema of the version it is sent in, and every problem is named (the
// conformance suite, test/conformance/typed-apply.ts, holds the messages against kube-apiserver, one problem each).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

let server: TestApiServer;

const schema = (field: string): Record<string, unknown> => ({
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { [field]: { type: 'integer' }, template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } } },
      },
    },
  },
});

before(async () => {
  server = await startTestApiServer();
  server.applyCrd({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema('old') },
        { name: 'v2', served: true, storage: false, schema: schema('new') },
      ],
    },
  });
  await server.settled();
});

after(async () => {
  await server.stop();
});

async function apply(path: string, body: Record<string, unknown>): Promise<{ status: number; message: unknown }> {
  const response = await fetch(`${server.url}${path}?fieldManager=test`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/apply-patch+yaml' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { message?: unknown };
  return { status: response.status, message: answer.message };
}

test('an apply is checked against the schema of the version it is sent in', async () => {
  const path = '/apis/example.com/v2/namespaces/default/gizmos/g1';
  const refused = await apply(path, { apiVersion: 'example.com/v2', kind: 'Gizmo', metadata: { name: 'g1' }, spec: { old: 1 } });
  assert.deepEqual(refused, { status: 500, message: 'failed to create typed patch object (/g1; example.com/v2, Kind=Gizmo): .spec.old: field not declared in schema' });
  const applied = await apply(path, { apiVersion: 'example.com/v2', kind: 'Gizmo', metadata: { name: 'g1' }, spec: { new: 1 } });
  assert.equal(applied.status, 201, String(applied.message));
});

test('problems in several objects are all named, each on its own line', async () => {
  const answer = await apply('/apis/example.com/v1/namespaces/default/gizmos/g2', {
    apiVersion: 'example.com/v1',
    kind: 'Gizmo',
    metadata: { name: 'g2', namespace: 'default', labels: { tier: 1 } },
    spec: { old: 'x' },
    extra: true,
  });
  assert.equal(answer.status, 500);
  assert.equal(
    answer.message,
    [
      'failed to create typed patch object (default/g2; example.com/v1, Kind=Gizmo): errors:',
      '  .metadata.labels.tier: expected string, got &value.valueUnstructured{Value:1}',
      '  .spec.old: expected numeric (int or float), got string',
      '  .extra: field not declared in schema',
    ].join('\n'),
  );
  assert.equal(server.get('example.com/v1', 'Gizmo', 'g2'), undefined, 'nothing stored');
});

test("a Secret's data and stringData must be strings; a Deployment is open below its top level", async () => {
  const secret = await apply('/api/v1/namespaces/default/secrets/s1', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { port: 8080 } });
  assert.deepEqual(secret, { status: 500, message: 'failed to create typed patch object (/s1; /v1, Kind=Secret): .stringData.port: expected string, got &value.valueUnstructured{Value:8080}' });
  const deployment = await apply('/apis/apps/v1/namespaces/default/deployments/d1', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd1' },
    spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
  });
  assert.equal(deployment.status, 201, String(deployment.message));
});

test('kinds without spec and status keep their own top-level fields: a PriorityClass is applied and created whole', async () => {
  const applied = await apply('/apis/scheduling.k8s.io/v1/priorityclasses/batch', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'batch' }, value: 1000, description: 'batch' });
  assert.equal(applied.status, 201, String(applied.message));
  const created = await fetch(`${server.url}/apis/storage.k8s.io/v1/storageclasses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'example.io/disk', reclaimPolicy: 'Retain' }),
  });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get('warning'), null, 'no field called unknown');
  assert.equal(((await created.json()) as { provisioner?: unknown }).provisioner, 'example.io/disk', 'not pruned');
});

test("a field named like an Object method is not taken for a declared one, in an embedded resource too", async () => {
  const body = (spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g3' }, spec });
  const path = '/apis/example.com/v1/namespaces/default/gizmos/g3';
  const prefix = 'failed to create typed patch object (/g3; example.com/v1, Kind=Gizmo): ';
  assert.deepEqual(await apply(path, body({ toString: 1 })), { status: 500, message: `${prefix}.spec.toString: field not declared in schema` });
  assert.deepEqual(await apply(path, body({ template: { apiVersion: 'v1', kind: 'X', constructor: 1 } })), { status: 500, message: `${prefix}.spec.template.constructor: field not declared in schema` });
});
