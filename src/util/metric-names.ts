/**
 * The one way katalog claims metric names on a prom-client registry it does not own (the runtime's metrics, the
 * conversion router's): the prefix is checked, and every name of the set is checked free before any metric is
 * registered, so a clash registers nothing and says which names clash. The registry is always injected, never
 * prom-client's global one.
 */
import type { Registry } from 'prom-client';
import type { KatalogError } from '../errors.js';

/** A valid Prometheus metric name prefix. */
const PREFIX = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

export interface MetricNamesClaim {
  /** The metric names without prefix. */
  readonly names: readonly string[];
  /** Prepended verbatim to every name; `''` or absent for none. */
  readonly prefix?: string | undefined;
  /** What registers them, for messages: `katalog metrics`, `the conversion metrics`. */
  readonly what: string;
  /** What to do about a clash, appended to its message: `(a second router on one registry needs another prefix)`. */
  readonly clashHint: string;
  /** The error to throw, with code `E_METRICS`. */
  readonly error: (message: string) => KatalogError;
}

/** Where to register the set: `name(base)` gives the full name, `registers` the list prom-client metrics take. */
export interface ClaimedMetricNames {
  readonly name: (base: string) => string;
  readonly registers: Registry[];
}

/** Checks the prefix and that no name of the set is taken on `registry`; throws `claim.error(...)` otherwise. */
export function claimMetricNames(registry: Registry, claim: MetricNamesClaim): ClaimedMetricNames {
  const prefix = claim.prefix ?? '';
  if (prefix !== '' && !PREFIX.test(prefix)) throw claim.error(`${claim.what} prefix ${JSON.stringify(prefix)} is not a valid Prometheus name prefix ([a-zA-Z_:][a-zA-Z0-9_:]*)`);
  const name = (base: string): string => `${prefix}${base}`;
  const taken = claim.names.map(name).filter((full) => registry.getSingleMetric(full) !== undefined);
  if (taken.length > 0) throw claim.error(`cannot register ${claim.what}: ${taken.join(', ')} already registered ${claim.clashHint}`);
  return { name, registers: [registry] };
}
