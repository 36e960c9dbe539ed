// The physical limit of a benchmark: the test API server's raw write rate, server-side applies of small ConfigMaps
// sent over kept-alive node:http connections by `concurrency` loops, with nothing else in between.
// Both figures are taken on a warm server and client: as many writes as are measured, at the same concurrency, go
// first and are not counted. A fresh process answers its first thousands of requests before V8 has optimised the path, and the
// benchmarks it is compared against run on servers that have long been warm by then (bench:peers' single creates
// come after 2,000 resources have converged): measured cold, the first 200 round trips' median was 4 to 6 times a
// warm one, and the rate half of it.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface RawWrites {
  /** Writes per second at the given concurrency. */
  readonly rate: number;
  /** Median round trip of one write sent alone. */
  readonly roundTripMs: number;
  /** The same two figures on the server before its warm-up, as earlier sessions measured them. */
  readonly cold: { readonly rate: number; readonly roundTripMs: number };
}

export interface RawWriteOptions {
  /** Names are `${prefix}-…`, so that two measurements against one server do not write the same objects. */
  readonly prefix?: string;
  /** Called once the warm-up is done, before the measured writes (e.g. to read the server's CPU clock). */
  readonly afterWarmup?: () => Promise<void>;
}

/** Round trips measured one at a time, whose median is the round trip. */
const ROUND_TRIPS = 200;

/** One raw write: a server-side apply of a small ConfigMap `name` over `agent`'s connections; resolves when answered. */
export function rawApply(agent: Agent, serverUrl: URL, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { image: 'nginx:1.27', replicas: '2' } });
    const req = request(
      {
        agent,
        hostname: serverUrl.hostname,
        port: serverUrl.port,
        method: 'PATCH',
        path: `/api/v1/namespaces/default/configmaps/${name}?fieldManager=raw&force=true`,
        headers: { 'Content-Type': 'application/apply-patch+yaml', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 || res.statusCode === 201 ? resolve() : reject(new Error(`raw write ${name}: HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function measureRawWrites(serverUrl: string, concurrency: number, count: number, options: RawWriteOptions = {}): Promise<RawWrites> {
  const prefix = options.prefix ?? 'raw';
  const agent = new Agent({ keepAlive: true });
  const url = new URL(serverUrl);
  const apply = (name: string): Promise<void> => rawApply(agent, url, name);
  const roundTrip = async (phase: string): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const started = performance.now();
      await apply(`${prefix}-${phase}-rtt-${i}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)] ?? NaN;
  };
  const rate = async (phase: string, writes: number): Promise<number> => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < writes) await apply(`${prefix}-${phase}-${next++}`);
      }),
    );
    return writes / ((performance.now() - started) / 1000);
  };
  try {
    const coldRoundTripMs = await roundTrip('cold');
    const coldRate = await rate('warmup', count);
    await options.afterWarmup?.();
    const roundTripMs = await roundTrip('warm');
    return { rate: await rate('warm', count), roundTripMs, cold: { rate: coldRate, roundTripMs: coldRoundTripMs } };
  } finally {
    agent.destroy();
  }
}
