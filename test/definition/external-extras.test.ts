// An external call's `include`, `retryBackoff`, `sleep` and `fires.reconcile: false` in the definition
// (Orkestra: pkg/types/external.go, includes_external.go): Orkestra's and katalog.dev/v1's forms load into one
// model and write back to input that loads the same; include fragments are read beside the including file, in
// place, one level, with problems at the fragment's file:line:column; absurd waits are errors at the field.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDefinition, parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { DefinitionError, type DefinitionProblem } from '../../src/errors.js';
import { loadProblems } from '../support/definition-problems.js';

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'katalog-external-include-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function doc(apiVersion: string, box: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: w }
spec:
  crds:
    site:
      apiTypes: { group: demo.io, version: v1, kind: Site, plural: sites }
      operatorBox:
${box}`;
}

async function fileProblems(file: string): Promise<DefinitionProblem[]> {
  try {
    await loadDefinition(file);
  } catch (error) {
    assert.ok(error instanceof DefinitionError, String(error));
    return [...error.problems];
  }
  return assert.fail('the definition loaded');
}

describe('external call extras in the definition', () => {
  test('retryBackoff (shorthand and full), sleep and fires.reconcile: false load the same from Orkestra and katalog.dev/v1', () => {
    const orkestra = `        external:
          - { name: a, url: "http://a", retryBackoff: 200ms }
          - name: b
            url: "http://b"
            timeout: 1s
            sleep: 50ms
            retryBackoff: { initial: 100ms, max: 400ms, multiplier: 3, maxAttempts: 4 }
          - { name: c, url: "http://c", fires: { reconcile: false } }
          - { name: d, url: "http://d", fires: { reconcile: true } }
`;
    const calls = parseDefinition(doc('orkestra.orkspace.io/v1', orkestra)).crds.get('site')?.operatorBox.external ?? [];
    assert.deepEqual(calls[0]?.retry, { maxAttempts: 3, initialMs: 200, maxMs: 30_000, multiplier: 2 });
    assert.deepEqual(calls[1]?.retry, { maxAttempts: 4, initialMs: 100, maxMs: 400, multiplier: 3 });
    assert.equal(calls[1]?.sleepMs, 50);
    assert.equal(calls[2]?.firesAtReconcile, false);
    assert.equal(calls[3]?.firesAtReconcile, undefined, 'fires.reconcile: true is the default');
    const katalog = orkestra.replace('retryBackoff: 200ms', 'retryBackoff: { initial: 200ms }').replace(/\n.*name: d.*\n/, '\n          - { name: d, url: "http://d" }\n');
    assert.deepEqual(parseDefinition(doc('katalog.dev/v1', katalog)).crds.get('site')?.operatorBox.external, calls);
    const definition = parseDefinition(doc('katalog.dev/v1', katalog));
    const again = parseDefinition(JSON.stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('site')?.operatorBox.external, calls);
  });

  test('a sleep or a retry sequence longer than 5m, a bad duration and max under initial are errors at the field', () => {
    const found = loadProblems(
      doc(
        'orkestra.orkspace.io/v1',
        `        external:
          - { name: a, url: "http://a", sleep: 10m }
          - { name: b, url: "http://b", timeout: 60s, retryBackoff: { maxAttempts: 6 } }
          - { name: c, url: "http://c", retryBackoff: soon }
          - { name: d, url: "http://d", retryBackoff: { initial: 2s, max: 1s } }
