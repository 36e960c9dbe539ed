/**
 * A token bucket: `burst` tokens at once, refilled at `qps` per second. `reserve()` takes a token even when it
 * has to wait for it (as golang.org/x/time/rate's `Reserve` does) and says how long to wait, so a burst of callers
 * gets increasing delays; a reservation is never given back.
 */
import { RuntimeError } from '../errors.js';
import { systemClock, type Clock } from './clock.js';

export interface TokenBucketOptions {
  /** Tokens added per second. */
  readonly qps: number;
  /** Bucket size. */
  readonly burst: number;
  readonly clock?: Clock;
}

export class TokenBucket {
  private readonly qps: number;
  private readonly burst: number;
  private readonly clock: Clock;
  /** Tokens left at `last`; negative when future tokens are already reserved. */
  private tokens: number;
  private last: number;

  constructor(options: TokenBucketOptions) {
    this.qps = options.qps;
    this.burst = options.burst;
    this.clock = options.clock ?? systemClock;
    if (!(this.qps > 0)) throw new RuntimeError('E_OPTIONS', `rate limiter: qps must be > 0, got ${this.qps}`);
    if (!Number.isInteger(this.burst) || this.burst < 1) {
      throw new RuntimeError('E_OPTIONS', `rate limiter: burst must be an integer >= 1, got ${this.burst}`);
    }
    this.tokens = this.burst;
    this.last = this.clock.now();
  }

  /** Takes one token; returns the milliseconds to wait before using it (0 when one was there). */
  reserve(): number {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
      this.last = now;
    }
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }
}
