import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyMergePatch } from '../../../src/testing/patch/merge-patch.js';
import { deepFreeze, snapshot } from './frozen.js';

describe('applyMergePatch (RFC 7386)', () => {
  // The examples of RFC 7386 appendix A: [target, patch, result].
  const appendix: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [index, [target, patch, expected]] of appendix.entries()) {
    test(`appendix A example ${index + 1}`, () => {
      assert.deepEqual(applyMergePatch(deepFreeze(target), deepFreeze(patch)), expected);
    });
  }

  test('the section 3 example: nested change, removal, array replacement', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    assert.deepEqual(applyMergePatch(deepFreeze(target), deepFreeze(patch)), {
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  test('unchanged branches of the result are copies, not the input objects', () => {
    const target = { spec: { a: { deep: 1 } }, other: { x: [1] } };
    const result = applyMergePatch(target, { spec: { b: 2 } }) as typeof target & { spec: { b: number } };
    assert.notEqual(result.other, target.other);
    assert.notEqual(result.spec.a, target.spec.a);
    assert.deepEqual(result, { spec: { a: { deep: 1 }, b: 2 }, other: { x: [1] } });
  });

  test('a __proto__ key is data: it never reaches Object.prototype', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "metadata": {"__proto__": {"x": 1}}}') as unknown;
    const result = applyMergePatch({ metadata: {} }, patch) as Record<string, unknown>;
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(result, '__proto__')?.value, { polluted: true });
    assert.equal(JSON.stringify(result), '{"metadata":{"__proto__":{"x":1}},"__proto__":{"polluted":true}}');
  });

  test('a target without an own key does not see inherited values', () => {
    const result = applyMergePatch({}, { constructor: { name: 'x' }, toString: null });
    assert.equal(JSON.stringify(result), '{"constructor":{"name":"x"}}');
  });

  test('property: an empty patch gives a copy equal to the target', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (target) => {
        deepFreeze(target);
        // fast-check may build null-prototype objects; compare as JSON.
        assert.deepEqual(snapshot(applyMergePatch(target, {})), snapshot(target));
      }),
    );
  });

  test('property: applying the same patch twice changes nothing more (idempotence), inputs untouched', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (target, patch) => {
        deepFreeze(target);
        deepFreeze(patch);
        const once = applyMergePatch(target, patch);
        assert.deepEqual(snapshot(applyMergePatch(once, patch)), snapshot(once));
      }),
    );
  });
});
