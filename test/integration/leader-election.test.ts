// Leader election over real HTTP against the test API server, on the real clock, with short timings:
// lease 2 s, renew deadline 1 s, retry 200 ms. Leadership terms are recorded from the callbacks and must never
// overlap between replicas.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeError } from '../../src/errors.js';
import { KubeClient, type WatchEventType, type WatchHandle, type WatchOptions } from '../../src/kube/client.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';
import { LeaderElector, type LeaseClient } from '../../src/runtime/leader-election.js';
import { resolveLeaderElection } from '../../src/runtime/leader-options.js';
import type { ShardOptions } from '../../src/runtime/sharding.js';
import { startAnswerLossProxy } from '../../src/testing/answer-loss-proxy.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { systemClock, type Clock, type TimerHandle } from '../../src/util/clock.js';

const TIMING = { leaseDuration: '2s', renewDeadline: '1s', retryPeriod: '200ms' } as const;
const LEASE_MS = 2000;
const RENEW_DEADLINE_MS = 1000;
const RETRY_MS = 200;
/** Allowance for HTTP round trips and timers on a busy machine. */
const SLACK_MS = 400;

/** A clock whose timers die with the "process": after `kill()` nothing scheduled on it fires. */
class CrashableClock implements Clock {
  private dead = false;
  private readonly handles = new Set<TimerHandle>();
  now(): number {
    return systemClock.now();
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = systemClock.setTimeout(() => {
      this.handles.delete(handle);
      if (!this.dead) fn();
    }, ms);
    this.handles.add(handle);
    return handle;
  }
  clearTimeout(handle: TimerHandle): void {
    this.handles.delete(handle);
    systemClock.clearTimeout(handle);
  }
  kill(): void {
    this.dead = true;
    for (const handle of this.handles) systemClock.clearTimeout(handle);
    this.handles.clear();
  }
}

/** The real client, until `kill()`: then no request leaves the "process" any more and its watches are cut. */
class CrashableClient implements LeaseClient {
  dead = false;
  private readonly watches = new Set<WatchHandle>();
  constructor(private readonly inner: KubeClient) {}
  watch(ref: ResourceRef, options: WatchOptions, onEvent: (type: WatchEventType, object: KubeObject) => void): WatchHandle {
    if (this.dead) return { done: this.crashed().catch((error: unknown) => ({ error: error as Error })), abort: () => undefined };
    const handle = this.inner.watch(ref, options, (type, object) => {
      if (!this.dead) onEvent(type, object);
    });
    this.watches.add(handle);
    void handle.done.then(() => this.watches.delete(handle));
    return handle;
  }
  kill(): void {
    this.dead = true;
    for (const handle of this.watches) handle.abort();
  }
  get(ref: ResourceRef, name: string, namespace?: string, signal?: AbortSignal): Promise<KubeObject | undefined> {
    return this.dead ? this.crashed() : this.inner.get(ref, name, namespace, signal);
  }
  create(ref: ResourceRef, object: KubeObject, options?: { signal?: AbortSignal }): Promise<KubeObject> {
    return this.dead ? this.crashed() : this.inner.create(ref, object, options);
  }
  replace(ref: ResourceRef, object: KubeObject, options?: { signal?: AbortSignal }): Promise<KubeObject> {
    return this.dead ? this.crashed() : this.inner.replace(ref, object, options);
  }
  private crashed(): Promise<never> {
    return Promise.reject(new KubeError('process is dead', {}));
  }
}

interface Term {
  start: number;
  end: number | undefined;
  reason?: string;
}

interface Replica {
  readonly name: string;
  readonly elector: LeaderElector;
  readonly terms: Term[];
  /** A crash: timers and requests stop, nothing is released, no callback runs. */
  kill(): void;
  killedAt: number | undefined;
}

function replica(server: Pick<TestApiServer, 'kubeConfig'>, lease: string, name: string, shard?: ShardOptions): Replica {
  const settings = resolveLeaderElection({ namespace: 'default', name: lease, identity: name, ...TIMING }, shard);
  const clock = new CrashableClock();
  const client = new CrashableClient(new KubeClient(server.kubeConfig));
  const terms: Term[] = [];
  const elector = new LeaderElector({
    client,
    clock,
    ...settings,
    onStartedLeading: () => void terms.push({ start: Date.now(), end: undefined }),
    onStoppedLeading: (reason) => {
      const term = terms.at(-1);
      if (term !== undefined) {
        term.end = Date.now();
        term.reason = reason;
      }
    },
  });
  const self: Replica = {
    name,
    elector,
    terms,
    killedAt: undefined,
    kill: () => {
      clock.kill();
      client.kill();
      self.killedAt = Date.now();
    },
  };
  return self;
}

