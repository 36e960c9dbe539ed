// LeaderElector against an in-memory Lease store (get/create/replace with resourceVersion semantics) on a fake
// clock: the algorithm, step by step and deterministically. The same behaviour over real HTTP is in
// test/integration/leader-election.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeError, RuntimeError } from '../../src/errors.js';
import type { KubeObject } from '../../src/kube/resource.js';
import { LeaderElector, type LeaseClient } from '../../src/runtime/leader-election.js';
import { readRecord } from '../../src/runtime/leader-lease.js';
import type { Clock, TimerHandle } from '../../src/util/clock.js';
import { FakeClock } from '../support/fake-clock.js';

const LEASE = { namespace: 'ops', name: 'katalog' };
const TIMING = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** One Lease in memory. `writes` records the clock time of every successful write. */
class LeaseStore {
  object: KubeObject | undefined;
  private version = 0;
  readonly writes: Array<{ at: number; holder: string }> = [];
  constructor(readonly clock: Clock) {}

  get current(): ReturnType<typeof readRecord> | undefined {
    return this.object === undefined ? undefined : readRecord(this.object);
  }

  /** Writes as someone else would (kubectl, another program). */
  put(spec: Record<string, unknown>): void {
    this.object = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { ...LEASE, resourceVersion: String(++this.version) }, spec };
  }

  read(): KubeObject | undefined {
    return this.object === undefined ? undefined : structuredClone(this.object);
  }

  create(object: KubeObject): KubeObject {
    if (this.object !== undefined) throw new KubeError('POST leases: 409 AlreadyExists', { status: 409, reason: 'AlreadyExists' });
    return this.store(object);
  }

  /** Runs once, just before the next replace is applied: another writer slipping in between a read and a write. */
  interleave: (() => void) | undefined;

  replace(object: KubeObject): KubeObject {
    const interleave = this.interleave;
    this.interleave = undefined;
    interleave?.();
    if (this.object === undefined) throw new KubeError('PUT lease: 404 NotFound', { status: 404, reason: 'NotFound' });
    if (object.metadata?.resourceVersion !== this.object.metadata?.resourceVersion) throw new KubeError('PUT lease: 409 Conflict', { status: 409, reason: 'Conflict' });
    return this.store(object);
  }

  private store(object: KubeObject): KubeObject {
    this.object = structuredClone(object);
    this.object.metadata = { ...this.object.metadata, resourceVersion: String(++this.version) };
    this.writes.push({ at: this.clock.now(), holder: readRecord(this.object).holderIdentity });
    return structuredClone(this.object);
  }
}

type Fault = 'none' | 'fail' | 'hang';

/** One replica's connection to the store, with its own faults. `aborted` counts requests cancelled by their signal. */
class Connection implements LeaseClient {
  fault: Fault = 'none';
  aborted = 0;
  constructor(private readonly store: LeaseStore) {}

  async get(_ref: unknown, _name: string, _namespace?: string, signal?: AbortSignal): Promise<KubeObject | undefined> {
    await this.gate(signal);
    return this.store.read();
  }

  async create(_ref: unknown, object: KubeObject, options: { signal?: AbortSignal } = {}): Promise<KubeObject> {
    await this.gate(options.signal);
    return this.store.create(object);
  }

  async replace(_ref: unknown, object: KubeObject, options: { signal?: AbortSignal } = {}): Promise<KubeObject> {
    await this.gate(options.signal);
    return this.store.replace(object);
  }

  private gate(signal: AbortSignal | undefined): Promise<void> {
    if (this.fault === 'fail') return Promise.reject(new KubeError('GET lease: 503 ServiceUnavailable', { status: 503 }));
    if (this.fault === 'none') return Promise.resolve();
    return new Promise((_resolve, reject) => {
      signal?.addEventListener('abort', () => {
        this.aborted++;
        reject(new KubeError('request aborted', {}, { cause: signal.reason }));
      });
    });
  }
}

