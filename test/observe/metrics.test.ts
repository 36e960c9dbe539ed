import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry, register as globalRegistry } from 'prom-client';
import { RuntimeError } from '../../src/errors.js';
import { METRIC_NAMES, RECONCILE_DURATION_BUCKETS, createMetrics } from '../../src/observe/metrics.js';

/** Parses the text exposition into TYPE declarations and sample values keyed by `name{labels}` (labels sorted). */
async function scrape(registry: Registry): Promise<{ types: Map<string, string>; samples: Map<string, number> }> {
  const types = new Map<string, string>();
  const samples = new Map<string, number>();
  for (const line of (await registry.metrics()).split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) types.set(type[1] ?? '', type[2] ?? '');
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (sample === null) continue;
    const labels = (sample[2] ?? '').split(',').filter((l) => l !== '').sort().join(',');
    samples.set(`${sample[1] ?? ''}{${labels}}`, Number(sample[3]));
  }
  return { types, samples };
}

const EXPECTED_TYPES: Record<string, string> = {
  controller_reconcile_total: 'counter',
  controller_reconcile_duration_seconds: 'histogram',
  controller_queue_depth: 'gauge',
  controller_workers_active: 'gauge',
  controller_workers_max: 'gauge',
  controller_resource_count: 'gauge',
  controller_crd_activation_total: 'counter',
  controller_crd_activation_latency_seconds: 'histogram',
  controller_queue_dropped_total: 'counter',
  controller_reconcile_retries_exhausted_total: 'counter',
  controller_queue_wait_seconds: 'histogram',
  controller_drift_corrections_total: 'counter',
  controller_watch_restarts_total: 'counter',
  controller_crd_shutdown_total: 'counter',
  controller_cross_source_failures_total: 'counter',
  controller_external_call_retries_total: 'counter',
  controller_leader: 'gauge',
};

test('registers every metric of SPEC §7 with its type, on its own registry only', async () => {
  const metrics = createMetrics();
  const { types } = await scrape(metrics.registry);
  assert.deepEqual(Object.fromEntries(types), EXPECTED_TYPES);
  assert.deepEqual(Object.values(METRIC_NAMES).sort(), Object.keys(EXPECTED_TYPES).sort());
  assert.deepEqual(await globalRegistry.getMetricsAsJSON(), [], 'nothing on the global registry');
});

test('initCrd creates every label combination at 0', async () => {
  const metrics = createMetrics();
  metrics.initCrd('website');
  const { samples } = await scrape(metrics.registry);
  const zeros = [
    'controller_reconcile_total{crd="website",result="success"}',
    'controller_reconcile_total{crd="website",result="error"}',
    'controller_crd_activation_total{crd="website",result="success"}',
    'controller_crd_activation_total{crd="website",result="error"}',
    'controller_queue_depth{crd="website"}',
    'controller_workers_active{crd="website"}',
    'controller_workers_max{crd="website"}',
    'controller_resource_count{crd="website"}',
    'controller_queue_dropped_total{crd="website"}',
    'controller_reconcile_retries_exhausted_total{crd="website"}',
    'controller_drift_corrections_total{crd="website"}',
    'controller_watch_restarts_total{crd="website"}',
    'controller_crd_shutdown_total{crd="website"}',
    'controller_reconcile_duration_seconds_count{crd="website"}',
    'controller_reconcile_duration_seconds_bucket{crd="website",le="60"}',
    'controller_crd_activation_latency_seconds_count{crd="website"}',
    'controller_queue_wait_seconds_count{crd="website"}',
    'controller_leader{}',
  ];
  for (const key of zeros) {
    const [name, labels = ''] = key.split('{');
    const sorted = `${name ?? ''}{${labels.replace(/}$/, '').split(',').filter((l) => l !== '').sort().join(',')}}`;
    assert.equal(samples.get(sorted), 0, key);
  }
});

