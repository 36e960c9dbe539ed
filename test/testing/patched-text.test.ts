// The text of a patched object as kube-apiserver's patch library writes it (patch/patched-text.ts): what a patch
// reaches is re-written as a Go map (keys sorted), the rest keeps the stored object's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJsonPatch } from '../../src/testing/patch/json-patch.js';
import { jsonPatchedText, mergePatchedText } from '../../src/testing/patch/patched-text.js';

const base = { kind: 'K', apiVersion: 'v1', metadata: { name: 'n', labels: { z: '1' } }, spec: { z: 1, a: { y: 1, b: 2 }, list: [{ n: 'a', v: 1 }] } };

test('a merge patch: the top level and the objects it merges into sorted, new and replacing values sorted whole, untouched ones as stored', () => {
  const patch = { spec: { a: { c: 3 }, list: [{ v: 2, n: 'a' }], extra: { y: 1, b: 2 } } };
  const patched = { kind: 'K', apiVersion: 'v1', metadata: base.metadata, spec: { z: 1, a: { y: 1, b: 2, c: 3 }, list: [{ v: 2, n: 'a' }], extra: { y: 1, b: 2 } } };
  assert.equal(
    mergePatchedText(base, patch, patched),
    '{"apiVersion":"v1","kind":"K","metadata":{"name":"n","labels":{"z":"1"}},"spec":{"a":{"b":2,"c":3,"y":1},"extra":{"b":2,"y":1},"list":[{"n":"a","v":2}],"z":1}}',
  );
  // An object replaced by a scalar or a list is the patch's value as sent.
  assert.equal(mergePatchedText({ a: { y: 1 } }, { a: [{ z: 1, b: 2 }] }, { a: [{ z: 1, b: 2 }] }), '{"a":[{"z":1,"b":2}]}');
});

test('a JSON patch: the objects on the way to each target sorted (and those of `from`), its values as sent; HTML characters escaped', () => {
  assert.equal(
    jsonPatchedText(base, decodeJsonPatch([{ op: 'add', path: '/spec/list/0/w', value: { q: 1, p: 2 } }])),
    '{"apiVersion":"v1","kind":"K","metadata":{"name":"n","labels":{"z":"1"}},"spec":{"a":{"y":1,"b":2},"list":[{"n":"a","v":1,"w":{"q":1,"p":2}}],"z":1}}',
  );
  assert.equal(jsonPatchedText({ b: { y: '<&>', x: 1 }, a: 0 }, decodeJsonPatch([{ op: 'copy', from: '/b/x', path: '/a' }])), '{"a":1,"b":{"x":1,"y":"\\u003c\\u0026\\u003e"}}');
});

test("a JSON patch: as the library applies it (a missing member replaced, a negative index), what a passing `test` compared sorted, a value's text as sent", () => {
  const text = '[{"op":"replace","path":"/spec/new","value": {"y": 1.0, "b": 2}},{"op":"add","path":"/spec/list/-1","value":{"v":2,"n":"b"}},{"op":"test","path":"/metadata","value":{"labels":{"z":"1"},"name":"n"}}]';
  assert.equal(
    jsonPatchedText(base, decodeJsonPatch(JSON.parse(text), text)),
    '{"apiVersion":"v1","kind":"K","metadata":{"labels":{"z":"1"},"name":"n"},"spec":{"a":{"y":1,"b":2},"list":[{"n":"a","v":1},{"v":2,"n":"b"}],"new":{"y":1.0,"b":2},"z":1}}',
  );
});
