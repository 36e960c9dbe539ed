// User-defined notes and Katalog-level spec.imports at load: forms, merging (local over imported), conflicts,
// shadowing built-ins, cycles and bad expressions as problems at file:line:column, and the notes reaching every
// CRD's templates. Orkestra's rules: orkspace/orkestra pkg/types/types_notes.go (Merge: local wins; MergeImport:
// two imports with one name conflict; shadow acknowledges overriding a built-in) and pkg/katalog/motif_imports.go
// (spec.imports takes a Motif's notes only) @ eacb2604bc775f58156f6f49907c4e5d494ebf30.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { DefinitionError } from '../../src/errors.js';
import { loadDefinition, parseDefinition } from '../../src/definition/index.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { compileTemplate } from '../../src/template/index.js';

const CRD = `
spec:
  crds:
    app:
      apiTypes: { group: demo.io, version: v1, kind: App, plural: apps }
      operatorBox:
        status:
          fields:
            - path: host
              value: "{{ host }}"
`;
const katalog = (notes: string, crd = CRD): string => `apiVersion: orkestra.orkspace.io/v1\nkind: Katalog\nmetadata: { name: n }\n${crd}\n${notes}`;

function problems(text: string, source = 'katalog.yaml'): string[] {
  try {
    parseDefinition(text, { source });
  } catch (error) {
    if (error instanceof DefinitionError) return error.problems.map((p) => `${p.line ?? '?'}:${p.column ?? '?'} ${p.message}`);
    throw error;
  }
  return [];
}

function dir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'katalog-notes-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

const motif = (notes: string): string => `apiVersion: orkestra.orkspace.io/v1\nkind: Motif\nmetadata: { name: m }\n${notes}`;

describe('user-defined notes at load', () => {
  test('a list (iAlexeze) and functions: [...] (orkspace) both load; the CRD carries the notes', () => {
    for (const block of ['notes:\n  - name: host\n    expression: "{{ .metadata.name }}.svc"', 'notes:\n  functions:\n    - name: host\n      description: d\n      expression: "{{ .metadata.name }}.svc"']) {
      const definition = parseDefinition(katalog(block));
      assert.deepEqual(definition.crds.get('app')?.notes, [{ name: 'host', expression: '{{ .metadata.name }}.svc' }]);
    }
  });

  test('a template calling a note that is not declared still fails at load', () => {
    assert.match(problems(katalog('')).join('\n'), /function "host" not defined/);
  });

  test('malformed notes are problems at their place', () => {
    const found = problems(katalog('notes:\n  - name: host\n    expression: "{{ .x }}"\n    colour: red\n  - name: 2bad\n    expression: x\n  - name: host\n    expression: y\n  - name: noexpr'));
    assert.ok(found.includes('18:5 unknown field "colour" in a note'), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('19:11 a note needs a name')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('21:11 note "host" is declared twice')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('23:5 a note needs an expression')), found.join('\n'));
  });

  test('notes.include: the fragment\'s functions first, then the inline ones; a problem is placed in the fragment', async () => {
    const root = dir({
      'notes.yaml': 'functions:\n  - name: host\n    expression: "{{ .metadata.name }}.svc"\n',
      'k.yaml': katalog('notes:\n  include: ./notes.yaml\n  functions:\n    - name: port\n      expression: "8080"'),
      'bad-notes.yaml': 'functions:\n  - name: host\n    expression: "{{ .metadata.name "\n',
      'bad.yaml': katalog('notes:\n  include: ./bad-notes.yaml'),
      'nested-notes.yaml': 'include: ./notes.yaml\nfunctions: []\n',
      'nested.yaml': katalog('notes:\n  include: ./nested-notes.yaml\n  functions:\n    - name: host\n      expression: h'),
    });
    const definition = await loadDefinition(join(root, 'k.yaml'));
    assert.deepEqual(definition.crds.get('app')?.notes, [
      { name: 'host', expression: '{{ .metadata.name }}.svc' },
      { name: 'port', expression: '8080' },
    ]);
    assert.ok(definition.files.includes(join(root, 'notes.yaml')));
    const bad = await loadDefinition(join(root, 'bad.yaml')).then(() => assert.fail('loaded'), (error: unknown) => (error instanceof DefinitionError ? error.problems : assert.fail(String(error))));
    assert.ok(bad.some((p) => p.file === join(root, 'bad-notes.yaml') && p.line === 3 && p.message.includes('invalid note "host"')), JSON.stringify(bad));
    await assert.rejects(loadDefinition(join(root, 'nested.yaml')), /an included file cannot include another .*nested-notes\.yaml → \.\/notes\.yaml/);
  });

  test('a note named as a built-in needs shadow: true, and then replaces it', () => {
    assert.match(problems(katalog('notes:\n  - name: host\n    expression: h\n  - name: upper\n    expression: U')).join('\n'), /18:11 note "upper" has the name of a built-in function; add shadow: true/);
    const crd = CRD.replace('"{{ host }}"', '"{{ upper }}"');
    const definition = parseDefinition(katalog('notes:\n  - name: upper\n    shadow: true\n    expression: "{{ .metadata.name }}!"', crd));
    const notes = definition.crds.get('app')?.notes ?? [];
    assert.equal(compileTemplate('{{ upper }}', { dialect: 'orkestra', notes }).render({ metadata: { name: 'a' } }), 'a!');
  });

  test('a bad expression is placed inside it; a cycle names its chain', () => {
    const bad = problems(katalog('notes:\n  - name: host\n    expression: "a {{ nope }}"'));
    assert.equal(bad.length, 1, bad.join('\n'));
    assert.ok(bad.some((p) => /^17:23 invalid note "host": function "nope" not defined/.test(p)), bad.join('\n'));
    const cycle = problems(katalog('notes:\n  - name: host\n    expression: "{{ port }}"\n  - name: port\n    expression: "{{ host }}"'));
    assert.ok(cycle.some((p) => p.includes('notes call each other in a cycle: host → port → host')), cycle.join('\n'));
  });

  test('a katalog.dev/v1 document has no notes field', () => {
    const text = katalog('notes:\n  - name: host\n    expression: h').replace('orkestra.orkspace.io/v1', 'katalog.dev/v1');
    assert.match(problems(text).join('\n'), /notes/);
  });

  test('definitionToInput writes the notes back, and the result loads to the same notes', () => {
    const definition = parseDefinition(katalog('notes:\n  - name: host\n    expression: "{{ .metadata.name }}"'));
    const again = parseDefinition(stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('app')?.notes, definition.crds.get('app')?.notes);
  });
});

