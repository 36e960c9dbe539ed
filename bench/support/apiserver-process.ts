// A test API server in its own process (so that it has a core of its own), driven over IPC by a benchmark:
//   { seed: { crd, count, namespace } } creates `count` objects directly; { count: {apiVersion, kind} } counts them.
//   bench/peers also uses: { progress: {...} } (children present and Ready resources: of one `name`, or of all once
//   `minWrites` writes were answered), { requests: true } (counts of
//   the HTTP requests answered since the last { resetRequests: true }), { createAndWait: {...} } (a direct create
//   and the milliseconds until its child is committed: told by the store's commit listener, so that the server does
//   not spin on setImmediate meanwhile and take a core from the operator it measures; `spin: true` polls as before).
//   { cpu: true } (the server process's CPU so far, µs).
//   bench/scale also uses: { scaleProgress: { group, plurals } } (children present and Ready resources, counted in the
//   server's store without copying 200,000 objects a poll) and { memory: true } (the server's RSS and heap).
import { performance } from 'node:perf_hooks';
import { startTestApiServer } from '../../src/testing/index.js';

interface PeerMessages {
  progress?: { apiVersion: string; kind: string; childKind: string; name?: string; minWrites?: number };
  requests?: boolean;
  resetRequests?: boolean;
  createAndWait?: { object: { metadata: { name: string } }; childKind: string; spin?: boolean };
}
/** bench/scale reads the store in place (bench code only: the public `objects()` copies every object it returns). */
interface StoreView {
  cluster: {
    onCommit(listener: (type: { kind: string }, event: { type: string; record: { object: Record<string, unknown> } }) => void): void;
    store: { count(key: string): number; list(key: string): Array<{ object: Record<string, unknown> }> };
    registry: { byKind(apiVersion: string, kind: string): { type: { key: string } } | undefined };
  };
}
/** Counts the objects of a kind, and those of them that are Ready, in the store itself: no copy per object. */
function countInPlace(apiVersion: string, kind: string): { count: number; ready: number } {
  const { store, registry } = (server as unknown as StoreView).cluster;
  const key = registry.byKind(apiVersion, kind)?.type.key;
  if (key === undefined) return { count: 0, ready: 0 };
  return { count: store.count(key), ready: store.list(key).filter((record) => isReady(record.object)).length };
}
const WRITE_VERBS = ['create', 'update', 'patch', 'delete'];

