// PATCH in a version other than the storage version of a CRD that converts through a webhook, as kube-apiserver
// does it (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go): the test API server converts the stored
// v1 Website to v1alpha1, applies the patch there, converts the result back to v1 and stores it; the answer is in
// v1alpha1. Through the real client-node: a merge patch, a JSON patch, server-side apply (create and update, with
// its field manager), a patch of the status subresource, a strategic merge patch (415, as for any custom resource),
// a webhook that fails (500 in kube-apiserver's shape, nothing written), and watches in each version that see the
// patched object in their own version. The webhook is the definition's conversion router, over https as a CRD's
// conversion webhook must be.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CustomObjectsApi, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import { Hono } from 'hono';
import { parse } from 'yaml';
import { loadDefinition } from '../../src/definition/index.js';
import { createConversionRouter, listen, type ConversionOutcome, type ListeningServer } from '../../src/index.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { waitFor } from '../support/cluster.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'demo.orkestra.io';
const PLURAL = 'websites';
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const json = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

type Json = Record<string, unknown> & { metadata: Record<string, unknown>; spec: Record<string, unknown>; status?: Record<string, unknown> };

function statusOf(error: unknown): { code: number; message: string } {
  const body = (error as { body?: unknown }).body;
  return (typeof body === 'string' ? JSON.parse(body) : body) as { code: number; message: string };
}

