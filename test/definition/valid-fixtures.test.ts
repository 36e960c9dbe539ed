// Valid fixtures: every field of SPEC §2 and §4, Orkestra-style Katalogs, a Komposer, a Motif.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDefinition } from '../../src/definition/load.js';
import type { CrdDefinition, Definition } from '../../src/definition/types.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'definitions', 'valid');

function crd(definition: Definition, name: string): CrdDefinition {
  const found = definition.crds.get(name);
  assert.ok(found, `CRD ${name} exists`);
  return found;
}

const noBox = { onReconcile: {}, onDelete: {}, hooks: undefined, constructor: undefined };

describe('full-katalog.yaml (every field)', async () => {
  const file = join(dir, 'full-katalog.yaml');
  const definition = await loadDefinition(file);

  test('document fields', () => {
    assert.equal(definition.apiVersion, 'katalog.dev/v1');
    assert.equal(definition.kind, 'Katalog');
    assert.equal(definition.name, 'website-operator');
    assert.equal(definition.description, 'Websites with a database behind them.');
    assert.deepEqual(definition.finalizers, ['example.io/katalog-cleanup']);
    assert.deepEqual(definition.files, [file]);
    assert.deepEqual([...definition.crds.keys()], ['database', 'website', 'backup', 'settings']);
  });

  test('order: enabled CRDs only, dependencies first, ties in declaration order', () => {
    assert.deepEqual(definition.order, ['database', 'website', 'settings']);
  });

  test('a CRD entry with every field', () => {
    const cond = { when: [], anyOf: [], inputs: {} };
    assert.deepEqual(crd(definition, 'website'), {
      name: 'website',
      description: 'A static website.',
      apiTypes: { group: 'example.io', version: 'v1beta1', kind: 'Website', plural: 'websites', scope: 'Namespaced', builtIn: false },
      crdFile: join(dir, 'crds', 'website-crd.yaml'),
      enabled: true,
      mode: 'typed',
      namespace: 'web',
      labelSelector: 'tier=frontend,team=web',
      fieldSelector: 'metadata.name!=ignored',
      settings: {
        workers: { value: 4, source: 'definition' },
        resync: { value: 90_000, source: 'definition' },
        maxDepth: { value: 500, source: 'definition' },
        failureThreshold: { value: 3, source: 'definition' },
      },
      dependsOn: [{ name: 'database', condition: 'healthy' }],
      operatorBox: {
        default: true,
        finalizers: ['example.io/cleanup', 'example.io/katalog-cleanup'],
        onCreate: {
          deployments: [
            {
              kind: 'deployments',
              path: 'spec.crds.website.operatorBox.onCreate.deployments[0]',
              reconcile: true,
              ...cond,
              body: {
                name: '{{ .metadata.name }}-web',
                image: '{{ .spec.image | default "nginx:1.27" }}',
                replicas: '{{ .spec.replicas }}',
                port: 8080,
                labels: { app: '{{ .metadata.name }}' },
                annotations: { 'example.io/owner': 'web-team' },
              },
            },
          ],
          services: [
            {
              kind: 'services',
              path: 'spec.crds.website.operatorBox.onCreate.services[0]',
              reconcile: false,
              ...cond,
              body: { name: '{{ .metadata.name }}-svc', port: 80, targetPort: 8080, labels: { app: '{{ .metadata.name }}' } },
            },
          ],
          resources: [
            {
              kind: 'resources',
              path: 'spec.crds.website.operatorBox.onCreate.resources[0]',
              reconcile: false,
              when: [{ field: 'spec.tier', operator: 'eq', value: 'gold' }],
              anyOf: [
                { field: 'spec.replicas', operator: 'gt', value: 1, valueType: 'int' },
                { field: 'spec.tls', operator: 'exists' },
              ],
              inputs: {},
              body: {
                apiVersion: 'networking.k8s.io/v1',
                kind: 'NetworkPolicy',
                metadata: { name: '{{ .metadata.name }}-policy' },
                spec: { podSelector: {} },
              },
            },
          ],
        },
        onReconcile: {
          configMaps: [
            {
              kind: 'configMaps',
              path: 'spec.crds.website.operatorBox.onReconcile.configMaps[0]',
              reconcile: false,
              ...cond,
              body: {
                name: '{{ .metadata.name }}-config',
                namespace: '{{ .metadata.namespace }}',
                data: { 'index.html': '<h1>{{ .spec.title }}</h1>' },
              },
            },
          ],
        },
        onDelete: {
          jobs: [
            {
              kind: 'jobs',
              path: 'spec.crds.website.operatorBox.onDelete.jobs[0]',
              reconcile: false,
              ...cond,
              body: { name: '{{ .metadata.name }}-backup', image: 'backup:1', command: ['backup', '{{ .metadata.name }}'] },
            },
          ],
        },
        hooks: { function: 'WebsiteHooks', runHooksFirst: true },
        constructor: undefined,
        status: {
          conditions: true,
          fields: [
            { path: 'phase', value: '{{ if .spec.paused }}Paused{{ else }}Running{{ end }}', when: [], anyOf: [] },
            {
              path: 'url',
              value: 'https://{{ .spec.host }}',
              when: [{ field: 'spec.host', operator: 'exists' }],
              anyOf: [{ field: 'spec.public', operator: 'eq', value: true, valueType: 'bool' }],
            },
          ],
        },
      },
      finalizers: ['example.io/katalog-cleanup', 'example.io/cleanup'],
      file,
    });
  });

  test('a disabled CRD with a constructor and Orkestra queue aliases', () => {
    const backup = crd(definition, 'backup');
    assert.equal(backup.enabled, false);
    assert.equal(backup.mode, 'dynamic');
    assert.equal(backup.apiTypes.scope, 'Cluster');
    assert.deepEqual(backup.settings, {
      resync: { value: 600_000, source: 'definition' },
      maxDepth: { value: 50, source: 'definition' },
      failureThreshold: { value: 10, source: 'definition' },
    });
    assert.deepEqual(backup.dependsOn, [{ name: 'database', condition: 'started' }]);
    assert.deepEqual(backup.operatorBox, {
      default: false,
      finalizers: [],
      onCreate: {},
      ...noBox,
      constructor: { function: 'NewBackupReconciler' },
      status: { conditions: false, fields: [] },
    });
  });

  test('a built-in kind named by kind alone, with defaults everywhere', () => {
    const settings = crd(definition, 'settings');
    assert.deepEqual(settings.apiTypes, { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', scope: 'Namespaced', builtIn: true });
    assert.equal(settings.labelSelector, 'app.kubernetes.io/part-of=website');
    assert.deepEqual(settings.settings, {});
    assert.equal(settings.crdFile, undefined);
    assert.equal(settings.mode, undefined);
    assert.deepEqual(settings.operatorBox, { default: true, finalizers: [], onCreate: {}, ...noBox, status: { conditions: true, fields: [] } });
    assert.deepEqual(settings.finalizers, ['example.io/katalog-cleanup']);
  });

  test('the result is deeply frozen', () => {
    assert.ok(Object.isFrozen(definition));
    assert.ok(Object.isFrozen(definition.order));
    const website = crd(definition, 'website');
    assert.ok(Object.isFrozen(website.operatorBox.onCreate.deployments?.[0]?.body));
    assert.ok(Object.isFrozen(website.settings.workers));
    assert.throws(() => (definition.crds as Map<string, CrdDefinition>).set('x', website), TypeError);
    assert.throws(() => (definition.crds as Map<string, CrdDefinition>).delete('website'), TypeError);
    assert.throws(() => (definition.crds as Map<string, CrdDefinition>).clear(), TypeError);
    assert.equal(definition.crds.size, 4);
  });
});

describe('Orkestra-style Katalogs', () => {
  test('map form and list form (orkestra.orkspace.io/v1, Orkestra queue names) normalise to the same CRDs', async () => {
    const mapForm = await loadDefinition(join(dir, 'orkestra-map.yaml'));
    const listForm = await loadDefinition(join(dir, 'orkestra-list.yaml'));
    assert.equal(mapForm.apiVersion, 'orkestra.orkspace.io/v1');
    const strip = (d: Definition) => [...d.crds.values()].map((c) => ({ ...c, file: undefined }));
    assert.deepEqual(strip(mapForm), strip(listForm));
    assert.deepEqual(mapForm.order, ['catalog', 'store']);
    assert.deepEqual(crd(mapForm, 'store').settings, {
      workers: { value: 2, source: 'definition' },
      resync: { value: 60_000, source: 'definition' },
      maxDepth: { value: 100, source: 'definition' },
      failureThreshold: { value: 5, source: 'definition' },
    });
    assert.deepEqual(crd(mapForm, 'store').dependsOn, [{ name: 'catalog', condition: 'healthy' }]);
  });
});

describe('Komposer with two files and an inline override', async () => {
  const base = join(dir, 'komposer');
  const definition = await loadDefinition(join(base, 'komposer.yaml'));

  test('kind, files read in order, CRDs in declaration order, start order', () => {
    assert.equal(definition.kind, 'Komposer');
    assert.deepEqual(definition.files, [join(base, 'komposer.yaml'), join(base, 'shop.yaml'), join(base, 'billing.yaml')]);
    assert.deepEqual([...definition.crds.keys()], ['store', 'invoice', 'audit']);
    assert.deepEqual(definition.order, ['invoice', 'store', 'audit']);
  });

  test('an override replaces only the fields it sets; its settings report the source komposer', () => {
    const store = crd(definition, 'store');
    assert.deepEqual(store.settings, {
      workers: { value: 8, source: 'komposer' },
      resync: { value: 60_000, source: 'definition' },
      maxDepth: { value: 250, source: 'komposer' },
      failureThreshold: { value: 5, source: 'definition' },
    });
    assert.deepEqual(store.apiTypes, { group: 'shop.example.io', version: 'v2', kind: 'Store', plural: 'stores', scope: 'Namespaced', builtIn: false });
    assert.equal(store.crdFile, join(base, 'store-crd.yaml'), 'crdFile resolves against the file that declares it');
    assert.equal(store.file, join(base, 'shop.yaml'));
    assert.deepEqual(store.dependsOn, [{ name: 'invoice', condition: 'started' }]);
    assert.equal(store.operatorBox.onCreate.services?.[0]?.path, 'spec.crds.store.operatorBox.onCreate.services[0]');
  });

  test('finalizers: the Komposer\'s, then the imported Katalog\'s', () => {
    assert.deepEqual(crd(definition, 'store').finalizers, ['commerce.example.io/audit', 'shop.example.io/cleanup']);
    assert.deepEqual(crd(definition, 'invoice').finalizers, ['commerce.example.io/audit']);
  });

  test('an inline entry that matches no import adds a CRD', () => {
    const audit = crd(definition, 'audit');
    assert.equal(audit.file, join(base, 'komposer.yaml'));
    assert.deepEqual(audit.settings, { resync: { value: 300_000, source: 'komposer' } });
    assert.equal(audit.apiTypes.builtIn, true);
    assert.deepEqual(crd(definition, 'invoice').settings, { workers: { value: 3, source: 'definition' } });
  });
});

describe('Motif imports', async () => {
  const base = join(dir, 'motif');
  const definition = await loadDefinition(join(base, 'katalog.yaml'));
  const blog = crd(definition, 'blog');

  test('Motif entries follow the CRD\'s own onCreate entries, once per import', () => {
    assert.deepEqual(Object.keys(blog.operatorBox.onCreate), ['configMaps', 'deployments', 'services']);
    assert.deepEqual(
      blog.operatorBox.onCreate.deployments?.map((e) => e.path),
      ['spec.crds.blog.imports[0].resources.deployments[0]', 'spec.crds.blog.imports[1].resources.deployments[0]'],
    );
    assert.deepEqual(blog.operatorBox.onCreate.configMaps?.[0]?.inputs, {});
  });

  test('inputs are the Motif defaults merged with with:', () => {
    const [first, second] = blog.operatorBox.onCreate.services ?? [];
    assert.deepEqual(first?.inputs, { image: 'ghost:5', port: 2368 });
    assert.deepEqual(second?.inputs, { image: '{{ .spec.image }}', port: 8080, host: 'blog.example.io' });
    assert.deepEqual(first?.when, [{ field: '{{ .inputs.host }}', operator: 'exists' }]);
    assert.equal(blog.operatorBox.onCreate.deployments?.[0]?.reconcile, true);
  });

  test('the Motif file is read once and listed in files', () => {
    assert.deepEqual(definition.files, [join(base, 'katalog.yaml'), join(base, 'motifs', 'web.yaml')]);
  });
});
