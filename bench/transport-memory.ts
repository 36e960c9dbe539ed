// Where the undici engine's extra memory at runtime scale comes from: each engine in a fresh process of its own
// (bench/transport/memory-client.ts) sends `count` server-side applies from `concurrency` loops (64: the runtime's
// cap of reconciles in flight) to one test API server in its own process. Prints, per engine and against
// node:http: bytes V8 promoted to the old generation per request (summed from --trace-gc-nvp), peak committed
// heap and peak RSS while the requests ran, heap used after a full GC, and connections open at the end.
//   npx tsx bench/transport-memory.ts [count=20000] [concurrency=64] [rounds=1]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { startRemoteServer } from './support/remote-server.js';

const args = new Map(process.argv.slice(2).map((word) => word.split('=') as [string, string]));
const count = Number(args.get('count') ?? 20_000);
const concurrency = Number(args.get('concurrency') ?? 64);
const rounds = Number(args.get('rounds') ?? 1);
const ENGINES = ['node:http', 'undici'] as const;

interface Result {
  readonly promotedPerRequest: number;
  readonly peakCommitted: number;
  readonly peakRss: number;
  readonly used: number;
  readonly sockets: number;
}

function runClient(url: string, engine: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--trace-gc-nvp', '--import', 'tsx', 'bench/transport/memory-client.ts', url, engine, String(count), String(concurrency)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${engine} client exited with ${code}`));
      // Only the collections between the two marks (the measured requests) count.
      const [, measured = '', tail = ''] = out.split('MARK\n');
      let promoted = 0;
      for (const match of measured.matchAll(/\bpromoted=(\d+)/g)) promoted += Number(match[1]);
      const line = tail.split('\n').find((text) => text.startsWith('{'));
      if (line === undefined) return reject(new Error(`${engine} client printed no result`));
      const result = JSON.parse(line) as Omit<Result, 'promotedPerRequest'>;
      resolve({ ...result, promotedPerRequest: promoted / count });
    });
  });
}

const server = await startRemoteServer();
try {
  console.log(`${count} applies from ${concurrency} loops per engine, ${rounds} round(s); load ${loadavg()[0]?.toFixed(1)}`);
  const results = new Map<string, Result[]>(ENGINES.map((engine) => [engine, []]));
  for (let round = 0; round < rounds; round++) {
    for (const engine of round % 2 === 0 ? ENGINES : [...ENGINES].reverse()) {
      const result = await runClient(server.url, engine);
      results.get(engine)?.push(result);
      console.log(`  ${engine}: ${JSON.stringify(result)}`);
    }
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const base = results.get('node:http') ?? [];
  const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
  const rows: Array<[string, keyof Result, (value: number) => string]> = [
    ['promoted to the old generation per request, bytes', 'promotedPerRequest', (v) => v.toFixed(0)],
    ['peak committed heap, MiB', 'peakCommitted', mib],
    ['peak RSS, MiB', 'peakRss', mib],
    ['heap used after GC, MiB', 'used', mib],
    ['connections open at the end', 'sockets', (v) => v.toFixed(0)],
  ];
  console.log('\n| measure | node:http | undici |\n|---|---:|---:|');
  for (const [label, key, format] of rows) {
    const a = median(base.map((r) => r[key]));
    const b = median((results.get('undici') ?? []).map((r) => r[key]));
    console.log(`| ${label} | ${format(a)} | ${format(b)} (${(b / a).toFixed(2)}×) |`);
  }
} finally {
  await server.stop();
}
