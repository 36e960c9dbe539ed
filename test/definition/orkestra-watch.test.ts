// Orkestra's watch leftovers at load (pkg/types/types_observe.go, includes.go): watch[].enqueueGate lifted as
// preReconcile's gates are (or → anyOf, condition shorthand, eventAware dropped), watch[].include replaced in place
// by the fragment's watch list, observe.include put before the inline entries; problems in the fragment's file.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDefinition } from '../../src/definition/load.js';
import { DefinitionError, type DefinitionProblem } from '../../src/errors.js';

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'katalog-watch-'));
  mkdirSync(join(dir, 'include'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function katalog(box: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
${box}`;
}

async function problems(file: string): Promise<DefinitionProblem[]> {
  try {
    await loadDefinition(file);
  } catch (error) {
    assert.ok(error instanceof DefinitionError, String(error));
    return [...error.problems];
  }
  assert.fail('the definition loaded');
}

describe('watch[].enqueueGate', () => {
  test('conditions (with or and the shorthand) and sentinels load into the entry; eventAware is dropped', async () => {
    const file = write(
      'gate.yaml',
      katalog(`        watch:
          - apiVersion: v1
            kind: ConfigMap
            enqueueGate:
              eventAware: true
              when:
                - field: data.enabled
                  equals: "true"
              or:
                - field: metadata.labels.tier
                  equals: gold
          - apiVersion: v1
            kind: Secret
            enqueueGate:
              sentinels: [labelsChanged]
`),
    );
    const definition = await loadDefinition(file);
    const [configMaps, secrets] = definition.crds.get('widget')?.operatorBox.watch ?? [];
    assert.deepEqual(configMaps?.enqueueGate?.when.map((c) => [c.field, c.operator, c.value]), [['data.enabled', 'eq', 'true']]);
    assert.deepEqual(configMaps?.enqueueGate?.anyOf.map((c) => c.field), ['metadata.labels.tier']);
    assert.deepEqual(secrets?.enqueueGate?.sentinels, ['labelsChanged']);
  });

  test('external calls in a watch gate are an error at their line', async () => {
    const file = write('gate-external.yaml', katalog(`        watch:\n          - apiVersion: v1\n            kind: ConfigMap\n            enqueueGate:\n              external:\n                - { name: x, url: "http://127.0.0.1:1/x" }\n`));
    const [problem] = await problems(file);
    assert.equal(problem?.line, 13);
    assert.match(problem?.message ?? '', /enqueueGate makes no external calls/);
  });
});

describe('watch include', () => {
  test('watch[].include is replaced in place by the fragment\'s list; observe.include goes first', async () => {
    const fragment = write('include/watch.yaml', 'watch:\n  - apiVersion: v1\n    kind: Secret\n  - apiVersion: v1\n    kind: ServiceAccount\n');
    write('include/observe.yaml', 'watch:\n  - apiVersion: v1\n    kind: Node\n');
    const file = write(
      'in-place.yaml',
      katalog(`        observe:
          include: ./include/observe.yaml
          watch:
            - apiVersion: v1
              kind: ConfigMap
            - include: ./include/watch.yaml
            - apiVersion: apps/v1
              kind: Deployment
`),
    );
    const definition = await loadDefinition(file);
    assert.deepEqual(definition.crds.get('widget')?.operatorBox.watch?.map((entry) => entry.kind), ['Node', 'ConfigMap', 'Secret', 'ServiceAccount', 'Deployment']);
    assert.ok(definition.files.includes(fragment));
  });

  test('a problem in an included entry is at the fragment\'s line; other fields beside include are an error', async () => {
    const fragment = write('include/bad-watch.yaml', 'watch:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: "{{ .spec.x }}"\n');
    const file = write('bad.yaml', katalog('        watch:\n          - apiVersion: v1\n            kind: Secret\n          - include: ./include/bad-watch.yaml\n            kind: Pod\n'));
    const found = await problems(file);
    const inFragment = found.find((p) => p.file === fragment);
    assert.equal(inFragment?.line, 4, JSON.stringify(found));
    assert.match(inFragment?.message ?? '', /must be literal/);
    const beside = found.find((p) => p.file === file);
    assert.equal(beside?.line, 13);
    assert.match(beside?.message ?? '', /"kind" would be ignored/);
  });

  test('an include inside a watch fragment is refused with the chain of files', async () => {
    write('include/nested.yaml', 'include: ./watch.yaml\nwatch: []\n');
    const file = write('nested.yaml', katalog('        watch:\n          - include: ./include/nested.yaml\n'));
    const [problem] = await problems(file);
    assert.equal(problem?.code, 'include-nested');
    assert.match(problem?.message ?? '', /nested\.yaml → .*include\/nested\.yaml → \.\/watch\.yaml/);
  });
});
