// Benchmark of the test API server (katalog/testing), run with `npx tsx bench/apiserver.ts`.
//
// Measures, in one process (server and client share the event loop, as in a test suite):
//   - small writes/s through client-node (ConfigMap creates), sequential and 16 concurrent;
//   - the same client against a bare node:http JSON echo server, measured in the same run: the baseline;
//   - watch events/s delivered to one client-node Watch (replay of retained events, and live writes);
//   - direct (HTTP-less) writes/s, for the cost of the storage itself.
// Targets: >= 2,000 small writes/s (16 concurrent) and >= 20,000 watch events/s.
import { Agent, createServer, request, type Server } from 'node:http';
import { CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { startTestApiServer } from '../src/testing/index.js';

const SEQUENTIAL = Number(process.env['BENCH_SEQUENTIAL'] ?? 2000);
const CONCURRENT = Number(process.env['BENCH_CONCURRENT'] ?? 6000);
const EVENTS = Number(process.env['BENCH_EVENTS'] ?? 50_000);
const PARALLEL = 16;

function configMap(name: string): { metadata: { name: string; labels: Record<string, string> }; data: Record<string, string> } {
  return { metadata: { name, labels: { app: 'bench', tier: 'web' } }, data: { key: 'value', other: 'x'.repeat(64) } };
}

async function timeIt(fn: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
}

async function writes(core: CoreV1Api, namespace: string, prefix: string): Promise<{ sequential: number; concurrent: number }> {
  const seq = await timeIt(async () => {
    for (let i = 0; i < SEQUENTIAL; i++) await core.createNamespacedConfigMap({ namespace, body: configMap(`${prefix}s${i}`) });
  });
  let next = 0;
  const conc = await timeIt(async () => {
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let i = next++; i < CONCURRENT; i = next++) await core.createNamespacedConfigMap({ namespace, body: configMap(`${prefix}c${i}`) });
      }),
    );
  });
  return { sequential: SEQUENTIAL / seq, concurrent: CONCURRENT / conc };
}

/** Creates through a keep-alive node:http client: the server's own capacity, without client-node's per-request cost. */
async function rawWrites(url: string, prefix: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });
  const post = (i: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', ...configMap(`${prefix}k${i}`) });
      const req = request(`${url}/api/v1/namespaces/default/configmaps`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const seconds = await timeIt(async () => {
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let i = next++; i < CONCURRENT; i = next++) await post(i);
      }),
    );
  });
  agent.destroy();
  return CONCURRENT / seconds;
}

