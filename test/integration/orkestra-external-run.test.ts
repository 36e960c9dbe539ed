// Orkestra's external calls end to end: the runtime reconciles through the real client-node against the test API
// server, and its calls go to a local HTTP server (127.0.0.1). A call's result reaches the templates and status
// fields as .external.<name>; the credential comes from a Secret; a non-2xx answer, a deadline and an oversized
// body each fail the cycle (Ready=False names the call, the retry with backoff succeeds once the service answers),
// and nothing of the response body or the custom resource reaches the condition, the logs or the inspection API;
// a reconcileGate with an external call holds a custom resource back and lets it through.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Logger } from '../../src/observe/logger.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { localServer } from '../support/local-server.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown>; data?: Record<string, string> };
type Answer = { status?: number; body?: string; delayMs?: number };

const GROUP = 'demo.orkestra.io';
const TOKEN = 's3cr3t-t0ken-value';
const BODY_MARK = 'remote-body-payload';
const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** The remote service: answers per path as the test says; records what it was sent. */
function service(): { start: () => Promise<number>; stop: () => Promise<void>; answers: Map<string, Answer>; seen: Array<{ path: string; auth: string | undefined }> } {
  const answers = new Map<string, Answer>();
  const seen: Array<{ path: string; auth: string | undefined }> = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '';
    seen.push({ path, auth: req.headers.authorization });
    const answer = answers.get(path) ?? { status: 404, body: 'no such thing' };
    const send = (): void => {
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain' });
      res.end(answer.body ?? '');
    };
    if (answer.delayMs === undefined) send();
    else setTimeout(send, answer.delayMs).unref();
  };
  return {
    answers,
    seen,
    ...localServer(handle),
  };
}

function katalog(port: number): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: external }
spec:
  crds:
    feature:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Feature, plural: features }
      operatorBox:
        external:
          - name: flags
            url: "http://127.0.0.1:${port}/flags/{{ .metadata.name }}"
            method: get
            timeout: 300ms
            maxResponseBytes: 256
            auth:
              secretRef: { name: flag-token, namespace: default, key: token }
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-flags"
              reconcile: true
              data:
                value: "{{ .external.flags.body }}"
                status: "{{ .external.flags.status }}"
        status:
          fields:
            - path: flagStatus
              value: "{{ .external.flags.status }}"
    gated:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Gated, plural: gateds }
      operatorBox:
        preReconcile:
          reconcileGate:
            failPolicy: closed
            external:
              - name: window
                url: "http://127.0.0.1:${port}/window"
            when:
              - field: external.window.body
                equals: open
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-gated"
              data: { state: done }