/** A clock whose timers die with the process: after `kill()` nothing scheduled on it ever fires. */
class CrashableClock implements Clock {
  private dead = false;
  private readonly handles = new Set<TimerHandle>();
  constructor(private readonly inner: Clock) {}
  now(): number {
    return this.inner.now();
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = this.inner.setTimeout(() => {
      this.handles.delete(handle);
      if (!this.dead) fn();
    }, ms);
    this.handles.add(handle);
    return handle;
  }
  clearTimeout(handle: TimerHandle): void {
    this.handles.delete(handle);
    this.inner.clearTimeout(handle);
  }
  kill(): void {
    this.dead = true;
    for (const handle of this.handles) this.inner.clearTimeout(handle);
    this.handles.clear();
  }
}

interface Replica {
  readonly elector: LeaderElector;
  readonly connection: Connection;
  readonly clock: CrashableClock;
  /** Leadership intervals by the callbacks; `end` undefined while leading. */
  readonly terms: Array<{ start: number; end: number | undefined; reason?: string }>;
}

function replica(store: LeaseStore, identity: string, options: { timing?: typeof TIMING; onStopped?: () => Promise<void> } = {}): Replica {
  const connection = new Connection(store);
  const clock = new CrashableClock(store.clock);
  const terms: Replica['terms'] = [];
  const elector = new LeaderElector({
    client: connection,
    clock,
    lease: LEASE,
    identity,
    ...(options.timing ?? TIMING),
    random: () => 0.5,
    onStartedLeading: () => void terms.push({ start: clock.now(), end: undefined }),
    onStoppedLeading: (reason) => {
      const term = terms.at(-1);
      assert.ok(term !== undefined && term.end === undefined, `${identity}: onStoppedLeading without onStartedLeading`);
      term.end = clock.now();
      term.reason = reason;
      return options.onStopped?.();
    },
  });
  return { elector, connection, clock, terms };
}

/** Asserts that no two replicas' leadership terms overlap (a crashed replica's open term ends at `killedAt`). */
function assertNoOverlap(replicas: Array<{ terms: Replica['terms']; killedAt?: number }>, now: number): void {
  const all = replicas.flatMap((r) => r.terms.map((t) => ({ start: t.start, end: t.end ?? r.killedAt ?? now })));
  all.sort((a, b) => a.start - b.start);
  for (let i = 1; i < all.length; i++) {
    const previous = all[i - 1];
    const current = all[i];
    assert.ok(previous !== undefined && current !== undefined);
    assert.ok(current.start >= previous.end, `terms overlap: [${previous.start}, ${previous.end}] and [${current.start}, ${current.end}]`);
  }
}

/** Stops every replica, moving fake time on meanwhile (a release to an API that does not answer times out). */
async function stopAll(clock: FakeClock, ...replicas: Replica[]): Promise<void> {
  let done = false;
  const stopped = Promise.all(replicas.map((r) => r.elector.stop())).then(() => {
    done = true;
  });
  for (let waited = 0; !done && waited <= TIMING.renewDeadlineMs; waited += 500) await clock.advance(500);
  assert.equal(done, true, 'stop() did not finish within the renew deadline');
  await stopped;
  assert.equal(clock.pending, 0, 'a timer outlived stop()');
}

