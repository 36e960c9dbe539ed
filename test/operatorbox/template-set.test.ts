import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import type { CrdDefinition } from '../../src/definition/types.js';
import { compileTemplateSet } from '../../src/operatorbox/template-set.js';
import { KindTable } from '../../src/registry/kind-table.js';

function crdOf(operatorBox: string): CrdDefinition {
  const definition = parseDefinition(`
apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: t }
spec:
  crds:
    website:
      apiTypes: { group: example.io, version: v1, kind: Website, plural: websites }
      operatorBox:
${operatorBox.replace(/^/gm, '        ')}
`);
  const crd = definition.crds.get('website');
  assert.ok(crd);
  return crd;
}

describe('compileTemplateSet', () => {
  test('compiles every phase once, with reconcile flags and the statically known child kinds', () => {
    const set = compileTemplateSet(
      crdOf(`
onCreate:
  deployments: [{ image: nginx, reconcile: true }]
  configMaps: [{ data: { a: b } }]
  resources: [{ apiVersion: example.io/v1, kind: Cache, name: c }, { apiVersion: "{{ .spec.v }}", kind: Thing, name: t }]
onReconcile:
  services: [{ port: 80 }]
onDelete:
  jobs: [{ image: busybox }]
`),
      new KindTable(),
    );
    assert.deepEqual(set.onCreate.map((c) => [c.entry.kind, c.reconcile]), [['configMaps', false], ['deployments', true], ['resources', false], ['resources', false]]);
    assert.deepEqual(set.onReconcile.map((c) => [c.entry.kind, c.reconcile]), [['services', true]]);
    assert.deepEqual(set.onDelete.map((c) => [c.entry.kind, c.reconcile]), [['jobs', false]]);
    assert.deepEqual(
      set.staticKinds.map((k) => `${k.apiVersion} ${k.kind}`).sort(),
      ['apps/v1 Deployment', 'batch/v1 Job', 'example.io/v1 Cache', 'v1 ConfigMap', 'v1 Service'],
    );
    assert.equal(set.empty, false);
  });

  test('unknown short-form fields are refused with a suggestion, all at once', () => {
    assert.throws(
      () => compileTemplateSet(crdOf(`onCreate: { deployments: [{ image: nginx, replica: 2 }], services: [{ port: 80, selectr: {} }] }`), new KindTable()),
      (error: Error) => {
        assert.match(error.message, /onCreate\.deployments\[0\]: unknown field "replica" in deployments; did you mean "replicas"\?/);
        assert.match(error.message, /onCreate\.services\[0\]: unknown field "selectr" in services; did you mean "selector"\?/);
        return true;
      },
    );
  });

  test('a replaced built-in builder is used', () => {
    const kinds = new KindTable();
    kinds.registerKind('configMaps', { build: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'house' } }) });
    const set = compileTemplateSet(crdOf(`onCreate: { configMaps: [{ anything: goes }] }`), kinds);
    assert.equal(set.onCreate[0]?.builder.build({}, { parent: { name: 'p', namespace: 'n' }, ownerLabel: 'o', source: 's' }).metadata?.name, 'house');
  });

  test('an empty operatorBox has an empty set', () => {
    assert.equal(compileTemplateSet(crdOf('default: true'), new KindTable()).empty, true);
  });
});
