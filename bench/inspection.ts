// bench/inspection: the inspection API against bare Hono routes measured in the same run.
//   npx tsx bench/inspection.ts [crds=100] [seconds per case=1.5]      (npm run bench -- inspection)
//
// HEADLINE: GET /katalog with `crds` CRDs against a bare Hono route answering `c.json(body)` with a precomputed plain
// object of the same size. Both sides pay JSON serialisation and the same bytes, so the ratio is the cost of what
// the router adds (reading live state, building summaries). The issue asks for >= 0.8x.
// For information: a bare route sending the same body as a precomputed string (bytes only, no serialisation), one
// returning a tiny JSON (the fixed cost of a Hono request), and /katalog built from scratch on every request
// (listOf + c.json, what the router did before it reused unchanged summaries).
// Then the same over loopback HTTP, and finally whether 1,000 requests a second slow a CPU-bound loop standing in
// for reconciliation (SPEC §6), by running the same loop with and without that load on the same event loop.
import { performance } from 'node:perf_hooks';
import { Agent, request as httpRequest } from 'node:http';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Hono } from 'hono';
import { listOf } from '../src/http/bodies.js';
import { listen } from '../src/http/listen.js';
import { createInspectionRouter } from '../src/http/router.js';
import type { CrdView, InspectionView } from '../src/http/view.js';
import { CrdHealth } from '../src/observe/health.js';
import { RuntimeHealth, readiness } from '../src/observe/runtime-health.js';
import { systemClock, type Clock } from '../src/util/clock.js';

const count = Number(process.argv[2] ?? 100);
const seconds = Number(process.argv[3] ?? 1.5);

/** The system clock, plus a skew the worst case moves forward by a second before each request. */
class SkewClock implements Clock {
  skew = 0;
  now(): number {
    return Date.now() + this.skew;
  }
  setTimeout = systemClock.setTimeout;
  clearTimeout = systemClock.clearTimeout;
}

interface BenchView extends InspectionView {
  readonly list: ReadonlyArray<CrdView & { readonly health: CrdHealth }>;
}

/** `n` CRDs over real CrdHealth: 8 in 10 healthy, 1 degraded, 1 pending. */
function viewOf(n: number, clock: Clock): BenchView {
  const crds: Array<CrdView & { readonly health: CrdHealth }> = [];
  for (let i = 0; i < n; i++) {
    const name = `crd-${i}`;
    const health = new CrdHealth({ name, failureThreshold: 5, clock });
    if (i % 10 !== 9) health.markStarted();
    if (i % 10 === 8) for (let f = 0; f < 5; f++) health.recordFailure(new Error('boom'));
    if (i % 10 < 8) health.recordSuccess();
    crds.push({
      name,
      mode: 'dynamic',
      gvk: { group: 'bench.example.io', version: 'v1', kind: `Kind${i}` },
      declaredVersion: 'v1',
      settings: {
        workers: { value: 2, source: 'default' },
        resync: { value: 600_000, source: 'default' },
        maxDepth: { value: 1000, source: 'default' },
        failureThreshold: { value: 5, source: 'default' },
      },
      queueDepth: 0,
      resourceCount: i,
      dependsOn: [],
      health,
      reconciler: () => ({
        type: 'generic',
        hooks: { configured: false, source: null, function: null },
        constructor: { configured: false, source: null, function: null },
        finalizers: { values: ['katalog.dev/cleanup'], source: 'code' },
        templates: {},
      }),
    });
  }
  const byName = new Map(crds.map((crd) => [crd.name, crd]));
  const runtime = new RuntimeHealth(clock);
  runtime.markRunning();
  return {
    list: crds,
    liveness: () => runtime.liveness(),
    readiness: () => readiness({ started: true, crds: crds.map((crd) => ({ name: crd.name, state: crd.health.state, synced: true })) }),
    metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', text: '' }),
    crds: () => crds,
    crd: (name) => byName.get(name),
  };
}

