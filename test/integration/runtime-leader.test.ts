// Leader election and sharding through whole runtimes: only the leader reconciles, handover after a stop is
// quick, and three shards split the custom resources between them with no key reconciled by two shards.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { ResourceRef } from '../../src/kube/resource.js';
import { startAnswerLossProxy } from '../../src/testing/answer-loss-proxy.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor } from '../support/cluster.js';

// No status subresource: the test is about who reconciles, and status writes would only slow it down.
const JOB = { kind: 'Chore', plural: 'chores', versions: [{ name: 'v1', storage: true, status: false }] };
const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
  server.applyCrd(crdManifest(JOB));
  await server.settled();
});
after(async () => {
  await server.stop();
});

interface Write {
  readonly identity: string;
  readonly start: number;
  readonly end: number;
  readonly key: string;
}

function replica(identity: string, writes: Write[], shard?: { index: number; count: number }, requeueAfter?: number): Runtime {
  return createRuntime(katalog({ chore: katalogEntry(JOB, { workers: 4, operatorBox: { default: false, constructor: { function: 'NewChore' } } }) }), {
    kubeConfig: server.kubeConfig,
    watch: FAST_WATCH,
    leaderElection: { namespace: 'default', name: 'chores', identity, leaseDuration: '2s', renewDeadline: '1s', retryPeriod: '200ms' },
    ...(shard === undefined ? {} : { shard }),
    constructors: {
      NewChore: () => ({
        async reconcile(request) {
          const start = Date.now();
          await new Promise((resolve) => setTimeout(resolve, 1));
          writes.push({ identity, start, end: Date.now(), key: request.key });
          return requeueAfter === undefined ? undefined : { requeueAfter };
        },
      }),
    },
  });
}

test('two replicas: exactly one reconciles; stopping it hands over at once; never both at once', async () => {
  const writes: Write[] = [];
  for (let i = 0; i < 5; i++) server.create(customResource(JOB, `c${i}`));
  const a = replica('replica-a', writes, undefined, 50);
  const b = replica('replica-b', writes, undefined, 50);
  const leaderChanges: string[] = [];
  a.on('leadershipChanged', ({ identity, leader }) => void leaderChanges.push(`${identity} ${leader}`));
  b.on('leadershipChanged', ({ identity, leader }) => void leaderChanges.push(`${identity} ${leader}`));
  await a.start();
  await waitFor('a leads', () => a.leader);
  await b.start();
  try {
    await waitFor('a reconciles', () => writes.some((w) => w.identity === 'replica-a'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(b.leader, false);
    assert.ok(!writes.some((w) => w.identity === 'replica-b'), 'the standby wrote');
    assert.equal(b.crds()[0]?.resourceCount, 5, 'the standby keeps a warm cache');
    const standbyReady = (await (await b.router.request('/ready')).json()) as { status: string; leader?: boolean };
    assert.deepEqual({ status: standbyReady.status, leader: standbyReady.leader }, { status: 'ready', leader: false }, 'a standby is ready');
    const stoppedAt = Date.now();
    await a.stop();
    await waitFor('b leads', () => b.leader, 3000);
    const handover = Date.now() - stoppedAt;
    // b watches the Lease and acquires as soon as it sees the release (one round trip; 500 ms allows a loaded machine).
    assert.ok(handover < 500, `handover took ${handover}ms`);
    console.log(`# runtime handover after stop(): ${handover}ms`);
    await waitFor('b reconciles', () => writes.some((w) => w.identity === 'replica-b'));
    const aEnd = Math.max(...writes.filter((w) => w.identity === 'replica-a').map((w) => w.end));
    const bStart = Math.min(...writes.filter((w) => w.identity === 'replica-b').map((w) => w.start));
    assert.ok(aEnd <= bStart, 'both replicas wrote at the same time');
    assert.deepEqual(leaderChanges.slice(0, 1), ['replica-a true']);
    assert.ok(leaderChanges.includes('replica-b true'));
    assert.match(await b.registry.metrics(), /controller_leader 1/);
    const ready = await b.router.request('/ready');
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { leader?: boolean }).leader, true);
    const list = (await (await b.router.request('/katalog')).json()) as { leader?: { identity: string; leading: boolean; lease: string } };
    assert.deepEqual({ identity: list.leader?.identity, leading: list.leader?.leading, lease: list.leader?.lease }, { identity: 'replica-b', leading: true, lease: 'default/chores' });
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    server.reset();
    server.applyCrd(crdManifest(JOB));
    await server.settled();
  }
});

