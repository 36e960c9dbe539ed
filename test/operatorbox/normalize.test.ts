// Orkestra's `normalize` (orkspace/orkestra pkg/runtime/reconciler/normalize.go @ eacb2604): the load into the model
// (both dialects, errors at the field) and the in-memory rewrite of .spec, row by row against Orkestra's rules —
// templates read the object as it came, the rendered text is trimmed and read as YAML unless a type casts it, an
// empty text with a type leaves the field alone, a path through a non-map fails.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { DefinitionError, KatalogError } from '../../src/errors.js';
import { compileNormalize } from '../../src/operatorbox/normalize.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import type { NormalizeField } from '../../src/definition/types.js';

const SOURCE = 'orkspace/orkestra pkg/runtime/reconciler/normalize.go @ eacb2604';

function katalog(apiVersion: string, normalize: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: n }
spec:
  crds:
    backup:
      apiTypes: { group: demo.io, version: v1, kind: Backup, plural: backups }
${normalize}
`;
}

const run = (fields: NormalizeField[], spec: unknown, dialect: 'orkestra' | 'katalog' = 'orkestra'): unknown =>
  compileNormalize('backup', fields, dialect)({ apiVersion: 'demo.io/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'ns' }, spec: structuredClone(spec) })['spec'];

describe('normalize: loading', () => {
  test('an Orkestra document loads into the model in declared order, types folded to katalog names', () => {
    const definition = parseDefinition(
      katalog(
        'orkestra.orkspace.io/v1',
        `      normalize:
        audit: true
        spec:
          schedule: '{{ if eq (typeOf .spec.schedule) "map" }}{{ cronExpr .spec.schedule.minute .spec.schedule.hour "*" "*" "*" }}{{ else }}{{ .spec.schedule }}{{ end }}'
          retention.days: '{{ .spec.keep }}'
        types: { retention.days: integer }`,
      ),
    );
    const crd = definition.crds.get('backup');
    assert.deepEqual(crd?.normalize?.map((field) => [field.path, field.type]), [['schedule', undefined], ['retention.days', 'int']]);
    // Written back and loaded again: the same fields.
    const again = parseDefinition(JSON.stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('backup')?.normalize, crd?.normalize);
  });

  test('a katalog.dev/v1 document has it too; bad templates, paths and types are errors at the field', () => {
    assert.equal(parseDefinition(katalog('katalog.dev/v1', `      normalize: { spec: { replicas: '{{ .spec.size }}' } }`)).crds.get('backup')?.normalize?.length, 1);
    const problems = (text: string): string[] => {
      try {
        parseDefinition(text, { source: 'k.yaml' });
      } catch (error) {
        assert.ok(error instanceof DefinitionError);
        return error.problems.map((problem) => `${problem.path} ${problem.message}`);
      }
      return [];
    };
    assert.match(problems(katalog('orkestra.orkspace.io/v1', `      normalize: { spec: { replicas: '{{ .spec.size ' } }`)).join('\n'), /normalize\.spec\.replicas/);
    assert.match(problems(katalog('orkestra.orkspace.io/v1', `      normalize: { spec: { a..b: x } }`)).join('\n'), /not a dot path/);
    assert.match(problems(katalog('orkestra.orkspace.io/v1', `      normalize: { spec: { a: x }, types: { b: int } }`)).join('\n'), /does not declare/);
    assert.match(problems(katalog('orkestra.orkspace.io/v1', `      normalize: { spec: { a: x }, types: { a: decimal } }`)).join('\n'), /normalize\.types\.a/);
  });
});

describe(`normalize: the rewrite (${SOURCE})`, () => {
  test('a map schedule becomes a cron text, a text schedule stays (the example of normalize.go)', () => {
    const schedule = '{{ if eq (typeOf .spec.schedule) "map" }}{{ cronExpr .spec.schedule.minute .spec.schedule.hour "*" "*" "*" }}{{ else }}{{ .spec.schedule }}{{ end }}';
    assert.deepEqual(run([{ path: 'schedule', value: schedule }], { schedule: { minute: '0', hour: '2' } }), { schedule: '0 2 * * *' });
    assert.deepEqual(run([{ path: 'schedule', value: schedule }], { schedule: '*/5 * * * *' }), { schedule: '*/5 * * * *' });
  });

  test('without a type the trimmed text is read as YAML (parseNormalizedValue rows)', () => {
    const cases: Array<[string, unknown]> = [
      ['', ''],
      ['  3 ', 3],
      ['3.14', 3.14],
      ['true', true],
      ['null', ''],
      ['*/5 * * * *', '*/5 * * * *'],
      ['web', 'web'],
    ];
    for (const [text, expected] of cases) {
      assert.deepEqual(run([{ path: 'v', value: '{{ .spec.raw }}' }], { raw: text }), { raw: text, v: expected }, JSON.stringify(text));
    }
  });

  test('a type casts (coerceNormalizedValue rows); an empty text leaves the field; a wrong text fails without its value', () => {
    assert.deepEqual(run([{ path: 'n', value: '{{ .spec.raw }}', type: 'int' }], { raw: '42' }), { raw: '42', n: 42 });
    assert.deepEqual(run([{ path: 'n', value: '{{ .spec.raw }}', type: 'float' }], { raw: '2.5' }), { raw: '2.5', n: 2.5 });
    assert.deepEqual(run([{ path: 'n', value: '{{ .spec.raw }}', type: 'bool' }], { raw: 'T' }), { raw: 'T', n: true });
    assert.deepEqual(run([{ path: 'n', value: '{{ .spec.raw }}', type: 'string' }], { raw: '7' }), { raw: '7', n: '7' });
    assert.deepEqual(run([{ path: 'n', value: '{{ .spec.missing }}', type: 'int' }], { n: 5 }), { n: 5 }, 'an empty text with a type: the field is left as it is');
    assert.throws(
      () => run([{ path: 'n', value: '{{ .spec.raw }}', type: 'int' }], { raw: 'secret-value' }),
      (error: unknown) => error instanceof KatalogError && error.code === 'E_NORMALIZE' && /normalize\.spec\.n/.test(error.message) && !error.message.includes('secret-value'),
    );
  });

  test('every template reads the object as it came; nested paths are created; a path through a non-map fails', () => {
    const fields: NormalizeField[] = [
      { path: 'size', value: '{{ .spec.size }}0' },
      { path: 'copy', value: '{{ .spec.size }}' },
      { path: 'limits.cpu', value: '500m' },
    ];
    assert.deepEqual(run(fields, { size: 3 }), { size: 30, copy: 3, limits: { cpu: '500m' } });
    assert.throws(() => run([{ path: 'image.tag', value: 'x' }], { image: 'nginx' }), (error: unknown) => error instanceof KatalogError && /"image" is not a map/.test(error.message));
  });
});

describe('normalize: user-defined notes', () => {
  test('a normalize template calls the definition\'s notes (they reach the compile when the CRD activates)', () => {
    const fields: NormalizeField[] = [{ path: 'retention', value: '{{ defaultRetention }}' }];
    const notes = [{ name: 'defaultRetention', expression: '{{ .spec.keep | default 7 }}' }];
    const normalize = compileNormalize('backup', fields, 'katalog', notes);
    const spec = normalize({ apiVersion: 'demo.io/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'ns' }, spec: { keep: 3 } })['spec'];
    assert.deepEqual(spec, { keep: 3, retention: 3 });
    assert.throws(() => compileNormalize('backup', fields, 'katalog'), /defaultRetention/);
  });
});
