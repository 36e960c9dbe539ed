// Orkestra's reconcile-time validation end to end, with no webhook mounted (the custom resources are stored
// unchecked, as with Orkestra's `ork run`): a resource that breaks a deny rule gets no child, Ready=False with the
// denial and ValidationFailed=True/DenyRuleViolation; fixing the spec lets the cycle through (ValidationFailed=False,
// the child appears); a warn rule never halts and shows as ValidationWarning. The rendered message of a template that
// quotes the spec is on the object's own condition only: the inspection API's last error names the rule, not the value.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Condition = { type: string; status: string; reason: string; message: string; lastTransitionTime: string };
type Obj = Record<string, unknown> & { status?: { conditions?: Condition[] } };

const GROUP = 'validate.orkestra.io';
const VERSION = 'v1alpha1';
const SECRET = 'quoted-value-7f3a9c';

const DEFINITION = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: validate }
spec:
  crds:
    website:
      apiTypes: { group: ${GROUP}, version: ${VERSION}, kind: Website, plural: websites }
      validation:
        rules:
          - field: spec.image
            prefix: "myorg/"
            message: "images must come from the internal registry (myorg/), not {{ .spec.image }}"
            action: deny
          - field: spec.replicas
            max: "5"
            message: "at most 5 replicas"
          - field: spec.environment
            operator: exists
            message: "set spec.environment"
            action: warn
      operatorBox:
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-site"
              reconcile: true
              data:
                image: "{{ .spec.image }}"
`;

describe('Orkestra reconcile-time validation, run', () => {
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(DEFINITION, { source: 'validate.yaml' });
    server.applyCrd(crdManifest({ group: GROUP, kind: 'Website', plural: 'websites', scope: 'Namespaced', versions: [{ name: VERSION, served: true, storage: true, status: true }] }));
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });

  const api = (): TestApiServer => server ?? assert.fail('no test API server');
  const objects = (): CustomObjectsApi => api().kubeConfig.makeApiClient(CustomObjectsApi);
  const create = (name: string, spec: Record<string, unknown>) =>
    objects().createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: 'default', plural: 'websites', body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Website', metadata: { name }, spec } });
  const conditionsOf = (name: string): Condition[] => (api().get(`${GROUP}/${VERSION}`, 'Website', name, 'default') as Obj | undefined)?.status?.conditions ?? [];
  const condition = (name: string, type: string): Condition | undefined => conditionsOf(name).find((c) => c.type === type);
  const child = (name: string): unknown => api().get('v1', 'ConfigMap', `${name}-site`, 'default');

  test('a valid resource: the cycle runs, ValidationFailed=False/ValidationPassed, the warn rule shows as ValidationWarning', async () => {
    await create('good', { image: 'myorg/web:1', replicas: 2 });
    await waitFor('the child of the valid resource', () => child('good'));
    const failed = await waitFor('ValidationFailed on good', () => condition('good', 'ValidationFailed'));
    assert.deepEqual([failed.status, failed.reason, failed.message], ['False', 'ValidationPassed', '']);
    const warning = condition('good', 'ValidationWarning');
    assert.deepEqual([warning?.status, warning?.reason, warning?.message], ['True', 'WarnRuleViolation', 'field "spec.environment": set spec.environment']);
    assert.equal(condition('good', 'Ready')?.status, 'True');
    assert.deepEqual(conditionsOf('good').map((c) => c.type), ['Ready', 'ValidationFailed', 'ValidationWarning']);
  });

  test('a denied resource: no child, Ready=False with the denial, ValidationFailed=True; fixing the spec lets it through', async () => {
    await create('bad', { image: `docker.io/${SECRET}`, replicas: 9, environment: 'prod' });
    const failed = await waitFor('ValidationFailed=True on bad', () => (condition('bad', 'ValidationFailed')?.status === 'True' ? condition('bad', 'ValidationFailed') : undefined));
    assert.equal(failed.reason, 'DenyRuleViolation');
    // On the object's own condition, the rendered messages, as Orkestra writes them.
    assert.equal(failed.message, `validation denied: field "spec.image": images must come from the internal registry (myorg/), not docker.io/${SECRET}; field "spec.replicas": at most 5 replicas`);
    const ready = condition('bad', 'Ready');
    assert.equal(ready?.status, 'False');
    assert.equal(ready?.reason, 'ReconcileError');
    assert.match(ready?.message ?? '', /^validation denied: field "spec\.image": images must come from the internal registry \(myorg\/\), not \{\{ \.spec\.image \}\}; field "spec\.replicas": at most 5 replicas$/);
    assert.deepEqual([condition('bad', 'ValidationWarning')?.status, condition('bad', 'ValidationWarning')?.reason], ['False', 'NoWarnings']);
    assert.equal(child('bad'), undefined);

    // The failure is retried with backoff: the CRD's health records it, without the quoted value.
    const rt = runtime ?? assert.fail('no runtime');
    await waitFor('a failed reconcile counted', async () => /controller_reconcile_total\{crd="website",result="error"\} [1-9]/.test(await rt.registry.metrics()));
    for (const path of ['/katalog/website/health', '/katalog/website', '/katalog', '/ready', '/metrics']) {
      const text = await (await rt.router.request(path)).text();
      assert.equal(text.includes(SECRET), false, `${path} quotes the custom resource: ${text}`);
    }

    api().patch(`${GROUP}/${VERSION}`, 'Website', 'bad', { spec: { image: 'myorg/web:2', replicas: 3 } }, { namespace: 'default' });
    await waitFor('the child once the spec is fixed', () => child('bad'));
    await waitFor('ValidationFailed=False after the fix', () => condition('bad', 'ValidationFailed')?.reason === 'ValidationPassed');
    assert.equal(condition('bad', 'Ready')?.status, 'True');
  });
});
