// A host-registered protocol client, end to end: an Orkestra Katalog whose external calls use `protocol: kafka`
// (katalog has no built-in Kafka client) runs with the host's own ExternalProtocolClient passed as
// `externalProtocols.kafka` — the public seam, the host's object, not a stand-in for katalog's Kubernetes client.
// The runtime reconciles through the real client-node against the test API server; the client gets the rendered
// url and query, the Secret's credential, the call's timeout and poolSize; its map feeds status fields; its
// failure is Ready=False (the URL and credential cut out of the reason); a client that never answers is cut off
// after the timeout; stop() closes it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { ExternalProtocolClient, ExternalProtocolRequest } from '../../src/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown>;

const GROUP = 'jobs.orkestra.io';
const SASL = 'worker:sasl-secret-marker';

/** The host's Kafka client: consumer lag by "group/topic", Orkestra's map; records every request it is given. */
class HostKafka implements ExternalProtocolClient {
  readonly requests: ExternalProtocolRequest[] = [];
  readonly lags = new Map<string, number>();
  closed = 0;

  fetch(request: ExternalProtocolRequest): Promise<Readonly<Record<string, unknown>>> {
    this.requests.push(request);
    if (request.query.startsWith('hang/')) return new Promise(() => undefined);
    const lag = this.lags.get(request.query);
    // A failure quoting the broker address and the credential, as a careless client might.
    if (lag === undefined) return Promise.resolve({ result: '', raw: {}, error: `kafka: connect: dial tcp ${request.url} as ${request.credential ?? ''}: connection refused`, called: 'true' });
    return Promise.resolve({ result: String(lag), lag: String(lag), partitions: '3', error: '', called: 'true' });
  }

  close(): Promise<void> {
    this.closed += 1;
    return Promise.resolve();
  }
}

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: workers }
spec:
  crds:
    worker:
      apiTypes: { group: ${GROUP}, version: v1, kind: Worker, plural: workers }
      operatorBox:
        external:
          - name: lag
            protocol: kafka
            url: "kafka://broker-{{ .metadata.namespace }}:9092"
            query: "{{ .spec.group }}/jobs"
            auth: { secretRef: { name: kafka, key: sasl } }
            poolSize: 3
            timeout: 300ms
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-lag"
              data:
                lag: "{{ .external.lag.lag }}"
        status:
          fields:
            - path: lag
              value: "{{ .external.lag.result }}"
            - path: partitions
              value: "{{ .external.lag.partitions }}"
`;

describe('a host-registered kafka client, run', () => {
  const kafka = new HostKafka();
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(KATALOG, { source: 'workers.yaml' });
    for (const crd of definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    server.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'kafka', namespace: 'default' }, data: { sasl: Buffer.from(SASL).toString('base64') } });
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 20, maxDelay: 200 }, externalProtocols: { kafka } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });

  const worker = (name: string, group: string): Obj => ({ apiVersion: `${GROUP}/v1`, kind: 'Worker', metadata: { name, namespace: 'default' }, spec: { group } });
  const statusOf = (name: string): Obj | undefined => server.get(`${GROUP}/v1`, 'Worker', name, 'default')?.['status'] as Obj | undefined;
  const readyOf = (name: string): Obj | undefined => (statusOf(name)?.['conditions'] as Obj[] | undefined)?.find((condition) => condition['type'] === 'Ready');

  test("the client gets the rendered call; its map feeds a child and status fields", async () => {
    kafka.lags.set('billing/jobs', 42);
    server.create(worker('billing', 'billing'));
    const child = await waitFor('the lag ConfigMap', () => server.get('v1', 'ConfigMap', 'billing-lag', 'default') as Obj | undefined);
    assert.deepEqual(child['data'], { lag: '42' });
    const status = await waitFor('the status of billing', () => (statusOf('billing')?.['lag'] === undefined ? undefined : statusOf('billing')));
    assert.equal(String(status['lag']), '42');
    assert.equal(String(status['partitions']), '3');
    const request = kafka.requests.find((seen) => seen.query === 'billing/jobs');
    assert.ok(request !== undefined);
    assert.deepEqual(
      { call: request.call, url: request.url, query: request.query, credential: request.credential, timeoutMs: request.timeoutMs, poolSize: request.poolSize },
      { call: 'lag', url: 'kafka://broker-default:9092', query: 'billing/jobs', credential: SASL, timeoutMs: 300, poolSize: 3 },
    );
    assert.ok(request.signal instanceof AbortSignal);
  });

  test('a failed call is Ready=False naming the call, with the URL and the credential cut out; retried until it answers', async () => {
    server.create(worker('orders', 'orders'));
    const ready = await waitFor('Ready=False on orders', () => (readyOf('orders')?.['status'] === 'False' ? readyOf('orders') : undefined));
    assert.equal(ready['message'], 'external call "lag" failed: kafka: connect: dial tcp <url> as <credential>: connection refused');
    assert.doesNotMatch(JSON.stringify(statusOf('orders')), /broker-default|sasl-secret-marker/);
    kafka.lags.set('orders/jobs', 0);
    await waitFor('Ready=True on orders', () => readyOf('orders')?.['status'] === 'True', 15_000);
  });

  test('a client that never answers is cut off one second after the timeout', async () => {
    server.create(worker('stuck', 'hang'));
    const ready = await waitFor('Ready=False on stuck', () => (readyOf('stuck')?.['status'] === 'False' ? readyOf('stuck') : undefined));
    assert.equal(ready['message'], 'external call "lag" failed: kafka: no reply within 300 ms');
  });

  test('stop() closes the host client', async () => {
    assert.equal(kafka.closed, 0);
    await runtime.stop();
    assert.equal(kafka.closed, 1);
  });
});
