import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyJsonPatch, PatchError } from '../../../src/testing/patch/json-patch.js';
import { parsePointer, formatPointer } from '../../../src/testing/patch/json-pointer.js';
import { deepFreeze, snapshot } from './frozen.js';

function patched(target: unknown, operations: unknown): unknown {
  return applyJsonPatch(deepFreeze(target), deepFreeze(operations));
}

function rejects(target: unknown, operations: unknown, reason: RegExp): void {
  assert.throws(
    () => patched(target, operations),
    (error: unknown) => error instanceof PatchError && reason.test(error.reason),
  );
}

describe('applyJsonPatch (RFC 6902)', () => {
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
  ];
  for (const [name, target, operations, expected] of appendix) {
    test(name, () => assert.deepEqual(patched(target, operations), expected));
  }

  test('A.9 testing a value: error', () => rejects({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }], /test failed/));
  test('A.12 adding to a nonexistent target', () => rejects({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }], /\/baz does not exist/));
  test('A.15 comparing strings and numbers', () => rejects({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }], /test failed/));

  const more: [string, unknown, unknown[], unknown][] = [
    ['copy duplicates a subtree, independent of the source', { a: { b: [1] } }, [{ op: 'copy', from: '/a', path: '/c' }, { op: 'add', path: '/c/b/-', value: 2 }], { a: { b: [1] }, c: { b: [1, 2] } }],
    ['replace at the root', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
    ['add at the root replaces the document', { a: 1 }, [{ op: 'add', path: '', value: { b: 2 } }], { b: 2 }],
    ['add at the end index of an array', { a: [1] }, [{ op: 'add', path: '/a/1', value: 2 }], { a: [1, 2] }],
    ['a key with "/" and "~" in a Kubernetes annotation', { metadata: { annotations: {} } }, [{ op: 'add', path: '/metadata/annotations/example.com~1a~0b', value: 'x' }], { metadata: { annotations: { 'example.com/a~b': 'x' } } }],
    ['operations apply in order', { n: 1 }, [{ op: 'replace', path: '/n', value: 2 }, { op: 'test', path: '/n', value: 2 }, { op: 'remove', path: '/n' }], {}],
    ['test compares objects regardless of key order', { a: { x: 1, y: [1, { z: 2 }] } }, [{ op: 'test', path: '/a', value: { y: [1, { z: 2 }], x: 1 } }], { a: { x: 1, y: [1, { z: 2 }] } }],
    ['move to the same place is a no-op', { a: { b: 1 } }, [{ op: 'move', from: '/a/b', path: '/a/b' }], { a: { b: 1 } }],
  ];
  for (const [name, target, operations, expected] of more) {
    test(name, () => assert.deepEqual(patched(target, operations), expected));
  }

  const failures: [string, unknown, unknown, RegExp][] = [
    ['operations not an array', {}, { op: 'add' }, /must be an array/],
    ['an operation not an object', {}, ['add'], /operation 0 must be an object/],
    ['unknown op', {}, [{ op: 'merge', path: '/a' }], /unknown "op"/],
    ['missing path', {}, [{ op: 'remove' }], /no string "path"/],
    ['missing value', {}, [{ op: 'add', path: '/a' }], /has no "value"/],
    ['missing from', { a: 1 }, [{ op: 'move', path: '/b' }], /no string "from"/],
    ['pointer without leading slash', { a: 1 }, [{ op: 'remove', path: 'a' }], /must be empty or start with/],
    ['bad escape', { a: 1 }, [{ op: 'remove', path: '/a~2' }], /"~" must be followed/],
    ['remove a missing member', { a: 1 }, [{ op: 'remove', path: '/b' }], /\/b does not exist/],
    ['replace a missing member', { a: 1 }, [{ op: 'replace', path: '/b', value: 1 }], /\/b does not exist/],
    ['index past the end', { a: [1] }, [{ op: 'add', path: '/a/2', value: 2 }], /out of range/],
    ['index with a leading zero', { a: [1, 2] }, [{ op: 'remove', path: '/a/01' }], /\/a\/01 does not exist/],
    ['"-" outside add', { a: [1] }, [{ op: 'remove', path: '/a/-' }], /does not exist/],
    ['move into its own child', { a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }], /own children/],
    ['add below a scalar', { a: 1 }, [{ op: 'add', path: '/a/b', value: 1 }], /it is number/],
    ['remove the whole document', { a: 1 }, [{ op: 'remove', path: '' }], /whole document/],
    ['a later failure fails the whole patch', { a: 1 }, [{ op: 'add', path: '/b', value: 2 }, { op: 'test', path: '/b', value: 3 }], /operation 1 \(test \/b\)/],
  ];
  for (const [name, target, operations, reason] of failures) {
    test(`rejects: ${name}`, () => rejects(target, operations, reason));
  }

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
    rejects({}, [{ op: 'add', path: '/__proto__/polluted', value: true }], /\/__proto__ does not exist/);
    rejects({}, [{ op: 'test', path: '/constructor', value: null }], /\/constructor does not exist/);
  });

  test('RFC 6901 pointers round-trip', () => {
    assert.deepEqual(parsePointer(''), []);
    assert.deepEqual(parsePointer('/'), ['']);
    assert.deepEqual(parsePointer('/a~1b/m~0n/~01'), ['a/b', 'm~n', '~1']);
    assert.equal(formatPointer(['a/b', 'm~n', '~1']), '/a~1b/m~0n/~01');
  });

  test('property: "test" of a value right after "add" of it succeeds, and the input is untouched', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.jsonValue(), (target, key, value) => {
        deepFreeze(target);
        deepFreeze(value);
        const path = formatPointer([key]);
        const result = applyJsonPatch(target, [
          { op: 'add', path, value },
          { op: 'test', path, value },
        ]) as Record<string, unknown>;
        assert.deepEqual(snapshot(result[key]), snapshot(value));
      }),
    );
  });
});
