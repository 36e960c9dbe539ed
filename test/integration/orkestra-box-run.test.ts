// Orkestra's `normalize` and box-level `when` end to end against the test API server (the runtime talks to it
// through the real client-node over HTTP): the normalized spec is what templates and status fields read while the
// stored object keeps what the user wrote; the box's conditions hold every template back (children pruned) while
// the status is still written; a normalize value that cannot be cast fails the cycle with Ready=False.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> };

const GROUP = 'demo.orkestra.io';
const API = `${GROUP}/v1alpha1`;

// The schedule rule is normalize.go's own example (orkspace/orkestra pkg/runtime/reconciler/normalize.go @ eacb2604).
const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: backups }
spec:
  crds:
    backup:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Backup, plural: backups }
      normalize:
        spec:
          schedule: >
            {{ if eq (typeOf .spec.schedule) "map" }}{{ cronExpr .spec.schedule.minute .spec.schedule.hour "*" "*" "*" }}{{ else }}{{ .spec.schedule }}{{ end }}
          retention: '{{ default 7 .spec.retention }}'
        types: { retention: int }
      operatorBox:
        when:
          - field: spec.enabled
            equals: "true"
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-backup"
              data:
                schedule: "{{ .spec.schedule }}"
        status:
          fields:
            - path: schedule
              value: "{{ .spec.schedule }}"
            - path: retention
              value: "{{ .spec.retention }}"
              type: int
`;

describe('Orkestra normalize and box-level when, run', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    server.create(crdManifest({ group: GROUP, kind: 'Backup', plural: 'backups', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });
  const backup = (name: string): Obj | undefined => server.get(API, 'Backup', name, 'default') as Obj | undefined;
  const configMap = (name: string): Obj | undefined => server.get('v1', 'ConfigMap', `${name}-backup`, 'default') as Obj | undefined;

  test('templates and status read the normalized spec; the stored spec keeps what the user wrote', async () => {
    server.create({ apiVersion: API, kind: 'Backup', metadata: { name: 'nightly', namespace: 'default' }, spec: { enabled: true, schedule: { minute: '0', hour: '2' } } });
    const child = await waitFor('the ConfigMap of the map schedule', () => configMap('nightly'));
    assert.deepEqual(child['data'], { schedule: '0 2 * * *' });
    const status = await waitFor('the status written', () => (backup('nightly')?.status?.['schedule'] === undefined ? undefined : backup('nightly')?.status));
    assert.equal(status['schedule'], '0 2 * * *');
    assert.equal(status['retention'], 7, 'the default, cast to an int');
    assert.deepEqual(backup('nightly')?.spec, { enabled: true, schedule: { minute: '0', hour: '2' } }, 'normalize writes nothing back');

    server.create({ apiVersion: API, kind: 'Backup', metadata: { name: 'often', namespace: 'default' }, spec: { enabled: true, schedule: '*/5 * * * *', retention: '30' } });
    assert.deepEqual((await waitFor('the ConfigMap of the text schedule', () => configMap('often')))['data'], { schedule: '*/5 * * * *' });
    assert.equal(await waitFor('the retention', () => backup('often')?.status?.['retention']), 30);
  });

  test('while the box-level condition does not hold no template applies (the child is pruned); status is still written', async () => {
    server.create({ apiVersion: API, kind: 'Backup', metadata: { name: 'paused', namespace: 'default' }, spec: { enabled: false, schedule: '0 3 * * *' } });
    await waitFor('the paused Backup reconciled', () => backup('paused')?.status?.['schedule'] === '0 3 * * *');
    assert.equal(configMap('paused'), undefined, 'no child while the box condition does not hold');

    server.patch(API, 'Backup', 'paused', { spec: { enabled: true } }, { namespace: 'default' });
    await waitFor('the child once the condition holds', () => configMap('paused'));
    server.patch(API, 'Backup', 'paused', { spec: { enabled: false, schedule: '0 4 * * *' } }, { namespace: 'default' });
    await waitFor('the child pruned once it stops holding', () => configMap('paused') === undefined);
    await waitFor('the status still written', () => backup('paused')?.status?.['schedule'] === '0 4 * * *');
  });

  test('a normalize value that is not of its type fails the cycle (Ready=False naming the field, never the value)', async () => {
    server.create({ apiVersion: API, kind: 'Backup', metadata: { name: 'broken', namespace: 'default' }, spec: { enabled: true, schedule: '0 1 * * *', retention: 'forever-and-a-day' } });
    const ready = await waitFor('Ready=False', () => {
      const conditions = (backup('broken')?.status?.['conditions'] ?? []) as Array<Record<string, unknown>>;
      return conditions.find((condition) => condition['type'] === 'Ready' && condition['status'] === 'False');
    });
    assert.match(String(ready['message']), /normalize\.spec\.retention/);
    assert.doesNotMatch(String(ready['message']), /forever-and-a-day/);
    assert.equal(configMap('broken'), undefined, 'nothing applied by a cycle that failed to normalize');
  });
});
