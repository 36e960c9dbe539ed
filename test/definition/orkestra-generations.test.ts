// How each generation of Orkestra's format is normalised to the one model, and the errors that name a
// generation. Shapes come from the corpus (test/fixtures/orkestra/), cut down to the field under test.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDefinition } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';

const corpus = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'orkestra');

function problems(text: string, source = 'k.yaml'): DefinitionError['problems'] {
  try {
    parseDefinition(text, { source });
  } catch (error) {
    assert.ok(error instanceof DefinitionError);
    return error.problems;
  }
  return assert.fail('expected problems');
}

const TYPES = 'apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Website, plural: websites }';

describe('Orkestra generations normalise to one model', () => {
  test('early: list form, reconciler block, konductor apiVersion, CRD-level workers (iAlexeze early/02)', () => {
    const definition = parseDefinition(`apiVersion: orkestra.konductor.io/v1Alpha
kind: Katalog
metadata: { name: w }
spec:
  crds:
    - name: website
      ${TYPES}
      workers: 2
      reconciler:
        default: true
        onCreate:
          deployments:
            - image: "{{ .spec.image }}"
`);
    const crd = definition.crds.get('website');
    assert.equal(definition.apiVersion, 'orkestra.orkspace.io/v1');
    assert.equal(crd?.templateDialect, 'orkestra');
    assert.deepEqual(crd?.settings.workers, { value: 2, source: 'definition' });
    assert.equal(crd?.operatorBox.onCreate.deployments?.length, 1);
  });

  test('current: operatorBox.reconciler carries workers, resync, queue, hooks (orkspace current/07)', () => {
    const definition = parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      namespaced: false
      operatorBox:
        reconciler:
          workers: 4
          resync: 10s
          queue: { maxDepth: 100, failureThreshold: 3, shared: true }
          hooks: { location: github.com/x/hooks, function: WebsiteHooks, alias: h, resources: [{ kind: Service }] }
`);
    const crd = definition.crds.get('website');
    assert.equal(crd?.settings.workers?.value, 4);
    assert.equal(crd?.settings.resync?.value, 10_000);
    assert.equal(crd?.settings.maxDepth?.value, 100);
    assert.equal(crd?.settings.failureThreshold?.value, 3);
    assert.deepEqual(crd?.operatorBox.hooks, { function: 'WebsiteHooks', runHooksFirst: false });
    assert.equal(crd?.apiTypes.scope, 'Cluster');
  });

  test('crdFile alone: apiTypes come from the CustomResourceDefinition file', () => {
    const definition = parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    database:
      crdFile: ./crd-database.yaml
`, { source: join(corpus, 'current', '07-crd-file', 'inline.yaml') });
    const types = definition.crds.get('database')?.apiTypes;
    assert.deepEqual(types, { group: 'crdfile.orkestra.io', version: 'v1alpha1', kind: 'Database', plural: 'databases', scope: 'Namespaced', builtIn: false });
  });

  test('condition shorthand, or, once, status types (orkspace current/05-when-conditions, 08-state-machine)', () => {
    const definition = parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      allowedNamespaces: [demo-01]
      operatorBox:
        status:
          fields:
            - path: replicas
              value: "{{ .spec.replicas }}"
            - path: ready
              value: "{{ allReplicasReady .children.deployment }}"
              type: boolean
        onCreate:
          secrets:
            - name: s
              once: true
              or:
                - field: spec.tier
                  notEquals: free
                - field: spec.debug
                  exists: true
`);
    const crd = definition.crds.get('website');
    const secret = crd?.operatorBox.onCreate.secrets?.[0];
    assert.deepEqual(secret?.anyOf, [
      { field: 'spec.tier', operator: 'neq', value: 'free' },
      { field: 'spec.debug', operator: 'exists' },
    ]);
    assert.equal(secret?.reconcile, false);
    assert.deepEqual(crd?.operatorBox.status.fields.map((f) => f.type), ['string', 'bool']);
    assert.deepEqual(crd?.namespaceGuard, { allowed: ['demo-01'], restricted: [] });
  });
});

describe('errors keep their place and name the generation', () => {
  test('an Orkestra-only field in a katalog.dev/v1 document says which generation it belongs to', () => {
    const found = problems(`apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      reconciler:
        default: true
`);
    assert.equal(found.length, 1);
    assert.equal(found[0]?.code, 'orkestra-field');
    assert.match(found[0]?.message ?? '', /early Orkestra/);
    assert.deepEqual([found[0]?.file, found[0]?.line, found[0]?.column], ['k.yaml', 8, 7]);
  });

  test('workers on the CRD (documented) and in operatorBox.reconciler (current) is a conflict naming both', () => {
    const found = problems(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      workers: 2
      operatorBox:
        reconciler:
          workers: 4
`);
    assert.equal(found[0]?.code, 'generation-conflict');
    assert.match(found[0]?.message ?? '', /documented Orkestra.*current Orkestra/);
    assert.deepEqual([found[0]?.line, found[0]?.column], [11, 11]);
  });

  test('a moved field keeps the position of what was written (reconciler.workers: 0 at its own line)', () => {
    const found = problems(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      operatorBox:
        reconciler:
          workers: 0
`);
    assert.equal(found[0]?.code, 'invalid-value');
    assert.deepEqual([found[0]?.line, found[0]?.column], [10, 20]);
  });

  test('a refused feature is named with a link, never "unknown field"', () => {
    const found = problems(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      operatorBox:
        providers: [{ name: audit }]
`);
    assert.deepEqual(found.map((p) => p.code), ['orkestra-unsupported']);
    assert.match(found[0]?.message ?? '', /^providers \("providers"\) is not supported by katalog: .*see docs\/orkestra-compatibility\.md#refused-runtime-services$/);
    assert.deepEqual([found[0]?.line, found[0]?.column], [9, 9]);
  });
});
