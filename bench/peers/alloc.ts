// bench/peers/alloc.ts: what katalog allocates per custom resource while it converges bench/peers' job (one child
// ConfigMap with drift correction and a Ready status per Widget, 2 workers), and where. The test API server runs in
// its own process; katalog runs here under V8's sampling heap profiler with collected objects kept, so the profile
// holds everything allocated, not only what survived.
//   node --import tsx bench/peers/alloc.ts [count=1000] [top=25] [save=FILE.heapprofile]
// Prints KB allocated per resource in all and by allocating function (self), then by function with its callees.
// A built-in without a source (`keys`, `Map`, `push`…) is named with the function that called it (`keys < f`).
// `save=` writes the sampled profile (loadable in Chrome's DevTools, Memory tab).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRuntime } from '../../src/create-runtime.js';
import { crdManifest } from '../../src/testing/index.js';
import { startRemoteServer } from '../support/remote-server.js';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i) => (arg.includes('=') ? arg.split('=', 2) : [['count', 'top'][i] ?? arg, arg])));
const COUNT = Number(args['count'] ?? 1000);
const TOP = Number(args['top'] ?? 25);
const SAVE = args['save'];

interface ProfileNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: ProfileNode[];
}

const server = await startRemoteServer({ bookmarkIntervalMs: 60_000, requestLogSize: 10 * COUNT + 10_000 });
await server.call({ crd: crdManifest({ group: 'example.io', kind: 'Widget', plural: 'widgets' }) });
await server.call({ seed: { apiVersion: 'example.io/v1', kind: 'Widget', count: COUNT, prefix: 'w' } });
const runtime = createRuntime(
  {
    apiVersion: 'katalog.dev/v1',
    kind: 'Katalog',
    metadata: { name: 'alloc' },
    spec: {
      crds: {
        widget: {
          apiTypes: { group: 'example.io', version: 'v1', kind: 'Widget', plural: 'widgets' },
          workers: 2,
          operatorBox: { onCreate: { configMaps: [{ name: '{{ .metadata.name }}', reconcile: true, data: { image: '{{ .spec.image }}', replicas: '{{ .spec.replicas }}' } }] } },
        },
      },
    },
  },
  { kubeConfig: server.kubeConfig, defaults: { maxDepth: 100_000 } },
);
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
await runtime.start();
for (;;) {
  const progress = await server.call<{ children: number; ready: number }>({ progress: { apiVersion: 'example.io/v1', kind: 'Widget', childKind: 'ConfigMap', minWrites: 2 * COUNT } });
  if (progress.children >= COUNT && progress.ready >= COUNT) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
session.disconnect();
if (SAVE !== undefined) writeFileSync(SAVE, JSON.stringify(profile));
await runtime.stop();
await server.stop();

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
const name = (node: ProfileNode): string => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(src|node_modules)\//, '$1/')}`;
function walk(node: ProfileNode, stack: readonly string[]): void {
  const caller = stack[stack.length - 1];
  const here = node.callFrame.url === '' && node.callFrame.functionName !== '' && caller !== undefined ? `${node.callFrame.functionName} < ${caller}` : name(node);
  const path = [...stack, here];
  total += node.selfSize;
  self.set(here, (self.get(here) ?? 0) + node.selfSize);
  for (const frame of new Set(path)) inclusive.set(frame, (inclusive.get(frame) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child, path);
}
walk(profile.head, []);
const kb = (bytes: number): string => (bytes / 1024 / COUNT).toFixed(2).padStart(7);
console.log(`${COUNT} Widgets: ${kb(total).trim()} KB allocated per resource while converging`);
for (const [title, table] of [['self', self], ['with callees', inclusive]] as const) {
  console.log(`\nKB per resource, ${title}:`);
  for (const [frame, bytes] of [...table].filter(([frame]) => !frame.startsWith('(root)')).sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${kb(bytes)}  ${frame}`);
}
process.exit(0);
