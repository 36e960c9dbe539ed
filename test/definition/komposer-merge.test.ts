// An Orkestra Komposer's inline CRD entry merged into the imported Katalog's by nesting, as Orkestra's merger does
// (mergeCRDEntry in pkg/merger/merger.go of github.com/orkspace/orkestra, and of iAlexeze/orkestra @
// b05d57eb962f5e1007e841f8b3dc65bd0d7d1571: reconcile settings per field, a declared onCreate/onReconcile/onDelete/
// hooks/constructor/status replaces the imported one, finalizers and namespace lists are additive), with every
// problem of the merged box placed in the file that wrote the part. A katalog.dev/v1 Komposer keeps katalog's
// field-by-field override.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDefinition } from '../../src/definition/index.js';
import { DefinitionError } from '../../src/errors.js';

const ORK = 'orkestra.orkspace.io/v1';

const KATALOG = (apiVersion = ORK): string => `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: web }
spec:
  crds:
    website:
      apiTypes: { group: demo.io, version: v1, kind: Website, plural: websites }
      allowedNamespaces: [default]
      operatorBox:
        finalizers: [demo.io/cleanup]
        onCreate:
          deployments:
            - name: "{{ .metadata.name }}"
              image: "{{ .spec.image }}"
          services:
            - name: "{{ .metadata.name }}-svc"
              port: 80
        status:
          fields:
            - path: phase
              value: Running
`;

const komposer = (crd: string, apiVersion = ORK): string => `apiVersion: ${apiVersion}
kind: Komposer
metadata: { name: k }
spec:
  imports:
    files: [./katalog.yaml]
  crds:
    website:
${crd}`;

function dir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'katalog-komposer-merge-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

async function load(crd: string, katalog = KATALOG()) {
  const root = dir({ 'katalog.yaml': katalog, 'komposer.yaml': komposer(crd) });
  const definition = await loadDefinition(join(root, 'komposer.yaml'));
  const website = definition.crds.get('website');
  assert.ok(website);
  return website;
}

async function problems(crd: string, katalog = KATALOG()): Promise<string[]> {
  const root = dir({ 'katalog.yaml': katalog, 'komposer.yaml': komposer(crd) });
  try {
    await loadDefinition(join(root, 'komposer.yaml'));
  } catch (error) {
    assert.ok(error instanceof DefinitionError, String(error));
    return error.problems.map((p) => `${(p.file ?? '?').replace(`${root}/`, '')}:${p.line ?? '?'}:${p.column ?? '?'} ${p.message}`);
  }
  return assert.fail('the Komposer loaded');
}

describe('Orkestra Komposer override: nested', () => {
  test('operatorBox.reconciler.workers overrides the setting and keeps the imported templates, status and finalizers', async () => {
    const website = await load('      operatorBox:\n        reconciler:\n          workers: 5\n          resync: 45s\n');
    assert.deepEqual(website.settings.workers, { value: 5, source: 'komposer' });
    assert.equal(website.settings.resync?.value, 45_000);
    assert.deepEqual(Object.keys(website.operatorBox.onCreate), ['deployments', 'services']);
    assert.deepEqual(website.operatorBox.status.fields.map((field) => field.path), ['phase']);
    assert.ok(website.finalizers.includes('demo.io/cleanup'));
  });

  test('a declared onCreate replaces the imported onCreate whole; status merges per key; finalizers and namespaces add up', async () => {
    const website = await load(`      allowedNamespaces: [staging]
      operatorBox:
        finalizers: [demo.io/audit, demo.io/cleanup]
        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}-cfg"
              data: { a: b }
        runtime:
          ignoreObservedGeneration: true
`);
    assert.deepEqual(Object.keys(website.operatorBox.onCreate), ['configMaps'], 'the imported deployments and services are replaced');
    assert.deepEqual(website.operatorBox.status.fields.map((field) => field.path), ['phase'], 'the imported status fields stay');
    assert.equal(website.operatorBox.status.observedGeneration, false, 'the override\'s switch');
    assert.deepEqual(website.finalizers.filter((name) => name.startsWith('demo.io/')), ['demo.io/cleanup', 'demo.io/audit']);
    assert.deepEqual(website.namespaceGuard?.allowed, ['default', 'staging']);
  });

  test('status.fields declared in the override replace the imported list', async () => {
    const website = await load('      operatorBox:\n        status:\n          fields:\n            - path: ready\n              value: "yes"\n');
    assert.deepEqual(website.operatorBox.status.fields.map((field) => field.path), ['ready']);
    assert.deepEqual(Object.keys(website.operatorBox.onCreate), ['deployments', 'services']);
  });
});

describe('Orkestra Komposer override: problems in the merged box point where each part is written', () => {
  test('a bad template in the override is placed in the Komposer; one in the imported part in the Katalog', async () => {
    const broken = KATALOG().replace('value: Running', 'value: "{{ .status.x "');
    const found = await problems('      operatorBox:\n        onReconcile:\n          configMaps:\n            - name: "{{ .metadata.name "\n              data: { a: b }\n', broken);
    assert.ok(found.some((p) => /^komposer\.yaml:12:\d+ invalid template/.test(p)), found.join('\n'));
    assert.ok(found.some((p) => /^katalog\.yaml:21:\d+ invalid template/.test(p)), found.join('\n'));
  });

  test('a rule across parts (default: false without a constructor) names the Komposer line that set it', async () => {
    const found = await problems('      operatorBox:\n        reconciler:\n          default: false\n');
    assert.ok(found.some((p) => p.startsWith('komposer.yaml:11:20 operatorBox.default is false but no constructor')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('katalog.yaml:11:9 onCreate templates are never applied')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('katalog.yaml:10:9 finalizers are not managed')), found.join('\n'));
  });
});

describe('katalog.dev/v1 Komposer override: field by field (unchanged)', () => {
  test('an inline operatorBox replaces the imported one whole', async () => {
    const root = dir({
      'katalog.yaml': KATALOG('katalog.dev/v1'),
      'komposer.yaml': komposer('      operatorBox:\n        onCreate:\n          configMaps:\n            - name: "{{ .metadata.name }}-cfg"\n              data: { a: b }\n', 'katalog.dev/v1'),
    });
    const website = (await loadDefinition(join(root, 'komposer.yaml'))).crds.get('website');
    assert.deepEqual(Object.keys(website?.operatorBox.onCreate ?? {}), ['configMaps']);
    assert.deepEqual(website?.operatorBox.status.fields, [], 'the imported status went with the box');
  });
});
