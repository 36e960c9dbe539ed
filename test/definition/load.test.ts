// The loader's entry points: text, file and object input; sources, base directories and positions.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefinitionError } from '../../src/errors.js';
import { isDefinition, loadDefinition, normalizeDefinition, parseDefinition } from '../../src/definition/load.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'definitions');

const minimal = `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: tiny }
spec:
  crds:
    web:
      apiTypes: { kind: ConfigMap }
      crdFile: crds/web.yaml
`;

function problemsOf(run: () => unknown): DefinitionError['problems'] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof DefinitionError, String(error));
    return error.problems;
  }
  return assert.fail('expected a DefinitionError');
}

describe('parseDefinition', () => {
  test('without a source: no file in problems or files, paths relative to the working directory', () => {
    const definition = parseDefinition(minimal);
    assert.deepEqual(definition.files, []);
    assert.equal(definition.crds.get('web')?.file, undefined);
    assert.equal(definition.crds.get('web')?.crdFile, resolve('crds/web.yaml'));
    const [problem] = problemsOf(() => parseDefinition(minimal.replace('ConfigMap', 'Configmap')));
    assert.equal(problem?.file, undefined);
    assert.equal(problem?.line, 7);
  });

  test('source names the file; baseDir defaults to its directory and can be overridden', () => {
    const definition = parseDefinition(minimal, { source: '/srv/op/katalog.yaml' });
    assert.deepEqual(definition.files, ['/srv/op/katalog.yaml']);
    assert.equal(definition.crds.get('web')?.crdFile, '/srv/op/crds/web.yaml');
    assert.equal(parseDefinition(minimal, { source: '/srv/op/katalog.yaml', baseDir: '/elsewhere' }).crds.get('web')?.crdFile, '/elsewhere/crds/web.yaml');
  });

  test('two YAML documents in one text are an error', () => {
    const [problem] = problemsOf(() => parseDefinition(`${minimal}---\n${minimal}`, { source: 'k.yaml' }));
    assert.equal(problem?.code, 'yaml-syntax');
    assert.equal(problem?.line, 9);
  });

  test('the error message lists every problem as file:line:column: path: message', () => {
    const text = minimal.replace('ConfigMap', 'Configmap').replace('crdFile: crds/web.yaml', 'workers: 0');
    assert.throws(
      () => parseDefinition(text, { source: 'k.yaml' }),
      (error: unknown) => {
        assert.ok(error instanceof DefinitionError);
        assert.equal(
          error.message,
          [
            'invalid definition: 2 problems',
            '  - k.yaml:7:25: spec.crds.web.apiTypes.kind: apiTypes declares only kind "Configmap", which is not a built-in kind; declare group, version, kind and plural; did you mean "ConfigMap"?',
            '  - k.yaml:8:16: spec.crds.web.workers: must be at least 1, got 0',
          ].join('\n'),
        );
        return true;
      },
    );
  });

  test('a __proto__ key is refused and does not pollute prototypes', () => {
    const problems = problemsOf(() =>
      parseDefinition(`${minimal}      operatorBox:\n        onCreate:\n          configMaps:\n            - name: x\n              __proto__: { polluted: true }\n`),
    );
    assert.deepEqual(problems.map((p) => [p.code, p.path]), [['invalid-key', 'spec.crds.web.operatorBox.onCreate.configMaps[0].__proto__']]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('a field written with no value counts as not set', () => {
    const definition = parseDefinition(`${minimal}      dependsOn:\n      operatorBox:\n`);
    assert.deepEqual(definition.crds.get('web')?.dependsOn, []);
  });
});

describe('normalizeDefinition', () => {
  const input = {
    apiVersion: 'katalog.dev/v1',
    kind: 'Katalog',
    metadata: { name: 'code' },
    spec: { crds: { web: { apiTypes: { kind: 'Secret' }, resync: '2m' } } },
  };

  test('accepts an object and gives the same result as the YAML', () => {
    const definition = normalizeDefinition(input);
    assert.equal(definition.crds.get('web')?.settings.resync?.value, 120_000);
    assert.deepEqual(definition, parseDefinition('apiVersion: katalog.dev/v1\nkind: Katalog\nmetadata: {name: code}\nspec: {crds: {web: {apiTypes: {kind: Secret}, resync: 2m}}}\n'));
  });

  test('problems of object input carry paths but no positions', () => {
    const problems = problemsOf(() => normalizeDefinition({ ...input, spec: { crds: { web: { apiTypes: { kind: 'Secret' }, resync: 'soon' } } } }, { source: 'code.ts' }));
    assert.deepEqual(problems, [
      { code: 'invalid-duration', path: 'spec.crds.web.resync', message: 'invalid duration "soon": expected a Go duration such as "30s", "1m30s" or "2h"', file: 'code.ts' },
    ]);
  });

  test('a loaded definition is recognised and returned as it is', () => {
    const definition = normalizeDefinition(input);
    assert.ok(isDefinition(definition));
    assert.equal(normalizeDefinition(definition), definition);
    assert.equal(isDefinition({ ...definition }), false);
    assert.equal(isDefinition(input), false);
  });

  test('the input object is not changed', () => {
    const before = JSON.stringify(input);
    normalizeDefinition(input);
    assert.equal(JSON.stringify(input), before);
  });
});

describe('loadDefinition', () => {
  test('a missing file is a DefinitionError naming the absolute path', async () => {
    const path = join(fixtures, 'nowhere.yaml');
    await assert.rejects(loadDefinition(path), (error: unknown) => {
      assert.ok(error instanceof DefinitionError);
      assert.deepEqual(error.problems, [{ code: 'unreadable-file', path: '', message: 'cannot read the definition: file not found', file: path }]);
      return true;
    });
  });

  test('a relative path is resolved against the working directory', async () => {
    const relativePath = join('test', 'fixtures', 'definitions', 'valid', 'orkestra-map.yaml');
    const definition = await loadDefinition(relativePath);
    assert.deepEqual(definition.files, [resolve(relativePath)]);
  });
});

describe('Komposer given as an object', () => {
  const valid = join(fixtures, 'valid');

  test('Orkestra\'s spec.sources.files works like spec.imports.files; Motifs resolve against the file naming them', () => {
    const definition = normalizeDefinition(
      { apiVersion: 'orkestra.orkspace.io/v1', kind: 'Komposer', metadata: { name: 'k' }, spec: { sources: { files: ['./motif/katalog.yaml'] } } },
      { baseDir: valid },
    );
    assert.deepEqual(definition.files, [join(valid, 'motif', 'katalog.yaml'), join(valid, 'motif', 'motifs', 'web.yaml')]);
    assert.equal(definition.crds.get('blog')?.operatorBox.onCreate.deployments?.length, 2);
  });

  test('spec.sources and spec.imports together are an error', () => {
    const problems = problemsOf(() =>
      normalizeDefinition(
        { apiVersion: 'katalog.dev/v1', kind: 'Komposer', metadata: { name: 'k' }, spec: { imports: { files: [] }, sources: { files: [] } } },
        { baseDir: valid },
      ),
    );
    assert.deepEqual(problems.map((p) => [p.code, p.path]), [['alias-conflict', 'spec.sources']]);
  });
});
