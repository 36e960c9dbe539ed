/**
 * Health of one CRD (SPEC §6): its state, the counters behind it, and the health record the inspection API serves.
 *
 * States: `pending` (not started: its CustomResourceDefinition is not installed, or its dependencies are not
 * satisfied), `healthy` (started, fewer than `failureThreshold` consecutive failures) and `degraded` (started,
 * `consecutiveFails >= failureThreshold`). A started CRD is healthy before its first reconcile: a CRD with no
 * custom resources must not look broken. One success clears `consecutiveFails` and makes a degraded CRD healthy
 * again (no hysteresis). Every mutator returns a {@link HealthChange} so the caller can emit `degraded` and
 * `recovered` events exactly once per transition.
 */
import { RuntimeError, toError } from '../errors.js';
import type { Clock } from '../util/clock.js';
import { formatDuration } from '../util/duration.js';

export type CrdState = 'pending' | 'healthy' | 'degraded';

/** What a mutator did. `event` is set only on the transitions the runtime reports as lifecycle events. */
export interface HealthChange {
  readonly from: CrdState;
  readonly to: CrdState;
  readonly event: 'degraded' | 'recovered' | undefined;
}

/** Body of a healthy record (HTTP 200). */
export interface HealthyRecord {
  readonly name: string;
  readonly healthy: true;
  readonly started: true;
  readonly uptime: string;
  readonly errorRate: number;
  /** ISO 8601 UTC, or null before the first reconcile. */
  readonly lastReconcile: string | null;
}

/** Body of a degraded record (HTTP 503). */
export interface DegradedRecord {
  readonly name: string;
  readonly healthy: false;
  readonly message: string;
  readonly consecutiveFails: number;
  readonly errorRate: number;
  readonly status: 503;
}

/** Body of a pending record (HTTP 503). */
export interface PendingRecord {
  readonly name: string;
  readonly healthy: false;
  readonly started: false;
  readonly message: string;
  readonly status: 503;
}

export type HealthRecordResponse =
  | { readonly httpStatus: 200; readonly body: HealthyRecord }
  | { readonly httpStatus: 503; readonly body: DegradedRecord | PendingRecord };

/** Everything the detail endpoint and the host may read, at one instant. */
export interface CrdHealthSnapshot {
  readonly name: string;
  readonly state: CrdState;
  readonly started: boolean;
  /** Why the CRD is pending; `undefined` unless pending. */
  readonly pendingReason: string | undefined;
  readonly startedAt: Date | null;
  /** Whole seconds since start as a Go duration, `"0s"` when not started. */
  readonly uptime: string;
  readonly consecutiveFails: number;
  readonly failureThreshold: number;
  readonly lastError: string | null;
  readonly lastReconcile: Date | null;
  readonly errorRate: number;
  /** Reconciles recorded since this object was created (not windowed). */
  readonly totalReconciles: number;
}

/** How many reconciles the error rate looks back over. */
export const ERROR_RATE_WINDOW = 100;

/** Longest error text kept for the health record; longer messages are cut and end with `…`. */
export const MAX_ERROR_MESSAGE = 1000;

/** The pending reason for a CRD whose CustomResourceDefinition is missing: `waiting for CRD websites.example.io to be installed`. */
export function missingCrdReason(apiTypes: { readonly plural: string; readonly group: string }): string {
  const name = apiTypes.group === '' ? apiTypes.plural : `${apiTypes.plural}.${apiTypes.group}`;
  return `waiting for CRD ${name} to be installed`;
}

/** The pending reason for unsatisfied dependencies: `waiting for dependencies: a (healthy), b (started)`. */
export function dependenciesReason(unsatisfied: Iterable<{ readonly name: string; readonly condition: string }>): string {
  return `waiting for dependencies: ${[...unsatisfied].map((d) => `${d.name} (${d.condition})`).join(', ')}`;
}

/** Rounds an error rate to 4 decimals, so 1/3 reads 0.3333. */
function round(rate: number): number {
  return Math.round(rate * 10_000) / 10_000;
}

function truncate(text: string): string {
  return text.length <= MAX_ERROR_MESSAGE ? text : `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…`;
}

/** Fixed-size ring of reconcile outcomes (true = failure). */
class OutcomeWindow {
  private readonly outcomes: boolean[] = [];
  private next = 0;
  private failures = 0;

  constructor(private readonly size: number) {}

  push(failed: boolean): void {
    if (this.outcomes.length < this.size) {
      this.outcomes.push(failed);
    } else {
      if (this.outcomes[this.next] === true) this.failures--;
      this.outcomes[this.next] = failed;
      this.next = (this.next + 1) % this.size;
    }
    if (failed) this.failures++;
  }

  rate(): number {
    return this.outcomes.length === 0 ? 0 : this.failures / this.outcomes.length;
  }
}

export interface CrdHealthOptions {
  readonly name: string;
  /** Consecutive failures that make the CRD degraded; an integer of at least 1 (see runtime/settings). */
  readonly failureThreshold: number;
  readonly clock: Clock;
  /** Initial pending reason; default `not started`. */
  readonly pendingReason?: string;
}

/**
 * The health of one CRD. Not thread-safe in any sense that matters to Node: every method runs to completion.
 * `recordSuccess` / `recordFailure` while pending (a reconcile finishing after deactivation) update the counters
 * but not the state.
 */
