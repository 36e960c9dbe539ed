// The test API server's CPU per write of bench/peers' job, against its CPU per raw write, without an operator:
//   node --import tsx bench/server-writes.ts [count=2000 batch=100 warmup=300 against=DIR serverprof=DIR profus=US only=job|raw]
// The server runs in a process of its own with the two watches an operator of the job keeps open (Widgets, and
// the ConfigMaps with katalog's owner label). Two loops write, for each of `count` seeded Widgets, what katalog
// writes for one: a server-side apply of the child ConfigMap (katalog's labels, annotation and owner reference),
// then a merge patch of the Widget's status (the Ready condition); and `count` raw applies (small ConfigMaps that
// no watch selects, as bench/support/raw-writes sends them). Both go in batches of `batch`, one after the other,
// so the machine's load falls on both alike. Prints the server's CPU per write of each and the ratio: what the
// watch fan-out, the managed fields of an apply and of a status patch, and the bigger objects add to a write.
//
// `against=DIR` (another checkout of katalog, its node_modules installed or linked: `git worktree add` or
// `git archive main | tar -x -C DIR`) starts that checkout's test API server too, and sends both servers the same
// batches in alternating order: the before/after of a change to the server in one command, each as a ratio to its
// own raw write and the two against each other. The server's CPU is its process's (`process.cpuUsage`).
// `serverprof=DIR` writes a CPU profile of this checkout's server (`profus=` its sampling interval in µs); read it
// with bench/support/profile-shares.ts or by stage of a write with bench/support/server-stages.ts. `only=job` or
// `only=raw` sends only those writes (a profile of one kind). `watches=0` opens no watch: what the job's writes cost
// without their fan-out (the difference to a run with the watches is the fan-out's share). `split=1` sends a batch's
// child applies first, then its status patches, and prints the CPU of each kind of the job's writes apart.
// `warmup=N` (default 300) first sends N resources' job writes and N raw applies that are not counted, so that
// neither kind pays V8's compilation of the code both share: without it, whichever kind ran first paid for the
// optimising compiler's threads, which `process.cpuUsage` counts, and the job ÷ raw ratio depended on the order.
import { Agent, request, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startRemoteServer, type RemoteServer } from './support/remote-server.js';
import { crdManifest } from '../src/testing/index.js';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=', 2) as [string, string]));
const COUNT = Number(args['count'] ?? 2000);
const BATCH = Number(args['batch'] ?? 100);
const AGAINST = args['against'];
const PROF_DIR = args['serverprof'];
const ONLY = args['only'];
const WARMUP = Number(args['warmup'] ?? 300);
const WATCHES = args['watches'] !== '0';
const SPLIT = args['split'] === '1';
const PROF_FLAGS = PROF_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROF_DIR}`, ...(args['profus'] === undefined ? [] : [`--cpu-prof-interval=${args['profus']}`])];
const CONCURRENCY = 2;
const OWNER_LABEL = 'katalog.dev/owner';

interface Widget {
  metadata: { name: string; uid: string; generation: number };
}

/** One server under test, with its connections and its running totals. */
interface Target {
  readonly name: string;
  readonly server: RemoteServer;
  readonly url: URL;
  readonly agent: Agent;
  widgets: Widget[];
  watches: IncomingMessage[];
  jobCpuUs: number;
  jobWrites: number;
  applyCpuUs: number;
  statusCpuUs: number;
  rawCpuUs: number;
  rawWrites: number;
  jobMs: number;
}

function send(target: Target, method: string, path: string, contentType: string | undefined, body: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = contentType === undefined || body === undefined ? {} : { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) };
    const req = request({ agent: target.agent, hostname: target.url.hostname, port: target.url.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 || res.statusCode === 201 ? resolve(text) : reject(new Error(`${method} ${path}: HTTP ${res.statusCode}: ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A watch that reads and drops its events (an informer would parse them: that is the operator's cost, not the server's). */
function openWatch(target: Target, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request({ hostname: target.url.hostname, port: target.url.port, path }, (res) => {
      res.on('data', () => undefined);
      resolve(res);
    })
      .on('error', reject)
      .end();
  });
}

function childBody(widget: Widget): string {
  const { name, uid } = widget.metadata;
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

function statusBody(widget: Widget): string {
  const generation = widget.metadata.generation;
  const condition = { type: 'Ready', status: 'True', reason: 'ReconcileSucceeded', message: '', lastTransitionTime: new Date().toISOString(), observedGeneration: generation };
  return JSON.stringify({ status: { conditions: [condition], observedGeneration: generation } });
}

function rawBody(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { image: 'nginx:1.27', replicas: '2' } });
}

/** Runs `work` over `items` with {@link CONCURRENCY} loops. */
async function inLoops<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++];
        if (item !== undefined) await work(item);
      }
    }),
  );
}

const cpuOf = (target: Target): Promise<number> => target.server.call<number>({ cpu: true });

async function jobBatch(target: Target, from: number, count = BATCH): Promise<void> {
  const widgets = target.widgets.slice(from, from + count);
  const cpu0 = await cpuOf(target);
  const started = performance.now();
  const apply = (widget: Widget): Promise<string> =>
    send(target, 'PATCH', `/api/v1/namespaces/default/configmaps/${widget.metadata.name}?fieldManager=katalog&force=true`, 'application/apply-patch+yaml', childBody(widget));
  const status = (widget: Widget): Promise<string> =>
    send(target, 'PATCH', `/apis/example.io/v1/namespaces/default/widgets/${widget.metadata.name}/status?fieldManager=katalog`, 'application/merge-patch+json', statusBody(widget));
  if (SPLIT) {
    await inLoops(widgets, async (widget) => void (await apply(widget)));
    const cpu1 = await cpuOf(target);
    target.applyCpuUs += cpu1 - cpu0;
    await inLoops(widgets, async (widget) => void (await status(widget)));
    target.statusCpuUs += (await cpuOf(target)) - cpu1;
  } else {
    await inLoops(widgets, async (widget) => {
      await apply(widget);
      await status(widget);
    });
  }
  target.jobMs += performance.now() - started;
  target.jobCpuUs += (await cpuOf(target)) - cpu0;
  target.jobWrites += 2 * widgets.length;
}

