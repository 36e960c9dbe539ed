// The small pieces the loader is built from: paths, suggestions, YAML positions, template placement, built-ins.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { describeObject, formatPath } from '../../src/definition/path.js';
import { editDistance, nearest } from '../../src/definition/suggest.js';
import { parseYamlSource, positionInContent } from '../../src/definition/positions.js';
import { checkTemplates } from '../../src/definition/template-check.js';
import { ProblemList, type Origin } from '../../src/definition/problems.js';
import { builtInKind, BUILTIN_KIND_NAMES } from '../../src/definition/builtin-kinds.js';
import { shortOperator } from '../../src/definition/conditions.js';

describe('paths', () => {
  test('formatPath quotes keys that are not identifiers', () => {
    assert.equal(formatPath([]), '');
    assert.equal(formatPath(['spec', 'crds', 'my-web', 'operatorBox', 'onCreate', 'deployments', 0, 'replicas']), 'spec.crds.my-web.operatorBox.onCreate.deployments[0].replicas');
    assert.equal(formatPath(['labels', 'app.kubernetes.io/name']), 'labels["app.kubernetes.io/name"]');
    assert.equal(formatPath(['data', 'a b', 2]), 'data["a b"][2]');
  });
  test('describeObject names an object from its last key', () => {
    assert.equal(describeObject([]), 'the document');
    assert.equal(describeObject(['spec', 'crds', 'web', 'operatorBox']), 'operatorBox');
    assert.equal(describeObject(['spec', 'crds', 0]), 'crds[0]');
    assert.equal(describeObject(['onCreate', 'deployments', 1, 'when', 0]), 'when[0]');
  });
});

describe('suggestions', () => {
  test('edit distance counts adjacent swaps as one edit', () => {
    assert.equal(editDistance('workers', 'workers'), 0);
    assert.equal(editDistance('wokrers', 'workers'), 1);
    assert.equal(editDistance('worker', 'workers'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });
  const cases: Array<[string, string[], string | undefined]> = [
    ['worker', ['workers', 'resync'], 'workers'],
    ['configmaps', ['configMaps', 'secrets'], 'configMaps'],
    ['reconcileMode', ['reconcile', 'when'], 'reconcile'],
    ['onCreated', ['onCreate', 'onDelete'], 'onCreate'],
    ['zzz', ['workers', 'resync'], undefined],
    ['spce', ['spec', 'kind'], 'spec'],
    ['maxDepht', ['maxDepth', 'failureThreshold'], 'maxDepth'],
  ];
  for (const [name, candidates, expected] of cases) {
    test(`nearest("${name}") is ${String(expected)}`, () => assert.equal(nearest(name, candidates), expected));
  }
});

describe('YAML positions', () => {
  const text = ['a:', '  plain: x {{ .y', '  quoted: "{{ .z }}"', '  escaped: "a\\tb {{ }}"', '  block: |', '    one', '    two {{', '  list:', '    - first', '    - { k: v }', ''].join('\n');
  const { positions, problems } = parseYamlSource(text, 'f.yaml');

  test('keys and values are placed', () => {
    assert.deepEqual(problems, []);
    assert.deepEqual(positions.find(['a', 'plain'])?.position.key, { line: 2, column: 3 });
    assert.deepEqual(positions.find(['a', 'plain'])?.position.value, { line: 2, column: 10 });
    assert.deepEqual(positions.find(['a', 'list', 1, 'k'])?.position.value, { line: 10, column: 12 });
  });
  test('a missing path falls back to its nearest ancestor', () => {
    const found = positions.find(['a', 'list', 1, 'missing', 'deeper']);
    assert.equal(found?.exact, false);
    assert.deepEqual(found?.position.value, { line: 10, column: 7 });
  });
  test('characters of a string map to file columns when the string is written as is', () => {
    const at = (path: Array<string | number>, line: number, column: number) => {
      const found = positions.find(path);
      assert.ok(found);
      return positionInContent(found.position, line, column);
    };
    assert.deepEqual(at(['a', 'plain'], 1, 3), { line: 2, column: 12 });
    assert.deepEqual(at(['a', 'quoted'], 1, 4), { line: 3, column: 15 }, 'inside quotes');
    assert.deepEqual(at(['a', 'escaped'], 1, 4), { line: 4, column: 12 }, 'escapes: only the string start');
    assert.deepEqual(at(['a', 'block'], 2, 5), { line: 7, column: 9 }, 'literal block: line and column');
  });
  test('syntax errors are problems with positions', () => {
    const broken = parseYamlSource('a: [1, 2\nb: 3\n', 'x.yaml');
    assert.equal(broken.problems[0]?.code, 'yaml-syntax');
    assert.equal(broken.problems[0]?.file, 'x.yaml');
    assert.equal(typeof broken.problems[0]?.line, 'number');
  });
});

describe('template placement', () => {
  const text = 'v: "ab {{ x }}"\nw: |\n  line\n  {{ if }}\n';
  const { positions } = parseYamlSource(text, 't.yaml');
  const origin: Origin = { file: 't.yaml', positions, baseDir: '/', source: 'definition' };
  const failAt = (line: number, column: number) => (source: string, name: string) => {
    throw new TemplateError('E_TEMPLATE_SYNTAX', `bad ${source.length}`, { template: name, line, column });
  };

  test('the error column inside a one-line template is added to the string column', () => {
    const problems = new ProblemList();
    checkTemplates('ab {{ x }}', ['v'], origin, problems, failAt(1, 4));
    assert.deepEqual(problems.items, [{ code: 'template-syntax', path: 'v', message: 'invalid template: bad 10', file: 't.yaml', line: 1, column: 8 }]);
  });
  test('a position past the end of a block is moved onto its last character', () => {
    const problems = new ProblemList();
    checkTemplates('line\n{{ if }}\n', ['w'], origin, problems, failAt(3, 1));
    assert.deepEqual([problems.items[0]?.line, problems.items[0]?.column], [4, 11]);
  });
  test('strings without {{ are not compiled; errors that are not TemplateErrors are still reported', () => {
    const problems = new ProblemList();
    let calls = 0;
    checkTemplates({ a: 'plain', b: ['{{ x }}'] }, [], origin, problems, () => {
      calls++;
      throw new Error('boom');
    });
    assert.equal(calls, 1);
    assert.deepEqual(problems.items.map((p) => [p.path, p.message]), [['b[0]', 'invalid template: boom']]);
  });
});

describe('built-in kinds and operators', () => {
  test('the table has the kinds the spec names, with their scope', () => {
    for (const kind of ['Namespace', 'ConfigMap', 'Secret', 'Service', 'ServiceAccount', 'Pod', 'PersistentVolumeClaim', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'Ingress', 'NetworkPolicy', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding', 'Lease', 'Event', 'HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
      assert.ok(BUILTIN_KIND_NAMES.includes(kind), kind);
    }
    assert.deepEqual(builtInKind('Deployment'), { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', scope: 'Namespaced', builtIn: true });
    assert.equal(builtInKind('ClusterRole')?.scope, 'Cluster');
    assert.equal(builtInKind('deployment'), undefined);
    assert.equal(builtInKind('toString'), undefined);
  });
  test('operator aliases become short names', () => {
    assert.deepEqual(['equals', 'notEquals', 'greaterThan', 'lessThan', 'min', 'max', 'in', 'exists'].map(shortOperator), ['eq', 'neq', 'gt', 'lt', 'gte', 'lte', 'in', 'exists']);
  });
});
