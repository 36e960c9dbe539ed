// Orkestra's control flow end to end against the test API server (the runtime talks to it through the real
// client-node over HTTP): preReconcile gates hold a custom resource back until their conditions or sentinels
// allow it, and watch entries reconcile custom resources again when an object they do not own changes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition, parseDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/types.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> };

const GROUP = 'demo.orkestra.io';

function running(load: () => Definition | Promise<Definition>, hooks: Readonly<Record<string, Hooks>> = {}): { server: () => TestApiServer; runtime: () => Runtime } {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    const definition = await load();
    for (const crd of definition.crds.values()) {
      if (crd.crdFile !== undefined) continue;
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, hooks, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });
  return { server: () => server, runtime: () => runtime };
}

/** Successful reconciles of a CRD so far (a gated cycle is one: it ends without error). */
async function reconciles(runtime: Runtime, crd: string): Promise<number> {
  return Number(new RegExp(`controller_reconcile_total\\{crd="${crd}",result="success"\\} (\\d+)`).exec(await runtime.registry.metrics())?.[1] ?? '0');
}

describe('Orkestra corpus, run: current/05-conditional-reconciliation (preReconcile.reconcileGate)', () => {
  const { server, runtime } = running(() => loadDefinition('test/fixtures/orkestra/current/05-conditional-reconciliation/katalog.yaml'));
  const app = (name: string, enabled: boolean): Obj => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'App', metadata: { name, namespace: 'default' }, spec: { enabled, image: 'nginx:1.27', replicas: 1 } });

  test('an App with spec.enabled false is not reconciled (no Deployment, no status) until it is enabled; a Route always is', async () => {
    const before = await reconciles(runtime(), 'app');
    server().create(app('off', false));
    // The only App so far: the first cycle of the CRD is its own.
    await waitFor('the disabled App taken from the queue', async () => (await reconciles(runtime(), 'app')) > before);
    assert.equal(server().get(`${GROUP}/v1alpha1`, 'App', 'off', 'default')?.['status'], undefined, 'a gated App gets no status');
    assert.equal(server().get('apps/v1', 'Deployment', 'off', 'default'), undefined, 'a gated App gets no children');
    server().create(app('on', true));
    server().create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Route', metadata: { name: 'web', namespace: 'default' }, spec: { port: 8080 } });
    await waitFor('the enabled App reconciled', () => server().get(`${GROUP}/v1alpha1`, 'App', 'on', 'default')?.['status']);
    assert.ok(server().get('apps/v1', 'Deployment', 'on', 'default'));
    const route = await waitFor('the Route reconciled', () => server().get(`${GROUP}/v1alpha1`, 'Route', 'web', 'default')?.['status'] as Obj | undefined);
    assert.equal(route['phase'], 'Running');

    server().patch(`${GROUP}/v1alpha1`, 'App', 'off', { spec: { enabled: true } }, { namespace: 'default' });
    const status = await waitFor('the App reconciled once enabled', () => server().get(`${GROUP}/v1alpha1`, 'App', 'off', 'default')?.['status'] as Obj | undefined);
    assert.equal(status['phase'], 'Running');
    assert.ok(server().get('apps/v1', 'Deployment', 'off', 'default'));
  });
});

// Hooks only (no children, no finalizer): after the first cycle nothing but the test's own changes queues the
// widget, so the reconcile counter says exactly when a change has been taken from the queue.
const SENTINELS = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: sentinels }
spec:
  crds:
    widget:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
        hooks: { function: WidgetHooks }
        status: { conditions: false }
        preReconcile:
          sentinels: [generationChanged]
          reconcileGate:
            sentinels: [generationChanged]
`;

describe('preReconcile sentinels: reconcileGate.sentinels [generationChanged]', () => {
  const seen: string[] = [];
  const hooks: Record<string, Hooks> = {
    WidgetHooks: {
      onReconcile: (ctx) => {
        seen.push(`${String(ctx.object.metadata?.labels?.['tier'])}/${String((ctx.object['spec'] as { size?: unknown }).size)}`);
      },
    },
  };
  const { server, runtime } = running(() => parseDefinition(SENTINELS), hooks);

  test('a new object is reconciled; a label change alone is held back; a spec change passes', async () => {
    server().create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Widget', metadata: { name: 'w', namespace: 'default', labels: { tier: 'a' } }, spec: { size: 1 } });
    await waitFor('first cycle', async () => (await reconciles(runtime(), 'widget')) === 1);
    assert.deepEqual(seen, ['a/1']);
    server().patch(`${GROUP}/v1alpha1`, 'Widget', 'w', { metadata: { labels: { tier: 'b' } } }, { namespace: 'default' });
    await waitFor('the label change taken from the queue', async () => (await reconciles(runtime(), 'widget')) === 2);
    assert.deepEqual(seen, ['a/1'], 'generation unchanged: the gate held the cycle back');
    server().patch(`${GROUP}/v1alpha1`, 'Widget', 'w', { spec: { size: 2 } }, { namespace: 'default' });
    await waitFor('the spec change reconciled', () => seen.length === 2);
    assert.deepEqual(seen, ['a/1', 'b/2']);
  });
});

const WATCH = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: watching }
spec:
  crds:
    probe:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Probe, plural: probes }
      operatorBox:
        hooks: { function: ProbeHooks }
        watch:
          - apiVersion: v1
            kind: ConfigMap
            name: shared-config
            namespace: default
            on: [update]
            keyFrom: { name: alpha, namespace: default }
          - apiVersion: v1
            kind: Secret
            keyFrom: { label: example.com/probe }
          - apiVersion: v1
            kind: ServiceAccount
`;

