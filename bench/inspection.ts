// Inspection API throughput: GET /katalog with 100 CRDs (a fake view over real CrdHealth objects) against a bare
// Hono route in the same run: one returning a small JSON, one returning a precomputed body as large as /katalog's
// (the cost of the bytes alone). First through app.request() (no socket), then over loopback HTTP with keep-alive.
// Run: npx tsx bench/inspection.ts [crds] [seconds per case]
import { performance } from 'node:perf_hooks';
import { Agent, request as httpRequest } from 'node:http';
import { Hono } from 'hono';
import { listen } from '../src/http/listen.js';
import { createInspectionRouter } from '../src/http/router.js';
import type { CrdView, InspectionView } from '../src/http/view.js';
import { CrdHealth } from '../src/observe/health.js';
import { RuntimeHealth, readiness } from '../src/observe/runtime-health.js';
import { systemClock } from '../src/util/clock.js';

const count = Number(process.argv[2] ?? 100);
const seconds = Number(process.argv[3] ?? 1.5);

function viewOf(n: number): InspectionView {
  const crds: CrdView[] = [];
  for (let i = 0; i < n; i++) {
    const name = `crd-${i}`;
    const health = new CrdHealth({ name, failureThreshold: 5, clock: systemClock });
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
  const runtime = new RuntimeHealth(systemClock);
  runtime.markRunning();
  return {
    liveness: () => runtime.liveness(),
    readiness: () => readiness({ started: true, crds: crds.map((crd) => ({ name: crd.name, state: crd.health.state, synced: true })) }),
    metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', text: '' }),
    crds: () => crds,
    crd: (name) => byName.get(name),
  };
}

const router = createInspectionRouter(viewOf(count));
const sample = await (await router.request('/katalog')).text();
const bare = new Hono();
bare.get('/small', (c) => c.json({ status: 'ok', total: count }));
const samePayload = JSON.parse(sample) as unknown;
bare.get('/same', (c) => c.json(samePayload));
console.log(`GET /katalog with ${count} CRDs: ${sample.length} bytes; small baseline: ${JSON.stringify({ status: 'ok', total: count }).length} bytes`);

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
  for (const [i, [label, , scale]] of cases.entries()) {
    console.log(`${label.padEnd(60)} ${((best[i] ?? 0) * (scale ?? 1)).toFixed(0).padStart(9)} req/s`);
  }
  return best.map((value, i) => value * (cases[i]?.[2] ?? 1));
}

async function drain(response: Response | Promise<Response>): Promise<void> {
  const r = await response;
  if (r.status !== 200) throw new Error(`status ${r.status}`);
  await r.arrayBuffer();
}

const ratio = (a: number | undefined, b: number | undefined): string => `${((a ?? 0) / (b ?? 1)).toFixed(2)}x`;

console.log('\n-- app.request() (no socket)');
const [small, same, katalog, detail, crdHealth, live] = await compare([
  ['baseline: bare Hono route, small JSON', () => drain(bare.request('/small'))],
  ['baseline: bare Hono route, same-size precomputed JSON', () => drain(bare.request('/same'))],
  [`router: GET /katalog (${count} CRDs, built per request)`, () => drain(router.request('/katalog'))],
  ['router: GET /katalog/crd-7', () => drain(router.request('/katalog/crd-7'))],
  ['router: GET /katalog/crd-7/health', () => drain(router.request('/katalog/crd-7/health'))],
  ['router: GET /health', () => drain(router.request('/health'))],
]);
console.log(`ratio GET /katalog vs small-JSON baseline:           ${ratio(katalog, small)}`);
console.log(`ratio GET /katalog vs same-size-JSON baseline:       ${ratio(katalog, same)}`);
console.log(`ratio GET /katalog/crd-7 vs small-JSON baseline:     ${ratio(detail, small)}`);
console.log(`ratio GET /katalog/crd-7/health vs small baseline:   ${ratio(crdHealth, small)}`);
console.log(`ratio GET /health vs small-JSON baseline:            ${ratio(live, small)}`);

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
const [netSmall, netSame, netKatalog, netHealth] = await compare([
  ['baseline: bare Hono route, small JSON', eight(`${bareServer.url}/small`), 8],
  ['baseline: bare Hono route, same-size precomputed JSON', eight(`${bareServer.url}/same`), 8],
  [`router: GET /katalog (${count} CRDs)`, eight(`${routerServer.url}/katalog`), 8],
  ['router: GET /health', eight(`${routerServer.url}/health`), 8],
]);
console.log(`ratio GET /katalog vs small-JSON baseline over HTTP:     ${ratio(netKatalog, netSmall)}`);
console.log(`ratio GET /katalog vs same-size-JSON baseline over HTTP: ${ratio(netKatalog, netSame)}`);
console.log(`ratio GET /health vs small-JSON baseline over HTTP:      ${ratio(netHealth, netSmall)}`);
agent.destroy();
await Promise.all([routerServer.close(), bareServer.close()]);