test('three shards over 3,000 custom resources: each is reconciled by exactly one shard', async () => {
  const writes: Write[] = [];
  for (let i = 0; i < 3000; i++) server.create(customResource(JOB, `s${i}`));
  const replicas = [0, 1, 2].map((index) => replica(`shard-${index}`, writes, { index, count: 3 }));
  await Promise.all(replicas.map((runtime) => runtime.start()));
  try {
    await waitFor('every shard leads', () => replicas.every((runtime) => runtime.leader), 5000);
    await waitFor('every resource reconciled', () => new Set(writes.map((w) => w.key)).size === 3000, 60_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; reconciled ${new Set(writes.map((w) => w.key)).size}`);
    });
    const owner = new Map<string, Set<string>>();
    for (const write of writes) {
      const set = owner.get(write.key) ?? new Set<string>();
      set.add(write.identity);
      owner.set(write.key, set);
    }
    const shared = [...owner].filter(([, identities]) => identities.size > 1);
    assert.deepEqual(shared, [], 'some keys were reconciled by two shards');
    for (const identity of ['shard-0', 'shard-1', 'shard-2']) {
      const count = [...owner.values()].filter((identities) => identities.has(identity)).length;
      assert.ok(count > 750 && count < 1250, `${identity} reconciled ${count} resources`);
    }
  } finally {
    await Promise.all(replicas.map((runtime) => runtime.stop()));
  }
});

test('a leader whose writes land but whose answers are lost: it stops writing, the other replica takes over, and after the fault a replica leads and writes', async () => {
  const proxy = await startAnswerLossProxy(server.url);
  const writes: Write[] = [];
  const leading = new Map<string, Array<{ start: number; end: number | undefined }>>();
  const make = (identity: string, kubeConfig: TestApiServer['kubeConfig']): Runtime => {
    const runtime = createRuntime(katalog({ chore: katalogEntry(JOB, { workers: 2, operatorBox: { default: false, constructor: { function: 'NewChore' } } }) }), {
      kubeConfig,
      watch: FAST_WATCH,
      leaderElection: { namespace: 'default', name: 'lossy', identity, leaseDuration: '2s', renewDeadline: '1s', retryPeriod: '200ms' },
      constructors: {
        NewChore: ({ client }) => ({
          async reconcile(request, ctx) {
            const start = Date.now();
            // A real write through this replica's connection: its answer is lost too while the fault lasts.
            await client.apply(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `chore-${request.name}`, namespace: 'default' }, data: { by: identity } }, { fieldManager: identity, force: true, signal: ctx.signal });
            writes.push({ identity, start, end: Date.now(), key: request.key });
            return { requeueAfter: 50 };
          },
        }),
      },
    });
    runtime.on('leadershipChanged', ({ leader }) => {
      const terms = leading.get(identity) ?? [];
      if (leader) terms.push({ start: Date.now(), end: undefined });
      else {
        const term = terms.at(-1);
        if (term !== undefined) term.end = Date.now();
      }
      leading.set(identity, terms);
    });
    return runtime;
  };
  for (let i = 0; i < 3; i++) server.create(customResource(JOB, `l${i}`));
  const a = make('lossy-a', proxy.kubeConfig);
  const b = make('lossy-b', server.kubeConfig);
  try {
    await a.start();
    await waitFor('a leads and writes', () => a.leader && writes.some((w) => w.identity === 'lossy-a'), 5000);
    await b.start();
    const restore = proxy.loseAnswers({ method: 'PUT' });
    const restorePatches = proxy.loseAnswers({ method: 'PATCH' });
    let ended: number;
    try {
      await waitFor('a steps down', () => !a.leader, 3000);
      const stepped = Date.now();
      // a's blind take-back of the Lease gets no answer either; it then leaves the Lease alone, and b takes over.
      await waitFor('b leads and writes while a still loses its answers', () => b.leader && writes.some((w) => w.identity === 'lossy-b' && w.start >= stepped), 2000 + 1000 + 2 * 200 + 1500);
      assert.ok(proxy.lost > 0);
    } finally {
      restore();
      restorePatches();
      ended = Date.now();
    }
    const before = writes.length;
    await waitFor('a replica leads and writes again', () => (a.leader || b.leader) && writes.slice(before).some((w) => w.start >= ended), 2000 + 2 * 200 + 2000);
    const first = writes.slice(before).find((w) => w.start >= ended);
    assert.ok(first !== undefined);
    assert.ok(first.end - ended <= 2000 + 2 * 200 + 600, `the first write after the fault landed ${first.end - ended}ms after it ended`);
    // Never two writers: every acknowledged write of a replica falls inside one of its own terms, and terms never overlap.
    const terms = [...leading].flatMap(([identity, list]) => list.map((term) => ({ identity, start: term.start, end: term.end ?? Date.now() })));
    terms.sort((x, y) => x.start - y.start);
    for (let i = 1; i < terms.length; i++) {
      const previous = terms[i - 1];
      const current = terms[i];
      assert.ok(previous !== undefined && current !== undefined && current.start >= previous.end, `terms overlap: ${JSON.stringify(terms)}`);
    }
    for (const write of writes) {
      assert.ok(
        terms.some((term) => term.identity === write.identity && term.start <= write.start && write.end <= term.end),
        `a write by ${write.identity} outside its terms: ${JSON.stringify(write)}`,
      );
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await proxy.stop();
    server.reset();
    server.applyCrd(crdManifest(JOB));
    await server.settled();
  }
});
