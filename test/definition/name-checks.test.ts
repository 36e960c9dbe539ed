// Names as Kubernetes validates them, refused at load with path and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { finalizerProblem, labelValueProblem, qualifiedNameProblem, subdomainProblem } from '../../src/definition/name-checks.js';

function problems(yaml: string): { code: string; path: string; line: number | undefined; message: string }[] {
  try {
    parseDefinition(yaml, { source: 'k.yaml' });
  } catch (error) {
    if (error instanceof DefinitionError) return error.problems.map(({ code, path, line, message }) => ({ code, path, line, message }));
    throw error;
  }
  return [];
}

test('bad names are refused with path and line; literal label values and templates are told apart', () => {
  const found = problems(`apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: My_Operator }
spec:
  finalizers: [cleanup]
  crds:
    web:
      apiTypes: { group: example, version: v1, kind: Website, plural: websites }
      operatorBox:
        finalizers: [example.io/ok, "bad prefix/x"]
        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}"
              labels:
                app.kubernetes.io/name: "{{ .metadata.name }}"
                "-bad-key": x
                tier: "not valid!"
`);
  assert.deepEqual(
    found.map((p) => [p.code, p.path, p.line]),
    [
      ['invalid-name', 'metadata.name', 3],
      ['invalid-finalizer', 'spec.finalizers[0]', 5],
      ['invalid-crd-name', 'spec.crds.web.apiTypes.group', 8],
      ['invalid-finalizer', 'spec.crds.web.operatorBox.finalizers[1]', 10],
      ['invalid-label', 'spec.crds.web.operatorBox.onCreate.configMaps[0].labels["-bad-key"]', 16],
      ['invalid-label', 'spec.crds.web.operatorBox.onCreate.configMaps[0].labels.tier', 17],
    ],
  );
  assert.match(found[1]?.message ?? '', /finalizer "cleanup" is invalid: name is neither a standard finalizer name nor is it fully qualified/);
  assert.match(found[2]?.message ?? '', /group "example" is invalid: should be a domain with at least one dot/);
});

test('a Katalog without CRDs is refused', () => {
  assert.deepEqual(
    problems('apiVersion: katalog.dev/v1\nkind: Katalog\nmetadata: { name: empty }\nspec:\n  crds: {}\n').map((p) => [p.code, p.path, p.line]),
    [['no-crds', 'spec.crds', 5]],
  );
});

test('the name rules, table-driven', () => {
  const cases: [string, (s: string) => string | undefined, string, boolean][] = [
    ['subdomain', subdomainProblem, 'a.b-c.d', true],
    ['subdomain', subdomainProblem, 'A.b', false],
    ['subdomain', subdomainProblem, 'x'.repeat(254), false],
    ['qualified', qualifiedNameProblem, 'example.io/Name_1', true],
    ['qualified', qualifiedNameProblem, 'a/b/c', false],
    ['qualified', qualifiedNameProblem, 'x'.repeat(64), false],
    ['label value', labelValueProblem, '', true],
    ['label value', labelValueProblem, 'v1.2_3', true],
    ['label value', labelValueProblem, 'bad-', false],
    ['finalizer', finalizerProblem, 'foregroundDeletion', true],
    ['finalizer', finalizerProblem, 'example.io/farewell', true],
    ['finalizer', finalizerProblem, 'farewell', false],
  ];
  for (const [rule, check, input, valid] of cases) assert.equal(check(input) === undefined, valid, `${rule} ${JSON.stringify(input)}`);
});
