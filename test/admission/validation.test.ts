// Validation rules as Orkestra evaluates them (orkspace/orkestra pkg/types/validation_eval.go @ eacb2604bc775f58156f6f49907c4e5d494ebf30,
// EvaluateValidationRule): one row per comparison, each with a passing and a failing object.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { passes, compileValidation } from '../../src/rules/validation.js';
import type { ValidationRule } from '../../src/definition/index.js';

type Row = readonly [ValidationRule['operator'], string | undefined, string, boolean];

// [operator, field value (undefined = missing), rule value, passes]
const ROWS: readonly Row[] = [
  ['exists', 'x', '', true],
  ['exists', '', '', false], // "" is not there (validation_eval.go: !found || fieldVal == "")
  ['exists', undefined, '', false],
  ['notExists', undefined, '', true],
  ['notExists', 'x', '', false],
  ['equals', 'a', 'a', true],
  ['equals', undefined, 'a', false],
  ['notEquals', undefined, 'a', true], // a missing field is not equal
  ['notEquals', 'a', 'a', false],
  ['prefix', 'myorg/app', 'myorg/', true],
  ['prefix', 'other/app', 'myorg/', false],
  ['notPrefix', 'other/app', 'myorg/', true],
  ['notPrefix', undefined, 'myorg/', false], // missing fails the negative string checks too
  ['suffix', 'app:v1', ':v1', true],
  ['notSuffix', 'app:latest', ':latest', false],
  ['contains', 'a-b-c', '-b-', true],
  ['notContains', 'a-b-c', 'z', true],
  ['in', 'prod', 'dev, prod', true], // comma list, items trimmed (inCommaList)
  ['in', 'qa', 'dev,prod', false],
  ['notIn', 'qa', 'dev,prod', true],
  ['regex', 'v1.2.3', '^v\\d+\\.\\d+\\.\\d+$', true],
  ['regex', 'latest', '^v\\d+', false],
  ['regex', 'x', '(', true], // an invalid pattern skips the rule
  ['gt', '5', '3', true],
  ['gt', '3', '3', false], // strict
  ['gte', '3', '3', true], // min: is inclusive
  ['lte', '10', '10', true], // max: is inclusive
  ['lt', 'abc', '3', false], // not a number fails
  ['gt', '5', 'many', true], // a rule value that is not a number skips the rule
  ['between', '5', '1,10', true],
  ['between', '11', '1,10', false],
  ['notBetween', '11', '1,10', true],
  ['between', '5', '1', true], // malformed range skips
];

describe('validation comparisons (Orkestra validation_eval.go)', () => {
  for (const [operator, actual, expected, ok] of ROWS) {
    test(`${operator} ${JSON.stringify(actual)} ${JSON.stringify(expected)} → ${ok ? 'passes' : 'fails'}`, () => {
      assert.equal(passes(operator, actual, expected), ok);
    });
  }
});

const rule = (over: Partial<ValidationRule>): ValidationRule => ({
  field: 'spec.image',
  operator: 'exists',
  value: '',
  message: 'spec.image is required',
  action: 'deny',
  when: [],
  anyOf: [],
  atAdmission: true,
  atReconcile: true,
  path: 'spec.crds.x.validation.rules[0]',
  ...over,
});

test('every violation is reported, denials and warnings apart, in declaration order; messages render templates', () => {
  const validate = compileValidation(
    [
      rule({}),
      rule({ field: 'spec.replicas', operator: 'lte', value: '10', message: '{{ .metadata.name }}: at most 10 replicas' }),
      rule({ field: 'metadata.labels.team', message: 'declare a team', action: 'warn' }),
    ],
    'orkestra',
  );
  const result = validate({ metadata: { name: 'web' }, spec: { replicas: 12 } }, 'admission');
  assert.deepEqual(result.denials.map((d) => d.message), ['spec.image is required', 'web: at most 10 replicas']);
  assert.deepEqual(result.warnings.map((w) => w.field), ['metadata.labels.team']);
});

test('when/anyOf gate a rule; fires.reconcile: false keeps it out of reconcile-time checks', () => {
  const validate = compileValidation([
    rule({ when: [{ field: 'spec.tier', operator: 'eq', value: 'prod' }] }),
    rule({ field: 'spec.owner', atReconcile: false, message: 'owner' }),
  ]);
  assert.equal(validate({ spec: { tier: 'dev' } }, 'admission').denials.length, 1);
  assert.equal(validate({ spec: { tier: 'prod' } }, 'admission').denials.length, 2);
  assert.equal(validate({ spec: { tier: 'prod' } }, 'reconcile').denials.length, 1);
});

test('a template field compares its rendered result', () => {
  const validate = compileValidation([rule({ field: '{{ len .spec.steps }}', operator: 'gte', value: '2', message: 'two steps at least' })], 'orkestra');
  assert.equal(validate({ spec: { steps: ['a'] } }, 'admission').denials.length, 1);
  assert.equal(validate({ spec: { steps: ['a', 'b'] } }, 'admission').denials.length, 0);
});