const view = viewOf(count, systemClock);
const router = createInspectionRouter(view);
const churnView = viewOf(count, systemClock);
const churnRouter = createInspectionRouter(churnView);
const worstClock = new SkewClock();
const worstRouter = createInspectionRouter(viewOf(count, worstClock));

const sample = await (await router.request('/katalog')).text();
if (sample !== JSON.stringify(listOf(view.crds(), ''))) throw new Error('GET /katalog differs from listOf()');
const samePayload = JSON.parse(sample) as unknown;
const small = { status: 'ok', total: count };
const bare = new Hono();
bare.get('/small', (c) => c.json(small));
bare.get('/same-object', (c) => c.json(samePayload));
bare.get('/same-string', (c) => c.body(sample, 200, { 'content-type': 'application/json' }));
bare.get('/katalog-scratch', (c) => c.json(listOf(view.crds(), '')));
console.log(`GET /katalog with ${count} CRDs: ${sample.length} bytes; tiny baseline: ${JSON.stringify(small).length} bytes`);

/** Requests per second of `once`, run back to back for `seconds` after a short warm-up. */
async function measure(once: () => Promise<void>): Promise<number> {
  const warm = performance.now() + 200;
  while (performance.now() < warm) await once();
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 20; i++) await once();
    n += 20;
  }
  return (n / (performance.now() - start)) * 1000;
}

/** Measures every case twice, interleaved (the machine is shared), keeps the best of each, prints req/s. */
async function compare(cases: ReadonlyArray<readonly [string, () => Promise<void>, number?]>): Promise<number[]> {
  const best = cases.map(() => 0);
  for (let round = 0; round < 2; round++) {
    for (const [i, [, once]] of cases.entries()) best[i] = Math.max(best[i] ?? 0, await measure(once));
  }
  const results = best.map((value, i) => value * (cases[i]?.[2] ?? 1));
  for (const [i, [label]] of cases.entries()) console.log(`${label.padEnd(66)} ${(results[i] ?? 0).toFixed(0).padStart(9)} req/s`);
  return results;
}

async function drain(response: Response | Promise<Response>): Promise<void> {
  const r = await response;
  if (r.status !== 200) throw new Error(`status ${r.status}`);
  await r.arrayBuffer();
}

const ratio = (a: number | undefined, b: number | undefined): string => `${((a ?? 0) / (b ?? 1)).toFixed(2)}x`;
const line = (label: string, value: string): void => console.log(`${label.padEnd(66)} ${value.padStart(9)}`);

let flip = 0;
/** One CRD changes state before every request: its summary and the body are rebuilt, the other 99 reused. */
function churnOnce(): Promise<void> {
  const health = churnView.list[flip++ % churnView.list.length]?.health;
  if (health !== undefined) {
    if (health.state === 'pending') health.markStarted();
    else health.markPending('bench');
  }
  return drain(churnRouter.request('/katalog'));
}

/** Every uptime changes before every request: nothing can be reused (the cost without the cache). */
function worstOnce(): Promise<void> {
  worstClock.skew += 1000;
  return drain(worstRouter.request('/katalog'));
}