async function rawBatch(target: Target, from: number, count = Math.min(BATCH, COUNT - from)): Promise<void> {
  const names = Array.from({ length: count }, (_, i) => `raw-${from + i}`);
  const cpu0 = await cpuOf(target);
  await inLoops(names, async (name) => {
    await send(target, 'PATCH', `/api/v1/namespaces/default/configmaps/${name}?fieldManager=raw&force=true`, 'application/apply-patch+yaml', rawBody(name));
  });
  target.rawCpuUs += (await cpuOf(target)) - cpu0;
  target.rawWrites += names.length;
}

async function startTarget(name: string, checkout: string | undefined): Promise<Target> {
  const server = await startRemoteServer({ bookmarkIntervalMs: 60_000 }, checkout === undefined ? PROF_FLAGS : [], checkout);
  const target: Target = {
    name,
    server,
    url: new URL(server.url),
    agent: new Agent({ keepAlive: true }),
    widgets: [],
    watches: [],
    jobCpuUs: 0,
    jobWrites: 0,
    applyCpuUs: 0,
    statusCpuUs: 0,
    rawCpuUs: 0,
    rawWrites: 0,
    jobMs: 0,
  };
  await server.call({ crd: crdManifest({ group: 'example.io', kind: 'Widget', plural: 'widgets' }) });
  await server.call({ seed: { apiVersion: 'example.io/v1', kind: 'Widget', count: COUNT + WARMUP, prefix: 'w' } });
  const list = JSON.parse(await send(target, 'GET', '/apis/example.io/v1/namespaces/default/widgets', undefined, undefined)) as { metadata: { resourceVersion: string }; items: Widget[] };
  target.widgets = list.items;
  const rv = list.metadata.resourceVersion;
  if (!WATCHES) return target;
  target.watches = await Promise.all([
    openWatch(target, `/apis/example.io/v1/namespaces/default/widgets?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`),
    openWatch(target, `/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&labelSelector=${encodeURIComponent(OWNER_LABEL)}&resourceVersion=${rv}`),
  ]);
  return target;
}

const targets: Target[] = [];
try {
  targets.push(await startTarget('this checkout', undefined));
  if (AGAINST !== undefined) targets.push(await startTarget(`against ${AGAINST}`, AGAINST));
  console.log(
    `bench/server-writes: ${COUNT} resources (2 writes each) and ${COUNT} raw applies, batches of ${BATCH}, ${CONCURRENCY} writers, ${WATCHES ? 2 : 'no'} watches open per server, ${WARMUP} of each first not counted${AGAINST === undefined ? '' : ', two servers in alternating order'}`,
  );
  if (WARMUP > 0) {
    // Widgets COUNT.. and raw names from COUNT on: never the measured ones. Then the totals start from zero.
    for (const target of targets) {
      for (let from = 0; from < WARMUP; from += BATCH) {
        const n = Math.min(BATCH, WARMUP - from);
        if (ONLY !== 'raw') await jobBatch(target, COUNT + from, n);
        if (ONLY !== 'job') await rawBatch(target, COUNT + from, n);
      }
      Object.assign(target, { jobCpuUs: 0, jobWrites: 0, applyCpuUs: 0, statusCpuUs: 0, rawCpuUs: 0, rawWrites: 0, jobMs: 0 });
    }
  }
  for (let from = 0, round = 0; from < COUNT; from += BATCH, round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    if (ONLY !== 'raw') for (const target of order) await jobBatch(target, from);
    if (ONLY !== 'job') for (const target of order) await rawBatch(target, from);
  }
  const perWrite = (target: Target): { job: number; raw: number } => ({ job: target.jobCpuUs / 1000 / target.jobWrites, raw: target.rawCpuUs / 1000 / target.rawWrites });
  for (const target of targets) {
    const { job, raw } = perWrite(target);
    console.log(
      `${target.name}: server CPU per job write ${job.toFixed(3)} ms, per raw write ${raw.toFixed(3)} ms, job write ÷ raw write ${(job / raw).toFixed(2)}×; job ${(target.jobWrites / 2 / (target.jobMs / 1000)).toFixed(0)} resources/s`,
    );
  }
  if (SPLIT) {
    for (const target of targets) {
      const { raw } = perWrite(target);
      const n = target.jobWrites / 2;
      const apply = target.applyCpuUs / 1000 / n;
      const status = target.statusCpuUs / 1000 / n;
      console.log(`${target.name}: per child apply ${apply.toFixed(3)} ms (${(apply / raw).toFixed(2)}× raw), per status patch ${status.toFixed(3)} ms (${(status / raw).toFixed(2)}× raw)`);
    }
  }
  const [mine, other] = targets;
  if (mine !== undefined && other !== undefined) {
    const a = perWrite(mine);
    const b = perWrite(other);
    console.log(`this checkout ÷ ${other.name}: per job write ${(a.job / b.job).toFixed(2)}×, per raw write ${(a.raw / b.raw).toFixed(2)}×`);
  }
} finally {
  for (const target of targets) {
    for (const watch of target.watches) watch.destroy();
    target.agent.destroy();
    await target.server.stop();
  }
}
