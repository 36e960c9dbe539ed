/**
 * Fault injection: end or drop watches, compact the history (old resourceVersions → 410), fail chosen requests
 * with 410/429/500/503 (optionally a number of times, with a probability, with Retry-After), add latency.
 */
import type { Cluster } from './cluster.js';
import { injected, type StatusError } from './status-errors.js';

/** Which requests a rule applies to; every given field must match. */
export interface RequestMatch {
  /** Audit verb: get, list, watch, create, update, patch, delete, deletecollection. */
  readonly verb?: string;
  /** Plural resource name, e.g. `configmaps`. */
  readonly resource?: string;
  readonly name?: string;
  readonly namespace?: string;
}

export interface FailureRule extends RequestMatch {
  /** HTTP status to answer: 429 TooManyRequests, 500 InternalError, 503 ServiceUnavailable, 410 Expired. */
  readonly status: 410 | 429 | 500 | 503;
  /** How many matching requests fail (default: all of them until removed). */
  readonly times?: number;
  /** Chance (0..1) that a matching request fails (default 1). Requests spared do not use up `times`. */
  readonly probability?: number;
  /** Sent as `Retry-After` and in `details.retryAfterSeconds`. */
  readonly retryAfterSeconds?: number;
}

export interface LatencyRule {
  readonly verb?: string;
  readonly resource?: string;
  readonly ms: number;
}

/** Filters for watch faults. */
export interface WatchFaultFilter {
  /** Plural resource name. */
  readonly resource?: string;
}

/** The fault-injection controls of a test API server. */
export interface Faults {
  /** Ends matching watches cleanly (clients re-watch from their last resourceVersion). */
  closeWatches(filter?: WatchFaultFilter): void;
  /** Destroys the sockets of matching watches mid-stream (client-node 1.4 reports `Premature close`, 2.x `terminated`). */
  dropWatches(filter?: WatchFaultFilter): void;
  /** Compacts the history: a watch from any resourceVersion older than the current one gets 410 Expired. */
  expireResourceVersions(): void;
  /** Fails matching requests; returns a function that removes the rule. */
  failRequests(rule: FailureRule): () => void;
  /** Delays matching requests (all requests for a number); returns a function that removes the rule. */
  latency(rule: number | LatencyRule): () => void;
  /** Removes every failure and latency rule. */
  clear(): void;
}

/** What a request is, for fault matching. */
export interface RequestInfo {
  readonly verb: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  /** True for discovery, version and health requests: only rules with no field set apply to them. */
  readonly nonResource: boolean;
}

interface ActiveFailure {
  readonly rule: FailureRule;
  remaining: number;
}

function matches(rule: RequestMatch, info: RequestInfo): boolean {
  if (info.nonResource) return rule.verb === undefined && rule.resource === undefined && rule.name === undefined && rule.namespace === undefined;
  if (rule.verb !== undefined && rule.verb !== info.verb) return false;
  if (rule.resource !== undefined && rule.resource !== info.resource) return false;
  if (rule.name !== undefined && rule.name !== info.name) return false;
  return rule.namespace === undefined || rule.namespace === info.namespace;
}

export class FaultInjector implements Faults {
  private failures: ActiveFailure[] = [];
  private latencies: LatencyRule[] = [];

  constructor(
    private readonly cluster: Cluster,
    private readonly random: () => number = Math.random,
  ) {}

  closeWatches(filter: WatchFaultFilter = {}): void {
    this.cluster.hub.endAll(filter.resource === undefined ? {} : { resource: filter.resource });
  }

  dropWatches(filter: WatchFaultFilter = {}): void {
    this.cluster.hub.dropAll(filter.resource === undefined ? {} : { resource: filter.resource });
  }

  expireResourceVersions(): void {
    this.cluster.history.compact(this.cluster.store.currentRevision);
  }

  failRequests(rule: FailureRule): () => void {
    const active: ActiveFailure = { rule, remaining: rule.times ?? Number.POSITIVE_INFINITY };
    this.failures.push(active);
    return () => {
      this.failures = this.failures.filter((f) => f !== active);
    };
  }

  latency(rule: number | LatencyRule): () => void {
    const active: LatencyRule = typeof rule === 'number' ? { ms: rule } : rule;
    this.latencies.push(active);
    return () => {
      this.latencies = this.latencies.filter((l) => l !== active);
    };
  }

  clear(): void {
    this.failures = [];
    this.latencies = [];
  }

  /** The injected failure for this request, if a rule fires (using up one of its `times`). */
  failureFor(info: RequestInfo): StatusError | undefined {
    for (const active of this.failures) {
      if (active.remaining <= 0 || !matches(active.rule, info)) continue;
      if (active.rule.probability !== undefined && this.random() >= active.rule.probability) continue;
      active.remaining -= 1;
      if (active.remaining <= 0) this.failures = this.failures.filter((f) => f !== active);
      return injected(active.rule.status, active.rule.retryAfterSeconds);
    }
    return undefined;
  }

  /** Total delay in ms for this request. */
  latencyFor(info: RequestInfo): number {
    let total = 0;
    for (const rule of this.latencies) if (matches(rule, info)) total += rule.ms;
    return total;
  }
}