`,
      ),
    );
    const messages = found.map((p) => `${p.line}:${p.path}: ${p.message}`);
    assert.ok(messages.some((m) => m.startsWith('10:') && m.includes('sleep "10m" is longer than 5m0s')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('11:') && m.includes('retryBackoff may take') && m.includes('6 attempts of up to 1m0s')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('12:') && m.includes('"soon" is not a positive duration')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('13:') && m.includes('must not be shorter than initial')), messages.join('\n'));
  });

  test('include: the fragment\'s calls replace the entry in place, in every list, and are lifted as Orkestra calls', async () => {
    write('calls.yaml', 'calls:\n  - name: flags\n    url: "http://flags/{{ .metadata.name }}"\n    method: post\n    retryBackoff: 1s\n  - name: health\n    url: "http://health"\n    or:\n      - field: spec.on\n        equals: "yes"\n');
    const file = write(
      'site.yaml',
      doc(
        'orkestra.orkspace.io/v1',
        `        external:
          - { name: first, url: "http://first" }
          - include: ./calls.yaml
          - { name: last, url: "http://last" }
        preReconcile:
          external:
            - include: calls.yaml
          reconcileGate:
            when: [{ field: "{{ .external.flags.status }}", equals: "200" }]
`,
      ),
    );
    const definition = await loadDefinition(file);
    const box = definition.crds.get('site')?.operatorBox;
    assert.deepEqual(box?.external?.map((call) => call.name), ['first', 'flags', 'health', 'last']);
    assert.equal(box?.external?.[1]?.method, 'POST');
    assert.equal(box?.external?.[1]?.retry?.initialMs, 1000);
    assert.equal(box?.external?.[2]?.anyOf.length, 1);
    assert.deepEqual(box?.preReconcile?.external?.map((call) => call.name), ['flags', 'health']);
    assert.ok(definition.files.includes(join(dir, 'calls.yaml')), definition.files.join(', '));
  });

  test('a problem inside a fragment is placed in the fragment; a nested include names the chain; fields beside include are errors', async () => {
    write('bad-calls.yaml', 'calls:\n  - name: ok\n    url: "http://ok"\n  - name: broken\n    url: "ftp://nope"\n  - include: ./more.yaml\n');
    write('extra.yaml', 'calls: []\nheaders: {}\n');
    const file = write(
      'bad.yaml',
      doc(
        'orkestra.orkspace.io/v1',
        `        external:
          - include: ./bad-calls.yaml
          - { include: ./extra.yaml, name: x }
          - include: ./missing.yaml
`,
      ),
    );
    const found = await fileProblems(file);
    const at = (name: string, line: number, text: string): boolean => found.some((p) => p.file === join(dir, name) && p.line === line && p.message.includes(text));
    assert.ok(at('bad-calls.yaml', 5, 'must start with http:// or https://'), JSON.stringify(found));
    assert.ok(at('bad-calls.yaml', 6, `bad.yaml → ${join(dir, 'bad-calls.yaml')} → ./more.yaml`), JSON.stringify(found));
    assert.ok(at('extra.yaml', 2, 'unknown field "headers" in an included external fragment'), JSON.stringify(found));
    assert.ok(at('bad.yaml', 11, '"name" would be ignored'), JSON.stringify(found));
    assert.ok(at('bad.yaml', 12, 'cannot read "./missing.yaml": file not found'), JSON.stringify(found));
  });

  test('parseDefinition(text) with neither source nor baseDir refuses an include with a clear error', () => {
    const text = doc('orkestra.orkspace.io/v1', '        external:\n          - include: ./calls.yaml\n');
    try {
      parseDefinition(text);
      assert.fail('loaded');
    } catch (error) {
      assert.ok(error instanceof DefinitionError, String(error));
      const problem = error.problems.find((p) => p.path.endsWith('include'));
      assert.ok(problem?.message.includes('include "./calls.yaml" names a file relative to the definition') && problem.message.includes('loadDefinition(file)'), JSON.stringify(error.problems));
      assert.equal(problem?.line, 10);
    }
    // With a baseDir, the same text reads the fragment beside it.
    write('calls.yaml', 'calls:\n  - { name: one, url: "http://one" }\n');
    assert.equal(parseDefinition(text, { baseDir: dir }).crds.get('site')?.operatorBox.external?.[0]?.name, 'one');
  });
});
