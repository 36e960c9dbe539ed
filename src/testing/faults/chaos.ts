/**
 * The chaos preset: what a bad day of a real cluster looks like, from one seed. While it runs, a share of requests
 * fails (429 with Retry-After, 500, 503), a share of watch requests is refused, a share of committed writes loses its
 * answer (an error or a cut connection), every request gets some latency, and every `watchFaultEveryMs` one watch
 * fault: a stall of each open watch with probability `watchFaultShare`, or (with that probability) a drop or clean
 * close of all of them; once, after `outage.afterMs`, the listener closes for
 * `outage.downtimeMs` and reopens on the same port. `stop()` removes it all and resolves once the server listens.
 */
import type { FaultInjector, RequestMatch } from '../faults.js';
import { seededRandom } from './seeded-random.js';

/** Options of {@link Faults.chaos}; every rate is a probability per request (0..1). */
export interface ChaosOptions {
  /** Seed of the random choices (default 1): the same seed makes the same choices. */
  readonly seed?: number;
  /** Plural resources whose requests get faults (default: every resource; discovery is always spared). */
  readonly resources?: readonly string[];
  /** Requests answered 429 (with Retry-After 1), 500 or 503, in equal shares. Default 0.03. */
  readonly errorRate?: number;
  /** Watch requests refused (500 or 429). Default 0.1. */
  readonly watchRefusalRate?: number;
  /** Committed writes whose answer is lost (half 504, half a cut connection). Default 0.02. */
  readonly lostAnswerRate?: number;
  /** Latency added to every request: `latencyMs` plus a random jitter of up to `latencyMs`. Default 5. */
  readonly latencyMs?: number;
  /** Period of the watch faults. Default 1500 ms. */
  readonly watchFaultEveryMs?: number;
  /** Chance that a watch fault hits each open watch (stall) or the watches of a resource (drop, close). Default 0.3. */
  readonly watchFaultShare?: number;
  /** How long a stalled watch stays silent before its connection is dropped. Default 4000 ms. */
  readonly stallMs?: number;
  /** One outage, `afterMs` after the start; `false` for none. Default `{ afterMs: 3000, downtimeMs: 2000 }`. */
  readonly outage?: { readonly afterMs: number; readonly downtimeMs: number } | false;
}

/** What a chaos run did so far. */
export interface ChaosStats {
  readonly watchFaults: number;
  readonly outages: number;
}

/** A running chaos preset. */
export interface ChaosRun {
  readonly stats: ChaosStats;
  /** Removes every fault of this run; resolves once an outage in progress is over (the server listens again). */
  stop(): Promise<void>;
}

export function startChaos(faults: FaultInjector, options: ChaosOptions, onStop: () => void): ChaosRun {
  const random = seededRandom(options.seed ?? 1);
  // The watch faults draw from a stream of their own, so that their timer does not shift the requests' draws.
  const watchRandom = seededRandom((options.seed ?? 1) ^ 0x5bd1e995);
  const stats = { watchFaults: 0, outages: 0 };
  const scopes: RequestMatch[] = options.resources === undefined ? [{}] : options.resources.map((resource) => ({ resource }));
  const errorRate = options.errorRate ?? 0.03;
  const refusal = options.watchRefusalRate ?? 0.1;
  const lostRate = options.lostAnswerRate ?? 0.02;
  const latencyMs = options.latencyMs ?? 5;
  const removers: Array<() => void> = [];
  for (const scope of scopes) {
    // A rule with no field would also hit discovery; `verb` set on each keeps chaos to resource requests.
    for (const verb of ['get', 'list', 'create', 'update', 'patch', 'delete']) {
      const match = { ...scope, verb };
      removers.push(faults.failRequests({ ...match, status: 429, retryAfterSeconds: 1, probability: errorRate / 3 }, random));
      removers.push(faults.failRequests({ ...match, status: 500, probability: errorRate / 3 }, random));
      removers.push(faults.failRequests({ ...match, status: 503, probability: errorRate / 3 }, random));
      if (latencyMs > 0) removers.push(faults.latency({ ...match, ms: latencyMs, jitterMs: latencyMs }, random));
    }
    removers.push(faults.failRequests({ ...scope, verb: 'watch', status: 500, probability: refusal / 2 }, random));
    removers.push(faults.failRequests({ ...scope, verb: 'watch', status: 429, retryAfterSeconds: 1, probability: refusal / 2 }, random));
    for (const verb of ['create', 'update', 'patch', 'delete']) {
      removers.push(faults.loseAnswers({ ...scope, verb, answer: 504, probability: lostRate / 2 }, random));
      removers.push(faults.loseAnswers({ ...scope, verb, answer: 'cut', probability: lostRate / 2 }, random));
    }
  }

  let stopped = false;
  const share = options.watchFaultShare ?? 0.3;
  const every = options.watchFaultEveryMs ?? 1500;
  const stallMs = options.stallMs ?? 4000;
  const watchFault = (): void => {
    const filters = options.resources === undefined ? [{}] : options.resources.map((resource) => ({ resource }));
    for (const filter of filters) {
      const pick = watchRandom();
      if (pick < 1 / 3) faults.stallWatches({ ...filter, forMs: stallMs, probability: share }, watchRandom);
      else if (watchRandom() < share) {
        if (pick < 2 / 3) faults.dropWatches(filter);
        else faults.closeWatches(filter);
      }
    }
    stats.watchFaults++;
  };
  const watchTimer = setInterval(watchFault, every);
  let outageDone: Promise<void> = Promise.resolve();
  const outage = options.outage ?? { afterMs: 3000, downtimeMs: 2000 };
  const outageTimer =
    outage === false
      ? undefined
      : setTimeout(() => {
          if (stopped) return;
          stats.outages++;
          outageDone = faults.outage({ downtimeMs: outage.downtimeMs });
        }, outage.afterMs);

  return {
    stats,
    async stop() {
      if (!stopped) {
        stopped = true;
        clearInterval(watchTimer);
        if (outageTimer !== undefined) clearTimeout(outageTimer);
        for (const remove of removers) remove();
        onStop();
      }
      await outageDone;
    },
  };
}
