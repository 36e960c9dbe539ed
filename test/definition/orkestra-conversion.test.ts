// Orkestra's `conversion` on a CRD entry (orkspace/orkestra pkg/types/conversion.go: storageVersion, paths
// [{from, to, spec}], participant, updateCRD, include) loads into CrdDefinition.conversion; mistakes are problems at
// file:line:column; the early single-direction form is refused by name.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDefinition, parseDefinition } from '../../src/definition/index.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

function katalog(conversion: string, apiVersion = 'orkestra.orkspace.io/v1'): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      apiTypes: { group: demo.orkestra.io, version: v1, kind: Website, plural: websites }
      conversion:
${conversion}`;
}

const PATHS = `        storageVersion: v1
        paths:
          - from: v1alpha1
            to: v1
            spec:
              image: "{{ .spec.image }}"
              seo: { enabled: false }
          - from: v1
            to: v1alpha1
            spec:
              image: "{{ .spec.image }}"
              theme: default
`;

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'katalog-conversion-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('conversion: loading', () => {
  test('storageVersion and paths as Orkestra writes them load into the model, in declared order', () => {
    const crd = parseDefinition(katalog(PATHS)).crds.get('website');
    assert.deepEqual(crd?.conversion, {
      storageVersion: 'v1',
      paths: [
        { from: 'v1alpha1', to: 'v1', spec: { image: '{{ .spec.image }}', seo: { enabled: false } } },
        { from: 'v1', to: 'v1alpha1', spec: { image: '{{ .spec.image }}', theme: 'default' } },
      ],
      participant: false,
      updateCrd: false,
    });
  });

  test('a katalog.dev/v1 document writes the same block, and it serialises back to an equal definition', () => {
    const definition = parseDefinition(katalog(PATHS, 'katalog.dev/v1'));
    const again = parseDefinition(JSON.stringify({ apiVersion: 'katalog.dev/v1', kind: 'Katalog', metadata: { name: 'w' }, spec: definitionToInput(definition).spec }));
    assert.deepEqual(again.crds.get('website')?.conversion, definition.crds.get('website')?.conversion);
  });

  test('participant and updateCRD alone load (no paths, no storageVersion needed)', () => {
    const crd = parseDefinition(katalog('        participant: true\n        updateCRD: true\n')).crds.get('website');
    assert.deepEqual(crd?.conversion, { storageVersion: undefined, paths: [], participant: true, updateCrd: true });
  });

  test('paths without storageVersion: an error at the conversion key', () => {
    const [problem, ...rest] = loadProblems(katalog(PATHS.replace('        storageVersion: v1\n', '')));
    assert.equal(rest.length, 0);
    assert.equal(problem?.code, 'missing-storage-version');
    assert.equal(problem?.path, 'spec.crds.website.conversion');
    assert.equal(problem?.line, 8);
  });

  test('a path to its own version, a pair declared twice, and a template that does not compile: each at its place', () => {
    const text = katalog(`        storageVersion: v1
        paths:
          - { from: v1, to: v1, spec: {} }
          - { from: v1alpha1, to: v1, spec: { a: "{{ .spec.a }}" } }
          - { from: v1alpha1, to: v1, spec: { a: "x" } }
          - { from: v1, to: v1alpha1, spec: { a: "{{ .spec.a " } }
`);
    const found = loadProblems(text).map((p) => `${p.code} ${p.path} ${p.line ?? '?'}`);
    assert.deepEqual(found.slice(0, 2), ['invalid-value spec.crds.website.conversion.paths[0].to 11', 'duplicate-conversion-path spec.crds.website.conversion.paths[2] 13']);
    assert.match(found[2] ?? '', /^\S+ spec\.crds\.website\.conversion\.paths\[3\]\.spec\.a 14$/);
    assert.equal(found.length, 3);
  });

  test('a version that is not a bare version name, and an unknown key, are schema errors', () => {
    const found = loadProblems(katalog('        storageVersion: demo.orkestra.io/v1\n        strategy: Webhook\n')).map((p) => p.path);
    assert.ok(found.includes('spec.crds.website.conversion.storageVersion'), found.join(', '));
    assert.ok(found.includes('spec.crds.website.conversion.strategy'), found.join(', '));
  });

  test('the early single-direction form (from, to, mapping, defaults, drop) is refused by name', () => {
    const problems = loadProblems(katalog('        from: v1alpha1\n        to: v1\n        mapping: { a: b }\n'));
    assert.deepEqual(problems.map((p) => p.path), ['spec.crds.website.conversion.from', 'spec.crds.website.conversion.to', 'spec.crds.website.conversion.mapping']);
    for (const problem of problems) {
      assert.equal(problem.code, 'orkestra-unsupported');
      assert.match(problem.message, /early single-direction mapping form.*docs\/orkestra-compatibility\.md#conversion/);
    }
  });

  test('conversion.include: the fragment\'s paths first, then the inline ones; the fragment is listed', async () => {
    const fragment = join(dir, 'paths.yaml');
    writeFileSync(fragment, 'paths:\n  - from: v1beta1\n    to: v1\n    spec: { image: "{{ .spec.image }}" }\n');
    const file = join(dir, 'katalog.yaml');
    writeFileSync(file, katalog(`        include: ./paths.yaml\n${PATHS}`));
    const definition = await loadDefinition(file);
    assert.deepEqual(definition.crds.get('website')?.conversion?.paths.map((p) => `${p.from}>${p.to}`), ['v1beta1>v1', 'v1alpha1>v1', 'v1>v1alpha1']);
    assert.ok(definition.files.includes(fragment));
  });
});
