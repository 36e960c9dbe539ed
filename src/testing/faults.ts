/**
 * Fault injection: end, drop or stall watches, compact the history (old resourceVersions → 410), fail chosen
 * requests with 410/429/500/503/504 (a number of times, with a probability, with Retry-After), lose the answers of
 * committed writes, add latency, close the listener for an outage, and a seedable `chaos()` preset mixing them.
 * Every rule matches by verb, resource, subresource, name and namespace (docs/testing.md, "Fault mode").
 */
import type { Cluster } from './cluster.js';
import { startChaos, type ChaosOptions, type ChaosRun } from './faults/chaos.js';
import type { LostAnswer } from './faults/lost-answer.js';
import { injected, type StatusError } from './status-errors.js';

/** Which requests a rule applies to; every given field must match. */
export interface RequestMatch {
  /** Audit verb: get, list, watch, create, update, patch, delete, deletecollection. */
  readonly verb?: string;
  /** Plural resource name, e.g. `configmaps`. */
  readonly resource?: string;
  /** `status` for the status subresource; `''` for the main resource only. */
  readonly subresource?: string;
  readonly name?: string;
  readonly namespace?: string;
}

export interface FailureRule extends RequestMatch {
  /** HTTP status to answer: 429 TooManyRequests, 500 InternalError, 503 ServiceUnavailable, 504 Timeout, 410 Expired. */
  readonly status: 410 | 429 | 500 | 503 | 504;
  /** How many matching requests fail (default: all of them until removed). */
  readonly times?: number;
  /** Chance (0..1) that a matching request fails (default 1). Requests spared do not use up `times`. */
  readonly probability?: number;
  /** Sent as `Retry-After` and in `details.retryAfterSeconds`. */
  readonly retryAfterSeconds?: number;
}

/** Writes that happen but whose answer the client never gets. */
export interface LostAnswerRule extends RequestMatch {
  /**
   * What the client gets instead of the successful answer: `'cut'` (the connection is destroyed, the client sees a
   * socket error), or an error status (default 504 Timeout, as an API server whose deadline passed after the commit).
   */
  readonly answer?: 'cut' | 500 | 503 | 504;
  /** How many answers are lost (default: every matching one until removed). Failed requests do not count. */
  readonly times?: number;
  /** Chance (0..1) that a matching answer is lost (default 1). */
  readonly probability?: number;
}

export interface LatencyRule extends RequestMatch {
  readonly ms: number;
  /** Adds a random 0..jitterMs on top of `ms`. */
  readonly jitterMs?: number;
}

/** Filters for watch faults. */
export interface WatchFaultFilter {
  /** Plural resource name. */
  readonly resource?: string;
}

/** Filter and duration of {@link Faults.stallWatches}. */
export interface StallOptions extends WatchFaultFilter {
  /** After this long silent, the connection is dropped (as a dead connection finally reset). Default: silent until closed. */
  readonly forMs?: number;
  /** Chance (0..1) that each matching watch stalls (default 1). */
  readonly probability?: number;
}

/** The fault-injection controls of a test API server. */
export interface Faults {
  /** Ends matching watches cleanly (clients re-watch from their last resourceVersion). */
  closeWatches(filter?: WatchFaultFilter): void;
  /** Destroys the sockets of matching watches mid-stream (client-node 1.4 reports `Premature close`, 2.x `terminated`). */
  dropWatches(filter?: WatchFaultFilter): void;
  /**
   * Makes matching open watches go silent: the connection stays open, but no event, bookmark or time-out end reaches
   * the client (a stuck proxy, a half-open connection). Returns how many stalled. Only a client that notices the
   * silence recovers (the katalog runtime reopens a watch silent for `watch.idleTimeout`).
   */
  stallWatches(options?: StallOptions): number;
  /** Compacts the history: a watch from any resourceVersion older than the current one gets 410 Expired. */
  expireResourceVersions(): void;
  /** Fails matching requests; returns a function that removes the rule. A refused watch is `{ verb: 'watch', ... }`. */
  failRequests(rule: FailureRule): () => void;
  /** Commits matching writes but loses their answers; returns a function that removes the rule. */
  loseAnswers(rule?: LostAnswerRule): () => void;
  /** Delays matching requests (all requests for a number); returns a function that removes the rule. */
  latency(rule: number | LatencyRule): () => void;
  /**
   * An outage: the listener closes (every connection and watch ends, new connections are refused), then listens again
   * on the same port after `downtimeMs`; the state is kept. Resolves when it listens again.
   */
  outage(options: { readonly downtimeMs: number }): Promise<void>;
  /** Starts the chaos preset: a seedable mix of every fault above (docs/testing.md). */
  chaos(options?: ChaosOptions): ChaosRun;
  /** Removes every rule, stops chaos runs and wakes stalled watches by dropping them. */
  clear(): void;
}

/** What a request is, for fault matching. */
export interface RequestInfo {
  readonly verb: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** True for discovery, version and health requests: only rules with no field set apply to them. */
  readonly nonResource: boolean;
}

