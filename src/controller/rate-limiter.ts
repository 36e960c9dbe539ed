/**
 * Rate limiters decide how long a key waits before it is retried. The workqueue asks one through
 * `addRateLimited(key)`; the reconcile outcome mapping calls `forget(key)` after a success so that the next
 * failure starts from the base delay again (SPEC §3.2 step 6).
 *
 * The default is the one controller-runtime used before its priority queue: the larger of a per-key exponential
 * backoff (5 ms doubling to 1000 s) and a global token bucket (10 per second, burst 100).
 */
import { RuntimeError } from '../errors.js';
import { systemClock, type Clock } from '../util/clock.js';
import { TokenBucket } from '../util/token-bucket.js';

/** Picks the delay before a key is retried. Implementations keep their own state; they are not shared between queues. */
export interface RateLimiter {
  /**
   * Records one more retry of `key` and returns how long to wait before it, in milliseconds (0 = now).
   * Calling it has effects (a failure is counted, a token is reserved): call it once per retry.
   */
  when(key: string): number;
  /** Forgets `key`: its next retry starts from the initial delay. Other keys are unaffected. */
  forget(key: string): void;
  /** How many retries of `key` were recorded since it was last forgotten (0 for limiters that do not count per key). */
  numRequeues(key: string): number;
}

/** Options of {@link ExponentialFailureRateLimiter}. */
export interface ExponentialFailureRateLimiterOptions {
  /** Delay of the first retry, in ms. Default 5. */
  readonly baseDelayMs?: number;
  /** Upper bound of the delay, in ms. Default 1 000 000 (1000 s). */
  readonly maxDelayMs?: number;
  /** Growth of the delay per retry (at least 1). Default 2. */
  readonly multiplier?: number;
}

/**
 * Per-key exponential backoff: the n-th retry of a key since it was last forgotten waits
 * `baseDelayMs * multiplier^(n-1)` (multiplier 2 by default), capped at `maxDelayMs` (5, 10, 20, 40 ms ... up to 1000 s with the defaults).
 * Memory grows with the number of keys that failed and were not forgotten; `forget` after a success keeps it bounded.
 */
export class ExponentialFailureRateLimiter implements RateLimiter {
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly multiplier: number;
  private readonly failures = new Map<string, number>();

  constructor(options: ExponentialFailureRateLimiterOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 5;
    this.maxDelayMs = options.maxDelayMs ?? 1_000_000;
    this.multiplier = options.multiplier ?? 2;
    if (!(this.multiplier >= 1) || !Number.isFinite(this.multiplier)) {
      throw new RuntimeError('E_OPTIONS', `rate limiter: multiplier must be a finite number >= 1, got ${this.multiplier}`);
    }
    if (!(this.baseDelayMs >= 0) || !Number.isFinite(this.baseDelayMs)) {
      throw new RuntimeError('E_OPTIONS', `rate limiter: baseDelayMs must be a finite number >= 0, got ${this.baseDelayMs}`);
    }
    if (!(this.maxDelayMs >= this.baseDelayMs)) {
      throw new RuntimeError('E_OPTIONS', `rate limiter: maxDelayMs must be >= baseDelayMs (${this.baseDelayMs}), got ${this.maxDelayMs}`);
    }
  }

  when(key: string): number {
    const previous = this.failures.get(key) ?? 0;
    this.failures.set(key, previous + 1);
    // multiplier ** previous becomes Infinity after enough failures; the cap absorbs it.
    return Math.min(this.baseDelayMs * this.multiplier ** previous, this.maxDelayMs);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}

/** Options of {@link TokenBucketRateLimiter}. */
export interface TokenBucketRateLimiterOptions {
  /** Tokens added per second. Default 10. */
  readonly qps?: number;
  /** Bucket size: how many retries may go at once after a quiet period. Default 100. */
  readonly burst?: number;
  /** Source of time. Default {@link systemClock}. */
  readonly clock?: Clock;
}

/**
 * A global token bucket shared by all keys: `burst` retries go at once, then one every `1000 / qps` ms.
 * `when()` reserves a token even if it has to wait for it (as golang.org/x/time/rate's `Reserve` does), so a burst
 * of calls gets increasing delays; the reservation is never given back. It does not count per key:
 * `numRequeues` is always 0 and `forget` does nothing.
 */
export class TokenBucketRateLimiter implements RateLimiter {
  private readonly bucket: TokenBucket;

  constructor(options: TokenBucketRateLimiterOptions = {}) {
    this.bucket = new TokenBucket({ qps: options.qps ?? 10, burst: options.burst ?? 100, clock: options.clock ?? systemClock });
  }

  when(): number {
    return this.bucket.reserve();
  }

  forget(): void {
    // Global limiter: nothing is kept per key.
  }

  numRequeues(): number {
    return 0;
  }
}

/**
 * Combines limiters: `when` asks every child (so each records the retry) and returns the longest delay;
 * `forget` forgets in every child; `numRequeues` is the largest count among the children. With no children,
 * every delay is 0.
 */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(key: string): number {
    let delay = 0;
    for (const limiter of this.limiters) delay = Math.max(delay, limiter.when(key));
    return delay;
  }

  forget(key: string): void {
    for (const limiter of this.limiters) limiter.forget(key);
  }

  numRequeues(key: string): number {
    let count = 0;
    for (const limiter of this.limiters) count = Math.max(count, limiter.numRequeues(key));
    return count;
  }
}

/** Options of {@link defaultControllerRateLimiter}; each falls back to the default of the limiter it configures. */
export interface DefaultControllerRateLimiterOptions extends ExponentialFailureRateLimiterOptions, TokenBucketRateLimiterOptions {}

/**
 * The default retry policy (SPEC §3.2): the larger of a per-key exponential backoff (5 ms doubling to 1000 s) and a
 * global token bucket (10 per second, burst 100), as controller-runtime's default limiter before v0.23.
 * Each call returns a new limiter; a workqueue should own its own.
 */
export function defaultControllerRateLimiter(options: DefaultControllerRateLimiterOptions = {}): RateLimiter {
  return new MaxOfRateLimiter(new ExponentialFailureRateLimiter(options), new TokenBucketRateLimiter(options));
}
