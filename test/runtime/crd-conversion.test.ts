// The CRD's spec.conversion for the conversion router (conversionWebhookSpec) and what installCrds writes into a
// crdFile's manifest (withConversionWebhook): the router's /convert URL or Service path, the CA base64-encoded,
// review version v1; https only; the manifest's storage version must be the entry's conversion.storageVersion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { createRuntime, conversionWebhookSpec, KatalogError, RuntimeError } from '../../src/index.js';
import { withConversionWebhook } from '../../src/runtime/crd-conversion.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

test('a URL: <url>/convert with the CA base64-encoded; a Service: its path + /convert', () => {
  assert.deepEqual(conversionWebhookSpec({ url: 'https://127.0.0.1:9443/conversion/', caBundle: PEM }), {
    strategy: 'Webhook',
    webhook: { clientConfig: { url: 'https://127.0.0.1:9443/conversion/convert', caBundle: Buffer.from(PEM).toString('base64') }, conversionReviewVersions: ['v1'] },
  });
  assert.deepEqual(conversionWebhookSpec({ service: { name: 'web', namespace: 'ops', port: 9443, path: '/conversion' } }), {
    strategy: 'Webhook',
    webhook: { clientConfig: { service: { name: 'web', namespace: 'ops', path: '/conversion/convert', port: 9443 } }, conversionReviewVersions: ['v1'] },
  });
});

test('http, neither or both of url and service: a KatalogError saying which; the runtime refuses such options', () => {
  assert.throws(() => conversionWebhookSpec({ url: 'http://x/conversion' }), (e: unknown) => e instanceof KatalogError && /must start with https:\/\//.test(e.message));
  assert.throws(() => conversionWebhookSpec({}), /give exactly one of url and service/);
  assert.throws(() => conversionWebhookSpec({ url: 'https://x', service: { name: 'a', namespace: 'b' } }), /give exactly one of url and service/);
  const definition = parseDefinition('apiVersion: katalog.dev/v1\nkind: Katalog\nmetadata: { name: t }\nspec:\n  crds:\n    w: { apiTypes: { group: g.io, version: v1, kind: W, plural: ws } }\n');
  assert.throws(() => createRuntime(definition, { conversionWebhook: { url: 'http://x' } }), (e: unknown) => e instanceof RuntimeError && /conversionWebhook: conversion webhook: url must start with https/.test(e.message));
});

test("what the API server refuses in a conversion webhook's Service or URL is refused first, naming the field", () => {
  const refused = (options: Parameters<typeof conversionWebhookSpec>[0], message: string): void => {
    assert.throws(() => conversionWebhookSpec(options), (e: unknown) => e instanceof KatalogError && e.message === message);
  };
  refused({ service: { name: 'w', namespace: 'n', port: 0 } }, 'conversion webhook: service.port must be an integer from 1 to 65535 (the API server refuses it), got 0');
  refused({ service: { name: 'w', namespace: 'n', path: 'convert' } }, "conversion webhook: service.path must start with a '/' (the API server refuses it), got \"convert\"");
  refused({ service: { name: '', namespace: 'n' } }, 'conversion webhook: service.name must not be empty (the API server refuses it), got ""');
  refused({ url: 'https://h.example.com/c?x=1' }, 'conversion webhook: url must have no query or fragment (the API server refuses it), got "https://h.example.com/c?x=1"');
});

const definition = parseDefinition(`
apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: t }
spec:
  crds:
    website:
      apiTypes: { group: demo.io, version: v1, kind: Website, plural: websites }
      conversion: { storageVersion: v1, paths: [{ from: v1alpha1, to: v1, spec: {} }, { from: v1, to: v1alpha1, spec: {} }] }
    plain:
      apiTypes: { group: demo.io, version: v1, kind: Plain, plural: plains }
`);

const manifest = (storage: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'websites.demo.io' },
  spec: { group: 'demo.io', versions: [{ name: 'v1alpha1', served: true, storage: storage === 'v1alpha1' }, { name: 'v1', served: true, storage: storage === 'v1' }] },
});

test('installCrds: spec.conversion is written for an entry with conversion, only when the option is given', () => {
  const website = definition.crds.get('website');
  const plain = definition.crds.get('plain');
  assert.ok(website !== undefined && plain !== undefined);
  const written = withConversionWebhook(manifest('v1'), website, { url: 'https://h/c' });
  assert.deepEqual((written['spec'] as Record<string, unknown>)['conversion'], conversionWebhookSpec({ url: 'https://h/c' }));
  assert.deepEqual(withConversionWebhook(manifest('v1'), website, undefined), manifest('v1'));
  assert.deepEqual(withConversionWebhook(manifest('v1'), plain, { url: 'https://h/c' }), manifest('v1'));
});

test('installCrds: a manifest that stores another version than conversion.storageVersion is an install error', () => {
  const website = definition.crds.get('website');
  assert.ok(website !== undefined);
  assert.throws(
    () => withConversionWebhook(manifest('v1alpha1'), website, { url: 'https://h/c' }),
    (e: unknown) => e instanceof RuntimeError && e.code === 'E_INSTALL' && /conversion\.storageVersion is v1 but crdFile \? stores v1alpha1/.test(e.message),
  );
});
