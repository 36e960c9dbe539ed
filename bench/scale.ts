// bench/scale: one katalog runtime, in one process, with `crds` CRDs × `per` resources, one child ConfigMap each
// (drift correction on) and a Ready condition; the test API server in a process of its own.
//   npm run bench -- scale                       (100 CRDs × 1,000 resources)
//   npx tsx --expose-gc bench/scale.ts crds=10 per=200
// Prints, each beside its bound or its baseline measured in the same run:
//   - the operator's RSS (peak and settled) and heap per cached resource, against 512 MiB;
//   - start() with `crds` CRDs, against the time the same initial lists take a bare keep-alive client, here;
//   - convergence throughput (resources/s until every resource has its child and a Ready status) with `crds` CRDs,
//     and with 1 CRD holding the same total (the baseline), as a ratio;
//   - requests and writes per resource, counted by the server.
// `idle=SECONDS` also prints the operator's RSS after SECONDS with nothing to do once converged, before any forced
// collection: what V8 gives back by itself (its memory reducer), the figure a long-running operator shows.
// `container=512` runs the operator in a memory cgroup of 512 MiB, as a pod's container with that limit would (Node
// then sizes its heap from the limit); it also prints the cgroup's own peak and how often the limit was hit.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { createMemoryCgroup, type MemoryCgroup } from './support/memory-cgroup.js';
import { START_CONCURRENCY } from '../src/runtime/crd-lifecycle.js';
import { kubeconfigYaml } from '../src/testing/kubeconfig.js';
import { SCALE_GROUP, scaleCrdManifest, scaleKind, scalePlural } from './support/scale-definition.js';
import { startRemoteServer, type RemoteServer } from './support/remote-server.js';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=') as [string, string]));
const CRDS = Number(args['crds'] ?? 100);
const PER = Number(args['per'] ?? 1000);
const TOTAL = CRDS * PER;
const only = args['only']; // 'many' or 'one': skip the other phase (development)
const CONTAINER_MIB = args['container'] === undefined ? undefined : Number(args['container']);
const IDLE_S = Number(args['idle'] ?? 0);
const MIB = 1024 * 1024;
const BOUND_RSS = 512 * MIB;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Memory {
  rss: number;
  peakRss: number;
  /** When the peak happened, ms after start() was called (-1: before). */
  peakAtMs: number;
  /** V8's spaces at the peak: used and committed bytes. */
  peakSpaces: Record<string, [number, number]>;
  heap: number;
  heapTotal: number;
  external: number;
  /** V8's heap limit (Node sizes it from a container's memory limit). */
  heapLimit: number;
  cpuMs: number;
  /** V8's collections from start() until convergence (and the idle wait): count and pause ms of each kind. */
  collections: { scavenges: number; scavengeMs: number; full: number; fullMs: number };
}
interface Phase {
  crds: number;
  startMs: number;
  listsMs: number;
  convergeMs: number;
  throughput: number;
  requests: number;
  writes: number;
  conflicts: number;
  peakRss: number;
  settledRss: number;
  heapPerResource: number;
  baselineRss: number;
  serverRss: number;
  cpuMs: number;
  memory: Memory;
  /** With `container=`: the cgroup's peak (bytes) and how often its limit was hit. */
  cgroup?: { peak: number | undefined; limitHits: number } | undefined;
  /** Resources Ready when the RSS peak happened. */
  readyAtPeak: number;
  /** With `idle=`: RSS and V8's committed heap after that long idle, no collection forced. */
  idle?: { rss: number; heapTotal: number } | undefined;
}

// The operator runs as katalog's users run it: compiled JavaScript. Under tsx, TypeScript compiled on the fly adds
// about 190 MiB of RSS that is not katalog's. It is bundled once into node_modules/.cache (so its imports of
// packages resolve to this checkout's node_modules).
const OPERATOR = 'node_modules/.cache/katalog-bench/scale-operator.mjs';
mkdirSync('node_modules/.cache/katalog-bench', { recursive: true });
await build({ entryPoints: ['bench/support/scale-operator.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: OPERATOR, logLevel: 'warning' });

/** The operator process: IPC questions and answers. */
class Operator {
  private readonly pending = new Map<number, (value: unknown) => void>();
  private nextId = 1;
  readonly ready: Promise<{ heap: number; rss: number }>;
  constructor(readonly child: ChildProcess) {
    this.ready = new Promise((resolve) => {
      child.on('message', (raw: unknown) => {
        const { id, value } = raw as { id: number; value: unknown };
        if (id === 0) resolve(value as { heap: number; rss: number });
        this.pending.get(id)?.(value);
        this.pending.delete(id);
      });
    });
  }
  ask<T>(question: Record<string, unknown>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, (value) => resolve(value as T));
      this.child.once('exit', (code) => reject(new Error(`operator exited (${code}) before answering ${JSON.stringify(question)}`)));
      this.child.send({ ...question, id });
    });
  }
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.send({ exit: true, id: -1 });
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
  }
}