function isReady(object: Record<string, unknown>): boolean {
  const conditions = (object['status'] as { conditions?: Array<{ type?: string; status?: string }> } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

const writesSinceReset = (): number => WRITE_VERBS.reduce((sum, verb) => sum + server.requests.count({ verb }), 0);
const server = await startTestApiServer(JSON.parse(process.argv[2] ?? '{}') as { bookmarkIntervalMs?: number; requestLogSize?: number });
const fullyReady = new Set<string>();
/** Single creates waiting for their child (`kind/name`), with the moment each was created and its answer. */
const awaitingChild = new Map<string, { started: number; send: (value: unknown) => void }>();
(server as unknown as StoreView).cluster.onCommit((type, event) => {
  if (awaitingChild.size === 0 || event.type !== 'ADDED') return;
  const name = (event.record.object['metadata'] as { name?: string } | undefined)?.name;
  const key = `${type.kind}/${name ?? ''}`;
  const waiting = awaitingChild.get(key);
  if (waiting === undefined) return;
  awaitingChild.delete(key);
  waiting.send(performance.now() - waiting.started);
});
process.on('message', (raw: unknown) => {
  const scale = raw as { id: number; scaleProgress?: { group: string; plurals: string[] }; memory?: boolean; cpu?: boolean };
  if (scale.cpu === true) {
    const { user, system } = process.cpuUsage();
    process.send?.({ id: scale.id, value: user + system });
    return;
  }
  if (scale.scaleProgress !== undefined) {
    const { store } = (server as unknown as StoreView).cluster;
    let ready = 0;
    for (const plural of scale.scaleProgress.plurals) {
      const key = `${scale.scaleProgress.group}/${plural}`;
      if (fullyReady.has(key)) {
        ready += store.count(key);
        continue;
      }
      const records = store.list(key);
      const n = records.filter((record) => isReady(record.object)).length;
      if (n === records.length && n > 0) fullyReady.add(key);
      ready += n;
    }
    process.send?.({ id: scale.id, value: { children: store.count('/configmaps'), ready } });
    return;
  }
  if (scale.memory === true) {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ id: scale.id, value: { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed } });
    return;
  }
  const peer = raw as PeerMessages & { id: number };
  if (peer.progress !== undefined || peer.requests !== undefined || peer.resetRequests !== undefined || peer.createAndWait !== undefined) {
    const send = (value: unknown): void => void process.send?.({ id: peer.id, value });
    if (peer.progress !== undefined) {
      const { apiVersion, kind, childKind, name, minWrites } = peer.progress;
      if (name !== undefined) {
        // One resource: cheap lookups, so that polling it costs the server next to nothing.
        const object = server.get(apiVersion, kind, name, 'default');
        send({ children: server.get('v1', childKind, name, 'default') === undefined ? 0 : 1, ready: object !== undefined && isReady(object) ? 1 : 0 });
      } else if (minWrites !== undefined && writesSinceReset() < minWrites) {
        // Not there yet, as the request counts (cheap) show: no scan of every object (a copy each), which would
        // take the server's time away from the operator it measures.
        send({ children: 0, ready: 0 });
      } else {
        // The store is read in place: a scan must not copy every object (the server's CPU is measured meanwhile).
        send({ children: countInPlace('v1', childKind).count, ready: countInPlace(apiVersion, kind).ready });
      }
    } else if (peer.requests !== undefined) {
      const log = server.requests.log();
      send({
        total: server.requests.count() - server.requests.count({ verb: 'watch' }),
        writes: writesSinceReset(),
        conflicts: log.filter((entry) => entry.status === 409).length,
      });
    } else if (peer.resetRequests !== undefined) {
      server.requests.reset();
      send(true);
    } else if (peer.createAndWait !== undefined) {
      const { object, childKind, spin } = peer.createAndWait;
      if (spin !== true) {
        awaitingChild.set(`${childKind}/${object.metadata.name}`, { started: performance.now(), send });
        server.create(object);
        return;
      }
      const started = performance.now();
      server.create(object);
      const check = (): void => {
        if (server.get('v1', childKind, object.metadata.name, 'default') !== undefined) send(performance.now() - started);
        else setImmediate(check);
      };
      check();
    }
    return;
  }
  const message = raw as { id: number; seed?: { apiVersion: string; kind: string; count: number; prefix: string }; crd?: unknown; create?: Record<string, unknown>; count?: { kind: string }; stop?: boolean };
  const reply = (value: unknown): void => void process.send?.({ id: message.id, value });
  if (message.crd !== undefined) {
    server.applyCrd(message.crd);
    void server.settled().then(() => reply(true));
  } else if (message.create !== undefined) {
    server.create(message.create);
    reply(true);
  } else if (message.seed !== undefined) {
    const { apiVersion, kind, count, prefix } = message.seed;
    for (let i = 0; i < count; i++) {
      server.create({ apiVersion, kind, metadata: { name: `${prefix}${i}`, namespace: 'default', labels: { app: 'bench', tier: 'web', team: 'katalog' } }, spec: { image: 'nginx:1.27', replicas: 2, ports: [80, 443], env: { MODE: 'bench' }, size: i } });
    }
    reply(count);
  } else if (message.count !== undefined) {
    const kind = message.count.kind;
    reply(server.objects({ kind }).length);
  } else if (message.stop === true) {
    void server.stop().then(() => {
      reply(true);
      process.exit(0);
    });
  }
});
process.send?.({ id: 0, value: server.url });