`;
}

describe('Orkestra external calls, run', () => {
  const remote = service();
  let server: TestApiServer;
  let runtime: Runtime;
  const logs: string[] = [];
  before(async () => {
    const port = await remote.start();
    server = await startTestApiServer();
    const definition = parseDefinition(katalog(port), { source: 'external.yaml' });
    for (const crd of definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    server.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'flag-token', namespace: 'default' }, data: { token: b64(TOKEN) } });
    const logger = (bindings: Record<string, unknown>): Logger => {
      const line = (level: string) => (message: string, fields?: Record<string, unknown>) => void logs.push(`${level} ${message} ${JSON.stringify({ ...bindings, ...fields })}`);
      return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: (more) => logger({ ...bindings, ...more }) };
    };
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 20, maxDelay: 200 }, logger: logger({}) });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
    await remote.stop();
  });

  const feature = (name: string): Obj => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Feature', metadata: { name, namespace: 'default' }, spec: { owner: `owner-of-${name}` } });
  const readyOf = (name: string, kind = 'Feature'): Record<string, unknown> | undefined => {
    const conditions = (server.get(`${GROUP}/v1alpha1`, kind, name, 'default')?.['status'] as Obj | undefined)?.['conditions'] as Array<Record<string, unknown>> | undefined;
    return conditions?.find((condition) => condition['type'] === 'Ready');
  };

  test('success: the body reaches the child and the status, the credential comes from the Secret', async () => {
    remote.answers.set('/flags/alpha', { status: 200, body: 'on' });
    server.create(feature('alpha'));
    const map = await waitFor('the ConfigMap from the call', () => server.get('v1', 'ConfigMap', 'alpha-flags', 'default') as Obj | undefined);
    assert.deepEqual(map.data, { value: 'on', status: '200' });
    const status = await waitFor('the status field', () => (server.get(`${GROUP}/v1alpha1`, 'Feature', 'alpha', 'default')?.['status'] as Obj | undefined)?.['flagStatus'] !== undefined && server.get(`${GROUP}/v1alpha1`, 'Feature', 'alpha', 'default')?.['status']) as Obj;
    assert.equal(String(status['flagStatus']), '200');
    assert.equal(remote.seen.find((call) => call.path === '/flags/alpha')?.auth, `Bearer ${TOKEN}`);
  });

  for (const [name, answer, reason] of [
    ['beta', { status: 503, body: BODY_MARK }, /HTTP status 503 \(expected 2xx\)/],
    ['gamma', { status: 200, body: 'late', delayMs: 2000 }, /no complete response within 300 ms/],
    ['delta', { status: 200, body: `${BODY_MARK}-${'x'.repeat(400)}` }, /over the limit of 256 bytes/],
  ] as const) {
    test(`failure (${String(reason)}): Ready=False names the call, no child; the retry succeeds once the service answers`, async () => {
      remote.answers.set(`/flags/${name}`, answer);
      server.create(feature(name));
      const failed = await waitFor('Ready=False', () => {
        const ready = readyOf(name);
        return ready?.['status'] === 'False' ? ready : undefined;
      });
      const message = String(failed['message']);
      assert.match(message, /external call "flags" failed/);
      assert.match(message, reason);
      for (const leak of [BODY_MARK, TOKEN, `owner-of-${name}`, '127.0.0.1', `/flags/${name}`]) assert.ok(!message.includes(leak), `the condition holds ${leak}: ${message}`);
      assert.equal(server.get('v1', 'ConfigMap', `${name}-flags`, 'default'), undefined, 'a failed call writes no child');
      remote.answers.set(`/flags/${name}`, { status: 200, body: 'recovered' });
      const map = await waitFor('the ConfigMap after the retry', () => server.get('v1', 'ConfigMap', `${name}-flags`, 'default') as Obj | undefined, 15_000);
      assert.equal(map.data?.['value'], 'recovered');
      await waitFor('Ready=True', () => readyOf(name)?.['status'] === 'True');
    });
  }

  test('a reconcileGate with an external call holds the custom resource back, then lets it through', async () => {
    remote.answers.set('/window', { status: 200, body: 'closed' });
    server.create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Gated', metadata: { name: 'g1', namespace: 'default' }, spec: { n: 1 } });
    await waitFor('the gate asked', () => remote.seen.some((call) => call.path === '/window'));
    const asked = remote.seen.filter((call) => call.path === '/window').length;
    await waitFor('the gate asked again on a change', () => {
      server.patch(`${GROUP}/v1alpha1`, 'Gated', 'g1', { metadata: { labels: { touch: String(Date.now() % 1000) } } }, { namespace: 'default' });
      return remote.seen.filter((call) => call.path === '/window').length > asked;
    });
    assert.equal(server.get('v1', 'ConfigMap', 'g1-gated', 'default'), undefined, 'held back: no child');
    assert.equal(server.get(`${GROUP}/v1alpha1`, 'Gated', 'g1', 'default')?.['status'], undefined, 'held back: no status');

    remote.answers.set('/window', { status: 500, body: BODY_MARK });
    server.patch(`${GROUP}/v1alpha1`, 'Gated', 'g1', { spec: { n: 2 } }, { namespace: 'default' });
    const failed = await waitFor('failPolicy closed: Ready=False', () => {
      const ready = readyOf('g1', 'Gated');
      return ready?.['status'] === 'False' ? ready : undefined;
    });
    assert.match(String(failed['message']), /external call "window" failed: HTTP status 500/);
    assert.equal(server.get('v1', 'ConfigMap', 'g1-gated', 'default'), undefined);

    remote.answers.set('/window', { status: 200, body: 'open' });
    await waitFor('the child once the gate opens (the failed cycle is retried)', () => server.get('v1', 'ConfigMap', 'g1-gated', 'default'), 15_000);
  });

  test('nothing of the bodies, the credential or the URLs reaches the logs or the inspection API', async () => {
    const answers: string[] = [];
    for (const path of ['/health', '/ready', '/metrics', '/katalog', '/katalog/feature', '/katalog/feature/health', '/katalog/gated']) answers.push(await (await runtime.router.request(path)).text());
    for (const text of [...logs, ...answers]) for (const leak of [BODY_MARK, TOKEN, b64(TOKEN)]) assert.ok(!text.includes(leak), `leaked ${leak}: ${text.slice(0, 300)}`);
    for (const text of answers) assert.ok(!text.includes('/flags/'), `the inspection API shows a call URL: ${text.slice(0, 300)}`);
  });
});
