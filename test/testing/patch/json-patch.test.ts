// JSON Patch as kube-apiserver 1.37.2 applies it (gopkg.in/evanphx/json-patch.v4 v4.13.0): the RFC 6902 examples
// it follows, and where it departs from the RFC, in its words. The outcomes and texts of the table were taken from
// the library itself (a Go program applying each patch to the same document).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyDecodedJsonPatch, applyJsonPatch, decodeJsonPatch, JSON_PATCH_MAX_COPY_BYTES, PatchError } from '../../../src/testing/patch/json-patch.js';
import { jsonPatchedText } from '../../../src/testing/patch/patched-text.js';
import { deepFreeze, snapshot } from './frozen.js';

function patched(target: unknown, operations: unknown): unknown {
  return applyJsonPatch(deepFreeze(target), deepFreeze(operations));
}

/** The PatchError of applying `operations` (a value, or the text it is sent as) to `target`. */
function failure(target: unknown, operations: unknown): PatchError {
  const text = typeof operations === 'string' ? operations : undefined;
  try {
    applyDecodedJsonPatch(deepFreeze(target), decodeJsonPatch(text === undefined ? operations : JSON.parse(text), text));
  } catch (error) {
    if (error instanceof PatchError) return error;
    throw error;
  }
  assert.fail('the patch applied');
}

