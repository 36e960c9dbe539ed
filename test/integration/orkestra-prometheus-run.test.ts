// Orkestra's `protocol: prometheus` external calls end to end: the runtime reconciles through the real
// client-node against the test API server, and its queries go to a fake Prometheus on 127.0.0.1 that answers
// /api/v1/query with scalar and vector results. The prom* notes read the results in status fields and in a
// child's `when`; a Prometheus error fails the cycle (Ready=False names the call and Prometheus's errorType,
// never its error text) until Prometheus answers, and a call with continueOnError lets the cycle go on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { localServer } from '../support/local-server.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown>;
type Answer = { status: number; body: unknown };

const GROUP = 'demo.orkestra.io';
const ERROR_TEXT = 'parse error near queue_secret_marker';
const AT = 1753228800;
const scalar = (value: string): Answer => ({ status: 200, body: { status: 'success', data: { resultType: 'scalar', result: [AT, value] } } });
const vector = (...series: Array<[Record<string, string>, string]>): Answer => ({
  status: 200,
  body: { status: 'success', data: { resultType: 'vector', result: series.map(([metric, value]) => ({ metric, value: [AT, value] })) } },
});

/** A fake Prometheus: answers GET /api/v1/query by the `query` parameter; records each query it was sent. */
function prometheus(): { start: () => Promise<number>; stop: () => Promise<void>; answers: Map<string, Answer>; queries: string[] } {
  const answers = new Map<string, Answer>();
  const queries: string[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/api/v1/query') {
      res.writeHead(404).end();
      return;
    }
    const query = url.searchParams.get('query') ?? '';
    queries.push(query);
    const answer = answers.get(query) ?? vector();
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  };
  return {
    answers,
    queries,
    ...localServer(handle),
  };
}

function katalog(port: number): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: queues }
spec:
  crds:
    queue:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Queue, plural: queues }
      operatorBox:
        external:
          - name: depth
            protocol: prometheus
            url: "http://127.0.0.1:${port}"
            query: 'sum(queue_messages{queue="{{ .metadata.name }}"})'
            timeout: 2s
          - name: consumers
            protocol: prometheus
            url: "http://127.0.0.1:${port}/api/v1/query"
            query: 'queue_consumers{queue="{{ .metadata.name }}"}'
            continueOnError: true
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-scale-up"
              when:
                - field: "{{ promAboveThreshold .external.depth 100 }}"
                  equals: "true"
              data:
                depth: "{{ promValue .external.depth }}"
        status:
          fields:
            - path: depth
              value: "{{ promValue .external.depth }}"
            - path: consumers
              value: "{{ promSum .external.consumers }}"
            - path: busiest
              value: "{{ promMax .external.consumers }}"
            - path: consumerPods
              value: '{{ promLabelValues .external.consumers "pod" }}'
            - path: consumerSeries
              value: "{{ promSeriesCount .external.consumers }}"
            - path: quiet
              value: "{{ promBelowThreshold .external.depth 10 }}"
            - path: consumersError
              value: "{{ .external.consumers.error }}"