interface Counted<R> {
  readonly rule: R;
  readonly random: () => number;
  remaining: number;
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

function matches(rule: RequestMatch, info: RequestInfo): boolean {
  if (info.nonResource) {
    return rule.verb === undefined && rule.resource === undefined && rule.subresource === undefined && rule.name === undefined && rule.namespace === undefined;
  }
  if (rule.verb !== undefined && rule.verb !== info.verb) return false;
  if (rule.resource !== undefined && rule.resource !== info.resource) return false;
  if (rule.subresource !== undefined && rule.subresource !== info.subresource) return false;
  if (rule.name !== undefined && rule.name !== info.name) return false;
  return rule.namespace === undefined || rule.namespace === info.namespace;
}

/** Takes the first rule that matches and fires, using up one of its `times`. */
function fire<R extends RequestMatch & { readonly probability?: number }>(rules: Array<Counted<R>>, info: RequestInfo): Counted<R> | undefined {
  for (const active of rules) {
    if (active.remaining <= 0 || !matches(active.rule, info)) continue;
    if (active.rule.probability !== undefined && active.random() >= active.rule.probability) continue;
    active.remaining -= 1;
    if (active.remaining <= 0) rules.splice(rules.indexOf(active), 1);
    return active;
  }
  return undefined;
}

function removeFrom<T>(list: T[], item: T): () => void {
  return () => {
    const index = list.indexOf(item);
    if (index >= 0) list.splice(index, 1);
  };
}

export class FaultInjector implements Faults {
  private readonly failures: Array<Counted<FailureRule>> = [];
  private readonly lost: Array<Counted<LostAnswerRule>> = [];
  private readonly latencies: Array<{ readonly rule: LatencyRule; readonly random: () => number }> = [];
  private readonly runs = new Set<ChaosRun>();

  constructor(
    private readonly cluster: Cluster,
    private readonly random: () => number = Math.random,
    private readonly relisten: (downtimeMs: number) => Promise<void> = async () => undefined,
  ) {}

  closeWatches(filter: WatchFaultFilter = {}): void {
    this.cluster.hub.endAll(filter.resource === undefined ? {} : { resource: filter.resource });
  }

  dropWatches(filter: WatchFaultFilter = {}): void {
    this.cluster.hub.dropAll(filter.resource === undefined ? {} : { resource: filter.resource });
  }

  stallWatches(options: StallOptions = {}, random: () => number = this.random): number {
    return this.cluster.hub.stallAll(options.resource === undefined ? {} : { resource: options.resource }, {
      forMs: options.forMs,
      pick: () => options.probability === undefined || random() < options.probability,
    });
  }

  expireResourceVersions(): void {
    this.cluster.history.compact(this.cluster.store.currentRevision);
  }

  failRequests(rule: FailureRule, random: () => number = this.random): () => void {
    const active: Counted<FailureRule> = { rule, random, remaining: rule.times ?? Number.POSITIVE_INFINITY };
    this.failures.push(active);
    return removeFrom(this.failures, active);
  }

  loseAnswers(rule: LostAnswerRule = {}, random: () => number = this.random): () => void {
    const active: Counted<LostAnswerRule> = { rule, random, remaining: rule.times ?? Number.POSITIVE_INFINITY };
    this.lost.push(active);
    return removeFrom(this.lost, active);
  }

  latency(rule: number | LatencyRule, random: () => number = this.random): () => void {
    const active = { rule: typeof rule === 'number' ? { ms: rule } : rule, random };
    this.latencies.push(active);
    return removeFrom(this.latencies, active);
  }

  outage(options: { readonly downtimeMs: number }): Promise<void> {
    return this.relisten(options.downtimeMs);
  }

  chaos(options: ChaosOptions = {}): ChaosRun {
    const run = startChaos(this, options, () => this.runs.delete(run));
    this.runs.add(run);
    return run;
  }

  clear(): void {
    for (const run of [...this.runs]) void run.stop();
    this.failures.length = 0;
    this.lost.length = 0;
    this.latencies.length = 0;
    this.cluster.hub.dropStalled();
  }

  /** The injected failure for this request, if a rule fires (using up one of its `times`). */
  failureFor(info: RequestInfo): StatusError | undefined {
    const active = fire(this.failures, info);
    return active === undefined ? undefined : injected(active.rule.status, active.rule.retryAfterSeconds);
  }

  /** How the answer of this request is lost, if a rule fires (writes only). */
  lostAnswerFor(info: RequestInfo): LostAnswer | undefined {
    if (!WRITE_VERBS.has(info.verb)) return undefined;
    const active = fire(this.lost, info);
    if (active === undefined) return undefined;
    const answer = active.rule.answer ?? 504;
    return answer === 'cut' ? { kind: 'cut' } : { kind: 'error', status: answer };
  }

  /** Total delay in ms for this request. */
  latencyFor(info: RequestInfo): number {
    let total = 0;
    for (const { rule, random } of this.latencies) {
      if (matches(rule, info)) total += rule.ms + (rule.jitterMs === undefined ? 0 : random() * rule.jitterMs);
    }
    return total;
  }
}
