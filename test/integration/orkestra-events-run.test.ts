// observe.events end to end against the test API server (the runtime talks to it through the real client-node over
// HTTP): an events.k8s.io/v1 Event that matches an entry reconciles the custom resource(s) its routing names
// (keyFrom.label, keyFrom.name, else every custom resource); one that does not match, or that the entry's
// enqueueGate holds back, reconciles nothing; two CRDs share one Events watch, and stop() closes it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const GROUP = 'demo.orkestra.io';

// workers: 1 — one worker takes keys in the order they were queued, so once a later trigger's reconcile is seen,
// an earlier Event that had matched would have been reconciled before it.
const DEFINITION = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: observing }
spec:
  crds:
    probe:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Probe, plural: probes }
      operatorBox:
        reconciler:
          hooks: { function: ProbeHooks }
          workers: 1
        status: { conditions: false }
        observe:
          events:
            podBackOff:
              reason: BackOff
              type: Warning
              regarding: { kind: Pod }
              keyFrom: { label: example.com/probe }
            dbReady:
              reason: DatabaseReady
              reportingController: example.com/db
              keyFrom: { name: alpha, namespace: default }
              enqueueGate:
                when:
                  - field: note
                    notEquals: hold
            evicted:
              reason: Evicted
              on: [create]
    gauge:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Gauge, plural: gauges }
      operatorBox:
        hooks: { function: GaugeHooks }
        status: { conditions: false }
        observe:
          events:
            anyWarning: { type: Warning, keyFrom: { name: main, namespace: default } }
`;

describe('observe.events: Kubernetes Events reconcile custom resources again', () => {
  const calls = new Map<string, number>();
  const counting: Hooks = {
    onReconcile: (ctx) => {
      const key = `${String(ctx.object.kind)}/${String(ctx.object.metadata?.name)}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
    },
  };
  const count = (key: string): number => calls.get(key) ?? 0;
  let server: TestApiServer;
  let runtime: Runtime;
  let serial = 0;
  const event = (reason: string, fields: Record<string, unknown> = {}): void => {
    serial += 1;
    server.create({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: `e${serial}`, namespace: 'default', ...(fields['labels'] === undefined ? {} : { labels: fields['labels'] }) },
      eventTime: new Date().toISOString(),
      reason,
      type: 'Normal',
      action: 'Test',
      reportingController: 'example.com/test',
      reportingInstance: 'test-1',
      regarding: { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: 'default' },
      note: 'a test event',
      ...Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'labels')),
    });
  };

  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(DEFINITION);
    for (const crd of definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    // An Event already there when the runtime starts is history, not a change (test/kube/shared-informer.test.ts).
    event('DatabaseReady', { reportingController: 'example.com/db' });
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, hooks: { ProbeHooks: counting, GaugeHooks: counting }, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
    for (const name of ['alpha', 'beta']) server.create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Probe', metadata: { name, namespace: 'default' }, spec: {} });
    server.create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Gauge', metadata: { name: 'main', namespace: 'default' }, spec: {} });
    await waitFor('every custom resource reconciled once', () => ['Probe/alpha', 'Probe/beta', 'Gauge/main'].every((key) => count(key) >= 1));
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  test('two CRDs observing Events share one watch', () => {
    assert.equal(server.watchCount({ resource: 'events' }), 1);
  });

  test('keyFrom.label: a matching Event reconciles the probe its label names; a non-matching one does not', async () => {
    const [alpha, beta] = [count('Probe/alpha'), count('Probe/beta')];
    // Not a match: type Normal where the entry wants Warning; then a match for alpha (dbReady) as the marker.
    event('BackOff', { labels: { 'example.com/probe': 'beta' } });
    event('DatabaseReady', { reportingController: 'example.com/db' });
    await waitFor('alpha reconciled by dbReady', () => count('Probe/alpha') > alpha);
    assert.equal(count('Probe/beta'), beta, 'a BackOff of type Normal does not match podBackOff');
    event('BackOff', { type: 'Warning', labels: { 'example.com/probe': 'beta' } });
    await waitFor('beta reconciled by podBackOff', () => count('Probe/beta') > beta);
  });

  test("regarding must match: a Warning BackOff about a Deployment does not reconcile the probe", async () => {
    const [alpha, beta] = [count('Probe/alpha'), count('Probe/beta')];
    event('BackOff', { type: 'Warning', labels: { 'example.com/probe': 'beta' }, regarding: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' } });
    event('DatabaseReady', { reportingController: 'example.com/db' });
    await waitFor('alpha reconciled by dbReady', () => count('Probe/alpha') > alpha);
    assert.equal(count('Probe/beta'), beta);
  });

  test('enqueueGate reads the Event: a note "hold" is held back', async () => {
    const [alpha, beta] = [count('Probe/alpha'), count('Probe/beta')];
    event('DatabaseReady', { reportingController: 'example.com/db', note: 'hold' });
    event('BackOff', { type: 'Warning', labels: { 'example.com/probe': 'beta' } });
    await waitFor('beta reconciled by podBackOff', () => count('Probe/beta') > beta);
    assert.equal(count('Probe/alpha'), alpha, 'the held Event reconciles nothing');
  });

  test('without keyFrom (and no owner reference), a match reconciles every custom resource of the CRD', async () => {
    const [alpha, beta] = [count('Probe/alpha'), count('Probe/beta')];
    event('Evicted');
    await waitFor('every probe reconciled (broadcast)', () => count('Probe/alpha') > alpha && count('Probe/beta') > beta);
  });

  test('the other CRD sees the same Events through the shared watch', async () => {
    const main = count('Gauge/main');
    event('Anything', { type: 'Warning' });
    await waitFor('the gauge reconciled by anyWarning', () => count('Gauge/main') > main);
  });

  test('stop() closes the Events watch', async () => {
    await runtime.stop();
    await waitFor('no Events watch left', () => server.watchCount({ resource: 'events' }) === 0);
  });
});
