import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareVersionPriority, resolveInternalVersion, sortVersionsByPriority } from '../../src/kube/versions.js';

test('orders versions as the Kubernetes documentation does', () => {
  const expected = ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10'];
  const shuffled = ['foo10', 'v1', 'v11alpha2', 'v3beta1', 'foo1', 'v12alpha1', 'v2', 'v10beta3', 'v10', 'v11beta2'];
  assert.deepEqual(sortVersionsByPriority(shuffled), expected);
  assert.deepEqual(sortVersionsByPriority([...expected].reverse()), expected);
});

test('compares pairs of versions', () => {
  // [a, b, sign of compare(a, b)]: negative means a has the higher priority.
  const cases: Array<[string, string, -1 | 0 | 1]> = [
    ['v1', 'v1', 0],
    ['v2', 'v1', -1],
    ['v1', 'v2', 1],
    ['v10', 'v9', -1], // numeric, not textual
    ['v1', 'v2beta1', -1], // GA beats any beta
    ['v1', 'v99alpha9', -1],
    ['v1beta1', 'v2alpha1', -1], // beta beats any alpha
    ['v1beta2', 'v1beta1', -1],
    ['v1beta10', 'v1beta9', -1],
    ['v2beta1', 'v1beta2', -1], // major before minor
    ['v1alpha1', 'foo', -1], // conforming beats non-conforming
    ['v1alpha', 'v1alpha1', 1], // no number: non-conforming
    ['V1', 'v1', 1],
    ['v1.0', 'v1', 1],
    ['v1gamma1', 'v1alpha1', 1],
    ['abc', 'abd', -1], // non-conforming: alphabetical
    ['foo10', 'foo2', -1], // plain text order, as Kubernetes does
    ['v100000000000000000000', 'v99999999999999999999', -1], // no overflow
  ];
  for (const [a, b, sign] of cases) {
    assert.equal(Math.sign(compareVersionPriority(a, b)), sign, `${a} vs ${b}`);
    assert.equal(Math.sign(compareVersionPriority(b, a)), -sign || 0, `${b} vs ${a}`);
  }
});

test('sorting does not modify its input and accepts any iterable', () => {
  const input = ['v1alpha1', 'v1'];
  assert.deepEqual(sortVersionsByPriority(input), ['v1', 'v1alpha1']);
  assert.deepEqual(input, ['v1alpha1', 'v1']);
  assert.deepEqual(sortVersionsByPriority(new Set(['v1beta1', 'v1'])), ['v1', 'v1beta1']);
});

test('the comparator is a total order (antisymmetric and transitive)', () => {
  const name = fc.oneof(
    fc.nat(30).map((n) => `v${n}`),
    fc.tuple(fc.nat(30), fc.constantFrom('alpha', 'beta'), fc.nat(30)).map(([a, s, b]) => `v${a}${s}${b}`),
    fc.string({ maxLength: 6 }),
  );
  fc.assert(
    fc.property(name, name, name, (a, b, c) => {
      assert.equal(Math.sign(compareVersionPriority(a, b)), -Math.sign(compareVersionPriority(b, a)) || 0);
      if (compareVersionPriority(a, b) <= 0 && compareVersionPriority(b, c) <= 0) assert.ok(compareVersionPriority(a, c) <= 0);
    }),
  );
});

test('the internal version is the highest-priority served version', () => {
  const cases: Array<[string, Array<{ name: string; served: boolean; storage?: boolean }>, string | undefined]> = [
    ['single', [{ name: 'v1alpha1', served: true, storage: true }], 'v1alpha1'],
    [
      'GA wins over a newer beta',
      [
        { name: 'v2beta1', served: true },
        { name: 'v1', served: true, storage: true },
      ],
      'v1',
    ],
    [
      'not-served versions are skipped even when storage',
      [
        { name: 'v1', served: false, storage: true },
        { name: 'v1beta1', served: true },
      ],
      'v1beta1',
    ],
    [
      'storage does not matter',
      [
        { name: 'v1alpha1', served: true, storage: true },
        { name: 'v1beta1', served: true, storage: false },
      ],
      'v1beta1',
    ],
    ['nothing served', [{ name: 'v1', served: false }], undefined],
    ['no versions', [], undefined],
  ];
  for (const [label, versions, expected] of cases) assert.equal(resolveInternalVersion(versions), expected, label);
});