describe('applyJsonPatch (RFC 6902 as evanphx/json-patch v4 applies it)', () => {
  // The examples of RFC 6902 appendix A that succeed: [name, target, operations, result].
  const appendix: [string, unknown, unknown[], unknown][] = [
    ['A.1 adding an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
    ['A.2 adding an array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
    ['A.3 removing an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    ['A.4 removing an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    ['A.5 replacing a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
    [
      'A.6 moving a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    ['A.7 moving an array element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
    [
      'A.8 testing a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    ['A.10 adding a nested member object', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }],
    ['A.11 ignoring unrecognized elements', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], { foo: 'bar', baz: 'qux' }],
    ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    ['A.16 adding an array value', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
    ['copy duplicates a subtree, independent of the source', { a: { b: [1] } }, [{ op: 'copy', from: '/a', path: '/c' }, { op: 'add', path: '/c/b/-', value: 2 }], { a: { b: [1] }, c: { b: [1, 2] } }],
    ['replace of the document by an array', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
    ['a key with "/" and "~" in a Kubernetes annotation', { metadata: { annotations: {} } }, [{ op: 'add', path: '/metadata/annotations/example.com~1a~0b', value: 'x' }], { metadata: { annotations: { 'example.com/a~b': 'x' } } }],
    ['operations apply in order', { n: 1 }, [{ op: 'replace', path: '/n', value: 2 }, { op: 'test', path: '/n', value: 2 }, { op: 'remove', path: '/n' }], {}],
    ['test compares objects regardless of key order', { a: { x: 1, y: [1, { z: 2 }] } }, [{ op: 'test', path: '/a', value: { y: [1, { z: 2 }], x: 1 } }], { a: { x: 1, y: [1, { z: 2 }] } }],
    ['move to the same place changes nothing', { a: { b: 1 } }, [{ op: 'move', from: '/a/b', path: '/a/b' }], { a: { b: 1 } }],
  ];
  for (const [name, target, operations, expected] of appendix) {
    test(name, () => assert.deepEqual(patched(target, operations), expected));
  }

  test('A.9, A.12, A.15: a failed test, a missing parent, a string against a number', () => {
    assert.equal(failure({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]).reason, 'testing value /baz failed: test failed');
    assert.equal(failure({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]).reason, 'add operation does not apply: doc is missing path: "/baz/bat": missing value');
    assert.equal(failure({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]).reason, 'testing value /~01 failed: test failed');
  });

  // [name, operations (a value, or the text sent), outcome]: the document written as the library writes it (what it
  // parsed on the way with its keys sorted, the rest as it was), or its error.
  const document = { a: { b: 1, s: 'x', n: null, arr: [1, 2, 3] }, top: 5 };
  const library: [string, unknown, { text: string } | { error: string }][] = [
    ["replace of a missing member adds it", [{op:'replace',path:'/a/zz',value:1}], { text: '{"a":{"arr":[1,2,3],"b":1,"n":null,"s":"x","zz":1},"top":5}' }],
    ["add without value writes null", [{op:'add',path:'/a/zz'}], { text: '{"a":{"arr":[1,2,3],"b":1,"n":null,"s":"x","zz":null},"top":5}' }],
    ["test of a missing member against null passes", [{op:'test',path:'/a/zz',value:null}], { text: '{"a":{"arr":[1,2,3],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["test of a missing member without value passes", [{op:'test',path:'/a/zz'}], { text: '{"a":{"arr":[1,2,3],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["test of a null member against null passes", [{op:'test',path:'/a/n',value:null}], { text: '{"a":{"arr":[1,2,3],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["test of a missing member against a value fails", [{op:'test',path:'/a/zz',value:1}], { error: "testing value /a/zz failed: test failed" }],
    ["test of a member without value fails", [{op:'test',path:'/a/b'}], { error: "testing value /a/b failed: test failed" }],
    ["a number is compared by its text", '[{"op":"test","path":"/a/b","value":1.0}]', { error: "testing value /a/b failed: test failed" }],
    ["a string is compared by its text", '[{"op":"test","path":"/a/s","value":"\\u0078"}]', { error: "testing value /a/s failed: test failed" }],
    ["white space does not count", '[{"op":"test","path":"/a","value": {"arr": [1, 2, 3], "s": "x", "n": null, "b": 1} }]', { text: '{"a":{"arr":[1,2,3],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["add at -1 appends", [{op:'add',path:'/a/arr/-1',value:9}], { text: '{"a":{"arr":[1,2,3,9],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["add at -(len+1) prepends", [{op:'add',path:'/a/arr/-4',value:9}], { text: '{"a":{"arr":[9,1,2,3],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["add before -(len+1) is out of range", [{op:'add',path:'/a/arr/-5',value:9}], { error: "error in add for path: '/a/arr/-5': Unable to access invalid index: -5: invalid index referenced" }],
    ["add past the end", [{op:'add',path:'/a/arr/4',value:9}], { error: "error in add for path: '/a/arr/4': Unable to access invalid index: 4: invalid index referenced" }],
    ["an index that is not a number", [{op:'add',path:'/a/arr/x',value:9}], { error: "error in add for path: '/a/arr/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax" }],
    ["an index with a sign or leading zeros", [{op:'add',path:'/a/arr/+01',value:9}], { text: '{"a":{"arr":[1,9,2,3],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["an index out of int64", [{op:'remove',path:'/a/arr/99999999999999999999'}], { error: "error in remove for path: '/a/arr/99999999999999999999': strconv.Atoi: parsing \"99999999999999999999\": value out of range" }],
    ["replace at -1", [{op:'replace',path:'/a/arr/-1',value:9}], { text: '{"a":{"arr":[1,2,9],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["replace past the end", [{op:'replace',path:'/a/arr/3',value:9}], { error: "replace operation does not apply: doc is missing key: /a/arr/3: missing value" }],
    ["remove at -1", [{op:'remove',path:'/a/arr/-1'}], { text: '{"a":{"arr":[1,2],"b":1,"n":null,"s":"x"},"top":5}' }],
    ["remove past the end", [{op:'remove',path:'/a/arr/3'}], { error: "error in remove for path: '/a/arr/3': Unable to access invalid index: 3: invalid index referenced" }],
    ["remove at a bad index", [{op:'remove',path:'/a/arr/x'}], { error: "error in remove for path: '/a/arr/x': strconv.Atoi: parsing \"x\": invalid syntax" }],
    ["remove of a missing member", [{op:'remove',path:'/a/zz'}], { error: "error in remove for path: '/a/zz': Unable to remove nonexistent key: zz: missing value" }],
    ["remove through a missing member", [{op:'remove',path:'/zz/y'}], { error: "remove operation does not apply: doc is missing path: \"/zz/y\": missing value" }],
    ["add through a string", [{op:'add',path:'/a/s/y',value:1}], { error: "add operation does not apply: doc is missing path: \"/a/s/y\": missing value" }],
    ["add through a null", [{op:'add',path:'/a/n/y',value:1}], { error: "add operation does not apply: doc is missing path: \"/a/n/y\": missing value" }],
    ["add through an element past the end", [{op:'add',path:'/a/arr/7/y',value:1}], { error: "add operation does not apply: doc is missing path: \"/a/arr/7/y\": missing value" }],
    ["a path without a leading slash loses its first token", [{op:'add',path:'x/q',value:1}], { text: '{"a":{"b":1,"s":"x","n":null,"arr":[1,2,3]},"q":1,"top":5}' }],
    ["a path without a slash", [{op:'add',path:'a',value:1}], { error: "add operation does not apply: doc is missing path: \"a\": missing value" }],
    ["add to the empty path", [{op:'add',path:'',value:{}}], { error: "add operation does not apply: doc is missing path: \"\": missing value" }],
    ["remove of the empty path", [{op:'remove',path:''}], { error: "remove operation does not apply: doc is missing path: \"\": missing value" }],
    ["\"/\" is the empty key", [{op:'add',path:'/',value:1}], { text: '{"":1,"a":{"b":1,"s":"x","n":null,"arr":[1,2,3]},"top":5}' }],
    ["replace of the document", [{op:'replace',path:'',value:{q:1}}], { text: '{"q":1}' }],
    ["replace of the document by a scalar", [{op:'replace',path:'',value:1}], { error: "replace operation value must be object or array: %!w(<nil>)" }],
    ["test of the document", [{op:'test',path:'',value:1}], { error: "testing value  failed: test failed" }],
    ["an unknown op", [{op:'frob',path:'/a'}], { error: "Unexpected kind: frob" }],
    ["no op", [{path:'/a'}], { error: "Unexpected kind: unknown" }],
    ["an op that is not a string", [{op:1,path:'/a'}], { error: "Unexpected kind: unknown" }],
    ["a null operation", '[null]', { error: "Unexpected kind: unknown" }],
    ["add without path", [{op:'add',value:1}], { error: "add operation failed to decode path: missing value" }],
    ["replace with a path that is not a string", [{op:'replace',path:1,value:1}], { error: "replace operation failed to decode path: json: cannot unmarshal number into Go value of type string" }],
    ["test without path", [{op:'test'}], { error: "test operation failed to decode path: operation missing path field: missing value" }],
    ["move into its own child", [{op:'move',from:'/a',path:'/a/c'}], { error: "move operation does not apply: doc is missing destination path: /a/c: missing value" }],
    ["move without from", [{op:'move',path:'/a/c'}], { error: "move operation failed to decode from: operation, missing from field: missing value" }],
    ["move of a missing member", [{op:'move',from:'/a/zz',path:'/a/c'}], { error: "error in move for path: 'zz': Unable to remove nonexistent key: zz: missing value" }],
    ["move to a missing parent", [{op:'move',from:'/a/b',path:'/zz/c'}], { error: "move operation does not apply: doc is missing destination path: /zz/c: missing value" }],
    ["copy of a missing member writes null", [{op:'copy',from:'/a/zz',path:'/a/c'}], { text: '{"a":{"arr":[1,2,3],"b":1,"c":null,"n":null,"s":"x"},"top":5}' }],
    ["copy from a bad index", [{op:'copy',from:'/a/arr/x',path:'/a/c'}], { error: "error in copy for from: '/a/arr/x': strconv.Atoi: parsing \"x\": invalid syntax" }],
    ["copy to a bad index", [{op:'copy',from:'/a/b',path:'/a/arr/x'}], { error: "error while adding value during copy: value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax" }],
    ["test at a bad index", [{op:'test',path:'/a/arr/9',value:1}], { error: "error in test for path: '/a/arr/9': Unable to access invalid index: 9: invalid index referenced" }],
    ["test through a missing member", [{op:'test',path:'/zz/y',value:1}], { error: "test operation does not apply: is missing path: /zz/y: missing value" }],
    ["replace through a missing member", [{op:'replace',path:'/zz/y',value:1}], { error: "replace operation does not apply: doc is missing path: /zz/y: missing value" }],
    ["copy a parsed object: written sorted", [{op:'test',path:'/a',value:{b:1,s:'x',n:null,arr:[1,2,3]}},{op:'copy',from:'/a',path:'/c'}], { text: '{"a":{"arr":[1,2,3],"b":1,"n":null,"s":"x"},"c":{"arr":[1,2,3],"b":1,"n":null,"s":"x"},"top":5}' }],
  ];
  for (const [name, operations, outcome] of library) {
    test(`as the library: ${name}`, () => {
      const text = typeof operations === 'string' ? operations : undefined;
      const decoded = decodeJsonPatch(text === undefined ? operations : JSON.parse(text), text);
      if ('error' in outcome) {
        assert.equal(failure(document, operations).reason, outcome.error);
        return;
      }
      assert.equal(jsonPatchedText(deepFreeze(document), decoded), outcome.text);
      assert.deepEqual(applyDecodedJsonPatch(document, decoded), JSON.parse(outcome.text));
    });
  }

  test('a patch that does not decode: the library\'s words, and `decoding` set', () => {
    const cases: [unknown, string][] = [
      [{ op: 'add' }, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
      ['add', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch'],
      [[{ op: 'add', path: '/a', value: 1 }, 1], 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
      [[[1], true], 'json: cannot unmarshal array into Go value of type jsonpatch.Operation'],
    ];
    for (const [operations, reason] of cases) {
      assert.throws(() => decodeJsonPatch(operations), (error: unknown) => error instanceof PatchError && error.decoding && error.reason === reason);
    }
    // `null` is no operations; an operation that does not apply is not a decoding failure.
    assert.deepEqual(decodeJsonPatch(null), []);
    const unknown = failure({}, [{ op: 'frob' }]);
    assert.equal(unknown.decoding, false);
    assert.equal(unknown.reason, 'Unexpected kind: frob');
  });

  test('where the library panics: `panics` set, with Go\'s panic message', () => {
    const nil = 'runtime error: invalid memory address or nil pointer dereference';
    for (const operations of [
      [{ op: 'replace', path: '' }],
      [{ op: 'test', path: '' }],
      // A null inside compared arrays is a nil node.
      [{ op: 'test', path: '/a', value: [1, null] }],
    ]) {
      const error = failure({ a: [1, 2] }, operations);
      assert.deepEqual([error.panics, error.reason], [true, nil]);
    }
    // A copy of a null written by the patch is the text `null`, which parses as a nil map that cannot be written.
    const nilMap = failure({}, [{ op: 'add', path: '/a', value: null }, { op: 'copy', from: '/a', path: '/b' }, { op: 'add', path: '/b/c', value: 1 }]);
    assert.deepEqual([nilMap.panics, nilMap.reason], [true, 'assignment to entry in nil map']);
  });

  test('copies write at most 3 MiB in all, removed or not', () => {
    const big = 'x'.repeat(1024 * 1024);
    const copies = (n: number): unknown[] => Array.from({ length: n }, (_, i) => ({ op: 'copy', from: '/a', path: `/c${i}` }));
    assert.equal(Object.keys(patched({ a: big }, copies(2)) as object).length, 3);
    const size = Buffer.byteLength(JSON.stringify(big));
    assert.equal(
      failure({ a: big }, copies(3)).reason,
      `Unable to complete the copy, the accumulated size increase of copy is ${3 * size}, exceeding the limit ${JSON_PATCH_MAX_COPY_BYTES}`,
    );
  });

  test('a value compared by its text: as sent when the text is given, as JSON.stringify writes it otherwise', () => {
    const target = { n: 1, s: '<' };
    // The stored document is in Go's encoding, which escapes `<`.
    assert.equal(failure(target, '[{"op":"test","path":"/s","value":"<"}]').reason, 'testing value /s failed: test failed');
    const escaped = '[{"op":"test","path":"/s","value":"\\u003c"}]';
    assert.deepEqual(applyDecodedJsonPatch(target, decodeJsonPatch(JSON.parse(escaped), escaped)), target);
    assert.equal(failure(target, JSON.parse(escaped)).reason, 'testing value /s failed: test failed');
    const sent = '[{"op":"test","path":"/n","value":1.0}]';
    assert.equal(failure(target, sent).reason, 'testing value /n failed: test failed');
    assert.deepEqual(applyDecodedJsonPatch(target, decodeJsonPatch(JSON.parse(sent))), target);
  });

  test('a failed patch leaves the input as it was', () => {
    const target = { a: [1, 2], b: { c: 1 } };
    const before = snapshot(target);
    assert.throws(() => applyJsonPatch(target, [{ op: 'remove', path: '/a/0' }, { op: 'remove', path: '/nope' }]), PatchError);
    assert.deepEqual(target, before);
  });

  test('__proto__ is an ordinary member name', () => {
    const result = patched({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as object;
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.equal(JSON.stringify(result), '{"__proto__":{"polluted":true}}');
    assert.equal(failure({}, [{ op: 'add', path: '/__proto__/polluted', value: true }]).reason, 'add operation does not apply: doc is missing path: "/__proto__/polluted": missing value');
    assert.equal(failure({}, [{ op: 'test', path: '/constructor', value: 1 }]).reason, 'testing value /constructor failed: test failed');
  });

  test('property: "test" of a value right after "add" of it succeeds, and the input is untouched', () => {
    // (Not with a null inside an array: the library panics comparing it.)
    const noNullInArrays = (value: unknown): boolean =>
      Array.isArray(value) ? value.every((item) => item !== null && noNullInArrays(item)) : typeof value !== 'object' || value === null || Object.values(value).every(noNullInArrays);
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.jsonValue().filter(noNullInArrays), (target, key, value) => {
        deepFreeze(target);
        deepFreeze(value);
        const path = `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const result = applyJsonPatch(target, [
          { op: 'add', path, value },
          { op: 'test', path, value },
        ]) as Record<string, unknown>;
        assert.deepEqual(snapshot(result[key]), snapshot(value));
      }),
    );
  });
});
