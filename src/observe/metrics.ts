/**
 * The runtime's Prometheus metrics (SPEC §7), registered on one prom-client `Registry` that the runtime owns or the
 * host injects, never on prom-client's global registry. Names are exactly those of the spec, with an optional
 * `prefix` prepended verbatim (`myop_` gives `myop_controller_reconcile_total`). Label `crd` is the CRD name;
 * `result` is `success` or `error`. Objects are never labels, so cardinality is bounded by the definition.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RuntimeError, toError } from '../errors.js';
import { claimMetricNames } from '../util/metric-names.js';

export type MetricResult = 'success' | 'error';

/** Reconcile duration buckets, seconds: 5 ms to 60 s. */
export const RECONCILE_DURATION_BUCKETS: readonly number[] = Object.freeze([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]);
/** Activation latency buckets, seconds: 50 ms (informer already warm) to 5 min (large initial list). */
export const ACTIVATION_LATENCY_BUCKETS: readonly number[] = Object.freeze([0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]);
/** Queue wait buckets, seconds: 1 ms to 60 s. */
export const QUEUE_WAIT_BUCKETS: readonly number[] = Object.freeze([0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]);

/** The metric names without prefix, in the order they are registered. */
export const METRIC_NAMES = Object.freeze({
  reconcileTotal: 'controller_reconcile_total',
  reconcileDuration: 'controller_reconcile_duration_seconds',
  queueDepth: 'controller_queue_depth',
  workersActive: 'controller_workers_active',
  workersMax: 'controller_workers_max',
  resourceCount: 'controller_resource_count',
  activationTotal: 'controller_crd_activation_total',
  activationLatency: 'controller_crd_activation_latency_seconds',
  queueDropped: 'controller_queue_dropped_total',
  retriesExhausted: 'controller_reconcile_retries_exhausted_total',
  queueWait: 'controller_queue_wait_seconds',
  driftCorrections: 'controller_drift_corrections_total',
  watchRestarts: 'controller_watch_restarts_total',
  crdShutdown: 'controller_crd_shutdown_total',
  crossSourceFailures: 'controller_cross_source_failures_total',
  externalCallRetries: 'controller_external_call_retries_total',
  leader: 'controller_leader',
} as const);

export interface MetricsOptions {
  /** Where to register; default a new `Registry` owned by this object. */
  registry?: Registry;
  /** Prepended verbatim to every name; must itself be a valid metric name prefix (`[a-zA-Z_:][a-zA-Z0-9_:]*`). */
  prefix?: string;
}

/** The runtime's metrics. Every method is cheap and synchronous; none throws for a CRD it has not seen. */
export interface Metrics {
  readonly registry: Registry;
  /**
   * Creates every series of `crd` at 0: counters for both results, gauges, histograms. Call it when activation
   * begins, before setting gauges. On a re-activation counters and histograms keep their values; gauges go to 0.
   */
  initCrd(crd: string): void;
  /** One finished reconcile: counts it by result and observes its duration. */
  reconcileResult(crd: string, result: MetricResult, seconds: number): void;
  queueDepth(crd: string, depth: number): void;
  workersActive(crd: string, count: number): void;
  workersMax(crd: string, count: number): void;
  resourceCount(crd: string, count: number): void;
  /** One activation attempt; the latency is observed for successes only. */
  activation(crd: string, result: MetricResult, latencySeconds: number): void;
  /** Keys refused because the queue held `maxDepth` keys. */
  dropped(crd: string, count?: number): void;
  /** A key given up after `queue.retryBackoff.maxAttempts` failures in a row. */
  retriesExhausted(crd: string): void;
  /** Time a key spent in the queue before a worker took it. */
  waited(crd: string, seconds: number): void;
  driftCorrected(crd: string, count?: number): void;
  watchRestarted(crd: string): void;
  /** A `cross[].source` read over HTTP failed (the templates saw Orkestra's empty value). */
  crossSourceFailed(crd: string): void;
  /** An external call with its own `retryBackoff` failed and is made again within the cycle. */
  externalCallRetried(crd: string): void;
  /** The CRD shut down: queue and worker gauges to 0, shutdown counter + 1. */
  shutdown(crd: string): void;
  leader(isLeader: boolean): void;
}