export class CrdHealth {
  readonly name: string;
  readonly failureThreshold: number;
  private readonly clock: Clock;
  private current: CrdState = 'pending';
  private reason: string;
  private startedAtMs: number | null = null;
  private fails = 0;
  private lastErrorText: string | null = null;
  private lastReconcileMs: number | null = null;
  private total = 0;
  /** The last uptime printed and the whole seconds it is for: printing is most of what reading it costs. */
  private uptimeSeconds = -1;
  private uptimeText = '0s';
  private readonly window = new OutcomeWindow(ERROR_RATE_WINDOW);

  constructor(options: CrdHealthOptions) {
    if (!Number.isSafeInteger(options.failureThreshold) || options.failureThreshold < 1) {
      throw new RuntimeError('E_SETTINGS', `failureThreshold of CRD ${options.name} must be an integer of at least 1, got ${options.failureThreshold}`);
    }
    this.name = options.name;
    this.failureThreshold = options.failureThreshold;
    this.clock = options.clock;
    this.reason = options.pendingReason ?? 'not started';
  }

  get state(): CrdState {
    return this.current;
  }

  get started(): boolean {
    return this.current !== 'pending';
  }

  get pendingReason(): string | undefined {
    return this.current === 'pending' ? this.reason : undefined;
  }

  get startedAt(): Date | null {
    return this.startedAtMs === null ? null : new Date(this.startedAtMs);
  }

  get consecutiveFails(): number {
    return this.fails;
  }

  get lastError(): string | null {
    return this.lastErrorText;
  }

  get lastReconcile(): Date | null {
    return this.lastReconcileMs === null ? null : new Date(this.lastReconcileMs);
  }

  /** Fraction (0 to 1, 4 decimals) of failures among the last {@link ERROR_RATE_WINDOW} reconciles; 0 when none. */
  get errorRate(): number {
    return round(this.window.rate());
  }

  /** Whole seconds since {@link markStarted}, as a Go duration; `"0s"` when not started. */
  get uptime(): string {
    if (this.startedAtMs === null || this.current === 'pending') return '0s';
    const seconds = Math.floor(Math.max(0, this.clock.now() - this.startedAtMs) / 1000);
    if (seconds !== this.uptimeSeconds) {
      this.uptimeSeconds = seconds;
      this.uptimeText = formatDuration(seconds * 1000);
    }
    return this.uptimeText;
  }

  /** Not started, for `reason` (see {@link missingCrdReason}, {@link dependenciesReason}). Clears the start time. */
  markPending(reason: string): HealthChange {
    const from = this.current;
    this.current = 'pending';
    this.reason = reason;
    this.startedAtMs = null;
    return { from, to: 'pending', event: undefined };
  }

  /**
   * Workers run: the CRD is healthy. Starts the uptime clock and clears `consecutiveFails` (a fresh activation);
   * the error-rate window and `lastReconcile` are kept. Calling it while started changes nothing.
   */
  markStarted(): HealthChange {
    const from = this.current;
    if (from !== 'pending') return { from, to: from, event: undefined };
    this.current = 'healthy';
    this.startedAtMs = this.clock.now();
    this.fails = 0;
    return { from, to: 'healthy', event: undefined };
  }

  /** A reconcile succeeded. A degraded CRD becomes healthy (`event: 'recovered'`). */
  recordSuccess(): HealthChange {
    const from = this.current;
    this.count(false);
    this.fails = 0;
    if (from === 'degraded') {
      this.current = 'healthy';
      return { from, to: 'healthy', event: 'recovered' };
    }
    return { from, to: from, event: undefined };
  }

  /** A reconcile failed. Reaching the threshold makes a healthy CRD degraded (`event: 'degraded'`, once). */
  recordFailure(error: unknown): HealthChange {
    const from = this.current;
    this.count(true);
    this.fails++;
    this.lastErrorText = truncate(toError(error).message);
    if (from === 'healthy' && this.fails >= this.failureThreshold) {
      this.current = 'degraded';
      return { from, to: 'degraded', event: 'degraded' };
    }
    return { from, to: from, event: undefined };
  }

  /** The record of SPEC §6, with its HTTP status: 200 when healthy, 503 when degraded or pending. */
  healthRecord(): HealthRecordResponse {
    switch (this.current) {
      case 'healthy':
        return {
          httpStatus: 200,
          body: {
            name: this.name,
            healthy: true,
            started: true,
            uptime: this.uptime,
            errorRate: this.errorRate,
            lastReconcile: this.lastReconcileMs === null ? null : new Date(this.lastReconcileMs).toISOString(),
          },
        };
      case 'degraded':
        return {
          httpStatus: 503,
          body: {
            name: this.name,
            healthy: false,
            message: this.degradedMessage(),
            consecutiveFails: this.fails,
            errorRate: this.errorRate,
            status: 503,
          },
        };
      case 'pending':
        return { httpStatus: 503, body: { name: this.name, healthy: false, started: false, message: this.reason, status: 503 } };
    }
  }

  snapshot(): CrdHealthSnapshot {
    return {
      name: this.name,
      state: this.current,
      started: this.started,
      pendingReason: this.pendingReason,
      startedAt: this.startedAt,
      uptime: this.uptime,
      consecutiveFails: this.fails,
      failureThreshold: this.failureThreshold,
      lastError: this.lastErrorText,
      lastReconcile: this.lastReconcile,
      errorRate: this.errorRate,
      totalReconciles: this.total,
    };
  }

  private degradedMessage(): string {
    const n = this.fails;
    return `${this.name} degraded: ${n} consecutive failure${n === 1 ? '' : 's'}; last error: ${this.lastErrorText ?? 'unknown'}`;
  }

  private count(failed: boolean): void {
    this.total++;
    this.lastReconcileMs = this.clock.now();
    this.window.push(failed);
  }
}
