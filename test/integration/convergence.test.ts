// Convergence under faults (docs/reliability.md): 300 custom resources created, updated several times and some
// deleted while the chaos preset of katalog/testing runs for 10 s (429/500/503, refused, dropped and stalled watches,
// lost answers, latency, a 2 s outage); within 30 s after it ends every live resource has exactly the children its
// latest spec declares and Ready=True at its generation, and every deleted one is gone with its children. The same
// for 5 s of failing status writes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { seededRandom } from '../../src/testing/faults/seeded-random.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { crdManifest, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

const WIDGET: CrdSpec = { kind: 'Widget', plural: 'widgets' };
/** Deletion that needs the runtime (an onDelete hook, so katalog's finalizer), under the same faults. */
const GADGET: CrdSpec = { kind: 'Gadget', plural: 'gadgets' };
const GADGETS = 40;
const COUNT = 300;
const CONVERGE_MS = 30_000;

type Obj = {
  metadata: { name: string; generation?: number; deletionTimestamp?: string; labels?: Record<string, string> };
  spec?: { size?: number; gen?: number };
  data?: Record<string, string>;
  status?: { observedGeneration?: number; conditions?: Array<{ type: string; status: string; message?: string }> };
};

/** One child per widget, kept in line with `spec.size`, whose name follows `spec.gen` (the old one is pruned). */
const WITH_CHILDREN = katalog({
  gadget: katalogEntry(GADGET, { operatorBox: { hooks: { function: 'GadgetHooks' } } }),
  widget: katalogEntry(WIDGET, {
    workers: 4,
    operatorBox: {
      onCreate: {
        configMaps: [{ name: '{{ .metadata.name }}-g{{ .spec.gen }}', reconcile: true, data: { size: '{{ .spec.size }}' } }],
      },
    },
  }),
});

/** Status only: what the status-write test needs. */
const STATUS_ONLY = katalog({ widget: katalogEntry(WIDGET, { workers: 4 }) });

/** What is wrong with the cluster now (empty: converged). */
function problems(server: TestApiServer, deleted: ReadonlySet<string>, children: boolean): string[] {
  const out: string[] = [];
  const widgets = server.objects({ kind: 'Widget', namespace: 'default' }) as unknown as Obj[];
  const configMaps = server.objects({ kind: 'ConfigMap', namespace: 'default' }) as unknown as Obj[];
  const byName = new Map(configMaps.map((cm) => [cm.metadata.name, cm]));
  const expected = new Set<string>();
  for (const widget of widgets) {
    const { name, generation } = widget.metadata;
    if (deleted.has(name)) {
      out.push(`${name}: deleted but still there`);
      continue;
    }
    const ready = widget.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') out.push(`${name}: Ready=${ready?.status ?? 'none'} ${ready?.message ?? ''}`);
    if (widget.status?.observedGeneration !== generation) out.push(`${name}: observedGeneration ${widget.status?.observedGeneration} != ${generation}`);
    if (!children) continue;
    const child = `${name}-g${widget.spec?.gen}`;
    const cm = byName.get(child);
    if (cm?.data?.['size'] !== String(widget.spec?.size)) out.push(`${child}: size ${cm?.data?.['size'] ?? 'missing'} != ${widget.spec?.size}`);
    expected.add(child);
  }
  for (const gadget of server.objects({ kind: 'Gadget' })) out.push(`gadget ${(gadget['metadata'] as { name: string }).name}: deleted but still there`);
  for (const cm of configMaps) {
    if (cm.metadata.labels?.['app.kubernetes.io/managed-by'] === 'katalog' && !expected.has(cm.metadata.name)) out.push(`${cm.metadata.name}: orphaned or stale child`);
  }
  return out;
}

