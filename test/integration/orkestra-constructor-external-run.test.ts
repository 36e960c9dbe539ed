// constructor.external end to end (docs/orkestra-compatibility.md#constructor-external-calls): a constructor-owned
// CRD of an Orkestra document reconciles through the real client-node against the test API server; its calls go
// to a local HTTP server (127.0.0.1) before each reconcile of a live object, and the constructor reads the results
// as ctx.external. A failed call (without continueOnError) fails the cycle before the constructor runs: Ready=False
// names the call and nothing of the URL, the body or the custom resource; the retry with backoff succeeds once the
// service answers. With continueOnError the constructor runs and reads .error. The delete path makes no calls.
// A call's own retryBackoff retries it within the cycle, each retry counted in controller_external_call_retries_total.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { ReconcilerContext } from '../../src/operatorbox/types.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { localServer } from '../support/local-server.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const GROUP = 'demo.orkestra.io';
const BODY_MARK = 'remote-body-payload';

type Answer = { status: number; body: string };

function katalog(port: number): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: ctor-external }
spec:
  crds:
    pipeline:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Pipeline, plural: pipelines }
      operatorBox:
        reconciler:
          default: false
          constructor:
            location: github.com/example/pipeline
            function: NewPipeline
            external:
              - name: quota
                url: "http://127.0.0.1:${port}/quota/{{ .metadata.name }}"
                timeout: 2s
                retryBackoff: { initial: 10ms, maxAttempts: 3 }
              - name: flags
                url: "http://127.0.0.1:${port}/flags/{{ .external.quota.body }}"
                continueOnError: true
`;
}

describe('Orkestra constructor.external, run', () => {
  const answers = new Map<string, Answer>();
  const asked: string[] = [];
  const remote = localServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    asked.push(path);
    const answer = answers.get(path) ?? { status: 404, body: 'none' };
    res.writeHead(answer.status, { 'content-type': 'text/plain' });
    res.end(answer.body);
  });
  const seen: Array<{ name: string; deleting: boolean; external: ReconcilerContext['external'] }> = [];
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  const registry = new Registry();
  const retries = async (): Promise<number> => Number(/controller_external_call_retries_total\{crd="pipeline"\} (\d+)/.exec(await registry.metrics())?.[1] ?? 0);
  const api = (): TestApiServer => server ?? assert.fail('no test API server');

  before(async () => {
    const port = await remote.start();
    server = await startTestApiServer();
    const definition = parseDefinition(katalog(port), { source: 'ctor-external.yaml' });
    server.create(crdManifest({ group: GROUP, kind: 'Pipeline', plural: 'pipelines', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(definition, {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      rateLimiter: { baseDelay: 20, maxDelay: 200 },
      registry,
      constructors: {
        NewPipeline: () => ({
          reconcile: (request, ctx) => {
            seen.push({ name: request.name, deleting: ctx.object?.metadata?.deletionTimestamp !== undefined || ctx.object === undefined, external: ctx.external });
          },
        }),
      },
    });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
    await remote.stop();
  });

  const pipeline = (name: string): Record<string, unknown> => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Pipeline', metadata: { name, namespace: 'default' }, spec: { owner: `owner-of-${name}` } });
  const ready = (name: string): Record<string, unknown> | undefined => {
    const status = api().get(`${GROUP}/v1alpha1`, 'Pipeline', name, 'default')?.['status'] as { conditions?: Array<Record<string, unknown>> } | undefined;
    return status?.conditions?.find((condition) => condition['type'] === 'Ready');
  };

  test('the constructor reads the results of the calls, each templated on the CR and the calls before it', async () => {
    answers.set('/quota/alpha', { status: 200, body: 'gold' });
    answers.set('/flags/gold', { status: 200, body: 'on' });
    api().create(pipeline('alpha'));
    const call = await waitFor('the constructor ran', () => seen.find((entry) => entry.name === 'alpha'));
    assert.equal((call.external['quota'] as { status: string }).status, '200');
    assert.equal((call.external['quota'] as { body: string }).body, 'gold');
    assert.equal((call.external['flags'] as { body: string }).body, 'on');
    assert.equal(call.external['flags']?.called, 'true');
    await waitFor('Ready=True', () => ready('alpha')?.['status'] === 'True');
  });

  test('a failed call fails the cycle before the constructor (Ready=False names the call only); the retry succeeds', async () => {
    answers.set('/quota/beta', { status: 503, body: BODY_MARK });
    const retriedBefore = await retries();
    api().create(pipeline('beta'));
    const failed = await waitFor('Ready=False', () => {
      const condition = ready('beta');
      return condition?.['status'] === 'False' ? condition : undefined;
    });
    const message = String(failed['message']);
    assert.match(message, /external call "quota" failed: HTTP status 503 \(expected 2xx\)/);
    for (const leak of [BODY_MARK, 'owner-of-beta', '127.0.0.1', '/quota/beta']) assert.ok(!message.includes(leak), `the condition holds ${leak}: ${message}`);
    assert.ok(!seen.some((entry) => entry.name === 'beta'), 'the constructor did not run');
    // maxAttempts 3: every failed cycle made three requests and counted two retries.
    assert.ok((await retries()) - retriedBefore >= 2, 'the retries of the constructor call are counted');
    answers.set('/quota/beta', { status: 200, body: 'silver' });
    const call = await waitFor('the constructor after the retry', () => seen.find((entry) => entry.name === 'beta'), 15_000);
    assert.equal((call.external['quota'] as { body: string }).body, 'silver');
    // continueOnError: /flags/silver answers 404, and the constructor still runs and reads the reason.
    assert.equal(call.external['flags']?.error, 'HTTP status 404 (expected 2xx)');
    await waitFor('Ready=True', () => ready('beta')?.['status'] === 'True');
  });

  test('the delete path makes no calls: the constructor sees ctx.external = {}', async () => {
    answers.set('/quota/gamma', { status: 200, body: 'gold' });
    api().create({ ...pipeline('gamma'), metadata: { name: 'gamma', namespace: 'default', finalizers: ['demo.orkestra.io/hold'] } });
    await waitFor('the first cycle', () => seen.some((entry) => entry.name === 'gamma'));
    const before = asked.filter((path) => path === '/quota/gamma').length;
    api().delete(`${GROUP}/v1alpha1`, 'Pipeline', 'gamma', 'default');
    const call = await waitFor('the cycle of the object being deleted', () => seen.find((entry) => entry.name === 'gamma' && entry.deleting));
    assert.deepEqual(call.external, {});
    assert.equal(asked.filter((path) => path === '/quota/gamma').length, before, 'no call on the delete path');
    api().patch(`${GROUP}/v1alpha1`, 'Pipeline', 'gamma', { metadata: { finalizers: [] } }, { namespace: 'default' });
  });
});