describe('Katalog-level spec.imports', () => {
  const withImports = (imports: string, notes = ''): string => katalog(notes, CRD.replace('spec:\n', `spec:\n  imports:\n${imports}\n`));

  test("a Motif's notes reach every CRD; the Katalog's own note of the same name wins", async () => {
    const root = dir({
      'm.yaml': motif('notes:\n  - name: host\n    expression: from-motif\n  - name: port\n    expression: "8080"'),
      'k.yaml': withImports('    - motif: ./m.yaml', 'notes:\n  - name: host\n    expression: local'),
    });
    const definition = await loadDefinition(join(root, 'k.yaml'));
    assert.deepEqual(definition.crds.get('app')?.notes, [
      { name: 'host', expression: 'local' },
      { name: 'port', expression: '8080' },
    ]);
  });

  test('two Motifs declaring one note differently conflict, unless the Katalog declares it', async () => {
    const files = {
      'a.yaml': motif('notes:\n  - name: host\n    expression: a'),
      'b.yaml': motif('notes:\n  - name: host\n    expression: b'),
      'k.yaml': withImports('    - motif: ./a.yaml\n    - motif: ./b.yaml'),
      'k2.yaml': withImports('    - motif: ./a.yaml\n    - motif: ./b.yaml', 'notes:\n  - name: host\n    expression: mine'),
    };
    const root = dir(files);
    await assert.rejects(loadDefinition(join(root, 'k.yaml')), /note "host" is declared both in Motif ".\/a.yaml" and in Motif ".\/b.yaml"/);
    assert.equal((await loadDefinition(join(root, 'k2.yaml'))).crds.get('app')?.notes?.[0]?.expression, 'mine');
  });

  test('an import that is not a Motif, a missing file and an OCI import are problems', async () => {
    const root = dir({ 'k.yaml': withImports('    - motif: ./none.yaml\n    - motif: oci://registry/m:1\n    - motif: ./k.yaml') });
    await assert.rejects(loadDefinition(join(root, 'k.yaml')), (error: unknown) => {
      const text = String(error);
      return /cannot read ".\/none.yaml": file not found/.test(text) && /OCI and remote Motif imports/.test(text) && /".\/k.yaml" is a Katalog, not a Motif/.test(text);
    });
  });

  test('a Komposer: its own notes override the imported Katalogs\' notes (09-notes/04-komposer)', async () => {
    const root = dir({
      'k.yaml': katalog('notes:\n  - name: host\n    expression: katalog'),
      'komposer.yaml': 'apiVersion: orkestra.orkspace.io/v1\nkind: Komposer\nmetadata: { name: k }\nimports:\n  files: [./k.yaml]\nnotes:\n  - name: host\n    expression: komposer\n',
    });
    const definition = await loadDefinition(join(root, 'komposer.yaml'));
    assert.deepEqual(definition.crds.get('app')?.notes, [{ name: 'host', expression: 'komposer' }]);
  });
});
