// The text of a patched object as kube-apiserver's patch library writes it (patch/patched-text.ts): what a patch
// reaches is re-written as a Go map (keys sorted), the rest keeps the stored object's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
  const patched = { kind: 'K', apiVersion: 'v1', metadata: base.metadata, spec: { z: 1, a: { y: 1, b: 2 }, list: [{ n: 'a', v: 1, w: { q: 1, p: 2 } }] } };
  assert.equal(
    jsonPatchedText(patched, [{ op: 'add', path: '/spec/list/0/w', value: { q: 1, p: 2 } }]),
    '{"apiVersion":"v1","kind":"K","metadata":{"name":"n","labels":{"z":"1"}},"spec":{"a":{"y":1,"b":2},"list":[{"n":"a","v":1,"w":{"q":1,"p":2}}],"z":1}}',
  );
  assert.equal(jsonPatchedText({ b: { y: '<&>', x: 1 }, a: 1 }, [{ op: 'copy', from: '/b/x', path: '/a' }]), '{"a":1,"b":{"x":1,"y":"\\u003c\\u0026\\u003e"}}');
});