console.log('\n-- app.request() (no socket)');
const [sameObject, sameString, tiny, scratch, katalog, churn, worst, detail, crdHealth, live] = await compare([
  ['baseline: bare route, c.json(same-size precomputed object) [fair]', () => drain(bare.request('/same-object'))],
  ['info: bare route, same-size precomputed string', () => drain(bare.request('/same-string'))],
  ['info: bare route, tiny JSON', () => drain(bare.request('/small'))],
  ['info: bare route, listOf() + c.json per request (no reuse)', () => drain(bare.request('/katalog-scratch'))],
  [`router: GET /katalog (${count} CRDs, state steady)`, () => drain(router.request('/katalog'))],
  ['router: GET /katalog, one CRD changes state before each request', churnOnce],
  ['router: GET /katalog, every uptime changes before each request', worstOnce],
  ['router: GET /katalog/crd-7', () => drain(router.request('/katalog/crd-7'))],
  ['router: GET /katalog/crd-7/health', () => drain(router.request('/katalog/crd-7/health'))],
  ['router: GET /health', () => drain(router.request('/health'))],
]);
console.log('ratios against the fair baseline (c.json of a same-size precomputed object):');
line('  HEADLINE GET /katalog, steady state (goal >= 0.8x)', ratio(katalog, sameObject));
line('  GET /katalog, one CRD changing per request', ratio(churn, sameObject));
line('  GET /katalog, every uptime changing per request (no reuse)', ratio(worst, sameObject));
line('  listOf() + c.json per request (no reuse, for reference)', ratio(scratch, sameObject));
console.log('for information:');
line('  GET /katalog vs same-size precomputed string', ratio(katalog, sameString));
line('  GET /katalog vs tiny JSON', ratio(katalog, tiny));
line('  GET /katalog/crd-7 vs tiny JSON', ratio(detail, tiny));
line('  GET /katalog/crd-7/health vs tiny JSON', ratio(crdHealth, tiny));
line('  GET /health vs tiny JSON', ratio(live, tiny));

console.log('\n-- loopback HTTP through listen(), keep-alive, 8 requests in flight');
const routerServer = await listen(router, { port: 0, hostname: '127.0.0.1' });
const bareServer = await listen(bare, { port: 0, hostname: '127.0.0.1' });
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function fetchOnce(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

const eight = (url: string) => () => Promise.all(Array.from({ length: 8 }, () => fetchOnce(url))).then(() => undefined);
const [netSameObject, netTiny, netKatalog, netHealth] = await compare([
  ['baseline: bare route, c.json(same-size precomputed object) [fair]', eight(`${bareServer.url}/same-object`), 8],
  ['info: bare route, tiny JSON', eight(`${bareServer.url}/small`), 8],
  [`router: GET /katalog (${count} CRDs, state steady)`, eight(`${routerServer.url}/katalog`), 8],
  ['router: GET /health', eight(`${routerServer.url}/health`), 8],
]);
line('  HEADLINE GET /katalog vs fair baseline over HTTP', ratio(netKatalog, netSameObject));
line('  GET /katalog vs tiny JSON over HTTP (information)', ratio(netKatalog, netTiny));
line('  GET /health vs tiny JSON over HTTP (information)', ratio(netHealth, netTiny));
agent.destroy();
await Promise.all([routerServer.close(), bareServer.close()]);

// -- Does a steady 1,000 req/s slow reconciliation?
// The stand-in: a loop of fixed CPU-bound steps (build and serialise small objects, as rendering templates does),
// yielding to the event loop between steps as the work queue does between keys: the worst case, since real
// reconciles mostly wait on the API server. Each load runs the loop alone and then with requests issued at `RATE`
// per second through app.request() on the same event loop, in many short pairs (alone first in even rounds,
// loaded first in odd ones, so that drift cancels); the slowdown is the median of the paired ratios, of wall time
// and of process CPU time, after one unrecorded warm-up round, with the interquartile range (the machine is shared:
// read the spread before the median). The "no-op load" row is the load generator alone (its
// timer and promises), the tiny-JSON row is the floor of any Hono request; what a handler itself adds is its row
// minus that floor. "flat-out" is 1,000 divided by the route's req/s above: the CPU share the requests would take
// if each cost what it costs back to back (interleaved with other work they cost more: colder caches, more GC).
const RATE = 1000;
const STEPS = 600;
const ROUNDS = 20;

function step(): number {
  let size = 0;
  for (let i = 0; i < 400; i++) size += JSON.stringify({ name: `web-${i}`, replicas: i % 5, labels: { app: 'web', tier: String(i) } }).length;
  return size;
}

/** Wall time and process CPU time (user + system, every thread) of one run of the loop, in ms. */
interface LoopTime {
  readonly wall: number;
  readonly cpu: number;
}

async function reconcileLoop(): Promise<LoopTime> {
  let sink = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < STEPS; i++) {
    sink += step();
    await yieldToLoop();
  }
  if (sink === 0) throw new Error('unreachable');
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

/** Runs the loop while `once` is called `RATE` times a second; returns the loop's times and the rate achieved. */
async function loopUnderLoad(once: () => Promise<void>): Promise<{ time: LoopTime; rate: number }> {
  let sent = 0;
  let failed: unknown;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) / 1000) * RATE) - sent;
    for (let k = 0; k < due; k++) {
      sent++;
      const p: Promise<void> = once().then(
        () => void inFlight.delete(p),
        (error: unknown) => {
          failed = error;
          inFlight.delete(p);
        },
      );
      inFlight.add(p);
    }
  }, 1);
  const time = await reconcileLoop();
  clearInterval(timer);
  const rate = sent / (time.wall / 1000);
  await Promise.all(inFlight);
  if (failed !== undefined) throw failed;
  return { time, rate };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const flatOut = (reqPerSecond: number | undefined): string => (reqPerSecond === undefined ? '—' : `${((RATE / reqPerSecond) * 100).toFixed(1)} %`);

