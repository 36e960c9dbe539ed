// validation.external / mutation.external end to end (docs/orkestra-compatibility.md#admission-external-calls): the
// admission router of an Orkestra document is served over https and registered in the test API server, which calls
// it on every write of the real client-node; the rules' calls go to a local HTTP service (127.0.0.1). A call's answer
// decides a validation rule and fills a mutation default; a cached answer is not asked again; a failed or slow call
// (beyond the router's budget) leaves the rules to decide, as Orkestra, and the request is answered within the
// budget; nothing of the URL, the service's body or the object reaches the refusal.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AdmissionregistrationV1Api, CustomObjectsApi, type V1MutatingWebhookConfiguration, type V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { Hono } from 'hono';
import { parseDefinition } from '../../src/definition/index.js';
import { createAdmissionRouter, listen, webhookConfigurations, type AdmissionDecision, type ListeningServer } from '../../src/index.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { localServer } from '../support/local-server.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'demo.orkestra.io';
const VERSION = 'v1alpha1';
const PLURAL = 'pipelines';
const BODY_MARK = 'remote-body-payload';
const BUDGET_MS = 1500;

function katalog(port: number): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: admission-external }
spec:
  crds:
    pipeline:
      apiTypes: { group: ${GROUP}, version: ${VERSION}, kind: Pipeline, plural: ${PLURAL} }
      admission:
        validation:
          external:
            - name: quota
              url: "http://127.0.0.1:${port}/quota/{{ .metadata.name }}"
              cacheFor: 1m
          rules:
            - field: "{{ .external.quota.body }}"
              equals: granted
              message: "the quota service did not grant this pipeline"
        mutation:
          external:
            - name: tier
              url: "http://127.0.0.1:${port}/tier/{{ .metadata.name }}"
              continueOnError: true
          rules:
            - field: spec.tier
              default: "{{ .external.tier.body }}"
`;
}

function statusOf(error: unknown): { code: number; message: string } {
  const body = (error as { body?: unknown }).body;
  return (typeof body === 'string' ? JSON.parse(body) : body) as { code: number; message: string };
}

describe('Orkestra admission external calls through the test API server', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
  const answers = new Map<string, { status: number; body: string; delayMs?: number }>();
  const asked: string[] = [];
  const remote = localServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    asked.push(path);
    const answer = answers.get(path) ?? { status: 404, body: 'none' };
    const send = (): void => {
      res.writeHead(answer.status, { 'content-type': 'text/plain' });
      res.end(answer.body);
    };
    if (answer.delayMs === undefined) send();
    else setTimeout(send, answer.delayMs).unref();
  });
  const decisions: AdmissionDecision[] = [];
  let server: TestApiServer | undefined;
  let webhook: ListeningServer | undefined;
  let objects: CustomObjectsApi | undefined;

  before(async () => {
    const port = await remote.start();
    server = await startTestApiServer();
    const definition = parseDefinition(katalog(port), { source: 'admission-external.yaml' });
    server.applyCrd(crdManifest({ group: GROUP, kind: 'Pipeline', plural: PLURAL, scope: 'Namespaced', versions: [{ name: VERSION, served: true, storage: true, status: true }] }));
    const tls = await selfSignedCertificate();
    const router = createAdmissionRouter(definition, { externalBudgetMs: BUDGET_MS, onDecision: (decision) => decisions.push(decision) });
    webhook = await listen(new Hono().route('/admission', router), { port: 0, hostname: '127.0.0.1', tls });
    const configs = webhookConfigurations(definition, { url: `${webhook.url}/admission`, caBundle: tls.cert, failurePolicy: 'Fail' });
    const admission = server.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    assert.ok(configs.validating !== undefined && configs.mutating !== undefined);
    await admission.createMutatingWebhookConfiguration({ body: configs.mutating as V1MutatingWebhookConfiguration });
    await admission.createValidatingWebhookConfiguration({ body: configs.validating as V1ValidatingWebhookConfiguration });
    objects = server.kubeConfig.makeApiClient(CustomObjectsApi);
  });
  after(async () => {
    await webhook?.close();
    await server?.stop();
    await remote.stop();
  });

  const api = (): CustomObjectsApi => objects ?? assert.fail('not started');
  const create = (name: string, spec: Record<string, unknown> = { owner: `owner-of-${name}` }) =>
    api().createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Pipeline', metadata: { name }, spec } });
  const read = async (name: string) => (await api().getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name })) as { spec: Record<string, unknown> };
  const refusal = async (name: string): Promise<{ code: number; message: string }> =>
    statusOf(
      await create(name).then(
        () => assert.fail('expected a refusal'),
        (error: unknown) => error,
      ),
    );

  test('the answers decide the rule and fill the default; a cached answer is not asked again', async () => {
    answers.set('/quota/alpha', { status: 200, body: 'granted' });
    answers.set('/tier/alpha', { status: 200, body: 'gold' });
    await create('alpha');
    assert.equal((await read('alpha')).spec['tier'], 'gold');
    const quotaAsks = asked.filter((path) => path === '/quota/alpha').length;
    assert.equal(quotaAsks, 1);
    // An update is validated again; cacheFor: 1m answers it without a request.
    await api().patchNamespacedCustomObject(
      { group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL, name: 'alpha', body: [{ op: 'add', path: '/spec/extra', value: 'x' }] },
    );
    assert.equal(asked.filter((path) => path === '/quota/alpha').length, 1, 'the cached answer was used');
    assert.ok(decisions.some((decision) => decision.webhook === 'validate' && decision.operation === 'UPDATE' && decision.allowed));
  });

  test('an answer the rule does not accept refuses the create with the rule\'s message', async () => {
    answers.set('/quota/beta', { status: 200, body: 'exhausted' });
    const status = await refusal('beta');
    assert.equal(status.code, 400);
    assert.match(status.message, /the quota service did not grant this pipeline/);
  });

  test('a failed call (503): the rules decide without its answer, as Orkestra; the failure is named, never the URL or body', async () => {
    answers.set('/quota/gamma', { status: 503, body: BODY_MARK });
    const status = await refusal('gamma');
    assert.match(status.message, /the quota service did not grant this pipeline/);
    for (const leak of [BODY_MARK, '127.0.0.1', '/quota/gamma', 'owner-of-gamma']) assert.ok(!status.message.includes(leak), `the refusal holds ${leak}: ${status.message}`);
    const decision = decisions.find((d) => d.webhook === 'validate' && d.name === 'gamma');
    assert.deepEqual(decision?.failedCalls, ['quota']);
    // mutation.external with continueOnError: /tier/gamma answered 404; the default is the empty body, so no patch.
    assert.deepEqual(decisions.find((d) => d.webhook === 'mutate' && d.name === 'gamma')?.failedCalls, ['tier']);
  });

  test('a call slower than the budget fails at the budget: the request is answered in time and the rules decide', async () => {
    answers.set('/quota/delta', { status: 200, body: 'granted', delayMs: 10_000 });
    answers.set('/tier/delta', { status: 200, body: 'silver' });
    const started = Date.now();
    const status = await refusal('delta');
    const took = Date.now() - started;
    assert.match(status.message, /the quota service did not grant this pipeline/);
    assert.ok(took < 9000, `answered after ${took} ms, not after the slow service`);
    assert.deepEqual(decisions.find((d) => d.webhook === 'validate' && d.name === 'delta')?.failedCalls, ['quota']);
  });
});
