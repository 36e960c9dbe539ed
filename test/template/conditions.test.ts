import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import {
  CONDITION_OPERATOR_ALIASES,
  CONDITION_OPERATORS,
  compileConditions,
  evaluateConditions,
  normalizeOperator,
  type Condition,
  type TemplateData,
} from '../../src/template/index.js';

const data: TemplateData = {
  metadata: { name: 'web-prod', labels: { app: 'web', 'app.kubernetes.io/name': 'site' } },
  spec: {
    tier: 'gold',
    replicas: 3,
    ratio: 0.75,
    tls: true,
    off: false,
    zero: 0,
    text: 'abc',
    numeric: '5',
    empty: '',
    nothing: null,
    tags: ['a', 'b'],
    ports: [{ port: 80 }, { port: 443 }],
    env: { MODE: 'x' },
    emptyList: [],
  },
};

function one(condition: Condition): { ok: boolean; warnings: string[] } {
  return evaluateConditions({ when: [condition] }, data);
}

type Row = [field: string, operator: string, value: unknown, expected: boolean, valueType?: Condition['valueType']];

function rows(name: string, list: Row[]): void {
  describe(name, () => {
    for (const [field, operator, value, expected, valueType] of list) {
      const condition = { field, operator, value, ...(valueType === undefined ? {} : { valueType }) } as Condition;
      test(`${field} ${operator} ${JSON.stringify(value)}${valueType === undefined ? '' : ` as ${valueType}`} -> ${expected}`, () => {
        assert.equal(one(condition).ok, expected);
      });
    }
  });
}

rows('eq / neq', [
  ['spec.tier', 'eq', 'gold', true],
  ['.spec.tier', 'eq', 'silver', false],
  ['spec.tier', 'neq', 'silver', true],
  ['spec.replicas', 'eq', 3, true],
  ['spec.replicas', 'eq', '3', true],
  ['spec.replicas', 'eq', '3', true, 'int'],
  ['spec.numeric', 'eq', 5, true],
  ['spec.ratio', 'eq', 0.75, true, 'float'],
  ['spec.tls', 'eq', true, true],
  ['spec.tls', 'eq', 'true', true, 'bool'],
  ['spec.off', 'neq', true, true],
  ['spec.missing', 'eq', '', true],
  ['spec.missing', 'neq', 'x', true],
  ['spec.missing', 'eq', 0, false, 'int'],
  ['spec.missing', 'neq', 0, false, 'int'],
  ['metadata.labels.app', 'equals', 'web', true],
  ['metadata.labels["app.kubernetes.io/name"]', 'eq', 'site', true],
  ['spec.ports[1].port', 'eq', 443, true],
  ['spec.ports.0.port', 'eq', 80, true],
  ['spec.tier', 'notEquals', 'gold', false],
]);

rows('gt / lt / gte / lte and aliases', [
  ['spec.replicas', 'gt', 2, true],
  ['spec.replicas', 'gt', 3, false],
  ['spec.replicas', 'greaterThan', '2', true],
  ['spec.replicas', 'lt', 4, true],
  ['spec.replicas', 'lessThan', 3, false],
  ['spec.replicas', 'gte', 3, true],
  ['spec.replicas', 'min', 4, false],
  ['spec.replicas', 'lte', 3, true],
  ['spec.replicas', 'max', 2, false],
  ['spec.ratio', 'lt', 1, true],
  ['spec.ratio', 'gt', 0.5, true, 'float'],
  ['spec.numeric', 'gte', 5, true, 'int'],
  ['spec.ratio', 'gt', 0, false, 'int'],
]);

rows('contains / prefix / suffix / in', [
  ['metadata.name', 'contains', 'prod', true],
  ['metadata.name', 'contains', 'dev', false],
  ['spec.tags', 'contains', 'b', true],
  ['spec.tags', 'contains', 'z', false],
  ['spec.env', 'contains', 'MODE', true],
  ['metadata.name', 'prefix', 'web-', true],
  ['metadata.name', 'prefix', 'prod', false],
  ['metadata.name', 'suffix', '-prod', true],
  ['spec.tier', 'in', 'silver,gold', true],
  ['spec.tier', 'in', 'silver, gold ', true],
  ['spec.tier', 'in', ['silver', 'gold'], true],
  ['spec.tier', 'in', 'silver,bronze', false],
  ['spec.replicas', 'in', [1, 3], true],
  ['spec.replicas', 'in', '1,3', true],
  ['spec.replicas', 'in', '1,2', false, 'int'],
  ['spec.missing', 'in', 'a,', true],
  ['spec.missing', 'in', 'a,b', false],
]);

describe('exists / notExists', () => {
  const cases: [string, boolean][] = [
    ['spec.tier', true],
    ['spec.zero', true],
    ['spec.off', true],
    ['spec.tags', true],
    ['spec.missing', false],
    ['spec.empty', false],
    ['spec.nothing', false],
    ['spec.emptyList', false],
    ['spec.missing.deeper', false],
    ['spec.__proto__', false],
    ['spec.constructor', false],
  ];
  for (const [field, exists] of cases) {
    test(`${field} exists=${exists}`, () => {
      assert.equal(one({ field, operator: 'exists' }).ok, exists);
      assert.equal(one({ field, operator: 'notExists' }).ok, !exists);
    });
  }
});

