/**
 * The conversion router's metrics (docs/health-and-metrics.md, "Conversion webhook"): reviews answered, by kind
 * and result, the objects they carried, and the time each review took to convert. The router runs without a
 * runtime, so the host passes the prom-client registry (the runtime's `registry`, or its own); nothing of an object
 * is a label, only its kind.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { KatalogError } from '../errors.js';
import { claimMetricNames } from '../util/metric-names.js';

/** The metric names without prefix. */
export const CONVERSION_METRIC_NAMES = Object.freeze({
  reviews: 'conversion_webhook_reviews_total',
  objects: 'conversion_webhook_objects_total',
  duration: 'conversion_webhook_duration_seconds',
} as const);

/** Seconds; a conversion is template work in process, so the buckets start at a tenth of a millisecond. */
export const CONVERSION_DURATION_BUCKETS: readonly number[] = Object.freeze([0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]);

/** Where the conversion router registers its metrics. */
export interface ConversionMetricsOptions {
  readonly registry: Registry;
  /** Prepended verbatim to every name (the runtime's `metricsPrefix`, when they share a registry). */
  readonly prefix?: string;
}

/** One answered review: `failure` when a conversion failed (the review's `result.status: Failure`). */
export interface ConversionMetrics {
  reviewed(kind: string, result: 'success' | 'failure', objects: number, seconds: number): void;
}

/** Registers the metrics; a KatalogError `E_METRICS` for a bad prefix or names already registered. */
export function createConversionMetrics(options: ConversionMetricsOptions): ConversionMetrics {
  const { name, registers } = claimMetricNames(options.registry, {
    names: Object.values(CONVERSION_METRIC_NAMES),
    prefix: options.prefix,
    what: 'the conversion metrics',
    clashHint: '(a second router on one registry needs another prefix)',
    error: (message) => new KatalogError('E_METRICS', message),
  });
  const reviews = new Counter({ name: name(CONVERSION_METRIC_NAMES.reviews), help: 'ConversionReviews answered, by kind and result.', labelNames: ['kind', 'result'] as const, registers });
  const objects = new Counter({ name: name(CONVERSION_METRIC_NAMES.objects), help: 'Objects in the ConversionReviews answered, by kind and result.', labelNames: ['kind', 'result'] as const, registers });
  const duration = new Histogram({
    name: name(CONVERSION_METRIC_NAMES.duration),
    help: 'Time to convert the objects of one ConversionReview, by kind.',
    labelNames: ['kind'] as const,
    buckets: [...CONVERSION_DURATION_BUCKETS],
    registers,
  });
  return {
    reviewed(kind, result, count, seconds) {
      reviews.inc({ kind, result });
      objects.inc({ kind, result }, count);
      duration.observe({ kind }, seconds);
    },
  };
}