`;
}

describe('Orkestra prometheus calls, run', () => {
  const remote = prometheus();
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    const port = await remote.start();
    server = await startTestApiServer();
    const definition = parseDefinition(katalog(port), { source: 'queues.yaml' });
    for (const crd of definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 20, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
    await remote.stop();
  });

  const queue = (name: string): Obj => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Queue', metadata: { name, namespace: 'default' }, spec: {} });
  const statusOf = (name: string): Obj | undefined => server.get(`${GROUP}/v1alpha1`, 'Queue', name, 'default')?.['status'] as Obj | undefined;
  const readyOf = (name: string): Obj | undefined => (statusOf(name)?.['conditions'] as Obj[] | undefined)?.find((condition) => condition['type'] === 'Ready');
  const depthQuery = (name: string): string => `sum(queue_messages{queue="${name}"})`;
  const consumersQuery = (name: string): string => `queue_consumers{queue="${name}"}`;

  test('status fields read promValue/promSum/promMax/promLabelValues/promSeriesCount; a when on promAboveThreshold creates the child', async () => {
    remote.answers.set(depthQuery('busy'), scalar('250'));
    remote.answers.set(consumersQuery('busy'), vector([{ pod: 'worker-a' }, '3'], [{ pod: 'worker-b' }, '4.5']));
    server.create(queue('busy'));
    const status = await waitFor('the status of busy', () => (statusOf('busy')?.['depth'] === undefined ? undefined : statusOf('busy')));
    assert.equal(String(status['depth']), '250');
    assert.equal(String(status['consumers']), '7.5');
    assert.equal(String(status['busiest']), '4.5');
    assert.equal(status['consumerPods'], 'worker-a,worker-b');
    assert.equal(String(status['consumerSeries']), '2');
    assert.equal(String(status['quiet']), 'false');
    assert.equal(status['consumersError'] ?? '', '');
    const child = await waitFor('the scale-up ConfigMap', () => server.get('v1', 'ConfigMap', 'busy-scale-up', 'default') as Obj | undefined);
    assert.deepEqual(child['data'], { depth: '250' });
    assert.ok(remote.queries.includes(depthQuery('busy')), 'the PromQL was rendered from the custom resource and sent as the query parameter');
  });

  test('below the threshold the when holds the child back', async () => {
    remote.answers.set(depthQuery('idle'), vector([{}, '5']));
    server.create(queue('idle'));
    await waitFor('Ready=True on idle', () => readyOf('idle')?.['status'] === 'True');
    assert.equal(String(statusOf('idle')?.['depth']), '5');
    assert.equal(String(statusOf('idle')?.['quiet']), 'true');
    assert.equal(String(statusOf('idle')?.['consumerSeries']), '0', 'an empty vector has no series');
    assert.equal(server.get('v1', 'ConfigMap', 'idle-scale-up', 'default'), undefined);
  });

  test("a Prometheus error fails the cycle (Ready=False names the call and the errorType, not Prometheus's text) until Prometheus answers", async () => {
    remote.answers.set(depthQuery('broken'), { status: 400, body: { status: 'error', errorType: 'bad_data', error: ERROR_TEXT } });
    server.create(queue('broken'));
    const ready = await waitFor('Ready=False on broken', () => (readyOf('broken')?.['status'] === 'False' ? readyOf('broken') : undefined));
    assert.match(String(ready['message']), /external call "depth" failed: HTTP status 400 \(expected 2xx\) \(errorType bad_data\)/);
    assert.doesNotMatch(JSON.stringify(statusOf('broken')), /queue_secret_marker/);
    assert.equal(server.get('v1', 'ConfigMap', 'broken-scale-up', 'default'), undefined);
    remote.answers.set(depthQuery('broken'), scalar('500'));
    await waitFor('the retry succeeds once Prometheus answers', () => server.get('v1', 'ConfigMap', 'broken-scale-up', 'default'));
    await waitFor('Ready=True on broken', () => readyOf('broken')?.['status'] === 'True');
  });

  test('continueOnError: a Prometheus "error" answer sets .error and the cycle goes on', async () => {
    remote.answers.set(depthQuery('lonely'), scalar('120'));
    remote.answers.set(consumersQuery('lonely'), { status: 200, body: { status: 'error', errorType: 'execution', error: ERROR_TEXT } });
    server.create(queue('lonely'));
    await waitFor('the scale-up ConfigMap of lonely', () => server.get('v1', 'ConfigMap', 'lonely-scale-up', 'default'));
    const status = await waitFor('the status of lonely', () => (statusOf('lonely')?.['consumersError'] === undefined ? undefined : statusOf('lonely')));
    assert.equal(status['consumersError'], 'Prometheus answered status "error" (errorType execution)');
    assert.equal(status['consumers'] ?? '', '');
    await waitFor('Ready=True on lonely', () => readyOf('lonely')?.['status'] === 'True');
  });
});