describe('data that does not fit is false with a warning, never an error', () => {
  const cases: Condition[] = [
    { field: 'spec.text', operator: 'gt', value: 1 },
    { field: 'spec.replicas', operator: 'gt', value: 'many' },
    { field: 'spec.ratio', operator: 'eq', value: 1, valueType: 'int' },
    { field: 'spec.text', operator: 'eq', value: true, valueType: 'bool' },
    { field: 'spec.tags', operator: 'lt', value: 3 },
    { field: 'spec.replicas', operator: 'gt', value: 1, valueType: 'string' },
  ];
  for (const condition of cases) {
    test(JSON.stringify(condition), () => {
      const result = one(condition);
      assert.equal(result.ok, false);
      assert.equal(result.warnings.length > 0, true);
      assert.match(result.warnings[0] ?? '', /^when\[0\] \(/);
    });
  }
  test('a missing field is false without a warning in numeric comparisons', () => {
    assert.deepEqual(one({ field: 'spec.missing', operator: 'gt', value: 1 }), { ok: false, warnings: [] });
  });
  test('the warning names the field and the value', () => {
    assert.deepEqual(one({ field: 'spec.text', operator: 'gt', value: 1 }).warnings, ['when[0] (spec.text gt): the field value "abc" is not a float']);
  });
});

describe('when and anyOf', () => {
  const yes: Condition = { field: 'spec.tier', operator: 'eq', value: 'gold' };
  const no: Condition = { field: 'spec.tier', operator: 'eq', value: 'tin' };
  const cases: [{ when?: Condition[]; anyOf?: Condition[] }, boolean][] = [
    [{}, true],
    [{ when: [], anyOf: [] }, true],
    [{ when: [yes, yes] }, true],
    [{ when: [yes, no] }, false],
    [{ anyOf: [no, yes] }, true],
    [{ anyOf: [no, no] }, false],
    [{ when: [yes], anyOf: [no, yes] }, true],
    [{ when: [yes], anyOf: [no] }, false],
    [{ when: [no], anyOf: [yes] }, false],
  ];
  cases.forEach(([spec, ok], i) => test(`case ${i}`, () => assert.equal(evaluateConditions(spec, data).ok, ok)));
});

describe('templates in conditions', () => {
  test('a value with actions is rendered against the data first', () => {
    assert.equal(one({ field: 'metadata.name', operator: 'eq', value: '{{ .metadata.labels.app }}-prod' }).ok, true);
    assert.equal(one({ field: 'spec.replicas', operator: 'gt', value: '{{ sub .spec.replicas 1 }}' }).ok, true);
    assert.equal(one({ field: 'spec.tier', operator: 'in', value: ['{{ "gold" }}', 'x'] }).ok, true);
  });
  test('a field with actions is a template whose value is the subject', () => {
    assert.equal(one({ field: '{{ len .spec.tags }}', operator: 'eq', value: 2 }).ok, true);
  });
  test('template errors in conditions are TemplateErrors named by path', () => {
    assert.throws(() => compileConditions({ anyOf: [{ field: 'a', operator: 'eq', value: '{{ .x' }] }, { name: 'entry' }), {
      code: 'E_TEMPLATE_SYNTAX',
      template: 'entry.anyOf[0].value',
    });
    assert.throws(() => one({ field: 'a', operator: 'eq', value: '{{ div 1 0 }}' }), { code: 'E_TEMPLATE_EXEC' });
  });
});

describe('malformed conditions', () => {
  const bad: [Condition, RegExp, string][] = [
    [{ field: 'a', operator: 'like' as Condition['operator'], value: 1 }, /unknown operator "like"/, 'c.when[0].operator'],
    [{ field: 'a..b', operator: 'eq', value: 1 }, /invalid field path/, 'c.when[0].field'],
    [{ field: '', operator: 'eq', value: 1 }, /invalid field path/, 'c.when[0].field'],
    [{ field: 'a[x]', operator: 'eq', value: 1 }, /invalid field path/, 'c.when[0].field'],
    [{ field: 'a', operator: 'eq' }, /operator eq needs a value/, 'c.when[0].value'],
    [{ field: 'a', operator: 'eq', value: 1, valueType: 'date' as unknown as 'string' }, /unknown valueType/, 'c.when[0].valueType'],
  ];
  for (const [condition, reason, template] of bad) {
    test(JSON.stringify(condition), () => {
      assert.throws(() => compileConditions({ when: [condition] }, { name: 'c' }), { code: 'E_TEMPLATE_SYNTAX', reason, template });
    });
  }
  test('with onError every problem is reported and the condition evaluates false', () => {
    const errors: TemplateError[] = [];
    const compiled = compileConditions(
      { when: [{ field: 'a', operator: 'bad' as Condition['operator'], value: 1 }], anyOf: [{ field: 'spec.tier', operator: 'exists' }, { field: '', operator: 'eq', value: 1 }] },
      { name: 'c' },
      (e) => errors.push(e),
    );
    assert.deepEqual(errors.map((e) => e.template), ['c.when[0].operator', 'c.anyOf[1].field']);
    assert.equal(compiled.conditionCount, 3);
    const result = compiled.evaluate(data);
    assert.equal(result.ok, false);
    assert.match(result.warnings[0] ?? '', /did not compile/);
  });
});

describe('operators', () => {
  test('lists and aliases', () => {
    assert.deepEqual([...CONDITION_OPERATORS], ['eq', 'neq', 'gt', 'lt', 'gte', 'lte', 'contains', 'prefix', 'suffix', 'exists', 'notExists', 'in']);
    assert.deepEqual({ ...CONDITION_OPERATOR_ALIASES }, { equals: 'eq', notEquals: 'neq', greaterThan: 'gt', lessThan: 'lt', min: 'gte', max: 'lte' });
    assert.equal(normalizeOperator('min'), 'gte');
    assert.equal(normalizeOperator('in'), 'in');
    assert.equal(normalizeOperator('toString'), undefined);
    assert.equal(normalizeOperator('constructor'), undefined);
  });
});
