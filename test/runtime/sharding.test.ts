import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RuntimeError } from '../../src/errors.js';
import { fnv1a32, shardFilter, shardLeaseName, shardOf, validateShard } from '../../src/runtime/sharding.js';

/** FNV-1a 32 written differently from the source (BigInt, Buffer), as the reference. */
function referenceFnv1a(key: string): bigint {
  let hash = 2166136261n;
  for (const byte of Buffer.from(key, 'utf8')) hash = ((hash ^ BigInt(byte)) * 16777619n) % 2n ** 32n;
  return hash;
}

const PINNED_KEYS = ['default/web', 'prod/api', 'cluster-scoped', 'a', 'team-3/website-42', 'ümlaut/ß'];

describe('shardOf', () => {
  test('is FNV-1a 32-bit over UTF-8 (published test vectors)', () => {
    assert.equal(fnv1a32(''), 0x811c9dc5);
    assert.equal(fnv1a32('a'), 0xe40c292c);
    assert.equal(fnv1a32('foobar'), 0xbf9cf968);
    assert.equal(shardOf('default/web', 1), 0);
  });

  test('hashes "é" as its UTF-8 bytes', () => {
    let hash = 0x811c9dc5;
    for (const byte of [0xc3, 0xa9]) hash = Math.imul(hash ^ byte, 0x01000193);
    assert.equal(fnv1a32('é'), hash >>> 0);
  });

  test('is stable (agrees with an independent BigInt FNV-1a) and within [0, count) for any key and count', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.integer({ min: 1, max: 1000 }), (key, count) => {
        const shard = shardOf(key, count);
        assert.ok(Number.isInteger(shard) && shard >= 0 && shard < count);
        assert.equal(shard, Number(referenceFnv1a(key) % BigInt(count)));
      }),
      { numRuns: 2000 },
    );
  });

  test('pins a few assignments, so that an upgrade never moves keys between shards', () => {
    assert.deepEqual(PINNED_KEYS.map((key) => shardOf(key, 7)), [3, 4, 0, 5, 5, 6]);
  });

  test('3 shards over 3,000 keys: each key in exactly one shard, each shard between 25% and 42%', () => {
    const count = 3;
    const filters = [0, 1, 2].map((index) => shardFilter({ index, count }));
    const sizes = [0, 0, 0];
    for (let i = 0; i < 3000; i++) {
      const key = `team-${i % 17}/website-${i}`;
      const owners = filters.filter((accepts) => accepts?.(key) === true).length;
      assert.equal(owners, 1, `${key} has ${owners} owners`);
      sizes[shardOf(key, count)] = (sizes[shardOf(key, count)] ?? 0) + 1;
    }
    for (const size of sizes) assert.ok(size >= 750 && size <= 1260, `shard sizes ${sizes.join(', ')}`);
  });

  test('rejects a count that is not a positive integer', () => {
    for (const count of [0, -1, 1.5, Number.NaN, Infinity]) {
      assert.throws(() => shardOf('a', count), (error: unknown) => error instanceof RuntimeError && error.code === 'E_OPTIONS');
    }
  });
});

describe('shard options', () => {
  test('validateShard accepts 0 <= index < count, integers only, and names every problem', () => {
    assert.deepEqual(validateShard({ index: 0, count: 1 }), { index: 0, count: 1 });
    assert.deepEqual(validateShard({ index: 4, count: 5 }), { index: 4, count: 5 });
    assert.throws(() => validateShard({ index: 5, count: 5 }), /shard\.index: must be below shard\.count \(5\), got 5/);
    assert.throws(() => validateShard({ index: -1, count: 5 }), /shard\.index: must be an integer >= 0, got -1/);
    assert.throws(() => validateShard({ index: 0.5, count: 2.5 }), (error: unknown) => {
      assert.ok(error instanceof RuntimeError);
      assert.match(error.message, /shard\.count: must be a positive integer, got 2\.5/);
      assert.match(error.message, /shard\.index: must be an integer >= 0, got 0\.5/);
      return true;
    });
  });

  test('shardFilter is undefined without sharding or with a single shard', () => {
    assert.equal(shardFilter(undefined), undefined);
    assert.equal(shardFilter({ index: 0, count: 1 }), undefined);
    assert.throws(() => shardFilter({ index: 2, count: 2 }), RuntimeError);
  });

  test('one Lease per shard', () => {
    assert.equal(shardLeaseName('katalog', undefined), 'katalog');
    assert.equal(shardLeaseName('katalog', { index: 1, count: 4 }), 'katalog-shard-1');
  });
});