/**
 * Every CRD's first list (pages of 500, as katalog's informer asks), 16 CRDs at a time as katalog's start() does,
 * over kept-alive connections, parsed. A page whose kept-alive connection the server had just closed is asked again.
 */
async function bareLists(url: string, plurals: readonly string[]): Promise<number> {
  const agent = new Agent({ keepAlive: true });
  const server = new URL(url);
  const once = (path: string): Promise<{ metadata?: { continue?: string }; items?: unknown[] }> =>
    new Promise((resolve, reject) => {
      const req = request({ agent, hostname: server.hostname, port: server.port, path, headers: { Accept: 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items?: unknown[] }) : reject(new Error(`list ${path}: HTTP ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end();
    });
  const get = (path: string): Promise<{ metadata?: { continue?: string }; items?: unknown[] }> =>
    once(path).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'ECONNRESET') return once(path);
      throw error;
    });
  try {
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(START_CONCURRENCY, plurals.length) }, async () => {
        while (next < plurals.length) {
          const plural = plurals[next++] ?? '';
          let token: string | undefined;
          do {
            const page = await get(`/apis/${SCALE_GROUP}/v1/${plural}?limit=500${token === undefined ? '' : `&continue=${encodeURIComponent(token)}`}`);
            token = page.metadata?.continue || undefined;
          } while (token !== undefined);
        }
      }),
    );
    return performance.now() - started;
  } finally {
    agent.destroy();
  }
}

/** Resources Ready over time (ms after t0), as the server counted them. */
type Timeline = Array<{ readonly ms: number; readonly ready: number }>;

async function converged(server: RemoteServer, plurals: readonly string[], t0: number, timeline: Timeline): Promise<number> {
  const deadline = performance.now() + 30 * 60_000;
  let last = '';
  let lastPrint = performance.now();
  for (;;) {
    const progress = await server.call<{ children: number; ready: number }>({ scaleProgress: { group: SCALE_GROUP, plurals } });
    const now = performance.now();
    timeline.push({ ms: now - t0, ready: progress.ready });
    if (progress.children >= TOTAL && progress.ready >= TOTAL) return now;
    if (now > deadline) throw new Error(`not converged after 30 minutes: ${progress.children} children, ${progress.ready} Ready of ${TOTAL}`);
    const line = `${progress.children} children, ${progress.ready} Ready`;
    if (now - lastPrint > (args['trace'] === undefined ? 10_000 : 0) && line !== last) {
      console.log(`    ${((now - t0) / 1000).toFixed(0)} s: ${line}`);
      last = line;
      lastPrint = now;
    }
    await sleep(250);
  }
}

async function runPhase(crds: number, dir: string): Promise<Phase> {
  const per = TOTAL / crds;
  const server = await startRemoteServer({}, ['--expose-gc', '--max-old-space-size=8192']);
  const plurals = Array.from({ length: crds }, (_, i) => scalePlural(i));
  try {
    for (let i = 0; i < crds; i++) await server.call({ crd: scaleCrdManifest(i) });
    for (let i = 0; i < crds; i++) await server.call({ seed: { apiVersion: `${SCALE_GROUP}/v1`, kind: scaleKind(i), count: per, prefix: `s${i}-` } });
    const listsMs = Math.min(await bareLists(server.url, plurals), await bareLists(server.url, plurals));
    const kubeconfig = join(dir, `scale-${crds}.yaml`);
    writeFileSync(kubeconfig, kubeconfigYaml(server.url, undefined));
    await server.call({ resetRequests: true });
    const argv = [process.execPath, ...(process.env['SCALE_NODE_FLAGS']?.split(' ').filter(Boolean) ?? []), '--expose-gc', OPERATOR, kubeconfig, String(crds), String(TOTAL + 1000)];
    const cgroup: MemoryCgroup | undefined = CONTAINER_MIB === undefined ? undefined : createMemoryCgroup(`katalog-scale-${process.pid}-${crds}`, CONTAINER_MIB * MIB);
    const [command, rest] = cgroup === undefined ? [argv[0] ?? process.execPath, argv.slice(1)] : cgroup.wrap(argv);
    const child = spawn(command, rest, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const operator = new Operator(child);
    try {
      const baseline = await operator.ready;
      const t0 = performance.now();
      const startMs = await operator.ask<number>({ go: true });
      const timeline: Timeline = [];
      const t1 = await converged(server, plurals, t0, timeline);
      const counts = await server.call<{ total: number; writes: number; conflicts: number }>({ requests: true });
      let idle: Phase['idle'];
      if (IDLE_S > 0) {
        await sleep(IDLE_S * 1000);
        idle = await operator.ask<{ rss: number; heapTotal: number }>({ rss: true });
      }
      await sleep(2000);
      const memory = await operator.ask<Memory>({ memory: true });
      const serverMemory = await server.call<{ rss: number }>({ memory: true });
      return {
        crds,
        startMs,
        listsMs,
        convergeMs: t1 - t0,
        throughput: TOTAL / ((t1 - t0) / 1000),
        requests: counts.total / TOTAL,
        writes: counts.writes / TOTAL,
        conflicts: counts.conflicts,
        peakRss: memory.peakRss,
        settledRss: memory.rss,
        heapPerResource: (memory.heap - baseline.heap) / TOTAL,
        baselineRss: baseline.rss,
        serverRss: serverMemory.rss,
        cpuMs: memory.cpuMs,
        memory,
        readyAtPeak: memory.peakAtMs < 0 ? 0 : (timeline.findLast((point) => point.ms <= memory.peakAtMs)?.ready ?? 0),
        cgroup: cgroup === undefined ? undefined : { peak: cgroup.peak(), limitHits: cgroup.limitHits() },
        idle,
      };
    } finally {
      await operator.stop();
      cgroup?.remove();
    }
  } finally {
    await server.stop();
  }
}

const mib = (bytes: number): string => `${(bytes / MIB).toFixed(0)} MiB`;
const dir = mkdtempSync(join(tmpdir(), 'katalog-scale-'));
try {
  console.log(`bench/scale: ${CRDS} CRDs × ${PER} resources (${TOTAL} in all), one child ConfigMap each; baseline: 1 CRD × ${TOTAL}`);
  const phases: Phase[] = [];
  for (const crds of [CRDS, 1]) {
    if ((only === 'many' && crds === 1) || (only === 'one' && crds === CRDS && CRDS !== 1)) continue;
    const phase = await runPhase(crds, dir);
    phases.push(phase);
    const resources = `${crds} CRD${crds === 1 ? '' : 's'} × ${TOTAL / crds}`;
    console.log(`\n  ${resources}:`);
    console.log(`    start(): ${phase.startMs.toFixed(0)} ms; the same ${crds} initial lists by a bare client: ${phase.listsMs.toFixed(0)} ms (start() − lists: ${(phase.startMs - phase.listsMs).toFixed(0)} ms, bound 2,000 ms)`);
    console.log(`    converged in ${(phase.convergeMs / 1000).toFixed(1)} s: ${phase.throughput.toFixed(0)} resources/s`);
    console.log(`    RSS peak ${mib(phase.peakRss)}, settled ${mib(phase.settledRss)} (bound 512 MiB: ${(phase.peakRss / BOUND_RSS).toFixed(2)}×), before start ${mib(phase.baselineRss)}`);
    const space = (name: string): string => {
      const [used, size] = phase.memory.peakSpaces[name] ?? [0, 0];
      return `${name} ${mib(used)}/${mib(size)}`;
    };
    const when = phase.memory.peakAtMs < 0 ? 'before start()' : phase.memory.peakAtMs <= phase.startMs ? `${(phase.memory.peakAtMs / 1000).toFixed(1)} s after start() began, during start()` : `${(phase.memory.peakAtMs / 1000).toFixed(1)} s after start() began, ${phase.readyAtPeak} of ${TOTAL} Ready`;
    console.log(`    RSS peak at ${when}; V8 then (used/committed): ${['old', 'new', 'large_object', 'code'].map(space).join(', ')}`);
    if (phase.cgroup !== undefined) {
      const peak = phase.cgroup.peak === undefined ? 'not reported' : mib(phase.cgroup.peak);
      console.log(`    in a ${CONTAINER_MIB} MiB memory cgroup: the cgroup's peak ${peak} (its processes' memory and page cache), limit hit ${phase.cgroup.limitHits} times`);
    }
    if (phase.idle !== undefined) console.log(`    after ${IDLE_S} s idle (no collection forced): RSS ${mib(phase.idle.rss)}, V8's heap committed ${mib(phase.idle.heapTotal)}`);
    console.log(`    settled: heap used ${mib(phase.memory.heap)} of ${mib(phase.memory.heapTotal)} (V8's limit ${mib(phase.memory.heapLimit)}), external and buffers ${mib(phase.memory.external)}`);
    const { scavenges, scavengeMs, full, fullMs } = phase.memory.collections;
    console.log(`    V8's collections: ${scavenges} scavenges (${(scavengeMs / 1000).toFixed(1)} s of pauses), ${full} full (${(fullMs / 1000).toFixed(1)} s)`);
    console.log(`    heap per resource (its object and its child cached): ${(phase.heapPerResource / 1024).toFixed(2)} KB`);
    console.log(`    operator CPU: ${(phase.cpuMs / (TOTAL / 1000) / 1000).toFixed(2)} s per 1,000 resources (from process start)`);
    console.log(`    server-side per resource: ${phase.requests.toFixed(2)} requests, ${phase.writes.toFixed(2)} writes; ${phase.conflicts} 409s in all (server RSS ${mib(phase.serverRss)})`);
  }
  const many = phases.find((phase) => phase.crds === CRDS);
  const one = phases.find((phase) => phase.crds === 1);
  if (many !== undefined && one !== undefined && CRDS !== 1) {
    console.log(`\n  throughput ${CRDS} CRDs / 1 CRD: ${(many.throughput / one.throughput).toFixed(2)}× (bound ≥ 1.0×)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