describe('LeaderElector', () => {
  test('creates the missing Lease and leads, writing the client-go record', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(0);
    assert.equal(a.elector.isLeader, true);
    assert.equal(a.terms.length, 1);
    const spec = store.object?.['spec'] as Record<string, unknown>;
    assert.equal(spec['holderIdentity'], 'a');
    assert.equal(spec['leaseDurationSeconds'], 15);
    assert.equal(spec['leaseTransitions'], 0);
    assert.match(String(spec['renewTime']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(spec['acquireTime'], spec['renewTime']);
    const acquired = spec['acquireTime'];
    await clock.advance(2_000);
    const renewed = store.object?.['spec'] as Record<string, unknown>;
    assert.equal(renewed['acquireTime'], acquired, 'a renew keeps acquireTime');
    assert.notEqual(renewed['renewTime'], acquired, 'a renew moves renewTime');
    assert.equal(store.writes.length, 2, 'one renew per retry period');
    await stopAll(clock, a);
  });

  test('two replicas: exactly one leads, the other stays a candidate, and they never overlap', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    const b = replica(store, 'b');
    a.elector.start();
    b.elector.start();
    for (let t = 0; t < 60_000; t += 500) {
      await clock.advance(500);
      assert.equal(Number(a.elector.isLeader) + Number(b.elector.isLeader), 1, `at ${t}ms`);
    }
    assert.equal(a.terms.length + b.terms.length, 1, 'no flapping while both are healthy');
    assert.equal(b.elector.holder, store.current?.holderIdentity);
    await stopAll(clock, a, b);
  });

  test('a stopped leader releases the Lease and the candidate takes over within one jittered retry period', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(0);
    const b = replica(store, 'b');
    b.elector.start();
    await clock.advance(5_000);
    assert.equal(b.elector.isLeader, false);
    const stoppedAt = clock.now();
    await a.elector.stop();
    assert.equal(a.terms[0]?.reason, 'leader election stopped');
    assert.equal(store.current?.holderIdentity, '', 'released');
    assert.equal(store.current?.leaseDurationSeconds, 1);
    await clock.advance(TIMING.retryPeriodMs * 1.2);
    assert.equal(b.elector.isLeader, true);
    assert.ok((b.terms[0]?.start ?? Infinity) - stoppedAt <= TIMING.retryPeriodMs * 1.2);
    assert.equal(store.current?.leaseTransitions, 1, 'a change of holder counts a transition');
    assertNoOverlap([a, b], clock.now());
    await stopAll(clock, b);
  });

  test('a crashed leader (no release) is replaced after the lease duration, not before', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(0);
    const b = replica(store, 'b');
    b.elector.start();
    await clock.advance(7_000);
    const lastWrite = store.writes.at(-1)?.at ?? 0;
    a.clock.kill();
    a.connection.fault = 'hang';
    const killedAt = clock.now();
    await clock.advance(TIMING.leaseDurationMs - 1_000);
    assert.equal(b.elector.isLeader, false, 'the Lease has not expired yet');
    await clock.advance(1_000 + TIMING.retryPeriodMs * 1.2 + 1);
    assert.equal(b.elector.isLeader, true);
    const takeover = b.terms[0]?.start ?? Infinity;
    // b saw a's last write at most one retry period after it happened, and waits a lease duration from then.
    assert.ok(takeover >= lastWrite + TIMING.leaseDurationMs, `took over at ${takeover - lastWrite}ms after the last renew`);
    assert.ok(takeover <= lastWrite + TIMING.leaseDurationMs + 2 * TIMING.retryPeriodMs * 1.2);
    assertNoOverlap([{ terms: a.terms, killedAt }, b], clock.now());
    await stopAll(clock, b);
  });

  for (const fault of ['fail', 'hang'] as const) {
    test(`a leader whose API calls ${fault === 'fail' ? 'fail (503)' : 'hang'} steps down at the renew deadline, before the Lease expires`, async () => {
      const clock = new FakeClock();
      const store = new LeaseStore(clock);
      const a = replica(store, 'a');
      const b = replica(store, 'b');
      a.elector.start();
      await clock.advance(0);
      b.elector.start();
      await clock.advance(3_000);
      const lastRenew = store.writes.at(-1)?.at ?? 0;
      a.connection.fault = fault;
      await clock.advance(TIMING.leaseDurationMs + 5_000);
      const stopped = a.terms[0]?.end;
      assert.ok(stopped !== undefined, 'a stepped down');
      assert.ok(stopped <= lastRenew + TIMING.renewDeadlineMs, `stepped down ${stopped - lastRenew}ms after its last renew`);
      assert.ok(stopped < lastRenew + TIMING.leaseDurationMs);
      assert.match(a.terms[0]?.reason ?? '', /renew deadline/);
      if (fault === 'hang') assert.ok(a.connection.aborted > 0, 'the hung request was aborted');
      assert.equal(b.elector.isLeader, true, 'b took over once the Lease expired');
      assertNoOverlap([a, b], clock.now());
      await stopAll(clock, a, b);
    });
  }

  test('a replica that lost the Lease campaigns again and leads once it can', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(0);
    a.connection.fault = 'fail';
    await clock.advance(TIMING.renewDeadlineMs + 1);
    assert.equal(a.elector.isLeader, false);
    a.connection.fault = 'none';
    await clock.advance(TIMING.retryPeriodMs * 1.2);
    assert.equal(a.elector.isLeader, true, 'the Lease still names a, so it renews and leads again');
    assert.equal(a.terms.length, 2);
    await stopAll(clock, a);
  });

  test('a leader whose Lease is taken by someone else steps down at its next renew', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(0);
    store.put({ holderIdentity: 'intruder', leaseDurationSeconds: 15, leaseTransitions: 1 });
    await clock.advance(TIMING.retryPeriodMs + 1);
    assert.equal(a.elector.isLeader, false);
    assert.match(a.terms[0]?.reason ?? '', /held by intruder/);
    await clock.advance(10_000);
    assert.equal(a.elector.isLeader, false, 'the intruder record is still fresh by a\'s clock');
    await clock.advance(10_000);
    assert.equal(a.elector.isLeader, true, 'the intruder never renewed: a takes the Lease back');
    assert.equal(store.current?.leaseTransitions, 2);
    await stopAll(clock, a);
  });

  test('a renew that conflicts with an unrelated write is retried at once, and the leader stays leader', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(0);
    store.interleave = () => {
      const lease = store.read();
      assert.ok(lease !== undefined);
      lease.metadata = { ...lease.metadata, labels: { touched: 'yes' } };
      store.replace(lease);
    };
    await clock.advance(TIMING.retryPeriodMs);
    assert.equal(a.elector.isLeader, true);
    assert.equal(a.terms.length, 1);
    assert.equal(store.object?.metadata?.labels?.['touched'], 'yes', 'the other write is kept');
    assert.deepEqual(store.writes.map((w) => w.holder), ['a', 'a', 'a'], 'create, the other write, then our renew on fresh data');
    assert.equal(clock.now(), Date.UTC(2026, 0, 1) + TIMING.retryPeriodMs, 'without waiting a retry period');
    await stopAll(clock, a);
  });

  test('a leader whose Lease is deleted steps down, then campaigns again and recreates it', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(0);
    store.object = undefined;
    await clock.advance(TIMING.retryPeriodMs);
    assert.equal(a.elector.isLeader, false);
    assert.match(a.terms[0]?.reason ?? '', /released or deleted/);
    await clock.advance(TIMING.retryPeriodMs * 1.2);
    assert.equal(a.elector.isLeader, true);
    assert.equal(store.current?.holderIdentity, 'a');
    await stopAll(clock, a);
  });

  test('expiry is measured by the observer\'s clock, never by the remote renewTime', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    store.put({ holderIdentity: 'ghost', leaseDurationSeconds: 15, renewTime: '2000-01-01T00:00:00.000000Z', leaseTransitions: 4 });
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(14_000);
    assert.equal(a.elector.isLeader, false, 'an ancient renewTime does not make the Lease expired');
    // The ghost keeps renewing: every change restarts a's wait.
    for (let i = 0; i < 10; i++) {
      store.put({ holderIdentity: 'ghost', leaseDurationSeconds: 15, renewTime: '2000-01-01T00:00:00.000000Z', leaseTransitions: 4 + i + 1 });
      await clock.advance(10_000);
      assert.equal(a.elector.isLeader, false);
    }
    await clock.advance(15_000 + 3_000);
    assert.equal(a.elector.isLeader, true);
    await stopAll(clock, a);
  });

  test('two candidates racing to create the Lease: one wins, the other gets 409 and does not lead', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    const b = replica(store, 'b');
    a.elector.start();
    b.elector.start();
    await clock.advance(0);
    assert.equal(Number(a.elector.isLeader) + Number(b.elector.isLeader), 1);
    assert.equal(store.writes.length, 1);
    await stopAll(clock, a, b);
  });

  test('stop() keeps renewing while the host drains, then releases', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    let finishDrain: () => void = () => undefined;
    const drained = new Promise<void>((resolve) => {
      finishDrain = resolve;
    });
    const a = replica(store, 'a', { onStopped: () => drained });
    a.elector.start();
    await clock.advance(0);
    let stopped = false;
    void a.elector.stop().then(() => {
      stopped = true;
    });
    await clock.advance(0);
    assert.equal(a.elector.isLeader, false, 'isLeader turns false at once');
    const writesBefore = store.writes.length;
    await clock.advance(30_000);
    assert.equal(stopped, false, 'stop() waits for the drain');
    assert.ok(store.writes.length >= writesBefore + 10, 'the Lease is renewed during the drain');
    assert.equal(store.current?.holderIdentity, 'a');
    finishDrain();
    await clock.advance(0);
    assert.equal(stopped, true);
    assert.equal(store.current?.holderIdentity, '');
    assert.equal(a.terms.length, 1, 'stepping down never leads again');
    assert.equal(clock.pending, 0);
  });

  test('does not lead again while the previous onStoppedLeading is still running', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    let finishDrain: () => void = () => undefined;
    const firstDrain = new Promise<void>((resolve) => {
      finishDrain = resolve;
    });
    let calls = 0;
    const a = replica(store, 'a', { onStopped: () => (++calls === 1 ? firstDrain : Promise.resolve()) });
    a.elector.start();
    await clock.advance(0);
    a.connection.fault = 'fail';
    await clock.advance(TIMING.renewDeadlineMs + 1);
    a.connection.fault = 'none';
    await clock.advance(20_000);
    assert.equal(a.elector.isLeader, false, 'waits for the drain');
    finishDrain();
    await clock.advance(TIMING.retryPeriodMs * 1.2);
    assert.equal(a.elector.isLeader, true);
    await stopAll(clock, a);
  });

  test('a candidate never writes to a Lease that another holds', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    a.elector.start();
    await clock.advance(0);
    const b = replica(store, 'b');
    b.elector.start();
    await clock.advance(60_000);
    assert.deepEqual(new Set(store.writes.map((w) => w.holder)), new Set(['a']));
    await stopAll(clock, a, b);
    assert.equal(store.current?.holderIdentity, '', 'only the holder released');
  });

  test('stop() before start() and twice is harmless; start() twice throws', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a');
    await a.elector.stop();
    await a.elector.stop();
    assert.throws(() => a.elector.start(), (error: unknown) => error instanceof RuntimeError && error.code === 'E_STATE');
    const b = replica(store, 'b');
    b.elector.start();
    assert.throws(() => b.elector.start(), /cannot start twice/);
    await stopAll(clock, b);
    assert.equal(store.object, undefined, 'stopped before its first attempt: never created the Lease');
  });

  test('rejects timings that could let two replicas lead at once', () => {
    const clock = new FakeClock();
    const base = { client: new Connection(new LeaseStore(clock)), clock, lease: LEASE, identity: 'a', onStartedLeading: () => undefined, onStoppedLeading: () => undefined };
    assert.throws(() => new LeaderElector({ ...base, ...TIMING, renewDeadlineMs: 15_000 }), /renewDeadline \(15000ms\) must be below leaseDuration \(15000ms\)/);
    assert.throws(() => new LeaderElector({ ...base, ...TIMING, retryPeriodMs: 10_000 }), /retryPeriod \(10000ms\) must be below renewDeadline/);
    assert.throws(() => new LeaderElector({ ...base, ...TIMING, identity: '' }), /identity/);
    assert.throws(() => new LeaderElector({ ...base, ...TIMING, retryPeriodMs: 0 }), (error: unknown) => error instanceof RuntimeError && error.code === 'E_OPTIONS');
  });

  test('a lease duration that is not whole seconds is rounded up in the Lease', async () => {
    const clock = new FakeClock();
    const store = new LeaseStore(clock);
    const a = replica(store, 'a', { timing: { leaseDurationMs: 1_500, renewDeadlineMs: 1_000, retryPeriodMs: 200 } });
    a.elector.start();
    await clock.advance(0);
    assert.equal(store.current?.leaseDurationSeconds, 2);
    await stopAll(clock, a);
  });
});
