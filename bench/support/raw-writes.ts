// The physical limit of a benchmark: the test API server's raw write rate, server-side applies of small ConfigMaps
// sent over kept-alive node:http connections by `concurrency` loops, with nothing else in between.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface RawWrites {
  /** Writes per second at the given concurrency. */
  readonly rate: number;
  /** Median round trip of one write sent alone. */
  readonly roundTripMs: number;
}

export async function measureRawWrites(serverUrl: string, concurrency: number, count: number, prefix = 'raw'): Promise<RawWrites> {
  const agent = new Agent({ keepAlive: true });
  const url = new URL(serverUrl);
  const apply = (name: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { image: 'nginx:1.27', replicas: '2' } });
      const req = request(
        {
          agent,
          hostname: url.hostname,
          port: url.port,
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
  try {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      await apply(`${prefix}-rtt-${i}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) await apply(`${prefix}-${next++}`);
      }),
    );
    return { rate: count / ((performance.now() - started) / 1000), roundTripMs: times[Math.floor(times.length / 2)] ?? NaN };
  } finally {
    agent.destroy();
  }
}
