// The admission router without a port (app.request): AdmissionReview in, AdmissionReview out; Orkestra's
// denial message and code, the JSONPatch of mutation rules, deletion protection, and clear errors for bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { createAdmissionRouter, DELETION_PROTECTION_LABEL } from '../../src/index.js';

const definition = parseDefinition(`
apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: shop }
spec:
  security: { deletionProtection: { enabled: true } }
  crds:
    store:
      apiTypes: { group: shop.example.io, version: v1, kind: Store, plural: stores }
      validation:
        rules:
          - { field: spec.image, prefix: "myorg/", message: "image must be from myorg registry" }
          - { field: metadata.labels.team, message: "declare a team", action: warn }
      mutation:
        rules:
          - { field: spec.config.logLevel, default: info }
          - { field: spec.owner, override: "{{ .metadata.name }}-owner" }
`);

const router = createAdmissionRouter(definition);

function review(operation: string, object: unknown, oldObject: unknown = null): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u-1', kind: { group: 'shop.example.io', version: 'v1', kind: 'Store' }, resource: { group: 'shop.example.io', version: 'v1', resource: 'stores' }, name: 'main', namespace: 'shop', operation, object, oldObject },
  });
}

async function post(path: string, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await router.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

test('validate: a deny rule refuses with Orkestra\'s message, code 400 and a cause per rule; warn rules are warnings', async () => {
  const { status, json } = await post('/validate', review('CREATE', { metadata: { name: 'main' }, spec: { image: 'docker.io/evil:1' } }));
  assert.equal(status, 200);
  const response = json.response as { uid: string; allowed: boolean; status: { code: number; message: string; details: unknown }; warnings: string[] };
  assert.equal(response.uid, 'u-1');
  assert.equal(response.allowed, false);
  assert.equal(response.status.code, 400);
  assert.equal(response.status.message, '\n\n[Orkestra Validation] validation failed\n\nStore/main/shop was blocked due to the following policies:\n field "spec.image": image must be from myorg registry\n\n');
  assert.ok(!response.status.message.includes('docker.io'), 'never the value');
  assert.deepEqual(response.status.details, { causes: [{ reason: 'FieldValueInvalid', field: 'spec.image', message: 'image must be from myorg registry' }] });
  assert.deepEqual(response.warnings, ['orkestra: field "metadata.labels.team": declare a team']);
});

test('validate: a valid object is allowed', async () => {
  const { json } = await post('/validate', review('UPDATE', { metadata: { name: 'main', labels: { team: 'a' } }, spec: { image: 'myorg/app:1' } }));
  assert.deepEqual(json.response, { uid: 'u-1', allowed: true });
});

test('mutate: defaults and overrides as a base64 JSONPatch, parents created; the protection label on CREATE', async () => {
  const { json } = await post('/mutate', review('CREATE', { metadata: { name: 'main' }, spec: { image: 'myorg/app:1' } }));
  const response = json.response as { allowed: boolean; patchType: string; patch: string };
  assert.equal(response.patchType, 'JSONPatch');
  assert.deepEqual(JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8')), [
    { op: 'add', path: '/spec/config', value: {} },
    { op: 'add', path: '/spec/config/logLevel', value: 'info' },
    { op: 'add', path: '/spec/owner', value: 'main-owner' },
    { op: 'add', path: '/metadata/labels', value: { [DELETION_PROTECTION_LABEL]: 'true' } },
  ]);
});

test('deletion protection: DELETE of a labelled object is refused (403), of an unlabelled one allowed', async () => {
  const labelled = await post('/validate', review('DELETE', null, { metadata: { name: 'main', labels: { [DELETION_PROTECTION_LABEL]: 'true' } } }));
  const refused = labelled.json.response as { allowed: boolean; status: { code: number; message: string } };
  assert.equal(refused.allowed, false);
  assert.equal(refused.status.code, 403);
  assert.match(refused.status.message, /^\[Orkestra Deletion Protection\] Store\/main in namespace shop is protected from deletion/);
  const plain = await post('/validate', review('DELETE', null, { metadata: { name: 'main' } }));
  assert.equal((plain.json.response as { allowed: boolean }).allowed, true);
});

test('a resource without rules is allowed unchanged', async () => {
  const body = review('CREATE', { metadata: { name: 'x' } }).replaceAll('"stores"', '"carts"');
  const { json } = await post('/mutate', body);
  assert.deepEqual(json.response, { uid: 'u-1', allowed: true });
});

test('bad input is a 400 that says what is wrong; other methods 405; other paths 404', async () => {
  assert.equal((await post('/validate', 'not json')).status, 400);
  const wrong = await post('/validate', JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview' }));
  assert.equal(wrong.status, 400);
  assert.match(String(wrong.json.message), /expected apiVersion admission\.k8s\.io\/v1/);
  assert.equal((await router.request('/validate')).status, 405);
  assert.equal((await router.request('/nowhere', { method: 'POST' })).status, 404);
});