test('reconcile duration buckets run from 5 ms to 60 s', async () => {
  const metrics = createMetrics();
  metrics.initCrd('website');
  const text = await metrics.registry.metrics();
  const les = [...text.matchAll(/controller_reconcile_duration_seconds_bucket\{le="([^"]+)",crd="website"\}/g)].map((m) => m[1]);
  assert.deepEqual(les, [...RECONCILE_DURATION_BUCKETS.map(String), '+Inf']);
});

test('helpers move the right series', async () => {
  const metrics = createMetrics();
  metrics.initCrd('website');
  metrics.reconcileResult('website', 'success', 0.02);
  metrics.reconcileResult('website', 'error', 45);
  metrics.reconcileResult('website', 'success', 0.003);
  metrics.activation('website', 'error', 1);
  metrics.activation('website', 'success', 0.7);
  metrics.queueDepth('website', 7);
  metrics.workersMax('website', 4);
  metrics.workersActive('website', 3);
  metrics.resourceCount('website', 12);
  metrics.dropped('website');
  metrics.dropped('website', 2);
  metrics.waited('website', 0.002);
  metrics.driftCorrected('website');
  metrics.watchRestarted('website');
  metrics.leader(true);
  const { samples } = await scrape(metrics.registry);
  const expect: Record<string, number> = {
    'controller_reconcile_total{crd="website",result="success"}': 2,
    'controller_reconcile_total{crd="website",result="error"}': 1,
    'controller_reconcile_duration_seconds_count{crd="website"}': 3,
    'controller_reconcile_duration_seconds_bucket{crd="website",le="0.005"}': 1,
    'controller_reconcile_duration_seconds_bucket{crd="website",le="30"}': 2,
    'controller_reconcile_duration_seconds_bucket{crd="website",le="60"}': 3,
    'controller_crd_activation_total{crd="website",result="error"}': 1,
    'controller_crd_activation_total{crd="website",result="success"}': 1,
    'controller_crd_activation_latency_seconds_count{crd="website"}': 1,
    'controller_queue_depth{crd="website"}': 7,
    'controller_workers_max{crd="website"}': 4,
    'controller_workers_active{crd="website"}': 3,
    'controller_resource_count{crd="website"}': 12,
    'controller_queue_dropped_total{crd="website"}': 3,
    'controller_queue_wait_seconds_count{crd="website"}': 1,
    'controller_drift_corrections_total{crd="website"}': 1,
    'controller_watch_restarts_total{crd="website"}': 1,
    'controller_leader{}': 1,
  };
  for (const [key, value] of Object.entries(expect)) assert.equal(samples.get(key), value, key);
});

test('shutdown zeroes the queue and worker gauges and counts; re-activation keeps counters and histograms', async () => {
  const metrics = createMetrics();
  metrics.initCrd('website');
  metrics.queueDepth('website', 5);
  metrics.workersMax('website', 2);
  metrics.workersActive('website', 2);
  metrics.reconcileResult('website', 'success', 0.1);
  metrics.shutdown('website');
  let { samples } = await scrape(metrics.registry);
  assert.equal(samples.get('controller_queue_depth{crd="website"}'), 0);
  assert.equal(samples.get('controller_workers_max{crd="website"}'), 0);
  assert.equal(samples.get('controller_workers_active{crd="website"}'), 0);
  assert.equal(samples.get('controller_crd_shutdown_total{crd="website"}'), 1);
  metrics.initCrd('website');
  ({ samples } = await scrape(metrics.registry));
  assert.equal(samples.get('controller_reconcile_total{crd="website",result="success"}'), 1);
  assert.equal(samples.get('controller_reconcile_duration_seconds_count{crd="website"}'), 1);
  assert.equal(samples.get('controller_crd_shutdown_total{crd="website"}'), 1);
});

test('two runtimes with two registries do not collide', async () => {
  const a = createMetrics();
  const b = createMetrics();
  a.initCrd('website');
  a.reconcileResult('website', 'success', 0.1);
  b.initCrd('website');
  assert.equal((await scrape(a.registry)).samples.get('controller_reconcile_total{crd="website",result="success"}'), 1);
  assert.equal((await scrape(b.registry)).samples.get('controller_reconcile_total{crd="website",result="success"}'), 0);
});

test('an injected registry is used; a shared one needs distinct prefixes', async () => {
  const registry = new Registry();
  const first = createMetrics({ registry });
  assert.equal(first.registry, registry);
  assert.throws(() => createMetrics({ registry }), (error: unknown) => {
    assert.ok(error instanceof RuntimeError);
    assert.equal(error.code, 'E_METRICS');
    assert.match(error.message, /controller_reconcile_total.* already registered/);
    return true;
  });
  const second = createMetrics({ registry, prefix: 'shop_' });
  second.initCrd('cart');
  const { types, samples } = await scrape(registry);
  assert.equal(types.get('shop_controller_reconcile_total'), 'counter');
  assert.equal(types.get('controller_reconcile_total'), 'counter');
  assert.equal(samples.get('shop_controller_reconcile_total{crd="cart",result="error"}'), 0);
  assert.equal(samples.get('controller_reconcile_total{crd="cart",result="error"}'), undefined);
});

test('a failed registration leaves the injected registry as it was', async () => {
  const registry = new Registry();
  createMetrics({ registry, prefix: 'a_' });
  const before = await registry.metrics();
  assert.throws(() => createMetrics({ registry, prefix: 'a_' }), RuntimeError);
  assert.equal(await registry.metrics(), before);
});

test('rejects a prefix that is not a valid metric name prefix', () => {
  assert.throws(() => createMetrics({ prefix: 'my-op_' }), /not a valid Prometheus name prefix/);
  assert.throws(() => createMetrics({ prefix: '1op_' }), RuntimeError);
});
