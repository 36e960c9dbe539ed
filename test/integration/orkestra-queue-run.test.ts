// Orkestra's queue settings at run time, against the test API server: `queue.retryBackoff` gives one CRD its own
// backoff of failed reconciles (an hour here: one failure, then it waits) while a CRD without it retries with the
// runtime's (milliseconds here); `queue.behaviour.onThreshold` shows as the CRD's queue bound in the inspection API.
// Both custom resources fail the same way: a deny rule of the reconcile-time validation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const GROUP = 'queue.orkestra.io';

function crd(name: string, kind: string, queue: string): string {
  return `    ${name}:
      apiTypes: { group: ${GROUP}, version: v1, kind: ${kind}, plural: ${name}s }
      validation:
        rules:
          - { field: spec.ok, operator: exists, message: "spec.ok is required", action: deny }
      operatorBox:
        reconciler:
          queue:
${queue}        onReconcile:
          configMaps:
            - { name: "{{ .metadata.name }}-${name}", data: { ok: "{{ .spec.ok }}" } }
`;
}

const DEFINITION = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: queues }
spec:
  crds:
${crd('patient', 'Patient', '            retryBackoff: { initial: 1h, multiplier: 3 }\n            maxDepth: 500\n            behaviour: { onThreshold: { value: 70 } }\n')}${crd('eager', 'Eager', '            failureThreshold: 100\n')}`;

describe('Orkestra queue settings, run', () => {
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(DEFINITION, { source: 'queues.yaml' });
    for (const [name, kind] of [['patient', 'Patient'], ['eager', 'Eager']] as const) {
      server.applyCrd(crdManifest({ group: GROUP, kind, plural: `${name}s`, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 50 } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });

  const errors = async (rt: Runtime, crdName: string): Promise<number> => {
    const match = new RegExp(`controller_reconcile_total\\{crd="${crdName}",result="error"\\} (\\d+)`).exec(await rt.registry.metrics());
    return Number(match?.[1] ?? 0);
  };

  test('retryBackoff: the CRD that declares an hour fails once and waits, the other retries with the runtime backoff', async () => {
    const rt = runtime ?? assert.fail('no runtime');
    const api = server ?? assert.fail('no server');
    api.create({ apiVersion: `${GROUP}/v1`, kind: 'Patient', metadata: { name: 'a', namespace: 'default' }, spec: {} });
    api.create({ apiVersion: `${GROUP}/v1`, kind: 'Eager', metadata: { name: 'a', namespace: 'default' }, spec: {} });
    await waitFor('the patient CRD failed once', async () => (await errors(rt, 'patient')) >= 1);
    await waitFor('the eager CRD retried several times', async () => (await errors(rt, 'eager')) >= 6);
    assert.equal(await errors(rt, 'patient'), 1);
  });

  test('queue.behaviour.onThreshold: the bound the inspection API shows is 70% of maxDepth', async () => {
    const rt = runtime ?? assert.fail('no runtime');
    const body = (await (await rt.router.request('/katalog/patient')).json()) as Record<string, unknown>;
    assert.deepEqual(body['queueDepth'], { value: 350, source: 'definition', current: 0 });
  });
});
