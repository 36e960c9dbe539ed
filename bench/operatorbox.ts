// operatorBox latency against the in-process test API server, on the example Website Katalog:
// - custom resource created → all its children applied (ConfigMap, Deployment, Service);
// - manual edit of a child (Deployment scaled by hand) → corrected back;
// each as p50/p99 and as a ratio to one API write round trip (a ConfigMap create) measured in the same run.
// Run: npx tsx bench/operatorbox.ts [samples]
import { performance } from 'node:perf_hooks';
import { createRuntime } from '../src/create-runtime.js';
import { loadDefinition } from '../src/definition/index.js';
import { KubeClient } from '../src/kube/client.js';
import type { ResourceRef } from '../src/kube/resource.js';
import { startTestApiServer } from '../src/testing/index.js';

const samples = Number(process.argv[2] ?? 200);
const CONFIG_MAPS: ResourceRef = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
const WEBSITES: ResourceRef = { group: 'example.io', version: 'v1', kind: 'Website', plural: 'websites', namespaced: true };
const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true };

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Resolves when `check` holds, looking again after every turn of the event loop. */
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const server = await startTestApiServer();
const client = new KubeClient(server.kubeConfig);
const runtime = createRuntime(await loadDefinition('examples/website/katalog.yaml'), {
  kubeConfig: server.kubeConfig,
  installCrds: true,
  watch: { backoff: { initial: 20, max: 200 } },
});
try {
  await runtime.start();

  // Baseline: one write round trip through the same client stack.
  const writes: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await client.create(CONFIG_MAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `baseline-${i}`, namespace: 'default' }, data: { i: String(i) } });
    writes.push(performance.now() - start);
  }

  const created: number[] = [];
  for (let i = 0; i < samples; i++) {
    const name = `site-${i}`;
    const start = performance.now();
    await client.create(WEBSITES, { apiVersion: 'example.io/v1', kind: 'Website', metadata: { name, namespace: 'default' }, spec: { replicas: 2 } });
    await until(
      () =>
        server.get('v1', 'ConfigMap', `${name}-content`, 'default') !== undefined &&
        server.get('apps/v1', 'Deployment', name, 'default') !== undefined &&
        server.get('v1', 'Service', name, 'default') !== undefined,
      `children of ${name}`,
    );
    created.push(performance.now() - start);
  }
  await server.settled();
  await new Promise((resolve) => setTimeout(resolve, 500));

  const corrected: number[] = [];
  for (let i = 0; i < samples; i++) {
    const name = `site-${i}`;
    const start = performance.now();
    await client.patch(DEPLOYMENTS, name, 'default', { spec: { replicas: 7 } });
    await until(() => (server.get('apps/v1', 'Deployment', name, 'default') as { spec?: { replicas?: number } } | undefined)?.spec?.replicas === 2, `correction of ${name}`);
    corrected.push(performance.now() - start);
  }

  const base = percentile(writes, 50);
  const row = (label: string, values: readonly number[]): void => {
    const p50 = percentile(values, 50);
    const p99 = percentile(values, 99);
    console.log(
      `${label.padEnd(44)} p50 ${p50.toFixed(2).padStart(7)} ms (${(p50 / base).toFixed(1).padStart(5)}× write)   p99 ${p99.toFixed(2).padStart(7)} ms (${(p99 / base).toFixed(1).padStart(5)}× write)`,
    );
  };
  console.log(`samples: ${samples}`);
  row('baseline: one API write round trip', writes);
  row('custom resource created → children applied', created);
  row('manual child edit → corrected', corrected);
} finally {
  await runtime.stop();
  await server.stop();
}