describe('watch: objects the custom resources do not own reconcile them again', () => {
  const calls = new Map<string, number>();
  const hooks: Record<string, Hooks> = {
    ProbeHooks: {
      onReconcile: (ctx) => {
        const name = String(ctx.object.metadata?.name);
        calls.set(name, (calls.get(name) ?? 0) + 1);
      },
    },
  };
  const { server } = running(() => parseDefinition(WATCH), hooks);
  const probe = (name: string): Obj => ({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Probe', metadata: { name, namespace: 'default' }, spec: {} });
  const count = (name: string): number => calls.get(name) ?? 0;

  before(async () => {
    for (const name of ['alpha', 'beta', 'gamma']) server().create(probe(name));
    await waitFor('every probe reconciled once', () => ['alpha', 'beta', 'gamma'].every((name) => count(name) >= 1));
  });

  test('keyFrom.name: an update of the named ConfigMap reconciles that probe', async () => {
    server().create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared-config', namespace: 'default' }, data: { v: '1' } });
    const alpha = count('alpha');
    server().patch('v1', 'ConfigMap', 'shared-config', { data: { v: '2' } }, { namespace: 'default' });
    await waitFor('alpha reconciled again', () => count('alpha') > alpha);
  });

  test('keyFrom.label: the label of the changed Secret names the probe', async () => {
    const beta = count('beta');
    server().create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'default', labels: { 'example.com/probe': 'beta' } }, data: {} });
    await waitFor('beta reconciled again', () => count('beta') > beta);
  });

  test('an owner reference to a probe names it; without one, every probe is reconciled', async () => {
    const owner = server().get(`${GROUP}/v1alpha1`, 'Probe', 'gamma', 'default') as Obj;
    const gamma = count('gamma');
    server().create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'owned', namespace: 'default', ownerReferences: [{ apiVersion: `${GROUP}/v1alpha1`, kind: 'Probe', name: 'gamma', uid: owner.metadata?.['uid'] }] },
    });
    await waitFor('gamma reconciled again', () => count('gamma') > gamma);
    const all = ['alpha', 'beta', 'gamma'].map(count);
    server().create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'shared', namespace: 'default' } });
    await waitFor('every probe reconciled again (broadcast)', () => ['alpha', 'beta', 'gamma'].every((name, i) => count(name) > (all[i] ?? 0)));
  });
});

const REQUEUE = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: polling }
spec:
  crds:
    poller:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Poller, plural: pollers }
      operatorBox:
        reconciler:
          hooks: { function: PollerHooks }
          requeue:
            after: "{{ .spec.every }}"
            when:
              - field: spec.poll
                equals: "true"
`;

describe('requeue: a successful cycle is followed by another after the rendered delay, while the conditions hold', () => {
  const calls = new Map<string, number>();
  const hooks: Record<string, Hooks> = {
    PollerHooks: {
      onReconcile: (ctx) => {
        const name = String(ctx.object.metadata?.name);
        calls.set(name, (calls.get(name) ?? 0) + 1);
      },
    },
  };
  const { server } = running(() => parseDefinition(REQUEUE), hooks);

  test('spec.poll true: reconciled again and again with no change; false: once', async () => {
    server().create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Poller', metadata: { name: 'still', namespace: 'default' }, spec: { poll: false, every: '50ms' } });
    server().create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Poller', metadata: { name: 'busy', namespace: 'default' }, spec: { poll: true, every: '50ms' } });
    await waitFor('three cycles of the polling one', () => (calls.get('busy') ?? 0) >= 3);
    // Created first, the still one ran its cycle long before the busy one ran three; it was never asked to run again.
    assert.equal(calls.get('still'), 1);
  });
});
