// Orkestra's watch leftovers end to end against the test API server (the runtime on the real client-node over
// HTTP): a watch entry's enqueueGate lets through only the changes of the watched object its conditions or
// sentinels allow, before any custom resource is enqueued; entries from an included file watch as inline ones do,
// and notes from an included file render as inline ones do.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const GROUP = 'demo.orkestra.io';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: gated-watch }
notes:
  include: ./include/notes.yaml
spec:
  crds:
    probe:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Probe, plural: probes }
      workers: 1
      operatorBox:
        hooks: { function: ProbeHooks }
        observe:
          watch:
            - apiVersion: v1
              kind: ConfigMap
              namespace: default
              keyFrom: { label: example.com/probe }
              enqueueGate:
                when:
                  - field: data.enabled
                    equals: "true"
            - include: ./include/watch.yaml
    named:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Named, plural: nameds }
      operatorBox:
        status:
          fields:
            - path: host
              value: "{{ probeHost }}"
`;

const FRAGMENT = `watch:
  - apiVersion: v1
    kind: Secret
    namespace: default
    keyFrom: { label: example.com/probe }
    on: [update]
    enqueueGate:
      sentinels: [labelsChanged]
`;

describe('watch[].enqueueGate and watch[].include', () => {
  let dir = '';
  let server: TestApiServer;
  let runtime: Runtime;
  const calls = new Map<string, number>();
  const count = (name: string): number => calls.get(name) ?? 0;
  const hooks: Record<string, Hooks> = {
    ProbeHooks: {
      onReconcile: (ctx) => {
        const name = String(ctx.object.metadata?.name);
        calls.set(name, count(name) + 1);
      },
    },
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'katalog-watch-run-'));
    mkdirSync(join(dir, 'include'));
    writeFileSync(join(dir, 'katalog.yaml'), KATALOG);
    writeFileSync(join(dir, 'include', 'watch.yaml'), FRAGMENT);
    writeFileSync(join(dir, 'include', 'notes.yaml'), 'functions:\n  - name: probeHost\n    expression: "{{ .metadata.name }}.{{ .metadata.namespace }}.svc"\n');
    server = await startTestApiServer();
    for (const [kind, plural] of [['Probe', 'probes'], ['Named', 'nameds']] as const) {
      server.create(crdManifest({ group: GROUP, kind, plural, scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(await loadDefinition(join(dir, 'katalog.yaml')), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, hooks, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
    for (const name of ['alpha', 'beta']) server.create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Probe', metadata: { name, namespace: 'default' }, spec: {} });
    await waitFor('both probes reconciled once', () => count('alpha') >= 1 && count('beta') >= 1);
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // A closed gate is proven by an open one after it: one worker takes keys in the order the watch enqueued them,
  // and the events of one informer arrive in order; so when a later change that passes has reconciled the other
  // probe, a change the gate failed to hold back would have reconciled its probe already.
  const labelled = (kind: string, name: string, probe: string, extra: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'v1', kind, metadata: { name, namespace: 'default', labels: { 'example.com/probe': probe } }, ...extra });

  test('notes.include: a note from the fragment renders in the status', async () => {
    server.create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Named', metadata: { name: 'alpha', namespace: 'default' }, spec: {} });
    const status = await waitFor('the status', () => server.get(`${GROUP}/v1alpha1`, 'Named', 'alpha', 'default')?.['status'] as Record<string, unknown> | undefined);
    assert.equal(status['host'], 'alpha.default.svc');
  });

  test('a ConfigMap change enqueues its probe only while the gate\'s condition holds on the ConfigMap', async () => {
    const alpha = count('alpha');
    const beta = count('beta');
    server.create(labelled('ConfigMap', 'switch', 'alpha', { data: { enabled: 'false' } }));
    server.create(labelled('ConfigMap', 'marker', 'beta', { data: { enabled: 'true' } }));
    await waitFor('beta reconciled by the open change', () => count('beta') > beta);
    assert.equal(count('alpha'), alpha, 'the ConfigMap with enabled=false enqueued nothing');
    server.patch('v1', 'ConfigMap', 'switch', { data: { enabled: 'true' } }, { namespace: 'default' });
    await waitFor('alpha reconciled once the condition holds', () => count('alpha') > alpha);
  });

  test('an included entry with a sentinel gate: a Secret update enqueues its probe only when its labels changed', async () => {
    server.create(labelled('Secret', 'creds', 'beta', { data: {} }));
    server.create(labelled('Secret', 'other', 'alpha', { data: {} }));
    const alpha = count('alpha');
    const beta = count('beta');
    server.patch('v1', 'Secret', 'creds', { data: { token: 'YQ==' } }, { namespace: 'default' });
    server.patch('v1', 'Secret', 'other', { metadata: { labels: { changed: 'yes' } } }, { namespace: 'default' });
    await waitFor('alpha reconciled by the label change', () => count('alpha') > alpha);
    assert.equal(count('beta'), beta, 'the data-only update (and the creates: on is [update]) enqueued nothing');
    server.patch('v1', 'Secret', 'creds', { metadata: { labels: { changed: 'yes' } } }, { namespace: 'default' });
    await waitFor('beta reconciled by its label change', () => count('beta') > beta);
  });
});
