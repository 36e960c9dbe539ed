// schema.json: committed, current, and in agreement with the loader on the fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Compile } from 'typebox/schema';
import { editorSchema, editorSchemaText } from '../../src/definition/editor-schema.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'test', 'fixtures', 'definitions');

test('the committed schema.json is what scripts/write-schema.ts writes now (run `npm run schema` to update)', () => {
  assert.equal(readFileSync(join(root, 'schema.json'), 'utf8'), editorSchemaText());
});

test('schema.json is draft-07, one of Katalog / Komposer / Motif, with no private x- keywords', () => {
  const schema = editorSchema();
  assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  assert.equal((schema.oneOf as unknown[]).length, 3);
  assert.doesNotMatch(editorSchemaText(), /"x-/);
  assert.match(editorSchemaText(), /"\$ref": "#\/definitions\/crdEntry"/);
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : name.endsWith('.yaml') ? [path] : [];
  });
}

test('every valid fixture (Katalog, Komposer, Motif) passes the editor schema', () => {
  const validator = Compile(editorSchema() as Parameters<typeof Compile>[0]);
  const documents = yamlFiles(join(fixtures, 'valid')).filter((file) => !file.includes('/crds/'));
  assert.ok(documents.length >= 7);
  for (const file of documents) assert.ok(validator.Check(parse(readFileSync(file, 'utf8'))), file);
});

test('shape errors the loader reports are flagged by the editor schema too', () => {
  const validator = Compile(editorSchema() as Parameters<typeof Compile>[0]);
  const shapeErrors = [
    'unknown-top-field',
    'unknown-operatorbox-field',
    'unknown-template-kind',
    'unknown-crd-field',
    'invalid-crd-name',
    'invalid-duration',
    'workers-zero',
    'workers-string',
    'bad-api-version',
    'bad-dependency-condition',
    'condition-bad-operator',
    'hooks-missing-function',
    'resources-missing-kind',
    'labels-not-strings',
    'missing-api-types',
    'motif-top-level',
  ];
  for (const name of shapeErrors) {
    const document: unknown = parse(readFileSync(join(fixtures, 'invalid', `${name}.yaml`), 'utf8'));
    assert.equal(validator.Check(document), name === 'motif-top-level', name);
  }
});