function assertNoOverlap(replicas: readonly Replica[]): void {
  const terms = replicas.flatMap((r) => r.terms.map((t) => ({ who: r.name, start: t.start, end: t.end ?? r.killedAt ?? Date.now() })));
  terms.sort((a, b) => a.start - b.start);
  for (let i = 1; i < terms.length; i++) {
    const previous = terms[i - 1];
    const current = terms[i];
    assert.ok(previous !== undefined && current !== undefined);
    assert.ok(
      current.start >= previous.end,
      `${previous.who} led [${previous.start}, ${previous.end}] and ${current.who} led from ${current.start}: ${previous.end - current.start}ms of overlap`,
    );
  }
}

/** Waits until `condition` holds, checking every 10 ms; fails after `ms`. While waiting, at most one replica may lead. */
async function waitFor(what: string, ms: number, condition: () => boolean, replicas: readonly Replica[] = []): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const leaders = replicas.filter((r) => r.elector.isLeader && r.killedAt === undefined);
    assert.ok(leaders.length <= 1, `${leaders.map((r) => r.name).join(' and ')} lead at the same time`);
    if (condition()) return Date.now();
    if (Date.now() > deadline) assert.fail(`timed out after ${ms}ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Lets `ms` pass, checking every 10 ms that at most one replica leads. */
async function watch(ms: number, replicas: readonly Replica[]): Promise<void> {
  const end = Date.now() + ms;
  await waitFor('time to pass', ms + 1000, () => Date.now() >= end, replicas);
}

/** Prints a measured figure (the issue asks for them; `npm test` shows them in the test output). */
function report(what: string, ms: number): void {
  console.log(`# ${what}: ${ms}ms`);
}

function leaseSpec(server: TestApiServer, name: string): Record<string, unknown> {
  const lease = server.get('coordination.k8s.io/v1', 'Lease', name, 'default');
  assert.ok(lease !== undefined, `Lease ${name} exists`);
  return lease['spec'] as Record<string, unknown>;
}

/** The start of the last successful renew, as written in the Lease (our own clock: same machine). */
function lastRenew(server: TestApiServer, name: string): number {
  return Date.parse(String(leaseSpec(server, name)['renewTime']));
}

async function stopAll(replicas: readonly Replica[]): Promise<void> {
  await Promise.all(replicas.filter((r) => r.killedAt === undefined).map((r) => r.elector.stop()));
}

