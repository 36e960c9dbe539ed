import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { RuntimeError } from '../../src/errors.js';
import { checkLeaderElection, resolveLeaderElection } from '../../src/runtime/leader-options.js';

function problemsOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof RuntimeError, 'a RuntimeError');
    assert.equal(error.code, 'E_OPTIONS');
    return error.message;
  }
  assert.fail('expected a RuntimeError');
}

describe('resolveLeaderElection', () => {
  test('fills in the 15s / 10s / 2s defaults and a unique identity starting with the host name', () => {
    const a = resolveLeaderElection({ namespace: 'ops', name: 'katalog' });
    const b = resolveLeaderElection({ namespace: 'ops', name: 'katalog' });
    assert.deepEqual(a.lease, { namespace: 'ops', name: 'katalog' });
    assert.equal(a.leaseDurationMs, 15_000);
    assert.equal(a.renewDeadlineMs, 10_000);
    assert.equal(a.retryPeriodMs, 2_000);
    assert.equal(a.shard, undefined);
    assert.ok(a.identity.startsWith(`${hostname()}-`));
    assert.notEqual(a.identity, b.identity, 'two replicas on one host get different identities');
  });

  test('accepts Go duration strings and milliseconds, and an explicit identity', () => {
    const resolved = resolveLeaderElection({ namespace: 'ops', name: 'katalog', identity: 'pod-1', leaseDuration: '1.5s', renewDeadline: 1000, retryPeriod: '200ms' });
    assert.equal(resolved.identity, 'pod-1');
    assert.deepEqual([resolved.leaseDurationMs, resolved.renewDeadlineMs, resolved.retryPeriodMs], [1500, 1000, 200]);
  });

  test('uses one Lease per shard', () => {
    const resolved = resolveLeaderElection({ namespace: 'ops', name: 'katalog' }, { index: 2, count: 3 });
    assert.equal(resolved.lease.name, 'katalog-shard-2');
    assert.deepEqual(resolved.shard, { index: 2, count: 3 });
  });

  test('rejects timings where two replicas could lead at once, saying why', () => {
    const message = problemsOf(() => resolveLeaderElection({ namespace: 'ops', name: 'k', leaseDuration: '10s', renewDeadline: '10s' }));
    assert.match(message, /renewDeadline \(10000ms\) must be below leaseDuration \(10000ms\)/);
    assert.match(message, /step down before the others may take the Lease over/);
    assert.match(problemsOf(() => resolveLeaderElection({ namespace: 'ops', name: 'k', retryPeriod: '10s' })), /retryPeriod \(10000ms\) must be below renewDeadline \(10000ms\)/);
  });

  test('names every problem at once', () => {
    const message = problemsOf(() =>
      resolveLeaderElection({ namespace: 'Bad_NS', name: 'no/slash', identity: '', leaseDuration: 'soon', retryPeriod: -1 }, { index: 3, count: 3 }),
    );
    for (const expected of [
      /leaderElection\.leaseDuration: "soon" is not a positive duration/,
      /leaderElection\.retryPeriod: -1 is not a positive duration/,
      /leaderElection\.namespace: "Bad_NS"/,
      /leaderElection\.name: "no\/slash-shard-3"/,
      /leaderElection\.identity: must be a non-empty string/,
      /shard\.index: must be below shard\.count \(3\), got 3/,
    ]) {
      assert.match(message, expected);
    }
  });
});

describe('checkLeaderElection', () => {
  test('returns the problems instead of throwing, for resolveOptions to merge with its own', () => {
    const bad = checkLeaderElection({ namespace: 'ops', name: 'k', renewDeadline: '20s' });
    assert.equal(bad.resolved, undefined);
    assert.equal(bad.problems.length, 1);
    assert.match(bad.problems[0] ?? '', /renewDeadline \(20000ms\) must be below leaseDuration/);
    const good = checkLeaderElection({ namespace: 'ops', name: 'k', identity: 'x' });
    assert.deepEqual(good.problems, []);
    assert.equal(good.resolved?.identity, 'x');
  });
});