/** Checks every second (the check copies every object: more often would slow the runtime it waits for). */
async function converge(server: TestApiServer, deleted: ReadonlySet<string>, what: string, children = true): Promise<number> {
  const started = Date.now();
  for (;;) {
    const left = problems(server, deleted, children);
    if (left.length === 0) return Date.now() - started;
    if (Date.now() - started > CONVERGE_MS) {
      throw new Error(`not converged ${CONVERGE_MS} ms after ${what}: ${left.length} problems, e.g.\n  ${left.slice(0, 10).join('\n  ')}`);
    }
    await sleep(1000);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function runtimeFor(server: TestApiServer, definition: Record<string, unknown>, onDelete: (name: string) => void = () => undefined): Runtime {
  return createRuntime(definition, {
    kubeConfig: server.kubeConfig,
    // Hundreds of keys failing at once during an outage: a retry bucket sized for them (docs/reliability.md).
    rateLimiter: { qps: 200, burst: 1000 },
    hooks: { GadgetHooks: { onDelete: (ctx) => onDelete(ctx.object.metadata?.name ?? '') } },
  });
}

describe('convergence under faults', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test(`${COUNT} custom resources created, updated and deleted through 10 s of chaos converge within ${CONVERGE_MS / 1000} s`, async () => {
    server.reset();
    server.applyCrd(crdManifest(WIDGET));
    const onDeleteRan = new Set<string>();
    server.applyCrd(crdManifest(GADGET));
    const runtime = runtimeFor(server, WITH_CHILDREN, (name) => void onDeleteRan.add(name));
    await runtime.start();
    for (let i = 0; i < GADGETS; i++) server.create(customResource(GADGET, `g${i}`));
    await waitFor('every gadget finalized', () => server.objects({ kind: 'Gadget' }).every((g) => ((g['metadata'] as { finalizers?: string[] }).finalizers ?? []).length > 0), 20_000);
    const random = seededRandom(42);
    const deleted = new Set<string>();
    const live: string[] = [];
    const chaos = server.faults.chaos({ seed: 42, outage: { afterMs: 4000, downtimeMs: 2000 } });
    try {
      const started = Date.now();
      let created = 0;
      // ~10 s of traffic: creates over the first 2 s, updates all along (600, two per widget on average; a quarter of
      // them change `gen`, which renames the child), and about a tenth of the widgets deleted.
      while (Date.now() - started < 10_000) {
        for (let i = 0; i < 15 && created < COUNT; i++, created++) {
          const name = `w${created}`;
          server.create(customResource(WIDGET, name, { size: 0, gen: 0 }));
          live.push(name);
        }
        for (let i = 0; i < 6 && live.length > 0; i++) {
          const name = live[Math.floor(random() * live.length)] ?? 'w0';
          const patch = random() < 0.25 ? { gen: Math.floor(random() * 3) + 1 } : { size: Math.floor(random() * 1000) };
          server.patch('example.io/v1', 'Widget', name, { spec: patch }, { namespace: 'default' });
        }
        if (created > 50 && random() < 0.5 && deleted.size < COUNT / 6) {
          const index = Math.floor(random() * live.length);
          const name = live[index] ?? 'w0';
          live.splice(index, 1);
          deleted.add(name);
          server.delete('example.io/v1', 'Widget', name, 'default');
        }
        // The gadgets go one by one during the faults: their finalizers must come off through them.
        const gadget = Math.floor((Date.now() - started) / 250);
        if (gadget < GADGETS && server.get('example.io/v1', 'Gadget', `g${gadget}`, 'default')?.['metadata'] !== undefined) {
          server.delete('example.io/v1', 'Gadget', `g${gadget}`, 'default');
        }
        await sleep(100);
      }
      for (let i = 0; i < GADGETS; i++) if (server.get('example.io/v1', 'Gadget', `g${i}`, 'default') !== undefined) server.delete('example.io/v1', 'Gadget', `g${i}`, 'default');
      assert.equal(created, COUNT);
      await chaos.stop();
      const ms = await converge(server, deleted, 'the chaos ended');
      assert.equal(onDeleteRan.size, GADGETS, 'onDelete ran for every gadget');
      const runs = chaos.stats;
      assert.ok(runs.outages === 1 && runs.watchFaults >= 4, `the chaos ran: ${JSON.stringify(runs)}`);
      process.stdout.write(`# converged ${ms} ms after 10 s of chaos: ${live.length} live, ${deleted.size} deleted\n`);
    } finally {
      await chaos.stop();
      await runtime.stop();
    }
  });

  test(`${COUNT} custom resources created while every status write fails for 5 s all become Ready`, async () => {
    server.reset();
    server.applyCrd(crdManifest(WIDGET));
    const runtime = runtimeFor(server, STATUS_ONLY);
    await runtime.start();
    const failing = server.faults.failRequests({ verb: 'patch', resource: 'widgets', subresource: 'status', status: 503 });
    try {
      const started = Date.now();
      for (let i = 0; i < COUNT; i++) server.create(customResource(WIDGET, `s${i}`, { size: i, gen: 1 }));
      await waitFor('status writes failing', () => server.requests.log().some((r) => r.subresource === 'status' && r.status === 503), 10_000);
      await sleep(Math.max(0, 5000 - (Date.now() - started)));
      const sample = server.get('example.io/v1', 'Widget', 's0', 'default') as Obj | undefined;
      assert.equal(sample?.status?.conditions, undefined, 'no status could be written while they failed');
      failing();
      const ms = await converge(server, new Set(), 'the status writes recovered', false);
      process.stdout.write(`# Ready ${ms} ms after 5 s of failing status writes\n`);
    } finally {
      failing();
      await runtime.stop();
    }
  });
});

