/**
 * Sharding: a replica with `shard: { index, count }` reconciles only the keys that hash to `index`. The hash is
 * FNV-1a (32 bit) of the key's UTF-8 bytes, modulo `count`: stable across processes, Node versions and machines,
 * so every replica agrees on who owns a key without talking to the others.
 *
 * Changing `count` moves most keys to another shard. Replicas running with different counts disagree on
 * ownership, so during a rollout that changes `count` a key can be reconciled by two replicas at once (and the
 * Lease names, which carry only the index, do not prevent it). Change `count` with a full stop (scale to zero,
 * then up); see docs/scaling.md.
 */
import { RuntimeError } from '../errors.js';

/** Which slice of the keys this replica owns. */
export interface ShardOptions {
  /** This replica's shard, `0 <= index < count`. */
  readonly index: number;
  /** How many shards there are. Every replica must use the same count. */
  readonly count: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const encoder = new TextEncoder();

/** FNV-1a, 32 bit, over the UTF-8 bytes of `text`; an unsigned integer. */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/**
 * The shard that owns `key` (`namespace/name`, or `name` for a cluster-scoped object) among `count` shards:
 * an integer in `[0, count)`. Same key and count, same answer, everywhere.
 * @throws RuntimeError `E_OPTIONS` when `count` is not a positive integer.
 */
export function shardOf(key: string, count: number): number {
  if (!Number.isSafeInteger(count) || count < 1) throw new RuntimeError('E_OPTIONS', `shard count must be a positive integer, got ${String(count)}`);
  return fnv1a32(key) % count;
}

/** The problems with a shard setting (empty when valid); messages name the field. */
export function shardProblems(shard: ShardOptions): string[] {
  const problems: string[] = [];
  const { index, count } = shard;
  if (!Number.isSafeInteger(count) || count < 1) problems.push(`shard.count: must be a positive integer, got ${String(count)}`);
  if (!Number.isSafeInteger(index) || index < 0) problems.push(`shard.index: must be an integer >= 0, got ${String(index)}`);
  else if (Number.isSafeInteger(count) && count >= 1 && index >= count) problems.push(`shard.index: must be below shard.count (${count}), got ${index}`);
  return problems;
}

/**
 * Checks a shard setting.
 * @throws RuntimeError `E_OPTIONS` naming every problem.
 */
export function validateShard(shard: ShardOptions): ShardOptions {
  const problems = shardProblems(shard);
  if (problems.length > 0) throw new RuntimeError('E_OPTIONS', `invalid shard option:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return { index: shard.index, count: shard.count };
}

/**
 * The predicate for `ControllerOptions.accepts`: true for the keys this shard owns. `undefined` (no sharding)
 * when `shard` is undefined or has a count of 1, so the controller skips hashing altogether.
 * @throws RuntimeError `E_OPTIONS` on an invalid shard.
 */
export function shardFilter(shard: ShardOptions | undefined): ((key: string) => boolean) | undefined {
  if (shard === undefined) return undefined;
  const { index, count } = validateShard(shard);
  if (count === 1) return undefined;
  return (key) => fnv1a32(key) % count === index;
}

/** The Lease name of a shard: `${name}-shard-${index}` (one Lease per shard), or `name` itself without sharding. */
export function shardLeaseName(name: string, shard: ShardOptions | undefined): string {
  return shard === undefined ? name : `${name}-shard-${shard.index}`;
}