/** Creates and registers every metric of SPEC §7. Throws a RuntimeError (`E_METRICS`) on a bad prefix or a name clash. */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = options.registry ?? new Registry();
  const { name, registers } = claimMetricNames(registry, {
    names: Object.values(METRIC_NAMES),
    prefix: options.prefix,
    what: 'katalog metrics',
    clashHint: '(two runtimes sharing a registry need different prefixes)',
    error: (message) => new RuntimeError('E_METRICS', message),
  });
  // Histograms zeroed once per CRD: prom-client's zero() would wipe their buckets on a re-activation.
  const zeroed = new Set<string>();

  try {
    const reconcileTotal = new Counter({ name: name(METRIC_NAMES.reconcileTotal), help: 'Reconciles finished, by CRD and result.', labelNames: ['crd', 'result'] as const, registers });
    const reconcileDuration = new Histogram({
      name: name(METRIC_NAMES.reconcileDuration),
      help: 'Time one reconcile took, including failed ones, in seconds.',
      labelNames: ['crd'] as const,
      buckets: [...RECONCILE_DURATION_BUCKETS],
      registers,
    });
    const queueDepth = new Gauge({ name: name(METRIC_NAMES.queueDepth), help: 'Keys waiting in the CRD work queue.', labelNames: ['crd'] as const, registers });
    const workersActive = new Gauge({ name: name(METRIC_NAMES.workersActive), help: 'Workers currently reconciling.', labelNames: ['crd'] as const, registers });
    const workersMax = new Gauge({ name: name(METRIC_NAMES.workersMax), help: 'Workers configured for the CRD (saturation = active / max).', labelNames: ['crd'] as const, registers });
    const resourceCount = new Gauge({ name: name(METRIC_NAMES.resourceCount), help: 'Custom resources in the informer cache.', labelNames: ['crd'] as const, registers });
    const activationTotal = new Counter({ name: name(METRIC_NAMES.activationTotal), help: 'CRD activations, by result.', labelNames: ['crd', 'result'] as const, registers });
    const activationLatency = new Histogram({
      name: name(METRIC_NAMES.activationLatency),
      help: 'Seconds from the start of activation (or the CRD appearing) to workers running.',
      labelNames: ['crd'] as const,
      buckets: [...ACTIVATION_LATENCY_BUCKETS],
      registers,
    });
    const queueDropped = new Counter({ name: name(METRIC_NAMES.queueDropped), help: 'Keys refused because the queue was full; the next resync brings them back.', labelNames: ['crd'] as const, registers });
    const retriesExhausted = new Counter({
      name: name(METRIC_NAMES.retriesExhausted),
      help: 'Keys given up after queue.retryBackoff.maxAttempts failures in a row; each runs again on its next change or resync.',
      labelNames: ['crd'] as const,
      registers,
    });
    const queueWait = new Histogram({
      name: name(METRIC_NAMES.queueWait),
      help: 'Seconds a key waited in the queue before a worker took it.',
      labelNames: ['crd'] as const,
      buckets: [...QUEUE_WAIT_BUCKETS],
      registers,
    });
    const driftCorrections = new Counter({ name: name(METRIC_NAMES.driftCorrections), help: 'Child resources patched back to their template after drift.', labelNames: ['crd'] as const, registers });
    const watchRestarts = new Counter({ name: name(METRIC_NAMES.watchRestarts), help: 'Watches restarted (error, silent stream or 410 Gone relist).', labelNames: ['crd'] as const, registers });
    const crdShutdown = new Counter({ name: name(METRIC_NAMES.crdShutdown), help: 'CRD shutdowns.', labelNames: ['crd'] as const, registers });
    const crossSourceFailures = new Counter({ name: name(METRIC_NAMES.crossSourceFailures), help: 'Cross reads over HTTP (cross[].source) that failed; the templates saw an empty value.', labelNames: ['crd'] as const, registers });
    const externalCallRetries = new Counter({ name: name(METRIC_NAMES.externalCallRetries), help: "External calls made again within a cycle after a failed attempt (a call's own retryBackoff).", labelNames: ['crd'] as const, registers });
    const leader = new Gauge({ name: name(METRIC_NAMES.leader), help: '1 when this replica holds the Lease (of its shard), else 0.', registers });
    leader.set(0);

    return {
      registry,
      initCrd(crd) {
        for (const result of ['success', 'error'] as const) {
          reconcileTotal.inc({ crd, result }, 0);
          activationTotal.inc({ crd, result }, 0);
        }
        for (const gauge of [queueDepth, workersActive, workersMax, resourceCount]) gauge.set({ crd }, 0);
        for (const counter of [queueDropped, retriesExhausted, driftCorrections, watchRestarts, crdShutdown, crossSourceFailures, externalCallRetries]) counter.inc({ crd }, 0);
        if (zeroed.has(crd)) return;
        zeroed.add(crd);
        for (const histogram of [reconcileDuration, activationLatency, queueWait]) histogram.zero({ crd });
      },
      reconcileResult(crd, result, seconds) {
        reconcileTotal.inc({ crd, result });
        reconcileDuration.observe({ crd }, seconds);
      },
      queueDepth: (crd, depth) => queueDepth.set({ crd }, depth),
      workersActive: (crd, count) => workersActive.set({ crd }, count),
      workersMax: (crd, count) => workersMax.set({ crd }, count),
      resourceCount: (crd, count) => resourceCount.set({ crd }, count),
      activation(crd, result, latencySeconds) {
        activationTotal.inc({ crd, result });
        if (result === 'success') activationLatency.observe({ crd }, latencySeconds);
      },
      dropped: (crd, count = 1) => queueDropped.inc({ crd }, count),
      retriesExhausted: (crd) => retriesExhausted.inc({ crd }),
      waited: (crd, seconds) => queueWait.observe({ crd }, seconds),
      driftCorrected: (crd, count = 1) => driftCorrections.inc({ crd }, count),
      watchRestarted: (crd) => watchRestarts.inc({ crd }),
      crossSourceFailed: (crd) => crossSourceFailures.inc({ crd }),
      externalCallRetried: (crd) => externalCallRetries.inc({ crd }),
      shutdown(crd) {
        queueDepth.set({ crd }, 0);
        workersActive.set({ crd }, 0);
        workersMax.set({ crd }, 0);
        crdShutdown.inc({ crd });
      },
      leader: (isLeader) => leader.set(isLeader ? 1 : 0),
    };
  } catch (error) {
    throw new RuntimeError(
      'E_METRICS',
      `cannot register katalog metrics: ${toError(error).message} (two runtimes sharing a registry need different prefixes)`,
      { cause: error },
    );
  }
}
