// bench/soak: convergence at scale, with and without faults, in one run.
//   npx tsx bench/soak.ts [count=1000] [seconds=10] [seed=7]      (npm run bench -- soak)
// `count` custom resources are created, updated about three times each and about one in five deleted, over `seconds`, by
// the same seeded schedule twice: first on a quiet test API server (the baseline), then while the chaos preset of
// katalog/testing runs (429/500/503, refused, dropped and stalled watches, lost answers, latency, a 2 s outage).
// Each run prints the time from the end of the traffic to convergence (every live resource's child matches its
// latest spec, Ready=True at its generation, deleted ones gone with their children, nothing orphaned), and the
// API requests per resource the runtime sent (the server counts them). Server and runtime share one process.
import { performance } from 'node:perf_hooks';
import { createRuntime } from '../src/create-runtime.js';
import { seededRandom } from '../src/testing/faults/seeded-random.js';
import { crdManifest, startTestApiServer, type ChaosRun, type TestApiServer } from '../src/testing/index.js';

const count = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 10);
const seed = Number(process.argv[4] ?? 7);
const LIMIT_MS = 120_000;

type Obj = {
  metadata: { name: string; generation?: number; labels?: Record<string, string> };
  spec?: { size?: number; gen?: number };
  data?: Record<string, string>;
  status?: { observedGeneration?: number; conditions?: Array<{ type: string; status: string }> };
};

const definition = {
  apiVersion: 'katalog.dev/v1',
  kind: 'Katalog',
  metadata: { name: 'soak' },
  spec: {
    crds: {
      widget: {
        apiTypes: { group: 'example.io', version: 'v1', kind: 'Widget', plural: 'widgets' },
        workers: 4,
        operatorBox: {
          hooks: { function: 'WidgetHooks' },
          onCreate: { configMaps: [{ name: '{{ .metadata.name }}-g{{ .spec.gen }}', reconcile: true, data: { size: '{{ .spec.size }}' } }] },
        },
      },
    },
  },
};

function converged(server: TestApiServer, deleted: ReadonlySet<string>): number {
  let problems = 0;
  const widgets = server.objects({ kind: 'Widget', namespace: 'default' }) as unknown as Obj[];
  const configMaps = new Map((server.objects({ kind: 'ConfigMap', namespace: 'default' }) as unknown as Obj[]).map((cm) => [cm.metadata.name, cm]));
  let children = 0;
  for (const widget of widgets) {
    if (deleted.has(widget.metadata.name)) {
      problems++;
      continue;
    }
    const ready = widget.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
    if (!ready || widget.status?.observedGeneration !== widget.metadata.generation) problems++;
    if (configMaps.get(`${widget.metadata.name}-g${widget.spec?.gen}`)?.data?.['size'] !== String(widget.spec?.size)) problems++;
    children++;
  }
  const managed = [...configMaps.values()].filter((cm) => cm.metadata.labels?.['app.kubernetes.io/managed-by'] === 'katalog').length;
  return problems + Math.abs(managed - children);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Result {
  readonly convergeMs: number;
  readonly requestsPerResource: number;
  readonly live: number;
  readonly deleted: number;
  readonly chaos?: ChaosRun['stats'];
}

async function run(withChaos: boolean): Promise<Result> {
  const server = await startTestApiServer();
  server.applyCrd(crdManifest({ group: 'example.io', kind: 'Widget', plural: 'widgets' }));
  await server.settled();
  const runtime = createRuntime(definition, {
    kubeConfig: server.kubeConfig,
    rateLimiter: { qps: 500, burst: 2000 },
    hooks: { WidgetHooks: { onDelete: () => undefined } },
  });
  await runtime.start();
  server.requests.reset();
  const random = seededRandom(seed);
  const chaos = withChaos ? server.faults.chaos({ seed, outage: { afterMs: (seconds * 1000) / 3, downtimeMs: 2000 } }) : undefined;
  const deleted = new Set<string>();
  const live: string[] = [];
  const ticks = seconds * 10;
  const perTick = Math.ceil(count / (ticks / 5));
  let created = 0;
  try {
    for (let tick = 0; tick < ticks; tick++) {
      const at = performance.now();
      for (let i = 0; i < perTick && created < count; i++, created++) {
        server.create({ apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: `w${created}`, namespace: 'default' }, spec: { size: 0, gen: 0 } });
        live.push(`w${created}`);
      }
      for (let i = 0; i < Math.ceil((count * 3) / ticks) && live.length > 0; i++) {
        const name = live[Math.floor(random() * live.length)] ?? 'w0';
        const spec = random() < 0.25 ? { gen: Math.floor(random() * 3) + 1 } : { size: Math.floor(random() * 1000) };
        server.patch('example.io/v1', 'Widget', name, { spec }, { namespace: 'default' });
      }
      for (let i = 0; i < Math.ceil(count / 6 / ticks) && created > count / 5 && live.length > 0; i++) {
        const index = Math.floor(random() * live.length);
        const name = live.splice(index, 1)[0] ?? 'w0';
        deleted.add(name);
        server.delete('example.io/v1', 'Widget', name, 'default');
      }
      await sleep(Math.max(0, 100 - (performance.now() - at)));
    }
    await chaos?.stop();
    const trafficEnd = performance.now();
    while (converged(server, deleted) > 0) {
      if (performance.now() - trafficEnd > LIMIT_MS) throw new Error(`not converged ${LIMIT_MS / 1000} s after the traffic (${converged(server, deleted)} problems left)`);
      await sleep(250);
    }
    const convergeMs = performance.now() - trafficEnd;
    const requests = server.requests.count() - server.requests.count({ verb: 'watch' });
    return { convergeMs, requestsPerResource: requests / count, live: live.length, deleted: deleted.size, ...(chaos === undefined ? {} : { chaos: chaos.stats }) };
  } finally {
    await chaos?.stop();
    await runtime.stop();
    await server.stop();
  }
}

console.log(`bench/soak: ${count} Widgets (one ConfigMap child each, onDelete hook), ${seconds} s of creates, ~3 updates each, ~1/5 deleted; seed ${seed}`);
const quiet = await run(false);
console.log(`  baseline (no faults): converged ${(quiet.convergeMs / 1000).toFixed(1)} s after the traffic; ${quiet.requestsPerResource.toFixed(2)} requests per resource (${quiet.live} live, ${quiet.deleted} deleted)`);
const faulty = await run(true);
console.log(
  `  chaos (${JSON.stringify(faulty.chaos)}): converged ${(faulty.convergeMs / 1000).toFixed(1)} s after the faults ended; ${faulty.requestsPerResource.toFixed(2)} requests per resource (${faulty.live} live, ${faulty.deleted} deleted)`,
);
console.log(
  `  ratio chaos / baseline: time to converge ${(faulty.convergeMs / Math.max(1, quiet.convergeMs)).toFixed(2)}x, requests per resource ${(faulty.requestsPerResource / quiet.requestsPerResource).toFixed(2)}x`,
);