/** A bare JSON echo server: what any HTTP server costs this client, the floor for every write. */
async function echoServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length === 0 ? '{}' : JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}` };
}

function kubeConfigFor(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: 'bench', server: url, skipTLSVerify: true }, { name: 'bench' });
  return kc;
}

/** Counts events on one client-node Watch and resolves when `target` have arrived. */
class Counter {
  received = 0;
  private target = 0;
  private resolve: () => void = () => undefined;

  expect(target: number): Promise<void> {
    this.received = 0;
    this.target = target;
    return new Promise((resolve) => (this.resolve = resolve));
  }

  onEvent = (): void => {
    this.received += 1;
    if (this.received === this.target) this.resolve();
  };
}

async function watchEvents(): Promise<{ replay: number; added: number; modified: number; direct: number }> {
  const server = await startTestApiServer({ historyWindow: EVENTS * 3 });
  try {
    const list = (await fetch(`${server.url}/api/v1/namespaces/default/configmaps`).then((r) => r.json())) as { metadata: { resourceVersion: string } };
    const directSeconds = await timeIt(async () => {
      for (let i = 0; i < EVENTS; i++) server.create({ apiVersion: 'v1', kind: 'ConfigMap', ...configMap(`e${i}`) });
      await Promise.resolve();
    });
    const counter = new Counter();
    const watch = new Watch(server.kubeConfig);
    const path = '/api/v1/namespaces/default/configmaps';

    let waiting = counter.expect(EVENTS);
    const replaySeconds = await timeIt(async () => {
      const controller = await watch.watch(path, { resourceVersion: list.metadata.resourceVersion }, counter.onEvent, () => undefined);
      await waiting;
      controller.abort();
    });

    const controller = await watch.watch(path, { resourceVersion: String(Number.MAX_SAFE_INTEGER) }, counter.onEvent, () => undefined);
    waiting = counter.expect(EVENTS);
    const addedSeconds = await timeIt(async () => {
      for (let i = 0; i < EVENTS; i += 500) {
        for (let j = i; j < Math.min(EVENTS, i + 500); j++) server.create({ apiVersion: 'v1', kind: 'ConfigMap', ...configMap(`l${j}`) });
        await new Promise((resolve) => setImmediate(resolve));
      }
      await waiting;
    });
    waiting = counter.expect(EVENTS);
    const modifiedSeconds = await timeIt(async () => {
      for (let i = 0; i < EVENTS; i += 500) {
        for (let j = i; j < Math.min(EVENTS, i + 500); j++) server.patch('v1', 'ConfigMap', `l${j}`, { data: { key: `v${j}` } });
        await new Promise((resolve) => setImmediate(resolve));
      }
      await waiting;
    });
    controller.abort();
    return { replay: EVENTS / replaySeconds, added: EVENTS / addedSeconds, modified: EVENTS / modifiedSeconds, direct: EVENTS / directSeconds };
  } finally {
    await server.stop();
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  console.log(`katalog/testing benchmark — node ${process.version}, ${SEQUENTIAL} sequential + ${CONCURRENT} concurrent (${PARALLEL}) creates, ${EVENTS} watch events\n`);

  const echo = await echoServer();
  const baseline = await writes(kubeConfigFor(echo.url).makeApiClient(CoreV1Api), 'default', 'b');
  const rawBaseline = await rawWrites(echo.url, 'b');
  await new Promise<void>((resolve) => echo.server.close(() => resolve()));

  const server = await startTestApiServer();
  const ours = await writes(server.kubeConfig.makeApiClient(CoreV1Api), 'default', 'w');
  const raw = await rawWrites(server.url, 'w');
  await server.stop();

  const events = await watchEvents();

  const rows: [string, string, string, string][] = [
    ['small writes/s, sequential (client-node)', fmt(ours.sequential), `${fmt(baseline.sequential)} echo`, `${(ours.sequential / baseline.sequential).toFixed(2)}x`],
    ['small writes/s, 16 concurrent (client-node)', fmt(ours.concurrent), `${fmt(baseline.concurrent)} echo`, `${(ours.concurrent / baseline.concurrent).toFixed(2)}x`],
    ['small writes/s, 16 concurrent (keep-alive node:http)', fmt(raw), `${fmt(rawBaseline)} echo`, `${(raw / rawBaseline).toFixed(2)}x`],
    ['watch events/s to one client-node Watch (replay)', fmt(events.replay), 'target 20,000', `${(events.replay / 20_000).toFixed(2)}x`],
    ['watch events/s, live creates (ADDED)', fmt(events.added), 'target 20,000', `${(events.added / 20_000).toFixed(2)}x`],
    ['watch events/s, live merge patches (MODIFIED)', fmt(events.modified), 'target 20,000', `${(events.modified / 20_000).toFixed(2)}x`],
    ['direct writes/s (no HTTP: storage, history, fan-out)', fmt(events.direct), 'target 2,000', `${(events.direct / 2000).toFixed(2)}x`],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`${'measure'.padEnd(width)}  ${'value'.padStart(9)}  ${'baseline'.padStart(15)}  ratio`);
  for (const [name, value, base, ratio] of rows) console.log(`${name.padEnd(width)}  ${value.padStart(9)}  ${base.padStart(15)}  ${ratio}`);
  console.log('\nratio for writes = test API server writes/s ÷ bare echo server requests/s through the same client (1.00x = no server overhead).');
  console.log('live events include the cost of the writes themselves: server and client share one event loop.');
}

await main();
