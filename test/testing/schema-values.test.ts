// The pure pieces of the custom resource schema checks: values printed as kube-apiserver's Go code prints them in a
// message, the string formats it checks, and defaulting that never changes a value shared with a stored object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goBadValue, goFloat, goJson, goQuote } from '../../src/testing/go/go-values.js';
import { isKnownStringFormat, matchesFormat } from '../../src/testing/resources/schema-formats.js';
import { decodedObject } from '../../src/testing/resources/schema-defaults.js';
import { schemaProblems } from '../../src/testing/resources/schema-validation.js';

test("a bound is printed as Go's %v prints a float64: exponent form from 1e+06 and below 1e-04", () => {
  const table: [number, string][] = [
    [5, '5'],
    [0.5, '0.5'],
    [100000, '100000'],
    [1000000, '1e+06'],
    [1234567, '1.234567e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
  ];
  for (const [value, printed] of table) assert.equal(goFloat(value), printed, String(value));
});

test('a bad value is printed as a field error prints it: strings %q, numbers bare, the rest as Go JSON', () => {
  assert.equal(goBadValue('a"b\u0001'), '"a\\"b\\x01"');
  assert.equal(goBadValue(7), '7');
  assert.equal(goBadValue(0.7), '0.7');
  assert.equal(goBadValue(null), 'null');
  assert.equal(goBadValue({ z: 1, a: '<b>' }), '{"a":"\\u003cb\\u003e","z":1}');
  assert.equal(goQuote('é😀'), '"é😀"');
  assert.equal(goJson([1, 'x']), '[1,"x"]');
});

test('formats: the ones kube-apiserver knows are checked as it checks them; others are not checked at all', () => {
  const table: [string, string, boolean][] = [
    ['date-time', '2024-01-02T03:04:05Z', true],
    ['date-time', '2024-01-02T03:04:05.123+01:00', true],
    ['date-time', '2024-01-02T03:04:05', false],
    ['date-time', '2024-02-30T03:04:05Z', false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['uuid', '0F8FAD5BD9CB469FA16570867728950E', true],
    ['uuid', 'not-a-uuid', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'aGVsbG8', false],
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '10.0.0.256', false],
    ['ipv6', '::1', true],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0/33', false],
    ['hostname', 'example.com', true],
    ['hostname', 'exa mple.com', false],
    ['duration', '1h30m', true],
    ['duration', '3 days', true],
    ['duration', 'soon', false],
    ['k8s-short-name', 'web-1', true],
    ['k8s-short-name', 'Web', false],
  ];
  for (const [format, text, valid] of table) assert.equal(matchesFormat(format, text), valid, `${format} ${text}`);
  assert.equal(isKnownStringFormat('made-up'), false);
  assert.equal(matchesFormat('made-up', 'anything'), true);
});

test('defaulting answers the value itself when nothing changes and copies only the path to what it fills in', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { mode: { type: 'string', default: 'auto' }, other: { type: 'object', properties: { x: { type: 'string' } } } } },
      status: { type: 'object', properties: { phase: { type: 'string' } } },
    },
  };
  const complete = { spec: { mode: 'manual', other: { x: 'y' } }, status: { phase: 'Ready' } };
  assert.equal(decodedObject(complete, schema), complete, 'nothing to fill in: the same object');
  const stored = { spec: { other: { x: 'y' } }, status: { phase: 'Ready' } };
  const copy = structuredClone(stored);
  const defaulted = decodedObject(stored, schema);
  assert.deepEqual(stored, copy, 'the input is never changed');
  assert.deepEqual(defaulted.spec, { other: { x: 'y' }, mode: 'auto' });
  assert.equal(defaulted.status, stored.status, 'what was not on the path is shared');
  assert.equal(defaulted.spec.other, stored.spec.other);
});

test('an anyOf that fails names the alternative that went deepest; several required fields come in the order listed', () => {
  const schema = {
    type: 'object',
    required: ['b', 'a'],
    properties: { v: { type: 'object', anyOf: [{ required: ['x'] }, { properties: { y: { type: 'object', properties: { z: { type: 'integer' } } } } }] } },
  };
  const problems = schemaProblems(schema, { v: { y: { z: 'no' } } }, undefined);
  assert.deepEqual(
    problems.map((p) => `${p.field}: ${p.message}`),
    [
      '<nil>: Invalid value: "": "v" must validate at least one schema (anyOf)',
      'v.y.z: Invalid value: "string": v.y.z in body must be of type integer: "string"',
      'b: Required value',
      'a: Required value',
    ],
  );
});
