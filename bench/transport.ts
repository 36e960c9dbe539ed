// What each request costs the operator's thread, per HTTP client under the Transport API: server-side applies,
// merge patches and GETs of ConfigMaps sent by `concurrency` loops through (a) node:http with a kept-alive agent
// (katalog's request transport before undici), (b) undici with 1, 2 (katalog's default) or 8 requests to a
// connection (GETs pipelined, writes only queued). The test API server runs in its own process, so
// process.cpuUsage() here is the client's CPU alone.
// Each variant runs `rounds` times in rotated order; medians, and ratios against node:http from the same command.
//   npm run bench -- transport                        (count=3000 rounds=3 concurrency=2,64)
//   npm run bench -- transport count=500 rounds=1     (a quick look while other work runs)
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { KubeClient } from '../src/kube/client.js';
import { Transport, type TransportOptions } from '../src/kube/transport.js';
import { startRemoteServer } from './support/remote-server.js';
import { runOps, OPS, type Op } from './transport/ops.js';

const args = new Map(process.argv.slice(2).map((word) => word.split('=') as [string, string]));
const count = Number(args.get('count') ?? 3000);
const rounds = Number(args.get('rounds') ?? 3);
const concurrencies = (args.get('concurrency') ?? '2,64').split(',').map(Number);

const VARIANTS: ReadonlyArray<{ name: string; options: TransportOptions }> = [
  { name: 'node:http', options: { engine: 'node:http' } },
  { name: 'undici pipelining 1', options: { engine: 'undici', pipelining: 1 } },
  { name: 'undici pipelining 2', options: { engine: 'undici', pipelining: 2 } },
  { name: 'undici pipelining 8', options: { engine: 'undici', pipelining: 8 } },
];

interface Sample {
  readonly cpuUsPerRequest: number;
  readonly perSecond: number;
  readonly connections: number;
}

const server = await startRemoteServer();
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
try {
  console.log(`${count} requests per op and variant, ${rounds} round(s), medians; load ${loadAverage()}`);
  for (const concurrency of concurrencies) {
    const samples = new Map<string, Sample[]>();
    for (let round = 0; round < rounds; round++) {
      for (let v = 0; v < VARIANTS.length; v++) {
        const variant = VARIANTS[(v + round) % VARIANTS.length];
        if (variant === undefined) continue;
        for (const op of OPS) {
          const client = new KubeClient(server.kubeConfig);
          (client as { transport: Transport }).transport.close();
          Object.assign(client, { transport: new Transport(server.kubeConfig, variant.options) });
          try {
            const sample = await measure(client, op, concurrency, `${round}-${v}`);
            const key = `${variant.name}|${op}`;
            samples.set(key, [...(samples.get(key) ?? []), sample]);
          } finally {
            client.close();
          }
        }
      }
    }
    console.log(`\nconcurrency ${concurrency}`);
    console.log('op           client                 CPU µs/request   requests/s   connections   CPU ratio   rate ratio');
    for (const op of OPS) {
      const base = samples.get(`node:http|${op}`) ?? [];
      const baseCpu = median(base.map((s) => s.cpuUsPerRequest));
      const baseRate = median(base.map((s) => s.perSecond));
      for (const variant of VARIANTS) {
        const list = samples.get(`${variant.name}|${op}`) ?? [];
        const cpu = median(list.map((s) => s.cpuUsPerRequest));
        const rate = median(list.map((s) => s.perSecond));
        console.log(
          `${op.padEnd(12)} ${variant.name.padEnd(22)} ${cpu.toFixed(1).padStart(14)} ${rate.toFixed(0).padStart(12)} ${String(median(list.map((s) => s.connections))).padStart(13)} ${(cpu / baseCpu).toFixed(2).padStart(10)}× ${(rate / baseRate).toFixed(2).padStart(10)}×`,
        );
      }
    }
  }
} finally {
  await server.stop();
}

async function measure(client: KubeClient, op: Op, concurrency: number, tag: string): Promise<Sample> {
  await runOps(client, op, Math.min(200, count), concurrency, `warm-${tag}`);
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const connections = await runOps(client, op, count, concurrency, tag);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { cpuUsPerRequest: (used.user + used.system) / count, perSecond: count / seconds, connections };
}

function loadAverage(): string {
  return loadavg().map((n) => n.toFixed(2)).join(' ');
}
