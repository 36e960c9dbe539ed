// The test API server's request handler alone, without sockets, on the writes of bench/peers' job:
//   node --expose-gc --import tsx bench/server-paths.ts [count=5000 batch=100 warmup=1000 watches=2 against=DIR alloc=1]
// Runs a server's own dispatcher (routing, faults, request log, the operation, the answer's text) in this process
// with requests and responses that are plain objects: no HTTP parser, no socket write. For each of `count` seeded
// Widgets it sends what katalog writes for one (the child ConfigMap's server-side apply, then the status merge
// patch) and `count` raw applies (bench/support/raw-writes' small ConfigMaps), and prints µs of CPU per child
// apply, per status patch and per raw apply (after `warmup` of each not counted), and each as a ratio
// to the raw apply. `watches=N` opens N ConfigMap watches selecting the owner label and one Widget watch (their
// lines are built and dropped). `against=DIR` loads another checkout's server too and sends both the same batches
// in alternating order: the before/after of a change to the write path in one command, without the per-request costs (node:http's
// parser, the socket write) that a raw write pays as much as the job's. CPU of this process (`process.cpuUsage`):
// read ratios under load. With --expose-gc each server's batch starts on a collected heap, so that the other
// server's garbage is not charged to it. `alloc=1` measures instead the bytes each kind of write allocates (V8's
// sampling heap profiler, collected objects kept): a figure the machine's load does not change.
import { EventEmitter } from 'node:events';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=', 2) as [string, string]));
const COUNT = Number(args['count'] ?? 5000);
const BATCH = Number(args['batch'] ?? 100);
const WARMUP = Number(args['warmup'] ?? 1000);
const WATCHES = Number(args['watches'] ?? 2);
const AGAINST = args['against'];
const ALLOC = args['alloc'] === '1';
const OWNER_LABEL = 'katalog.dev/owner';

type Handler = (req: unknown, res: unknown) => void;
interface Server {
  stop(): Promise<void>;
  create(object: unknown): Record<string, unknown>;
  applyCrd(crd: unknown): Record<string, unknown>;
  }
interface Target {
  readonly name: string;
  readonly server: Server;
  readonly handle: Handler;
  readonly crd: unknown;
}

/** A response that keeps what the handler answers and drops it. */
class FakeResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  writableLength = 0;
  body = '';
  constructor(private readonly done: (res: FakeResponse) => void) {
    super();
  }
  writeHead(status: number): this {
    this.statusCode = status;
    this.headersSent = true;
    return this;
  }
  flushHeaders(): void {}
  setHeader(): void {}
  write(): boolean {
    return true;
  }
  end(text?: string): void {
    this.writableEnded = true;
    if (text !== undefined) this.body = text;
    this.done(this);
  }
  destroy(): void {
    this.destroyed = true;
  }
}

const socket = { setTimeout: () => undefined, setNoDelay: () => undefined, destroy: () => undefined, writableLength: 0 };

function send(target: Target, method: string, url: string, contentType: string | undefined, body: string | undefined): Promise<FakeResponse> {
  return new Promise((resolvePromise, reject) => {
    const req = Object.assign(new EventEmitter(), { method, url, headers: contentType === undefined ? {} : { 'content-type': contentType }, socket, destroy: () => undefined });
    const res = new FakeResponse((r) => (r.statusCode < 300 ? resolvePromise(r) : reject(new Error(`${method} ${url}: ${r.statusCode} ${r.body}`))));
    target.handle(req, res);
    if (body !== undefined) req.emit('data', Buffer.from(body));
    req.emit('end');
  });
}

function childBody(name: string, uid: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'default',
      labels: { 'app.kubernetes.io/managed-by': 'katalog', 'katalog.dev/crd': 'widget', [OWNER_LABEL]: `widget.default.${name}` },
      annotations: { 'katalog.dev/template-hash': 'f1855cc0dcc841e6' },
      ownerReferences: [{ apiVersion: 'example.io/v1', kind: 'Widget', name, uid, controller: true, blockOwnerDeletion: true }],
    },
    data: { image: 'nginx:1.27', replicas: '2' },
  });
}

function statusBody(generation: number): string {
  const condition = { type: 'Ready', status: 'True', reason: 'ReconcileSucceeded', message: '', lastTransitionTime: new Date().toISOString(), observedGeneration: generation };
  return JSON.stringify({ status: { conditions: [condition], observedGeneration: generation } });
}

function rawBody(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { image: 'nginx:1.27', replicas: '2' } });
}

const collect = (globalThis as { gc?: () => void }).gc;

const cpuUs = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function load(name: string, root: string): Promise<Target> {
  const testing = (await import(pathToFileURL(join(root, 'src/testing/index.ts')).href)) as {
    startTestApiServer: (options: Record<string, unknown>) => Promise<Server>;
    crdManifest: (options: Record<string, unknown>) => unknown;
  };
  const server = await testing.startTestApiServer({ bookmarkIntervalMs: 600_000, simulateWorkloads: false });
  const handle = (server as unknown as { listener: { handler: Handler } }).listener.handler;
  const crd = testing.crdManifest({ group: 'example.io', kind: 'Widget', plural: 'widgets' });
  return { name, server, handle, crd };
}

interface State {
  readonly widgets: { name: string; uid: string }[];
  readonly watches: FakeResponse[];
  totals: { apply: number; status: number; raw: number; n: number };
}

