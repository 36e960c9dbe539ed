// Webhooks configured by Service reference, as an operator's manifests for a cluster configure them: with
// `webhookServices`, the test API server calls the address the test gives for each Service, with the
// configuration's path, and checks the certificate for `<name>.<namespace>.svc` as kube-apiserver does. Admission
// webhooks and a CRD's conversion webhook alike; a Service without an address is a failed call that says what to do.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { parse } from 'yaml';
import { loadDefinition } from '../../src/definition/index.js';
import { createConversionRouter, listen, type ListeningServer } from '../../src/index.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { configuration, webhookServer, type FakeWebhook } from '../support/fake-webhook.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

async function post(server: TestApiServer, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('webhooks of Services (webhookServices)', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  let server: TestApiServer;
  let named: FakeWebhook;
  let unnamed: FakeWebhook;
  let caBundle = '';
  let unnamedCert = '';
  let conversion: ListeningServer;

  before(async () => {
    // One webhook whose certificate names its Service, one whose certificate names only 127.0.0.1.
    const tls = await selfSignedCertificate(['hook.shop.svc']);
    caBundle = tls.cert;
    named = await webhookServer(tls);
    const unnamedTls = await selfSignedCertificate();
    unnamedCert = unnamedTls.cert;
    unnamed = await webhookServer(unnamedTls);
    const definition = await loadDefinition('test/fixtures/conversion/katalog.yaml');
    conversion = await listen(new Hono().route('/conversion', createConversionRouter(definition)), { port: 0, hostname: '127.0.0.1' });
    server = await startTestApiServer({ webhookServices: { 'shop/hook': named.url, 'shop/plain': unnamed.url, 'web/convert': conversion.url } });
  });
  after(async () => {
    await server.stop();
    await named.close();
    await unnamed.close();
    await conversion.close();
  });

  const register = (service: Record<string, unknown>, name: string, ca = caBundle): Promise<unknown> => {
    const config = configuration('validating', 'https://unused', ca);
    const webhooks = config['webhooks'] as Record<string, unknown>[];
    const webhook = { ...webhooks[0], clientConfig: { service, caBundle: Buffer.from(ca).toString('base64') } };
    return Promise.resolve(server.create({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks: [webhook] }));
  };
  const unregister = (name: string): void => {
    server.delete('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', name);
  };

  test("the Service's webhook is called at its address with the configuration's path, its certificate checked for the Service's name", async () => {
    await register({ namespace: 'shop', name: 'hook', port: 8443, path: '/check' }, 'by-service');
    try {
      named.answer = () => ({ allowed: false, status: { message: 'not here' } });
      const refused = await post(server, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'refused' } });
      assert.equal(refused.status, 400);
      assert.equal(refused.body['message'], 'admission webhook "validating.test.example.com" denied the request: not here');
      assert.deepEqual(named.calls.map((call) => call.path), ['/check']);
    } finally {
      unregister('by-service');
    }
  });

  test('a certificate that does not name the Service, or a Service without an address, is a failed call named by its Service URL', async () => {
    // Its CA is trusted; its certificate names 127.0.0.1 and localhost, not the Service.
    await register({ namespace: 'shop', name: 'plain', port: 443 }, 'unnamed', unnamedCert);
    try {
      const untrusted = await post(server, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'untrusted' } });
      assert.equal(untrusted.status, 500);
      assert.match(String(untrusted.body['message']), /^Internal error occurred: failed calling webhook "validating\.test\.example\.com": failed to call webhook: Post "https:\/\/plain\.shop\.svc:443\/\?timeout=10s": .*plain\.shop\.svc/);
      assert.equal(unnamed.calls.length, 0, 'the answer of a server whose certificate does not name the Service is not read');
    } finally {
      unregister('unnamed');
    }
    await register({ namespace: 'shop', name: 'elsewhere', port: 443, path: '/v' }, 'unknown');
    try {
      const unknown = await post(server, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'unknown' } });
      assert.equal(unknown.status, 500);
      assert.equal(
        unknown.body['message'],
        'Internal error occurred: failed calling webhook "validating.test.example.com": failed to call webhook: Post "https://elsewhere.shop.svc:443/v?timeout=10s": the test API server resolves no Service: give the address of its webhook in the option webhookServices: { "shop/elsewhere": "https://127.0.0.1:<port>" }',
      );
    } finally {
      unregister('unknown');
    }
  });

  test("a CRD's conversion webhook by Service reference converts through the address given", async () => {
    const crd = parse(readFileSync('test/fixtures/conversion/website-crd.yaml', 'utf8')) as { spec: Record<string, unknown> };
    crd.spec['conversion'] = { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'web', name: 'convert', port: 443, path: '/conversion/convert' } }, conversionReviewVersions: ['v1'] } };
    server.applyCrd(crd);
    await server.settled();
    server.create({ apiVersion: 'demo.orkestra.io/v1', kind: 'Website', metadata: { name: 'blog', namespace: 'default' }, spec: { image: 'blog:1', replicas: 2 } });
    const response = await fetch(`${server.url}/apis/demo.orkestra.io/v1alpha1/namespaces/default/websites/blog`);
    assert.equal(response.status, 200);
    const website = (await response.json()) as { apiVersion: string; spec: Record<string, unknown> };
    assert.equal(website.apiVersion, 'demo.orkestra.io/v1alpha1');
    assert.equal(website.spec['image'], 'blog:1');
  });

  test('an address that is not an origin is refused when the server starts, naming the entry', async () => {
    await assert.rejects(() => startTestApiServer({ webhookServices: { 'shop/hook': 'https://127.0.0.1:8443/admission' } }), {
      name: 'TypeError',
      message: 'webhookServices["shop/hook"]: "https://127.0.0.1:8443/admission" must be an origin without a path (the configuration\'s service.path is appended)',
    });
    await assert.rejects(() => startTestApiServer({ webhookServices: { hook: 'https://127.0.0.1:8443' } }), { message: 'webhookServices["hook"]: the key must be "<namespace>/<service name>"' });
  });
});
