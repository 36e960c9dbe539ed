// The client process of bench/transport-memory.ts: one KubeClient with the engine it is given sends `count`
// server-side applies from `concurrency` loops, then prints one JSON line: peak RSS, V8's heap after a full GC
// (used and committed) and the peak of committed heap while the requests ran. Run with --expose-gc and, for the
// promoted bytes the parent sums, --trace-gc-nvp.
import { KubeConfig } from '@kubernetes/client-node';
import { getHeapStatistics } from 'node:v8';
import { KubeClient } from '../../src/kube/client.js';
import type { TransportEngine } from '../../src/kube/transport.js';
import { runOps } from './ops.js';

const [url, engine, countArg, concurrencyArg] = process.argv.slice(2);
const kubeConfig = new KubeConfig();
kubeConfig.loadFromClusterAndUser({ name: 'bench', server: url ?? '', skipTLSVerify: true }, { name: 'bench' });
const client = new KubeClient(kubeConfig, { transport: { engine: engine as TransportEngine } });
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const concurrency = Number(concurrencyArg);

await runOps(client, 'apply', 2000, concurrency, 'warm');
gc();
console.log('MARK');
let peakRss = 0;
let peakCommitted = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  peakCommitted = Math.max(peakCommitted, getHeapStatistics().total_heap_size);
}, 10);
const sockets = await runOps(client, 'apply', Number(countArg), concurrency, 'measure');
clearInterval(sampler);
console.log('MARK');
gc();
const heap = getHeapStatistics();
console.log(JSON.stringify({ peakRss, peakCommitted, used: heap.used_heap_size, committed: heap.total_heap_size, sockets }));
client.close();
