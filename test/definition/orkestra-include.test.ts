// Orkestra's `include` (pkg/types/includes.go, ExpandStatusInclude / ExpandValidationInclude /
// ExpandMutationInclude / ExpandReconcilerInclude): fragments read beside the including file, their entries first
// (lists) or under the inline fields (reconciler), problems placed in the fragment's file, one level only.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDefinition } from '../../src/definition/load.js';
import { DefinitionError, type DefinitionProblem } from '../../src/errors.js';

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'katalog-include-'));
  mkdirSync(join(dir, 'include'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function katalog(box: string, entry = ''): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
${entry}      operatorBox:
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

describe('include', () => {
  test('status.include (under emit): the fragment\'s fields first, then the inline ones; the file is listed', async () => {
    const fragment = write('include/status.yaml', 'fields:\n  - path: phase\n    value: "Pending"\n  - path: image\n    value: "{{ .spec.image }}"\n');
    const file = write(
      'status.yaml',
      katalog('        emit:\n          status:\n            include: ./include/status.yaml\n            fields:\n              - path: inline\n                value: "yes"\n'),
    );
    const definition = await loadDefinition(file);
    const fields = definition.crds.get('widget')?.operatorBox.status.fields ?? [];
    assert.deepEqual(fields.map((f) => f.path), ['phase', 'image', 'inline']);
    assert.ok(definition.files.includes(fragment));
  });

  test('validation.include and mutation.include under admission: rules from the fragment first', async () => {
    write('include/rules.yaml', 'rules:\n  - field: spec.image\n    operator: exists\n    message: "spec.image is required"\n');
    write('include/defaults.yaml', 'rules:\n  - field: spec.replicas\n    default: "2"\n');
    const file = write(
      'admission.yaml',
      katalog(
        '        status: { conditions: true }\n',
        '      admission:\n        validation:\n          include: ./include/rules.yaml\n          rules:\n            - field: spec.size\n              max: "10"\n              message: too big\n        mutation:\n          include: ./include/defaults.yaml\n',
      ),
    );
    const admission = (await loadDefinition(file)).crds.get('widget')?.admission;
    assert.deepEqual(admission?.validation.map((r) => r.field), ['spec.image', 'spec.size']);
    assert.deepEqual(admission?.mutation.map((r) => r.field), ['spec.replicas']);
  });

  test('reconcile.include: the fragment fills what the block does not write; inline wins', async () => {
    write('include/reconciler.yaml', 'reconciler:\n  workers: 7\n  resync: 45s\n  queue: { maxDepth: 300 }\n');
    const file = write('reconciler.yaml', katalog('        reconcile:\n          include: ./include/reconciler.yaml\n          workers: 2\n'));
    const settings = (await loadDefinition(file)).crds.get('widget')?.settings;
    assert.equal(settings?.workers?.value, 2);
    assert.equal(settings?.resync?.value, 45_000);
    assert.equal(settings?.maxDepth?.value, 300);
  });

  test('a problem in an included entry is placed in the fragment, at its line and column', async () => {
    const fragment = write('include/bad.yaml', 'fields:\n  - path: ok\n    value: "x"\n  - path: broken\n    value: "{{ .spec.image "\n');
    const file = write('bad.yaml', katalog('        status:\n          include: ./include/bad.yaml\n          fields:\n            - path: inline\n              value: "{{ end }}"\n'));
    const found = await problems(file);
    const inFragment = found.find((p) => p.file === fragment);
    assert.ok(inFragment, JSON.stringify(found));
    assert.equal(inFragment.line, 5);
    assert.equal(inFragment.code, 'template-syntax');
    // The inline entry, now the third, is still placed in the Katalog at its own line.
    const inline = found.find((p) => p.file === file);
    assert.equal(inline?.line, 13);
    assert.match(inline?.path ?? '', /fields\[2\]/);
  });

  test('a missing fragment is an error at the include key; an unknown key in a fragment at its own line', async () => {
    const missing = write('missing.yaml', katalog('        status:\n          include: ./include/nope.yaml\n'));
    const [problem] = await problems(missing);
    assert.equal(problem?.code, 'unreadable-file');
    assert.equal(problem?.file, missing);
    assert.equal(problem?.line, 10);
    const fragment = write('include/extra.yaml', 'fields: []\nrules: []\n');
    const extra = write('extra.yaml', katalog('        status:\n          include: ./include/extra.yaml\n'));
    const [unknown] = await problems(extra);
    assert.equal(unknown?.file, fragment);
    assert.equal(unknown?.line, 2);
    assert.match(unknown?.message ?? '', /unknown field "rules" in an included status fragment/);
  });

  test('an include inside a fragment (and so any cycle) is refused with the chain of files', async () => {
    const fragment = write('include/loop.yaml', 'include: ../loop.yaml\nfields: []\n');
    const file = write('loop.yaml', katalog('        status:\n          include: ./include/loop.yaml\n'));
    const found = await problems(file);
    const nested = found.find((p) => p.code === 'include-nested');
    assert.ok(nested, JSON.stringify(found));
    assert.equal(nested.file, fragment);
    assert.equal(nested.line, 1);
    assert.ok(nested.message.includes(`${file} → ${fragment} → ../loop.yaml`), nested.message);
  });

  test('include on the operatorBox itself names the blocks that read it', async () => {
    const file = write('box.yaml', katalog('        include: ./include/status.yaml\n'));
    const [problem] = await problems(file);
    assert.match(problem?.message ?? '', /include is read inside a block/);
    assert.equal(problem?.line, 9);
  });
});
