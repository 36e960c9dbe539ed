// bench/reconcile: the runtime against a hand-written loop over @kubernetes/client-node doing the same work, in one run.
//   npx tsx bench/reconcile.ts [count=10000] [workers=4]      (npm run bench -- reconcile)
// The test API server runs in a child process so that it has a core of its own.
// 1. Throughput: `count` custom resources, each reconciled by applying one ConfigMap (server-side apply), also as a
//    ratio of the server's raw write rate at the same concurrency (the physical limit here).
// 2. Heap per cached object: our informer against client-node's informer, and against the objects' JSON size.
// 3. Activation latency of a CRD installed after start(), against one API round trip.
import { performance } from 'node:perf_hooks';
import { CustomObjectsApi, KubernetesObjectApi, PatchStrategy, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { createRuntime } from '../src/create-runtime.js';
import { KubeClient } from '../src/kube/client.js';
import { Informer } from '../src/kube/informer.js';
import type { ResourceRef } from '../src/kube/resource.js';
import { crdManifest } from '../src/testing/index.js';
import { measureRawWrites } from './support/raw-writes.js';
import { startRemoteServer } from './support/remote-server.js';

const count = Number(process.argv[2] ?? 10_000);
const workers = Number(process.argv[3] ?? 4);
const WIDGETS: ResourceRef = { group: 'example.io', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };
const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

/** Without the status subresource: the benchmark measures one write per object on both sides. */
function crd(kind: string, plural: string): Record<string, unknown> {
  return crdManifest({ group: 'example.io', kind, plural, versions: [{ name: 'v1', status: false }] });
}

function configMapFor(prefix: string, name: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}-${name}`, namespace: 'default' }, data: { owner: name } };
}

function heapMb(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 4; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * The heap once what the earlier phases left behind is gone: on Node 24 with client-node 2.x, tens of MB that the
 * hand-written loop's client held were released only some hundreds of ms after it stopped (a timer of its
 * connections), so a baseline read at once made the next figure negative. Read until two readings 200 ms apart
 * agree within 64 KB (at most 5 s).
 */
async function settledHeap(): Promise<number> {
  let last = heapMb();
  for (let waited = 0; waited < 5000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = heapMb();
    if (Math.abs(now - last) < 64 * 1024) return now;
    last = now;
  }
  return last;
}

const server = await startRemoteServer();
try {
  await server.call({ crd: crd('Widget', 'widgets') });
  await server.call({ seed: { apiVersion: 'example.io/v1', kind: 'Widget', count, prefix: 'w' } });
  console.log(`bench/reconcile: ${count} Widgets, ${workers} workers, test API server in a child process`);

  // 1a. The hand-written loop: client-node's informer feeding a queue drained by `workers` concurrent appliers.
  {
    const objects = KubernetesObjectApi.makeApiClient(server.kubeConfig);
    const custom = server.kubeConfig.makeApiClient(CustomObjectsApi);
    const path = '/apis/example.io/v1/namespaces/default/widgets';
    const informer = makeInformer<KubernetesObject>(server.kubeConfig, path, () =>
      custom.listNamespacedCustomObject({ group: 'example.io', version: 'v1', namespace: 'default', plural: 'widgets' }) as never,
    );
    const queue: string[] = [];
    let done = 0;
    let wake: (() => void) | undefined;
    informer.on('add', (object) => {
      queue.push(object.metadata?.name ?? '');
      wake?.();
    });
    const started = performance.now();
    const finished = new Promise<void>((resolve) => {
      const worker = async (): Promise<void> => {
        while (done < count) {
          const name = queue.shift();
          if (name === undefined) {
            await new Promise<void>((r) => (wake = r));
            continue;
          }
          await objects.patch(configMapFor('base', name) as KubernetesObject, undefined, undefined, 'bench', true, PatchStrategy.ServerSideApply);
          if (++done === count) resolve();
        }
      };
      for (let i = 0; i < workers; i++) void worker();
    });
    await informer.start();
    await finished;
    const baseMs = performance.now() - started;
    await informer.stop();
    wake?.();

    // 1b. katalog: the same work through a constructor, informer, workqueue and workers of the runtime.
    let reconciled = 0;
    let allDone: () => void = () => undefined;
    const allReconciled = new Promise<void>((resolve) => (allDone = resolve));
    const runtime = createRuntime(
      {
        apiVersion: 'katalog.dev/v1',
        kind: 'Katalog',
        metadata: { name: 'bench' },
        spec: { crds: { widget: { apiTypes: { group: 'example.io', version: 'v1', kind: 'Widget', plural: 'widgets' }, workers, operatorBox: { default: false, constructor: { function: 'NewWidget' } } } } },
      },
      {
        kubeConfig: server.kubeConfig,
        defaults: { maxDepth: count },
        constructors: {
          NewWidget: ({ client }) => ({
            async reconcile(request) {
              await client.apply(CONFIGMAPS, configMapFor('kat', request.name), { fieldManager: 'katalog' });
              if (++reconciled === count) allDone();
            },
          }),
        },
      },
    );
    const katStarted = performance.now();
    await runtime.start();
    await allReconciled;
    const katMs = performance.now() - katStarted;
    await runtime.stop();
    const baseRate = count / (baseMs / 1000);
    const katRate = count / (katMs / 1000);
    console.log(`\n1. throughput (reconcile = one server-side apply of a ConfigMap)`);
    console.log(`   client-node informer + hand-written loop: ${baseRate.toFixed(0)} objects/s (${(baseMs / 1000).toFixed(2)} s)`);
    console.log(`   katalog runtime (constructor):            ${katRate.toFixed(0)} objects/s (${(katMs / 1000).toFixed(2)} s)`);
    console.log(`   ratio katalog / hand-written:             ${(katRate / baseRate).toFixed(2)}x   (aim >= 0.8x)`);
    const raw = await measureRawWrites(server.url, workers, count);
    console.log(`   raw write rate at ${workers} concurrent writers (kept-alive node:http): ${raw.rate.toFixed(0)} writes/s; one write alone ${raw.roundTripMs.toFixed(2)} ms (warm; cold ${raw.cold.rate.toFixed(0)} writes/s, ${raw.cold.roundTripMs.toFixed(2)} ms)`);
    console.log(`   of the physical limit: katalog ${(katRate / raw.rate).toFixed(2)}x, hand-written ${(baseRate / raw.rate).toFixed(2)}x (one write per object)`);
  }

  // 2. Heap per cached object.
  {
    const client = new KubeClient(server.kubeConfig);
    const sample = (await client.list(WIDGETS, { namespace: 'default', limit: 50 })).items;
    const jsonBytes = sample.reduce((sum, object) => sum + JSON.stringify(object).length, 0) / Math.max(1, sample.length);

    const before = await settledHeap();
    const ours = new Informer({ client, resource: WIDGETS, namespace: 'default', onEvent: () => undefined });
    await ours.start();
    const oursBytes = (heapMb() - before) / count;
    await ours.stop();

    const custom = server.kubeConfig.makeApiClient(CustomObjectsApi);
    const before2 = await settledHeap();
    const theirs = makeInformer<KubernetesObject>(server.kubeConfig, '/apis/example.io/v1/namespaces/default/widgets', () =>
      custom.listNamespacedCustomObject({ group: 'example.io', version: 'v1', namespace: 'default', plural: 'widgets' }) as never,
    );
    await theirs.start();
    const theirsBytes = (heapMb() - before2) / count;
    await theirs.stop();
    console.log(`\n2. heap per cached object (${count} objects; JSON of one object: ${jsonBytes.toFixed(0)} bytes)`);
    console.log(`   katalog informer:     ${oursBytes.toFixed(0)} bytes/object = ${(oursBytes / jsonBytes).toFixed(2)}x its JSON`);
    console.log(`   client-node informer: ${theirsBytes.toFixed(0)} bytes/object = ${(theirsBytes / jsonBytes).toFixed(2)}x its JSON`);
    console.log(`   ratio katalog / client-node: ${(oursBytes / theirsBytes).toFixed(2)}x (managedFields stripped by katalog)`);
  }

  // 3. Activation latency of a late CRD.
  {
    const client = new KubeClient(server.kubeConfig);
    const rounds = 20;
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) await client.get(WIDGETS, 'w0', 'default');
    const roundTripMs = (performance.now() - t0) / rounds;
    const runtime = createRuntime(
      {
        apiVersion: 'katalog.dev/v1',
        kind: 'Katalog',
        metadata: { name: 'late' },
        spec: { crds: { gadget: { apiTypes: { group: 'example.io', version: 'v1', kind: 'Gadget', plural: 'gadgets' }, operatorBox: { default: false, constructor: { function: 'NewGadget' } } } } },
      },
      { kubeConfig: server.kubeConfig, constructors: { NewGadget: () => ({ reconcile: () => undefined }) } },
    );
    await runtime.start();
    const activated = new Promise<number>((resolve) => runtime.once('activated', () => resolve(performance.now())));
    const installedAt = performance.now();
    await server.call({ crd: crd('Gadget', 'gadgets') });
    const latencyMs = (await activated) - installedAt;
    await runtime.stop();
    console.log(`\n3. activation of a CRD installed after start()`);
    console.log(`   latency: ${latencyMs.toFixed(1)} ms = ${(latencyMs / roundTripMs).toFixed(1)} API round trips (one GET: ${roundTripMs.toFixed(2)} ms)   (aim < 1000 ms)`);
  }
} finally {
  await server.stop();
}