/** Seeds the Widgets (and `WARMUP` more) and opens the watches. */
async function prepare(target: Target): Promise<State> {
  target.server.applyCrd(target.crd);
  const widgets: { name: string; uid: string }[] = [];
  for (let i = 0; i < COUNT + WARMUP; i++) {
    const object = target.server.create({ apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: `w-${i}`, namespace: 'default' }, spec: { size: i } });
    const metadata = object['metadata'] as { name: string; uid: string };
    widgets.push({ name: metadata.name, uid: metadata.uid });
  }
  const watches: FakeResponse[] = [];
  const open = (url: string): void => {
    const req = Object.assign(new EventEmitter(), { method: 'GET', url, headers: {}, socket, destroy: () => undefined });
    const res = new FakeResponse(() => undefined);
    target.handle(req, res);
    watches.push(res);
  };
  for (let i = 0; i < WATCHES; i++) open(`/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&labelSelector=${encodeURIComponent(OWNER_LABEL)}`);
  if (WATCHES > 0) open('/apis/example.io/v1/namespaces/default/widgets?watch=true&allowWatchBookmarks=true');
  await new Promise((r) => setImmediate(r));
  return { widgets, watches, totals: { apply: 0, status: 0, raw: 0, n: 0 } };
}

/** Sends the writes of resources `from` to `from + n`: their child applies, their status patches, as many raw applies. */
const session = ALLOC ? new Session() : undefined;
session?.connect();

interface SampledNode {
  selfSize: number;
  children: SampledNode[];
}
const totalSize = (node: SampledNode): number => node.children.reduce((sum, child) => sum + totalSize(child), node.selfSize);

/** CPU µs (or, with `alloc=1`, bytes allocated) of `work`. */
async function measure(work: () => Promise<void>): Promise<number> {
  if (session === undefined) {
    const started = cpuUs();
    await work();
    return cpuUs() - started;
  }
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  await work();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampledNode } };
  return totalSize(profile.head);
}

async function batch(target: Target, state: State, from: number, n: number): Promise<void> {
  const widgets = state.widgets.slice(from, from + n);
  // Each server's batch starts on a collected heap: the other server's garbage is not charged to it.
  collect?.();
  const apply = await measure(async () => {
    for (const { name, uid } of widgets) {
      await send(target, 'PATCH', `/api/v1/namespaces/default/configmaps/${name}?fieldManager=katalog&force=true`, 'application/apply-patch+yaml', childBody(name, uid));
    }
  });
  const status = await measure(async () => {
    for (const { name } of widgets) {
      await send(target, 'PATCH', `/apis/example.io/v1/namespaces/default/widgets/${name}/status?fieldManager=katalog`, 'application/merge-patch+json', statusBody(1));
    }
  });
  const raw = await measure(async () => {
    for (let i = from; i < from + n; i++) {
      const name = `raw-${i}`;
      await send(target, 'PATCH', `/api/v1/namespaces/default/configmaps/${name}?fieldManager=raw&force=true`, 'application/apply-patch+yaml', rawBody(name));
    }
  });
  state.totals.apply += apply;
  state.totals.status += status;
  state.totals.raw += raw;
  state.totals.n += widgets.length;
}

const targets = [await load('this checkout', resolve('.'))];
if (AGAINST !== undefined) targets.push(await load(`against ${AGAINST}`, resolve(AGAINST)));
try {
  console.log(`bench/server-paths: ${COUNT} Widgets (child apply, status patch) and ${COUNT} raw applies, batches of ${BATCH}, ${WATCHES} ConfigMap watches and ${WATCHES > 0 ? 1 : 0} Widget watch open, ${WARMUP} of each first not counted`);
  const states = new Map<Target, State>();
  for (const target of targets) states.set(target, await prepare(target));
  for (const target of targets) {
    const state = states.get(target) as State;
    for (let from = COUNT; from < COUNT + WARMUP; from += BATCH) await batch(target, state, from, Math.min(BATCH, COUNT + WARMUP - from));
    state.totals = { apply: 0, status: 0, raw: 0, n: 0 };
  }
  for (let from = 0, r = 0; from < COUNT; from += BATCH, r++) {
    for (const target of r % 2 === 0 ? targets : [...targets].reverse()) await batch(target, states.get(target) as State, from, Math.min(BATCH, COUNT - from));
  }
  const per = (target: Target): { apply: number; status: number; raw: number } => {
    const { apply, status, raw, n } = (states.get(target) as State).totals;
    return { apply: apply / n, status: status / n, raw: raw / n };
  };
  for (const target of targets) {
    const { apply, status, raw } = per(target);
    const [unit, scale] = ALLOC ? ['KB allocated', 1024] : ['µs', 1];
    console.log(
      `${target.name}: ${unit} per child apply ${(apply / scale).toFixed(1)} (${(apply / raw).toFixed(2)}× raw), per status patch ${(status / scale).toFixed(1)} (${(status / raw).toFixed(2)}× raw), per raw apply ${(raw / scale).toFixed(1)}; job write ÷ raw write ${((apply + status) / 2 / raw).toFixed(2)}×`,
    );
  }
  const [mine, other] = targets;
  if (mine !== undefined && other !== undefined) {
    const a = per(mine);
    const b = per(other);
    console.log(`this checkout ÷ ${other.name}: child apply ${(a.apply / b.apply).toFixed(2)}×, status patch ${(a.status / b.status).toFixed(2)}×, raw apply ${(a.raw / b.raw).toFixed(2)}×, job write ${((a.apply + a.status) / (b.apply + b.status)).toFixed(2)}×`);
  }
} finally {
  for (const target of targets) await target.server.stop();
}
