// A CRD whose versions' schemas differ, through the direct (HTTP-less) methods: they store and read what the HTTP
// API does (the HTTP behaviour is pinned on both servers by test/conformance/version-schemas.ts), and a schema
// changed by a later apply of the CRD is the one pruned to. A CRD converting through a webhook is read and written
// directly only in its storage version.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

const GROUP = 'versions.example.com';
const spec = (properties: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties: { spec: { type: 'object', properties } } });
const crd = (betaProperties: Record<string, unknown>): Record<string, unknown> =>
  crdManifest({
    group: GROUP,
    kind: 'Dial',
    plural: 'dials',
    versions: [
      { name: 'v1beta1', schema: spec(betaProperties) },
      { name: 'v1', storage: true, schema: spec({ size: { type: 'integer' }, mode: { type: 'string' } }) },
    ],
  });

describe('versions whose schemas differ, through direct access', () => {
  let server: TestApiServer;

  before(async () => {
    server = await startTestApiServer();
  });
  after(() => server.stop());

  test('a create and a read in v1beta1 keep what each version declares', async () => {
    server.applyCrd(crd({ count: { type: 'integer' }, mode: { type: 'string' } }));
    await server.settled();
    server.create({ apiVersion: `${GROUP}/v1`, kind: 'Dial', metadata: { name: 'a' }, spec: { size: 3, mode: 'slow' } });
    assert.deepEqual(server.get(`${GROUP}/v1beta1`, 'Dial', 'a')?.['spec'], { mode: 'slow' });
    const created = server.create({ apiVersion: `${GROUP}/v1beta1`, kind: 'Dial', metadata: { name: 'b' }, spec: { count: 4, mode: 'fast' } });
    assert.deepEqual(created['spec'], { mode: 'fast' });
    assert.deepEqual(server.get(`${GROUP}/v1`, 'Dial', 'b')?.['spec'], { mode: 'fast' });
    // A status write in v1beta1 keeps the stored spec as v1beta1 holds it: size is lost.
    server.patch(`${GROUP}/v1beta1`, 'Dial', 'a', { metadata: { labels: { x: 'y' } } });
    assert.deepEqual(server.get(`${GROUP}/v1`, 'Dial', 'a')?.['spec'], { mode: 'slow' });
  });

  test('once the CRD gives v1beta1 the same schema as v1, nothing is pruned between them', async () => {
    server.applyCrd(crd({ size: { type: 'integer' }, mode: { type: 'string' } }));
    await server.settled();
    server.create({ apiVersion: `${GROUP}/v1`, kind: 'Dial', metadata: { name: 'c' }, spec: { size: 5, mode: 'slow' } });
    assert.deepEqual(server.get(`${GROUP}/v1beta1`, 'Dial', 'c')?.['spec'], { size: 5, mode: 'slow' });
    server.patch(`${GROUP}/v1beta1`, 'Dial', 'c', { spec: { size: 6 } });
    assert.deepEqual(server.get(`${GROUP}/v1`, 'Dial', 'c')?.['spec'], { size: 6, mode: 'slow' });
  });
});

describe('a CRD converting through a webhook, through direct access', () => {
  let server: TestApiServer;

  before(async () => {
    server = await startTestApiServer();
  });
  after(() => server.stop());

  test('the storage version is served; another version is refused, saying why, and nothing is written', async () => {
    server.applyCrd(
      crdManifest({
        group: 'hooked.example.com',
        kind: 'Gear',
        plural: 'gears',
        versions: [{ name: 'v1beta1' }, { name: 'v1', storage: true }],
        conversionWebhook: { url: 'https://127.0.0.1:9/convert', caBundle: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' },
      }),
    );
    await server.settled();
    server.create({ apiVersion: 'hooked.example.com/v1', kind: 'Gear', metadata: { name: 'g' }, spec: { teeth: 12 } });
    assert.deepEqual(server.get('hooked.example.com/v1', 'Gear', 'g')?.['spec'], { teeth: 12 });
    const refused = /Gear in hooked\.example\.com\/v1beta1 converts through its CRD's conversion webhook, which the direct methods do not call: use hooked\.example\.com\/v1 \(the storage version\), or the HTTP API/;
    assert.throws(() => server.get('hooked.example.com/v1beta1', 'Gear', 'g'), refused);
    assert.throws(() => server.create({ apiVersion: 'hooked.example.com/v1beta1', kind: 'Gear', metadata: { name: 'h' }, spec: {} }), refused);
    assert.throws(() => server.patch('hooked.example.com/v1beta1', 'Gear', 'g', { spec: { teeth: 1 } }), refused);
    assert.equal(server.get('hooked.example.com/v1', 'Gear', 'h'), undefined);
    assert.deepEqual(server.get('hooked.example.com/v1', 'Gear', 'g')?.['spec'], { teeth: 12 });
  });
});