describe('PATCH in a non-storage version of a webhook-converted CRD', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  let server: TestApiServer;
  let webhook: ListeningServer;
  let objects: CustomObjectsApi;
  const outcomes: ConversionOutcome[] = [];
  const at = (version: string) => ({ group: GROUP, version, namespace: 'default', plural: PLURAL });
  const stored = (name: string): Json | undefined => server.get(`${GROUP}/v1`, 'Website', name, 'default') as Json | undefined;
  const createV1 = (name: string, spec: Record<string, unknown>): Promise<unknown> =>
    objects.createNamespacedCustomObject({ ...at('v1'), body: { apiVersion: `${GROUP}/v1`, kind: 'Website', metadata: { name }, spec } });

  before(async () => {
    server = await startTestApiServer();
    const definition = await loadDefinition('test/fixtures/conversion/katalog.yaml');
    const tls = await selfSignedCertificate();
    webhook = await listen(new Hono().route('/conversion', createConversionRouter(definition, { onConversion: (outcome) => outcomes.push(outcome) })), { port: 0, hostname: '127.0.0.1', tls });
    const crd = parse(readFileSync('test/fixtures/conversion/website-crd.yaml', 'utf8')) as { spec: Record<string, unknown> };
    const caBundle = Buffer.from(tls.cert).toString('base64');
    crd.spec['conversion'] = { strategy: 'Webhook', webhook: { clientConfig: { url: `${webhook.url}/conversion/convert`, caBundle }, conversionReviewVersions: ['v1'] } };
    server.applyCrd(crd);
    objects = server.kubeConfig.makeApiClient(CustomObjectsApi);
  });
  after(async () => {
    await webhook.close();
    await server.stop();
  });

  test('a merge patch in v1alpha1 is applied to the v1alpha1 form, stored as v1, answered in v1alpha1', async () => {
    await createV1('blog', { image: 'blog:1', replicas: 2, seo: { enabled: true } });
    const reviews = outcomes.length;
    const answered = (await objects.patchNamespacedCustomObject({ ...at('v1alpha1'), name: 'blog', body: { spec: { image: 'blog:2' } } }, merge)) as Json;
    assert.equal(answered.apiVersion, `${GROUP}/v1alpha1`);
    assert.deepEqual(answered.spec, { image: 'blog:2', replicas: 2, theme: 'default' });
    // The v1alpha1 form has no seo: the path back to v1 writes its own (seo.enabled false), as the webhook says.
    assert.deepEqual(stored('blog')?.spec, { image: 'blog:2', replicas: 2, seo: { enabled: false } });
    assert.equal(stored('blog')?.['apiVersion'], `${GROUP}/v1`, 'stored at the storage version');
    assert.deepEqual(
      outcomes.slice(reviews).map((o) => o.desiredAPIVersion),
      [`${GROUP}/v1alpha1`, `${GROUP}/v1`, `${GROUP}/v1`, `${GROUP}/v1alpha1`],
      'down to patch, up to compare the v1 managedFields entry in v1, up to store, down to answer',
    );
  });

  test('a JSON patch in v1alpha1, and a patch of the status subresource there', async () => {
    await createV1('shop', { image: 'shop:1', replicas: 1 });
    await objects.patchNamespacedCustomObject({ ...at('v1alpha1'), name: 'shop', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] }, json);
    assert.equal(stored('shop')?.spec['replicas'], 3);
    const status = (await objects.patchNamespacedCustomObjectStatus({ ...at('v1alpha1'), name: 'shop', body: { status: { phase: 'Ready' } } }, merge)) as Json;
    assert.deepEqual(status.status, { phase: 'Ready' });
    assert.deepEqual(stored('shop')?.status, { phase: 'Ready' });
    assert.equal(stored('shop')?.spec['replicas'], 3, 'the status patch leaves the spec');
  });

  test('server-side apply in v1alpha1 creates and updates; the field manager owns what it applied', async () => {
    const body = (image: string): Record<string, unknown> => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Website', metadata: { name: 'docs', namespace: 'default' }, spec: { image, replicas: 1, theme: 'default' } });
    const created = (await objects.patchNamespacedCustomObject({ ...at('v1alpha1'), name: 'docs', body: body('docs:1'), fieldManager: 'tester' }, apply)) as Json;
    assert.equal(created.apiVersion, `${GROUP}/v1alpha1`);
    assert.deepEqual(stored('docs')?.spec, { image: 'docs:1', replicas: 1, seo: { enabled: false } });
    await objects.patchNamespacedCustomObject({ ...at('v1alpha1'), name: 'docs', body: body('docs:2'), fieldManager: 'tester' }, apply);
    assert.equal(stored('docs')?.spec['image'], 'docs:2');
    const managers = ((stored('docs')?.metadata['managedFields'] ?? []) as Array<{ manager: string; operation: string }>).map((entry) => `${entry.manager}/${entry.operation}`);
    assert.ok(managers.includes('tester/Apply'), managers.join(' '));
  });

  test('a strategic merge patch is a 415, as for every custom resource', async () => {
    await assert.rejects(objects.patchNamespacedCustomObject({ ...at('v1alpha1'), name: 'blog', body: { spec: { image: 'x' } } }, strategic), (e: unknown) => statusOf(e).code === 415);
  });

  test('a conversion that fails is a 500 in kube-apiserver\'s words, and nothing is written', async () => {
    const before = stored('blog');
    const error = await objects.patchNamespacedCustomObject({ ...at('v1alpha1'), name: 'blog', body: { spec: { replicas: 'many' } } }, merge).then(
      () => assert.fail('expected the patch to fail'),
      (e: unknown) => e,
    );
    const status = statusOf(error);
    assert.equal(status.code, 500);
    assert.match(status.message, /^Internal error occurred: conversion webhook for demo\.orkestra\.io\/v1alpha1, Kind=Website failed: converting spec from v1alpha1 to v1: /);
    assert.deepEqual(stored('blog'), before, 'nothing stored');
  });

  test('watches in v1 and in v1alpha1 each see the patched object in their own version', async () => {
    const seen: Record<string, Json[]> = { v1: [], v1alpha1: [] };
    const watches = await Promise.all(
      (['v1', 'v1alpha1'] as const).map((version) =>
        new Watch(server.kubeConfig).watch(`/apis/${GROUP}/${version}/namespaces/default/${PLURAL}`, { fieldSelector: 'metadata.name=blog' }, (type, object: Json) => {
          if (type === 'MODIFIED') seen[version]?.push(object);
        }, () => undefined),
      ),
    );
    try {
      await objects.patchNamespacedCustomObject({ ...at('v1alpha1'), name: 'blog', body: { spec: { image: 'blog:3' } } }, merge);
      const [v1, alpha] = await waitFor('the MODIFIED event in both watches', () => (seen['v1']?.[0] !== undefined && seen['v1alpha1']?.[0] !== undefined ? [seen['v1'][0], seen['v1alpha1'][0]] : undefined));
      assert.equal(v1.apiVersion, `${GROUP}/v1`);
      assert.deepEqual(v1.spec, { image: 'blog:3', replicas: 2, seo: { enabled: false } });
      assert.equal(alpha.apiVersion, `${GROUP}/v1alpha1`);
      assert.deepEqual(alpha.spec, { image: 'blog:3', replicas: 2, theme: 'default' });
    } finally {
      for (const watch of watches) watch.abort();
    }
  });
});
