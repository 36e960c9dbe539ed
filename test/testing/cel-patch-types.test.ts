// The message types a MutatingAdmissionPolicy's mutations construct (cel/patch-types.ts, the parser's construction):
// what the conformance suite cannot show on both servers: that a construction outside a mutation is not judged at
// all, the values' JSON (bytes, durations, timestamps, map keys), the type-name check inside lists and maps, and a
// JSONPatch's field checks at evaluation (for a policy stored before its expression would be refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../../src/testing/cel/evaluate.js';
import { CelUnsupported, parseCel } from '../../src/testing/cel/parser.js';
import { toJson, typeNameMismatches } from '../../src/testing/cel/patch-types.js';
import { CelEvalError, CelObject, type CelValue } from '../../src/testing/cel/values.js';

const run = (text: string): CelValue => evaluate(parseCel(text, { patchTypes: true }), new Map());

test('a construction or jsonpatch.escapeKey outside a mutation is a part of CEL left unjudged', () => {
  assert.throws(() => parseCel('Object{}'), CelUnsupported);
  assert.throws(() => evaluate(parseCel("jsonpatch.escapeKey('a/b')"), new Map()), CelUnsupported);
  assert.equal(run("jsonpatch.escapeKey('k8s.io/my~label')"), 'k8s.io~1my~0label');
});

test("a constructed value's JSON: ints, bytes as base64, durations and timestamps as protobuf JSON; a map key must be a string", () => {
  assert.deepEqual(toJson(run("Object{a: 1, b: b'hi', c: duration('1.5s'), d: timestamp('2026-01-02T03:04:05Z'), e: [1u, 2.5], f: {'k': null}}")), {
    a: 1,
    b: 'aGk=',
    c: '1.5s',
    d: '2026-01-02T03:04:05Z',
    e: [1, 2.5],
    f: { k: null },
  });
  assert.throws(() => toJson(run("Object{data: {1: 'a'}}")), CelEvalError);
});

test("each Object type is named for its path; a list's items and a map's values stand at the list's or map's own", () => {
  const value = run("Object{spec: Object.spec{items: [Object.spec.items{a: 1}, Object.spec.item{a: 2}], byName: {'x': Object.spec.byName{}}}}");
  assert.ok(value instanceof CelObject);
  assert.deepEqual(typeNameMismatches(value), ['unexpected type name "Object.spec.item", expected "Object.spec.items", which matches field name path from root Object type']);
});

test("a JSONPatch's fields are checked when it is made, and its strings read empty when not set", () => {
  assert.throws(() => run("JSONPatch{op: 1}"), { message: "unexpected type int64 for JSONPatchType 'op' field" });
  assert.throws(() => run("JSONPatch{nope: 'x'}"), { message: 'unexpected JSONPatchType field: nope' });
  assert.equal(run("JSONPatch{path: '/a'}.op"), '');
  assert.equal(run("has(JSONPatch{path: '/a'}.path)"), true);
  assert.equal(run("JSONPatch{op: 'add'} == JSONPatch{op: 'add'}"), true);
});
