// Pruning by document (docs/operatorbox.md#pruning), through the real client-node against the test API server: an
// Orkestra document deletes a child only when a kept-in-line entry (onReconcile, reconcile: true) names it while its
// condition does not hold and no holding entry names it; a create-only child and a Job stay. The same templates in a
// katalog.dev/v1 document prune every child no entry declares.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { runningDefinition, type Obj } from '../support/orkestra-run.js';
import { waitFor } from '../support/cluster.js';

const GROUP = 'prune.orkestra.io';
const API = `${GROUP}/v1alpha1`;

function katalog(apiVersion: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: pruning }
spec:
  crds:
    switch:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Switch, plural: switches }
      operatorBox:
        status:
          fields:
            - { path: seen, value: "{{ .metadata.labels.again }}" }
        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}-once"
              data: { on: "yes" }
              when: [{ field: spec.on, operator: eq, value: "true" }]
            - name: "{{ .metadata.name }}-kept"
              reconcile: true
              data: { on: "yes" }
              when: [{ field: spec.on, operator: eq, value: "true" }]
            - name: "{{ .metadata.name }}-shared"
              reconcile: true
              data: { side: "on" }
              when: [{ field: spec.on, operator: eq, value: "true" }]
          jobs:
            - name: "{{ .metadata.name }}-job"
              image: busybox:1.36
              command: ["true"]
              when: [{ field: spec.on, operator: eq, value: "true" }]
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-live"
              data: { on: "yes" }
              when: [{ field: spec.on, operator: eq, value: "true" }]
            - name: "{{ .metadata.name }}-shared"
              data: { side: "off" }
              when: [{ field: spec.on, operator: eq, value: "false" }]
`;
}

const NAMES = ['once', 'kept', 'live', 'shared'] as const;

describe('Orkestra document: conditional pruning, run', () => {
  const api = runningDefinition(async () => parseDefinition(katalog('orkestra.orkspace.io/v1'), { source: 'pruning.yaml' }));
  const configMap = (name: string): Obj | undefined => api().get('v1', 'ConfigMap', `s-${name}`, 'default') as Obj | undefined;

  test('a condition turning false deletes only kept-in-line children no holding entry names; the rest stay owned', async () => {
    api().create({ apiVersion: API, kind: 'Switch', metadata: { name: 's', namespace: 'default' }, spec: { on: 'true' } });
    for (const name of NAMES) await waitFor(`the ${name} ConfigMap`, () => configMap(name));
    await waitFor('the Job', () => api().get('batch/v1', 'Job', 's-job', 'default'));

    api().patch(API, 'Switch', 's', { spec: { on: 'false' } }, { namespace: 'default' });
    await waitFor('the onReconcile child deleted', () => configMap('live') === undefined);
    await waitFor('the reconcile: true child deleted', () => configMap('kept') === undefined);
    // The other entry naming s-shared holds now: it keeps the child and puts its own data in.
    await waitFor('the shared child switched', () => configMap('shared')?.['data'] !== undefined && (configMap('shared')?.['data'] as Obj)['side'] === 'off');
    const once = configMap('once');
    assert.ok(once, 'a create-only child stays');
    assert.equal(((once.metadata?.['ownerReferences'] as Obj[] | undefined) ?? [])[0]?.['name'], 's', 'still owned: the garbage collector removes it with its owner');
    assert.ok(api().get('batch/v1', 'Job', 's-job', 'default'), 'a Job is never deleted');

    // No drift correction while the condition does not hold: a hand edit of the create-only child stays.
    api().patch('v1', 'ConfigMap', 's-once', { data: { on: 'edited' } }, { namespace: 'default' });
    api().patch(API, 'Switch', 's', { metadata: { labels: { again: 'yes' } } }, { namespace: 'default' });
    await waitFor('the next cycle', () => (api().get(API, 'Switch', 's', 'default') as Obj | undefined)?.status?.['seen'] === 'yes');
    assert.equal((configMap('once')?.['data'] as Obj)['on'], 'edited');
  });
});

describe('katalog.dev/v1 document: every undeclared child pruned, run', () => {
  const api = runningDefinition(async () => parseDefinition(katalog('katalog.dev/v1'), { source: 'pruning.yaml' }));
  const configMap = (name: string): Obj | undefined => api().get('v1', 'ConfigMap', `s-${name}`, 'default') as Obj | undefined;

  test('the same templates: create-only children and the Job are deleted once their condition turns false', async () => {
    api().create({ apiVersion: API, kind: 'Switch', metadata: { name: 's', namespace: 'default' }, spec: { on: 'true' } });
    for (const name of NAMES) await waitFor(`the ${name} ConfigMap`, () => configMap(name));
    await waitFor('the Job', () => api().get('batch/v1', 'Job', 's-job', 'default'));
    api().patch(API, 'Switch', 's', { spec: { on: 'false' } }, { namespace: 'default' });
    for (const name of ['once', 'kept', 'live']) await waitFor(`the ${name} child pruned`, () => configMap(name) === undefined);
    await waitFor('the Job pruned', () => api().get('batch/v1', 'Job', 's-job', 'default') === undefined);
  });
});