console.log(`\n-- a CPU-bound loop (${STEPS} steps) alone and under ${RATE} req/s through app.request(), same event loop`);
const loads: ReadonlyArray<readonly [string, () => Promise<void>, number | undefined]> = [
  ['no-op load (the load generator alone)', () => Promise.resolve(), undefined],
  ['bare route, tiny JSON (the floor of any Hono request)', () => drain(bare.request('/small')), tiny],
  ['router: GET /health', () => drain(router.request('/health')), live],
  [`router: GET /katalog (${count} CRDs, state steady)`, () => drain(router.request('/katalog')), katalog],
  ['bare route, c.json(same-size precomputed object)', () => drain(bare.request('/same-object')), sameObject],
];
const alone: number[] = [];
const loaded = loads.map(() => ({ wall: [] as number[], cpu: [] as number[], rates: [] as number[] }));
for (let round = 0; round <= ROUNDS; round++) {
  for (const [i, [, once]] of loads.entries()) {
    const aloneFirst = round % 2 === 0 ? await reconcileLoop() : undefined;
    const { time, rate } = await loopUnderLoad(once);
    const base = aloneFirst ?? (await reconcileLoop());
    if (round === 0) continue; // warm-up
    alone.push(base.wall);
    loaded[i]?.wall.push((time.wall / base.wall - 1) * 100);
    loaded[i]?.cpu.push((time.cpu / base.cpu - 1) * 100);
    loaded[i]?.rates.push(rate);
  }
}
const pct = (value: number): string => `${value.toFixed(1)} %`;
/** `median (q1..q3)` of percentages. */
const spread = (values: readonly number[]): string => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): string => (sorted[Math.floor((sorted.length - 1) * q)] ?? 0).toFixed(0);
  return `${median(values).toFixed(1)} % (${at(0.25)}..${at(0.75)})`;
};
line('loop alone, median wall time', `${median(alone).toFixed(0)} ms`);
console.log(`${'load: slowdown of the loop, median (IQR)'.padEnd(56)} ${'wall'.padStart(17)} ${'CPU'.padStart(17)} ${'flat-out'.padStart(9)} ${'req/s'.padStart(6)}`);
for (const [i, [label, , reqPerSecond]] of loads.entries()) {
  const r = loaded[i];
  if (r === undefined) continue;
  console.log(`${label.padEnd(56)} ${spread(r.wall).padStart(17)} ${spread(r.cpu).padStart(17)} ${flatOut(reqPerSecond).padStart(9)} ${median(r.rates).toFixed(0).padStart(6)}`);
}
const above = (i: number, kind: 'wall' | 'cpu'): string => pct(median(loaded[i]?.[kind] ?? []) - median(loaded[1]?.[kind] ?? []));
line('what GET /katalog adds above the tiny-JSON floor (wall / CPU)', `${above(3, 'wall')} / ${above(3, 'cpu')}`);
line('what GET /health adds above the tiny-JSON floor (wall / CPU)', `${above(2, 'wall')} / ${above(2, 'cpu')}`);
