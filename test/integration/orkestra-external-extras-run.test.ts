// An Orkestra definition whose external calls come from an include fragment, end to end: the runtime reconciles
// through the real client-node against the test API server, and the calls go to a local HTTP service
// (127.0.0.1). A call with its own retryBackoff that fails twice succeeds within the same cycle (the child is
// written on the first reconcile, no Ready=False), each retry counted in controller_external_call_retries_total;
// each attempt waits its 30 ms sleep first; an admission-only call (fires.reconcile: false) is never sent and reads
// called "false"; and runtime.stop() does not wait for a call waiting to retry (past the drain time-out, the
// reconcile's signal ends the wait at once).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { localServer } from '../support/local-server.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { data?: Record<string, string>; status?: Record<string, unknown> };

const GROUP = 'demo.orkestra.io';

function katalog(): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: extras }
spec:
  crds:
    release:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Release, plural: releases }
      operatorBox:
        external:
          - include: ./calls/release-calls.yaml
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-gate"
              data:
                answer: "{{ .external.gate.body }}"
                signed: "{{ .external.signature.called }}"
`;
}

function fragment(port: number): string {
  return `calls:
  - name: signature
    url: "http://127.0.0.1:${port}/signature/{{ .metadata.name }}"
    fires:
      reconcile: false
  - name: gate
    url: "http://127.0.0.1:${port}/gate/{{ .metadata.name }}"
    timeout: 2s
    sleep: 30ms
    retryBackoff:
      initial: 50ms
      maxAttempts: 4
    when:
      - field: spec.stuck
        notEquals: "yes"
  - name: stuck
    url: "http://127.0.0.1:${port}/stuck/{{ .metadata.name }}"
    timeout: 1s
    retryBackoff: { initial: 2m, maxAttempts: 2 }
    when:
      - field: spec.stuck
        equals: "yes"
`;
}

describe('Orkestra external calls with include, retryBackoff, sleep and fires, run', () => {
  const seen: string[] = [];
  const failuresLeft = new Map<string, number>();
  const remote = localServer((req, res) => {
    const path = req.url ?? '';
    seen.push(path);
    const left = failuresLeft.get(path) ?? 0;
    if (path.startsWith('/stuck/') || left > 0) {
      failuresLeft.set(path, left - 1);
      res.writeHead(503).end('busy');
      return;
    }
    res.writeHead(200).end('go');
  });
  const registry = new Registry();
  let dir = '';
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    const port = await remote.start();
    dir = mkdtempSync(join(tmpdir(), 'katalog-extras-run-'));
    writeFileSync(join(dir, 'katalog.yaml'), katalog());
    const callsDir = join(dir, 'calls');
    mkdirSync(callsDir);
    writeFileSync(join(callsDir, 'release-calls.yaml'), fragment(port));
    const definition = await loadDefinition(join(dir, 'katalog.yaml'));
    server = await startTestApiServer();
    server.create(crdManifest({ group: GROUP, kind: 'Release', plural: 'releases', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 20, maxDelay: 200 }, registry, drainTimeout: '500ms' });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
    await remote.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const release = (name: string, spec: Record<string, unknown> = {}): Obj => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Release', metadata: { name, namespace: 'default' }, spec });
  const retries = async (): Promise<number> => Number(/controller_external_call_retries_total\{crd="release"\} (\d+)/.exec(await registry.metrics())?.[1]);

  test('a call failing twice is retried within the cycle: the child is written from its answer, the retries counted, the admission-only call never sent', async () => {
    failuresLeft.set('/gate/alpha', 2);
    const before = await retries();
    server.create(release('alpha'));
    const map = await waitFor('the ConfigMap from the retried call', () => server.get('v1', 'ConfigMap', 'alpha-gate', 'default') as Obj | undefined, 20_000);
    assert.deepEqual(map.data, { answer: 'go', signed: 'false' });
    assert.deepEqual(
      seen.filter((path) => path.endsWith('/alpha')),
      ['/gate/alpha', '/gate/alpha', '/gate/alpha'],
      'three attempts of the gate call, no signature call',
    );
    assert.equal((await retries()) - before, 2);
    const readyOf = (): Record<string, unknown> | undefined =>
      ((server.get(`${GROUP}/v1alpha1`, 'Release', 'alpha', 'default')?.['status'] as Obj | undefined)?.['conditions'] as Array<Record<string, unknown>> | undefined)?.find((c) => c['type'] === 'Ready');
    const ready = await waitFor('the Ready condition', readyOf, 20_000);
    assert.equal(ready['status'], 'True', 'the cycle succeeded: the retries happened inside it');
  });

  test('runtime.stop() does not wait for a call waiting two minutes to retry: the drain time-out aborts the wait at once', async () => {
    server.create(release('beta', { stuck: 'yes' }));
    await waitFor('the first attempt of the stuck call', () => seen.includes('/stuck/beta'), 20_000);
    await waitFor('its retry counted (the call is now waiting)', async () => (await retries()) >= 3, 20_000);
    const started = Date.now();
    await runtime.stop();
    const took = Date.now() - started;
    // drainTimeout is 500 ms: stop() gives in-flight reconciles that long, then their signal ends the wait.
    assert.ok(took < 10_000, `stop() took ${took} ms`);
    assert.equal(seen.filter((path) => path === '/stuck/beta').length, 1, 'no second attempt after stop()');
  });
});
