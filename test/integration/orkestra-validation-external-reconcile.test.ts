// validation.external at reconcile time (docs/orkestra-compatibility.md#admission-external-calls): as Orkestra's
// applyReconcileTimeValidation, the calls that fire at reconcile run before the rules of each cycle (through the real
// client-node against the test API server; the service is a local HTTP server), so a rule reading .external holds
// the custom resource back (ValidationFailed=True, no child) until the service grants it; a call with
// fires.reconcile: false is made by the admission router only, never here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { localServer } from '../support/local-server.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const GROUP = 'demo.orkestra.io';

function katalog(port: number): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: validation-external }
spec:
  crds:
    pipeline:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Pipeline, plural: pipelines }
      webhooks: { validation: false }
      validation:
        external:
          - name: quota
            url: "http://127.0.0.1:${port}/quota/{{ .metadata.name }}"
          - name: audit
            url: "http://127.0.0.1:${port}/audit/{{ .metadata.name }}"
            fires: { reconcile: false }
        rules:
          - field: "{{ .external.quota.body }}"
            equals: granted
            message: "the quota service did not grant this pipeline"
      operatorBox:
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-run"
              data: { state: running }
`;
}

describe('Orkestra validation.external at reconcile time', () => {
  const answers = new Map<string, string>();
  const asked: string[] = [];
  const remote = localServer((req: IncomingMessage, res: ServerResponse) => {
    asked.push(req.url ?? '');
    const body = answers.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200);
    res.end(body ?? 'none');
  });
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  const api = (): TestApiServer => server ?? assert.fail('not started');

  before(async () => {
    const port = await remote.start();
    server = await startTestApiServer();
    server.create(crdManifest({ group: GROUP, kind: 'Pipeline', plural: 'pipelines', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(parseDefinition(katalog(port), { source: 'validation-external.yaml' }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 20, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
    await remote.stop();
  });

  const condition = (type: string): Record<string, unknown> | undefined => {
    const status = api().get(`${GROUP}/v1alpha1`, 'Pipeline', 'alpha', 'default')?.['status'] as { conditions?: Array<Record<string, unknown>> } | undefined;
    return status?.conditions?.find((c) => c['type'] === type);
  };

  test('the rule reads the call: held back until the service grants it; the admission-only call is not made', async () => {
    answers.set('/quota/alpha', 'exhausted');
    api().create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Pipeline', metadata: { name: 'alpha', namespace: 'default' }, spec: {} });
    const failed = await waitFor('ValidationFailed=True', () => (condition('ValidationFailed')?.['status'] === 'True' ? condition('ValidationFailed') : undefined));
    assert.match(String(failed['message']), /the quota service did not grant this pipeline/);
    assert.equal(api().get('v1', 'ConfigMap', 'alpha-run', 'default'), undefined, 'no child while denied');
    answers.set('/quota/alpha', 'granted');
    await waitFor('the child once granted (the denied cycle is retried)', () => api().get('v1', 'ConfigMap', 'alpha-run', 'default'), 15_000);
    await waitFor('ValidationFailed=False', () => condition('ValidationFailed')?.['status'] === 'False');
    assert.ok(!asked.some((path) => path.startsWith('/audit/')), `fires.reconcile: false was called: ${asked.join(' ')}`);
  });
});
