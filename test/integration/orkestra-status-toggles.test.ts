// Orkestra's status switches end to end against the test API server (real client-node over HTTP):
// ignoreObservedGeneration leaves observedGeneration out of the status and of the Ready condition while the CRD is
// still reconciled and its Ready condition written; ignoreStatusPatch writes no status at all, children still made.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; data?: Record<string, unknown>; status?: Record<string, unknown> };
type Condition = { type: string; status: string; observedGeneration?: number };

const GROUP = 'toggles.orkestra.io';

function crd(name: string, kind: string, extra: string): string {
  return `    ${name}:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: ${kind}, plural: ${name}s }
${extra}      operatorBox:
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-${name}"
              reconcile: true
              data:
                size: "{{ .spec.size }}"
        status:
          fields:
            - { path: size, value: "{{ .spec.size }}" }
`;
}

const DEFINITION = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: toggles }
spec:
  crds:
${crd('plain', 'Plain', '')}${crd('nogen', 'NoGen', '      ignoreObservedGeneration: true\n')}${crd('nostatus', 'NoStatus', '      ignoreStatusPatch: true\n')}`;

describe('Orkestra ignoreObservedGeneration / ignoreStatusPatch, run', () => {
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    server = await startTestApiServer();
    const api = server;
    const definition = parseDefinition(DEFINITION, { source: 'toggles.yaml' });
    for (const entry of definition.crds.values()) {
      const { group, kind, plural, scope, version } = entry.apiTypes;
      api.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, { kubeConfig: api.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });

  const api = (): TestApiServer => server ?? assert.fail('no test API server');
  const create = (kind: string, size: string): void => {
    api().create({ apiVersion: `${GROUP}/v1alpha1`, kind, metadata: { name: 'a', namespace: 'default' }, spec: { size } });
  };
  const get = (kind: string): Obj | undefined => api().get(`${GROUP}/v1alpha1`, kind, 'a', 'default') as Obj | undefined;
  const ready = (object: Obj | undefined): Condition | undefined => ((object?.status?.['conditions'] ?? []) as Condition[]).find((c) => c.type === 'Ready');

  test('without a switch: observedGeneration in the status and in the Ready condition', async () => {
    create('Plain', 's');
    const status = await waitFor('the Plain reconciled', () => (get('Plain')?.status?.['size'] === 's' ? get('Plain')?.status : undefined));
    assert.equal(status['observedGeneration'], 1);
    assert.equal(ready(get('Plain'))?.observedGeneration, 1);
  });

  test('ignoreObservedGeneration: Ready and the fields are written, observedGeneration nowhere, also after a spec change', async () => {
    create('NoGen', 's');
    await waitFor('the NoGen reconciled', () => get('NoGen')?.status?.['size'] === 's');
    const first = get('NoGen');
    assert.equal(ready(first)?.status, 'True');
    assert.equal(first?.status?.['observedGeneration'], undefined);
    assert.equal(Object.hasOwn(ready(first) ?? {}, 'observedGeneration'), false);
    api().patch(`${GROUP}/v1alpha1`, 'NoGen', 'a', { spec: { size: 'm' } }, { namespace: 'default' });
    await waitFor('the NoGen reconciled again', () => get('NoGen')?.status?.['size'] === 'm');
    assert.equal(get('NoGen')?.metadata?.['generation'], 2);
    assert.equal(get('NoGen')?.status?.['observedGeneration'], undefined);
    assert.equal(Object.hasOwn(ready(get('NoGen')) ?? {}, 'observedGeneration'), false);
    assert.equal((api().get('v1', 'ConfigMap', 'a-nogen', 'default') as Obj | undefined)?.data?.['size'], 'm');
  });

  test('ignoreStatusPatch: the children follow the spec, no status is ever written', async () => {
    create('NoStatus', 's');
    await waitFor('the NoStatus child', () => api().get('v1', 'ConfigMap', 'a-nostatus', 'default'));
    api().patch(`${GROUP}/v1alpha1`, 'NoStatus', 'a', { spec: { size: 'm' } }, { namespace: 'default' });
    await waitFor('the NoStatus child follows the spec', () => (api().get('v1', 'ConfigMap', 'a-nostatus', 'default') as Obj | undefined)?.data?.['size'] === 'm');
    // The status a reconcile would write comes after its children: a later one would be here by now if any came.
    await waitFor('a NoStatus reconcile finished', async () => /controller_reconcile_total\{crd="nostatus",result="success"\} [2-9]/.test(await (runtime ?? assert.fail('no runtime')).registry.metrics()));
    assert.equal(get('NoStatus')?.status, undefined);
  });
});
