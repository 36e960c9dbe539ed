// The templates that run outside the render of a box read the runtime's `clock` too: a CRD's `normalize`, an
// `enrich` target's conditions, reconcile-time validation rules and a `watch` entry's `enqueueGate`
// (docs/orkestra-compatibility.md, "Which clock"). End to end through the real client-node against the test API
// server, on an injected FakeClock that starts in 2030 and moves only when the test moves it. The deadlines the
// templates compare against lie in 2030, after the system time, so on the system clock every one of them is still
// ahead: each assertion on "expired" below fails unless the template read the fake clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';
import { FakeClock } from '../support/fake-clock.js';

const GROUP = 'clock.orkestra.io';
const API = `${GROUP}/v1alpha1`;
/** 2030-06-01 12:00 UTC: after the system time of any run of this test. */
const START = Date.UTC(2030, 5, 1, 12);
const HOUR = 3_600_000;
const at = (ms: number): string => new Date(ms).toISOString();

const expired = (path: string): string => `'{{ isExpired ${path} "0s" }}'`;

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: clock-everywhere }
spec:
  crds:
    lease:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Lease, plural: leases }
      resync: 24h
      normalize:
        spec:
          phase: '{{ if isExpired .spec.until "0s" }}expired{{ else }}live{{ end }}'
      enrich:
        - hpa:
            when:
              - field: ${expired('.spec.until')}
                equals: "true"
      validation:
        rules:
          - field: ${expired('.spec.until')}
            equals: "false"
            message: the lease ran out
            action: warn
      operatorBox:
        onCreate:
          horizontalPodAutoscalers:
            - { name: "{{ .metadata.name }}", deploymentRef: "{{ .metadata.name }}-web", minReplicas: 1, maxReplicas: 3 }
        status:
          fields:
            - { path: round, value: "{{ .spec.round }}", type: int }
            - { path: phase, value: "{{ .spec.phase }}" }
            - { path: scaleTarget, value: "{{ hpaScaleTargetName .children.hpa }}" }
    probe:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Probe, plural: probes }
      workers: 1
      resync: 24h
      operatorBox:
        hooks: { function: ProbeHooks }
        status: { conditions: false }
        observe:
          watch:
            - apiVersion: v1
              kind: ConfigMap
              namespace: default
              keyFrom: { label: example.com/probe }
              enqueueGate:
                when:
                  - field: ${expired('(index .metadata.annotations "until")')}
                    equals: "true"
`;

type Obj = Record<string, unknown> & { status?: Record<string, unknown> };

describe('normalize, enrich conditions, reconcile-time validation and watch enqueueGates on the runtime clock', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const clock = new FakeClock(START);
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
    server = await startTestApiServer({ simulateWorkloads: false });
    for (const [kind, plural] of [['Lease', 'leases'], ['Probe', 'probes']] as const) {
      server.create(crdManifest({ group: GROUP, kind, plural, scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(parseDefinition(KATALOG, { source: 'clock-everywhere.yaml' }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, hooks, clock, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  const lease = (): Obj | undefined => server.get(API, 'Lease', 'l', 'default') as Obj | undefined;
  const statusOfRound = (round: number): Promise<Record<string, unknown>> =>
    waitFor(`the status of round ${round}`, () => (lease()?.status?.['round'] === round ? lease()?.status : undefined), 30_000);
  const warning = (status: Record<string, unknown>): string | undefined => {
    const found = (status['conditions'] as Array<Record<string, unknown>> | undefined)?.find((condition) => condition['type'] === 'ValidationWarning');
    return found === undefined ? undefined : `${String(found['status'])} ${String(found['message'])}`;
  };

  test('normalize, an enrich condition and a validation rule decide on the fake clock, before and after it passes the deadline', async () => {
    server.create({ apiVersion: API, kind: 'Lease', metadata: { name: 'l', namespace: 'default' }, spec: { round: 1, until: at(START + HOUR) } });
    const before = await statusOfRound(1);
    assert.equal(before['phase'], 'live', 'an hour before the deadline');
    assert.equal(before['scaleTarget'], '', 'the enrich target is off while its condition does not hold');
    assert.equal(warning(before), 'False ', 'the validation rule holds before the deadline');

    await clock.advance(2 * HOUR);
    server.patch(API, 'Lease', 'l', { spec: { round: 2 } }, { namespace: 'default' });
    const after = await statusOfRound(2);
    assert.equal(after['phase'], 'expired', 'normalize read the moved clock');
    assert.equal(after['scaleTarget'], 'l-web', 'the enrich condition held on the moved clock');
    assert.match(warning(after) ?? '', /^True .*the lease ran out/, 'the validation rule read the moved clock');
  });

  // One worker takes the keys in the order the watch enqueued them, and one informer's events arrive in order: when
  // the later change that passes has reconciled beta, a change the gate failed to hold back would have reconciled
  // alpha before it.
  test('a watch enqueueGate reads the fake clock: only the ConfigMap whose deadline it passed enqueues its probe', async () => {
    for (const name of ['alpha', 'beta']) server.create({ apiVersion: API, kind: 'Probe', metadata: { name, namespace: 'default' }, spec: {} });
    await waitFor('both probes reconciled once', () => count('alpha') >= 1 && count('beta') >= 1);
    const [alpha, beta] = [count('alpha'), count('beta')];
    const now = clock.now();
    const configMap = (name: string, probe: string, until: number): Record<string, unknown> => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default', labels: { 'example.com/probe': probe }, annotations: { until: at(until) } },
      data: {},
    });
    server.create(configMap('later', 'alpha', now + HOUR));
    server.create(configMap('passed', 'beta', now - HOUR));
    await waitFor('beta reconciled by the ConfigMap whose deadline passed on the fake clock', () => count('beta') > beta, 30_000);
    assert.equal(count('alpha'), alpha, 'the ConfigMap whose deadline is ahead enqueued nothing');
    await clock.advance(2 * HOUR);
    server.patch('v1', 'ConfigMap', 'later', { data: { touched: 'yes' } }, { namespace: 'default' });
    await waitFor('alpha reconciled once the fake clock passed its deadline', () => count('alpha') > alpha, 30_000);
  });
});
