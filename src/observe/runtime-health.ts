/**
 * Process-level probes (SPEC §6): `/health` (liveness) from {@link RuntimeHealth}, `/ready` from the pure
 * {@link readiness} function.
 *
 * Liveness answers "is the runtime alive and not shutting down": 200 while `starting` or `running` (a slow start
 * must not get the pod killed), 503 once `stopping` or `stopped`.
 *
 * Readiness answers "has start() resolved and is every active CRD's cache synced". Decisions where the spec is
 * silent: a `pending` CRD (not installed, or waiting for dependencies) does not block readiness, since the runtime
 * is doing what it should; a `degraded` CRD does not block it either, since taking the replica out of a Service
 * would not fix a failing reconcile and would hide the inspection API that explains it. Leadership does not matter:
 * every replica keeps warm caches and serves the inspection API.
 */
import type { Clock } from '../util/clock.js';
import { formatDuration } from '../util/duration.js';
import type { CrdState } from './health.js';

export type RuntimeStatus = 'starting' | 'running' | 'stopping' | 'stopped';

export type LivenessResponse =
  | { readonly httpStatus: 200; readonly body: { readonly status: 'ok'; readonly uptime: string; readonly startedAt: string } }
  | { readonly httpStatus: 503; readonly body: { readonly status: 'stopping' | 'stopped' } };

/**
 * The runtime's own lifecycle status. `startedAt` is when {@link markStarting} was last called (or when this object
 * was created, if never). Transitions are not policed: the runtime owns the order
 * (`starting → running → stopping → stopped`, and `markStarting` again for a restart).
 */
export class RuntimeHealth {
  private current: RuntimeStatus = 'starting';
  private startedAtMs: number;

  constructor(private readonly clock: Clock) {
    this.startedAtMs = clock.now();
  }

  get status(): RuntimeStatus {
    return this.current;
  }

  get startedAt(): Date {
    return new Date(this.startedAtMs);
  }

  /** Whole seconds since `startedAt`, as a Go duration. */
  get uptime(): string {
    return formatDuration(Math.floor(Math.max(0, this.clock.now() - this.startedAtMs) / 1000) * 1000);
  }

  markStarting(): void {
    this.current = 'starting';
    this.startedAtMs = this.clock.now();
  }

  markRunning(): void {
    this.current = 'running';
  }

  markStopping(): void {
    this.current = 'stopping';
  }

  markStopped(): void {
    this.current = 'stopped';
  }

  /** The `/health` answer. */
  liveness(): LivenessResponse {
    if (this.current === 'stopping' || this.current === 'stopped') return { httpStatus: 503, body: { status: this.current } };
    return { httpStatus: 200, body: { status: 'ok', uptime: this.uptime, startedAt: this.startedAt.toISOString() } };
  }
}

export interface ReadinessCrd {
  readonly name: string;
  readonly state: CrdState;
  /** The CRD's informer cache has completed its initial list. Ignored for pending CRDs. */
  readonly synced: boolean;
  /** A critical CRD (Orkestra's `critical: true`) that is degraded makes the runtime not ready. */
  readonly critical?: boolean;
}

export interface ReadinessInput {
  /** `start()` has resolved. */
  readonly started: boolean;
  /** `stop()` has been called and has not resolved yet. */
  readonly stopping?: boolean;
  /** `stop()` has resolved. Wins over `stopping`, so that `/ready` says what `/health` says. */
  readonly stopped?: boolean;
  /** Every managed (enabled) CRD, in the order to report them. */
  readonly crds: readonly ReadinessCrd[];
  /** With leader election: whether this replica leads. A standby is ready (it serves and keeps warm caches). */
  readonly leader?: boolean | undefined;
}

export type ReadinessResponse =
  | { readonly httpStatus: 200; readonly body: { readonly status: 'ready'; readonly crds: Readonly<Record<string, CrdState>>; readonly leader?: boolean } }
  | { readonly httpStatus: 503; readonly body: { readonly status: 'not ready'; readonly reasons: readonly string[] } };

/** The `/ready` answer for the given state; pure. */
export function readiness(input: ReadinessInput): ReadinessResponse {
  const reasons: string[] = [];
  if (input.stopped === true) reasons.push('runtime is stopped');
  else if (input.stopping === true) reasons.push('runtime is stopping');
  else if (!input.started) reasons.push('runtime has not finished starting');
  for (const crd of input.crds) {
    if (crd.state !== 'pending' && !crd.synced) reasons.push(`CRD ${crd.name}: cache not synced`);
    if (crd.critical === true && crd.state === 'degraded') reasons.push(`CRD ${crd.name}: critical and degraded`);
  }
  if (reasons.length > 0) return { httpStatus: 503, body: { status: 'not ready', reasons } };
  const crds: Record<string, CrdState> = {};
  for (const crd of input.crds) crds[crd.name] = crd.state;
  return { httpStatus: 200, body: input.leader === undefined ? { status: 'ready', crds } : { status: 'ready', crds, leader: input.leader } };
}
