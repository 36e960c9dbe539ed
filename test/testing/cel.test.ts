// The CEL evaluator behind the test API server's `x-kubernetes-validations`: what a rule means must match CEL's
// semantics, since a wrong verdict would refuse (or let through) a custom resource kube-apiserver judges otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../../src/testing/cel/evaluate.js';
import { CelUnsupported, parseCel } from '../../src/testing/cel/parser.js';
import { CelEvalError, fromJson, type CelValue } from '../../src/testing/cel/values.js';

const SCHEMA = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    ratio: { type: 'number' },
    name: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    timeout: { type: 'string', format: 'duration' },
    since: { type: 'string', format: 'date-time' },
  },
};
const SELF = fromJson(
  { replicas: 3, ratio: 2, name: 'web-1', tags: ['a', 'b', 'c'], labels: { app: 'web', tier: 'front' }, timeout: '90s', since: '2024-05-01T10:00:00Z' },
  SCHEMA,
);

function run(rule: string, self: CelValue = SELF): CelValue {
  return evaluate(parseCel(rule), new Map([['self', self]]));
}

function errorOf(rule: string): string {
  try {
    run(rule);
  } catch (error) {
    if (error instanceof CelEvalError) return error.message;
    throw error;
  }
  throw new Error(`${rule} did not fail`);
}

test('operators: precedence, int arithmetic, cross-type numeric comparison, string and list concatenation', () => {
  const table: [string, CelValue][] = [
    ['1 + 2 * 3 == 7', true],
    ['(1 + 2) * 3', 9n],
    ['7 / 2', 3n],
    ['-7 % 3', -1n],
    ['self.replicas > 2 && self.replicas < 4', true],
    ['self.ratio > 1', true],
    ['self.ratio == 2', true],
    ['1u + 2u == 3u', true],
    ["'a' + 'b' == 'ab'", true],
    ['[1, 2] + [3] == [1, 2, 3]', true],
    ["'b' in self.tags && !('z' in self.tags)", true],
    ["'app' in self.labels", true],
    ['self.replicas > 5 ? 1 : 2', 2n],
    ['2.5 * 2.0', 5],
    ["{'a': 1}['a'] == 1", true],
    ['-9223372036854775808 < 0', true],
  ];
  for (const [rule, expected] of table) assert.deepEqual(run(rule), expected, rule);
});

test('errors: no such key, division by zero, overflow, index out of bounds; && and || absorb an error the other side decides', () => {
  assert.equal(errorOf('self.missing == 1'), 'no such key: missing');
  assert.equal(errorOf('1 / 0 == 1'), 'division by zero');
  assert.equal(errorOf('9223372036854775807 + 1 > 0'), 'integer overflow');
  assert.equal(errorOf("self.tags[5] == 'x'"), 'index out of bounds: 5');
  assert.equal(run('self.missing == 1 || true'), true);
  assert.equal(run('false && self.missing == 1'), false);
  assert.equal(run('self.missing == 1 && false'), false);
  assert.equal(errorOf('self.missing == 1 && true'), 'no such key: missing');
  assert.equal(run('!has(self.missing) || self.missing > 0'), true);
  assert.equal(run('has(self.name)'), true);
  const withNull = fromJson({ note: null, 'a.b': 1 }, { type: 'object', properties: { note: { type: 'string', nullable: true }, 'a.b': { type: 'integer' } } });
  assert.equal(run('has(self.note) && self.note == null', withNull), true, 'a field holding null is there, and null');
  assert.equal(run('self.a__dot__b == 1', withNull), true, 'a property with a dot is read through its escaped name');
});

test('macros over lists and maps: all, exists, exists_one, map (with a filter), filter, two variables', () => {
  const table: [string, CelValue][] = [
    ['self.tags.all(t, size(t) == 1)', true],
    ["self.tags.exists(t, t == 'c')", true],
    ["self.tags.exists_one(t, t > 'a')", false],
    ["self.tags.map(t, t + '!') == ['a!', 'b!', 'c!']", true],
    ["self.tags.map(t, t != 'b', t) == ['a', 'c']", true],
    ["self.tags.filter(t, t != 'a') == ['b', 'c']", true],
    ["self.labels.all(k, k.size() > 2)", true],
    ["self.labels.exists(k, self.labels[k] == 'front')", true],
    ['self.tags.all(i, t, i < 3 && t != "")', true],
    ['[1, 2, 3].sum() == 6 && [3, 1].min() == 1 && [1, 2].isSorted()', true],
  ];
  for (const [rule, expected] of table) assert.deepEqual(run(rule), expected, rule);
  assert.equal(run('[0, 1].all(x, 1 / x > 1)'), false, 'a false element decides even when another errs');
});

test('strings, conversions, durations and timestamps (schema formats become CEL types)', () => {
  const table: [string, CelValue][] = [
    ["self.name.startsWith('web') && self.name.endsWith('1') && self.name.contains('-')", true],
    ["self.name.matches('^[a-z]+-[0-9]$')", true],
    ["self.name.split('-') == ['web', '1']", true],
    ["self.name.upperAscii() == 'WEB-1'", true],
    ["self.name.substring(0, 3) == 'web'", true],
    ["self.name.indexOf('-') == 3", true],
    ["self.name.replace('-', '_') == 'web_1'", true],
    ["self.tags.join(',') == 'a,b,c'", true],
    ['size("héllo") == 5', true],
    ['int("42") == 42 && double(self.replicas) == 3.0 && string(self.replicas) == "3"', true],
    ["self.timeout < duration('2m') && self.timeout > duration('1m')", true],
    ["self.since > timestamp('2024-01-01T00:00:00Z')", true],
    ["timestamp('2024-05-01T12:00:00Z') - self.since == duration('2h')", true],
    ['self.since.getFullYear() == 2024 && self.timeout.getSeconds() == 90', true],
    ['string(1.5) == "1.5" && string(1000000.0) == "1e+06"', true],
  ];
  for (const [rule, expected] of table) assert.deepEqual(run(rule), expected, rule);
});

test('what the evaluator does not implement is reported as such, never guessed', () => {
  assert.throws(() => parseCel('self.?name.orValue("x") == "x"'), CelUnsupported);
  assert.throws(() => run("quantity('1Gi').isGreaterThan(quantity('1Mi'))"), CelUnsupported);
  assert.throws(() => run("url('https://x').getHost() == 'x'"), CelUnsupported);
});
