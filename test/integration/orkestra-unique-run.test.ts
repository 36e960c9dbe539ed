// Orkestra's `operator: unique` end to end: the admission router is mounted beside the runtime and reads the
// runtime's cache of the CRD (`peers: (crd) => cachedObjects(runtime, crd)`); the test API server calls it over https for
// every write of the real client-node. A second custom resource with a value another one holds is refused with the
// rule's message; the object itself (an update) and other values pass; at reconcile time the same rule reports
// the duplicates that two creates racing past admission leave (ValidationFailed on each of them).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { AdmissionregistrationV1Api, CustomObjectsApi, type V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { Hono } from 'hono';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { cachedObjects, createAdmissionRouter, listen, webhookConfigurations, type ListeningServer } from '../../src/index.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'demo.orkestra.io';
const VERSION = 'v1alpha1';
const PLURAL = 'tenants';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: tenants }
spec:
  crds:
    tenant:
      apiTypes: { group: ${GROUP}, version: ${VERSION}, kind: Tenant, plural: ${PLURAL} }
      admission:
        validation:
          rules:
            - field: spec.domain
              operator: unique
              message: "spec.domain is taken by another Tenant"
`;

function statusOf(error: unknown): { code: number; message: string } {
  const body = (error as { body?: unknown }).body;
  return (typeof body === 'string' ? JSON.parse(body) : body) as { code: number; message: string };
}

describe('operator: unique through the test API server', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  const definition = parseDefinition(KATALOG);
  let server: TestApiServer;
  let webhook: ListeningServer;
  let runtime: Runtime;
  let objects: CustomObjectsApi;

  before(async () => {
    server = await startTestApiServer();
    server.applyCrd(crdManifest({ group: GROUP, kind: 'Tenant', plural: PLURAL, scope: 'Namespaced', versions: [{ name: VERSION, served: true, storage: true, status: true }] }));
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
    const tls = await selfSignedCertificate();
    webhook = await listen(new Hono().route('/admission', createAdmissionRouter(definition, { peers: (crd) => cachedObjects(runtime, crd) })), { port: 0, hostname: '127.0.0.1', tls });
    const configs = webhookConfigurations(definition, { url: `${webhook.url}/admission`, caBundle: tls.cert, failurePolicy: 'Fail' });
    assert.ok(configs.validating !== undefined);
    await server.kubeConfig.makeApiClient(AdmissionregistrationV1Api).createValidatingWebhookConfiguration({ body: configs.validating as V1ValidatingWebhookConfiguration });
    objects = server.kubeConfig.makeApiClient(CustomObjectsApi);
  });

  after(async () => {
    await runtime.stop();
    await webhook.close();
    await server.stop();
  });

  const tenant = (name: string, domain: string, namespace = 'default'): Record<string, unknown> => ({ apiVersion: `${GROUP}/${VERSION}`, kind: 'Tenant', metadata: { name, namespace }, spec: { domain } });
  const create = (name: string, domain: string, namespace = 'default') => objects.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL, body: tenant(name, domain, namespace) });
  const cachedNames = (): string[] => [...cachedObjects(runtime, 'tenant')].map((object) => String((object.metadata as { name?: string } | undefined)?.name));

  test('a second Tenant with a taken domain is refused, in any namespace; other domains and updates pass', async () => {
    server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    await create('first', 'a.example.com');
    await waitFor('the runtime caches the first Tenant', () => cachedNames().includes('first'));
    const error = await create('second', 'a.example.com', 'other').then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    const status = statusOf(error);
    assert.equal(status.code, 400);
    assert.match(status.message, /field "spec\.domain": spec\.domain is taken by another Tenant/);
    assert.ok(!status.message.includes('a.example.com'), 'no field value in the message');
    await create('third', 'b.example.com');
    // The object is not its own duplicate: an update that keeps its domain is admitted.
    await objects.patchNamespacedCustomObject(
      { group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'first', body: [{ op: 'add', path: '/metadata/labels', value: { touched: 'yes' } }] },
    );
    // A Tenant without the field fails the rule as Orkestra's does (unique needs a value).
    await assert.rejects(objects.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, body: { ...tenant('empty', ''), spec: {} } }), (e: unknown) => statusOf(e).code === 400);
  });

  test('two Tenants that raced past admission with one domain are both reported at reconcile (ValidationFailed=True)', async () => {
    // The race: both creates are admitted before the cache holds either (here: written around the webhook).
    server.create(tenant('race-1', 'c.example.com'));
    server.create(tenant('race-2', 'c.example.com'));
    for (const name of ['race-1', 'race-2']) {
      const failed = await waitFor(`${name} reported`, () => {
        const conditions = (server.get(`${GROUP}/${VERSION}`, 'Tenant', name, 'default')?.['status'] as { conditions?: { type: string; status: string; message?: string }[] } | undefined)?.conditions;
        return conditions?.find((c) => c.type === 'ValidationFailed' && c.status === 'True');
      });
      assert.match(failed.message ?? '', /spec\.domain is taken by another Tenant/);
    }
  });

  test('a router for a unique rule without peers is refused when it is built', () => {
    assert.throws(() => createAdmissionRouter(definition), /operator: unique\) needs the custom resources of CRD "tenant": pass peers/);
  });
});