describe('leader election over HTTP', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(() => server.stop());

  test('two replicas on one Lease: one leads; a stopped leader hands over within one round trip of its release', async () => {
    const replicas = [replica(server, 'handover', 'a'), replica(server, 'handover', 'b')];
    for (const r of replicas) r.elector.start();
    await waitFor('a leader', 3000, () => replicas.some((r) => r.elector.isLeader), replicas);
    // Stable: the same replica keeps leading through several renews.
    const first = replicas.find((r) => r.elector.isLeader);
    const other = replicas.find((r) => r !== first);
    assert.ok(first !== undefined && other !== undefined);
    await watch(LEASE_MS + 500, replicas);
    assert.equal(first.elector.isLeader, true);
    assert.equal(first.terms.length, 1, 'no flapping');
    assert.equal(other.terms.length, 0);
    await first.elector.stop();
    const released = Date.now();
    const takeover = await waitFor('the other to lead', 2000, () => other.elector.isLeader, replicas);
    // The standby's watch sees the release and it writes the Lease at once: one round trip, far below a retry period.
    assert.ok(takeover - released < RETRY_MS, `took ${takeover - released}ms after the release (retry period ${RETRY_MS}ms)`);
    report('graceful handover (release → new leader)', takeover - released);
    assert.equal(leaseSpec(server, 'handover')['holderIdentity'], other.name);
    assert.equal(leaseSpec(server, 'handover')['leaseTransitions'], 1);
    assertNoOverlap(replicas);
    await stopAll(replicas);
  });

  test('a crashed leader (no release) is replaced once the lease duration has passed, not before', async () => {
    const replicas = [replica(server, 'crash', 'a'), replica(server, 'crash', 'b')];
    for (const r of replicas) r.elector.start();
    await waitFor('a leader', 3000, () => replicas.some((r) => r.elector.isLeader), replicas);
    await watch(700, replicas);
    const leader = replicas.find((r) => r.elector.isLeader);
    const other = replicas.find((r) => r !== leader);
    assert.ok(leader !== undefined && other !== undefined);
    leader.kill();
    await new Promise((resolve) => setTimeout(resolve, 100)); // let a request already on the wire land
    const renewedAt = lastRenew(server, 'crash');
    const takeover = await waitFor('the other to take over', LEASE_MS + 2000, () => other.elector.isLeader, replicas);
    assert.ok(takeover >= renewedAt + LEASE_MS, `took over ${takeover - renewedAt}ms after the last renew (lease ${LEASE_MS}ms)`);
    // The standby watches the Lease and tries the moment it expires, instead of at its next poll.
    assert.ok(takeover - renewedAt <= LEASE_MS + 250, `took over ${takeover - renewedAt}ms after the last renew (lease ${LEASE_MS}ms + 250ms)`);
    report('crashed leader replaced, after its last renew', takeover - renewedAt);
    assert.equal(leader.terms[0]?.end, undefined, 'a crashed process runs no callback');
    assertNoOverlap(replicas);
    await stopAll(replicas);
  });

  test('API server failing (503) for the Lease: the leader steps down before the Lease could expire', async () => {
    const replicas = [replica(server, 'unreachable', 'a'), replica(server, 'unreachable', 'b')];
    for (const r of replicas) r.elector.start();
    await waitFor('a leader', 3000, () => replicas.some((r) => r.elector.isLeader), replicas);
    const leader = replicas.find((r) => r.elector.isLeader);
    assert.ok(leader !== undefined);
    const removeFault = server.faults.failRequests({ resource: 'leases', status: 503 });
    try {
      await waitFor('the leader to step down', LEASE_MS + 1000, () => leader.terms[0]?.end !== undefined, replicas);
    } finally {
      removeFault();
    }
    const renewedAt = lastRenew(server, 'unreachable');
    const stoppedAt = leader.terms[0]?.end ?? Infinity;
    assert.ok(stoppedAt < renewedAt + LEASE_MS, `stepped down ${stoppedAt - renewedAt}ms after the last renew; the lease is ${LEASE_MS}ms`);
    assert.ok(stoppedAt <= renewedAt + RENEW_DEADLINE_MS + 100, `stepped down ${stoppedAt - renewedAt}ms after the last renew; the deadline is ${RENEW_DEADLINE_MS}ms`);
    assert.match(leader.terms[0]?.reason ?? '', /renew deadline/);
    await waitFor('a leader again', LEASE_MS + 2000, () => replicas.some((r) => r.elector.isLeader), replicas);
    assertNoOverlap(replicas);
    await stopAll(replicas);
  });

  test('Lease requests slower than the renew deadline: the leader steps down on time, not when they answer', async () => {
    const replicas = [replica(server, 'slow', 'a')];
    const [a] = replicas;
    assert.ok(a !== undefined);
    a.elector.start();
    await waitFor('a to lead', 3000, () => a.elector.isLeader);
    const removeLatency = server.faults.latency({ resource: 'leases', ms: 1500 });
    try {
      await waitFor('a to step down', LEASE_MS + 1000, () => a.terms[0]?.end !== undefined);
    } finally {
      removeLatency();
    }
    const renewedAt = lastRenew(server, 'slow');
    const stoppedAt = a.terms[0]?.end ?? Infinity;
    assert.ok(stoppedAt <= renewedAt + RENEW_DEADLINE_MS + 100, `stepped down ${stoppedAt - renewedAt}ms after the last renew`);
    await waitFor('a to lead again once the API is fast', LEASE_MS + 3000, () => a.elector.isLeader);
    await stopAll(replicas);
  });

  test('the API server going away: the leader steps down at the deadline and stop() still returns', async () => {
    const own = await startTestApiServer();
    const replicas = [replica(own, 'gone', 'a'), replica(own, 'gone', 'b')];
    try {
      for (const r of replicas) r.elector.start();
      await waitFor('a leader', 3000, () => replicas.some((r) => r.elector.isLeader), replicas);
      const leader = replicas.find((r) => r.elector.isLeader);
      assert.ok(leader !== undefined);
      const renewedAt = lastRenew(own, 'gone');
      await own.stop();
      await waitFor('the leader to step down', LEASE_MS + 1000, () => leader.terms[0]?.end !== undefined, replicas);
      const stoppedAt = leader.terms[0]?.end ?? Infinity;
      // The Lease read just before the stop may be one renew old: the bound is the deadline plus one retry.
      assert.ok(stoppedAt < renewedAt + LEASE_MS, `stepped down ${stoppedAt - renewedAt}ms after the last renew seen`);
      const began = Date.now();
      await stopAll(replicas);
      assert.ok(Date.now() - began <= RENEW_DEADLINE_MS + SLACK_MS, 'stop() is bounded even when the release cannot be sent');
    } finally {
      await own.stop();
    }
  });

  for (const mode of ['hang', 'drop'] as const) {
    test(`the leader's Lease writes land but their answers are lost (${mode}): it steps down and the other replica takes over during the fault`, async () => {
      const proxy = await startAnswerLossProxy(server.url);
      const lease = `lost-answers-${mode}`;
      const a = replica(proxy, lease, 'a');
      const b = replica(server, lease, 'b');
      const replicas = [a, b];
      try {
        a.elector.start();
        await waitFor('a to lead', 3000, () => a.elector.isLeader);
        b.elector.start();
        await watch(300, replicas);
        const restore = proxy.loseAnswers({ method: 'PUT', path: new RegExp(`/leases/${lease}$`), mode });
        try {
          const stepped = await waitFor('a to step down', LEASE_MS + 1000, () => a.terms[0]?.end !== undefined, replicas);
          assert.match(a.terms[0]?.reason ?? '', /renew deadline/);
          // a takes the Lease back once, gets no answer again, and then leaves it alone for a lease duration: b,
          // which does get answers, is not kept waiting for a Lease a renews blindly.
          const taken = await waitFor('b to take over while a still loses its answers', LEASE_MS + RENEW_DEADLINE_MS + 2 * RETRY_MS + SLACK_MS, () => b.elector.isLeader, replicas);
          report(`leader change while the old leader's answers are lost (${mode}), after its step-down`, taken - stepped);
          assert.ok(proxy.lost > 0, 'the proxy lost answers of writes the server made');
          await watch(RETRY_MS * 3, replicas);
        } finally {
          restore();
        }
        await watch(LEASE_MS, replicas);
        assert.equal(b.elector.isLeader, true, 'b keeps leading once the fault is gone');
        assertNoOverlap(replicas);
      } finally {
        await stopAll(replicas);
        await proxy.stop();
      }
    });
  }

  test('every replica loses the answers of its Lease writes: once the answers come back, one leads within leaseDuration + 2 retry periods', async () => {
    const proxy = await startAnswerLossProxy(server.url);
    const lease = 'lost-answers-all';
    const replicas = [replica(proxy, lease, 'a'), replica(proxy, lease, 'b')];
    try {
      for (const r of replicas) r.elector.start();
      await waitFor('a leader', 3000, () => replicas.some((r) => r.elector.isLeader), replicas);
      const restore = proxy.loseAnswers({ method: 'PUT', path: new RegExp(`/leases/${lease}$`), mode: 'drop' });
      let ended: number;
      try {
        await waitFor('nobody leads', LEASE_MS + 1000, () => replicas.every((r) => !r.elector.isLeader), replicas);
        await watch(LEASE_MS + 1000, replicas);
      } finally {
        restore();
        ended = Date.now();
      }
      const leads = await waitFor('a leader again', LEASE_MS + 3000, () => replicas.some((r) => r.elector.isLeader), replicas);
      report('a leader again after a fault on every replica ended', leads - ended);
      assert.ok(leads - ended <= LEASE_MS + 2 * RETRY_MS + SLACK_MS, `a replica led ${leads - ended}ms after the fault ended`);
      await watch(500, replicas);
      assertNoOverlap(replicas);
    } finally {
      await stopAll(replicas);
      await proxy.stop();
    }
  });

  test('sharding: one Lease per shard, exactly one leader each', async () => {
    const shards = [0, 1, 2].map((index) => [0, 1].map((n) => replica(server, 'sharded', `s${index}-r${n}`, { index, count: 3 })));
    const all = shards.flat();
    for (const r of all) r.elector.start();
    await waitFor('a leader per shard', 3000, () => shards.every((group) => group.some((r) => r.elector.isLeader)));
    for (const group of shards) await watch(200, group);
    for (const [index, group] of shards.entries()) {
      assert.equal(group.filter((r) => r.elector.isLeader).length, 1, `shard ${index}`);
      const holder = leaseSpec(server, `sharded-shard-${index}`)['holderIdentity'];
      assert.equal(holder, group.find((r) => r.elector.isLeader)?.name);
      assertNoOverlap(group);
    }
    await stopAll(all);
    for (const index of [0, 1, 2]) assert.equal(leaseSpec(server, `sharded-shard-${index}`)['holderIdentity'], '');
  });
});
