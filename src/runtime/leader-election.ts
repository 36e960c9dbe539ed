/**
 * Leader election on a `coordination.k8s.io/v1` Lease, with the algorithm and the Lease fields of client-go's
 * `leaderelection` package, so that katalog replicas and Go tools read one Lease the same way.
 *
 * - Every `retryPeriod` (a candidate adds up to 20 % jitter) the elector reads the Lease and, when it may, writes
 *   itself in as holder with a fresh `renewTime`. Writes are conditional on the Lease's resourceVersion (a replace
 *   answered 409 means someone else wrote first) or a create (409 AlreadyExists means someone created it first).
 * - A candidate takes the Lease when it has no holder, or when the record has not changed for
 *   `leaseDurationSeconds` **as measured by the candidate's own clock from the moment it first saw that record**.
 *   Remote timestamps (`renewTime`) are written for people and tools but never compared with the local clock, so
 *   clock offsets between machines do not matter; only clock *rates* must roughly agree.
 * - The leader steps down at once, calling `onStoppedLeading`, when the Lease shows another holder, or when no
 *   renew has succeeded for `renewDeadline` counted from the start of the last successful one (a timer, so a
 *   hung request cannot keep it leader; every request is aborted when the deadline passes). Since the Lease's
 *   `renewTime` is that start, and `renewDeadline < leaseDuration`, the old leader has stopped before any other
 *   replica can consider the Lease expired.
 * - After losing, it campaigns again; it never calls `onStartedLeading` while the promise returned by the last
 *   `onStoppedLeading` is unsettled. A Lease that still names it is taken back (as client-go does); when such a
 *   take-back gets no answer (it may have landed), the next try waits a lease duration, so that blind renewals
 *   cannot keep a replica that does get answers waiting.
 * - Beyond client-go: with a client that can `watch`, the elector watches the Lease (leader-watch.ts). A standby
 *   then tries the moment the record it saw expires, and at once when the Lease is released or deleted, writing
 *   the watched copy without reading it again; a leader that sees another holder steps down at once.
 * - `stop()` steps down gracefully: it calls `onStoppedLeading` and keeps renewing while the returned promise
 *   runs (so the host can drain its work under the Lease), then releases the Lease (holder cleared, duration 1 s,
 *   as client-go's ReleaseOnCancel) so the next replica takes over at its next attempt instead of after a lease
 *   duration.
 *
 * `leaseDurationSeconds` is a whole number in the Lease: a duration that is not whole seconds is rounded up there
 * (and other replicas wait that long after a crash).
 */
import { RuntimeError, toError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import { silentLogger, type Logger } from '../observe/logger.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import { attemptLease, UnansweredTakeBack, type Attempt } from './leader-attempt.js';
import { readRecord } from './leader-lease.js';
import { ObservedLease } from './leader-observed.js';
import { releaseLease } from './leader-release.js';
import { LeaseWatch, type LeaseWatchClient } from './leader-watch.js';

/** The calls of {@link KubeClient} the elector makes; without `watch` it only polls. */
export type LeaseClient = Pick<KubeClient, 'get' | 'create' | 'replace'> & Partial<LeaseWatchClient>;

export interface LeaderElectorOptions {
  readonly client: LeaseClient;
  readonly clock: Clock;
  readonly logger?: Logger;
  readonly lease: { readonly namespace: string; readonly name: string };
  /** Unique per replica; written as the Lease's `holderIdentity`. */
  readonly identity: string;
  readonly leaseDurationMs: number;
  /** Must be below `leaseDurationMs`. */
  readonly renewDeadlineMs: number;
  /** Must be below `renewDeadlineMs`. */
  readonly retryPeriodMs: number;
  /** Source of jitter in `[0, 1)`; default `Math.random`. */
  readonly random?: () => number;
  /** This replica now holds the Lease. A throw is logged; the replica stays leader. */
  readonly onStartedLeading: () => void;
  /**
   * This replica stopped leading (`reason` says why). Stop leader-only work at once. A returned promise is
   * awaited by `stop()` before the Lease is released, and the elector does not lead again before it settles.
   */
  readonly onStoppedLeading: (reason: string) => void | Promise<void>;
}

/** Jitter a candidate adds to its retry period: up to this fraction. */
const CANDIDATE_JITTER = 0.2;

type Phase = 'new' | 'running' | 'stepping-down' | 'stopped';

export class LeaderElector {
  readonly identity: string;
  private readonly options: LeaderElectorOptions;
  private readonly logger: Logger;
  private readonly random: () => number;
  private readonly leaseDurationSeconds: number;
  private phase: Phase = 'new';
  private leading = false;
  private lastRenewAt = 0;
  private nextAttempt: TimerHandle | undefined;
  /** When `nextAttempt` fires (clock time). */
  private nextAttemptAt = 0;
  /** A watch event asked for an attempt while one was in flight: try again as soon as it ends. */
  private wake = false;
  /** The Lease as the watch last showed it held by another or released: the next attempt starts from it. */
  private known: KubeObject | undefined;
  private watch: LeaseWatch | undefined;
  private deadline: TimerHandle | undefined;
  private inFlight: { readonly abort: AbortController; readonly settled: Promise<unknown> } | undefined;
  private pendingStop: Promise<void> | undefined;
  private readonly observed: ObservedLease;
  private written: KubeObject | undefined;
  private conflicts = 0;
  private stopping: Promise<void> | undefined;

  /** @throws RuntimeError `E_OPTIONS` when the durations break `0 < retryPeriod < renewDeadline < leaseDuration` or the identity is empty. */
  constructor(options: LeaderElectorOptions) {
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs, identity } = options;
    const problems: string[] = [];
    if (!(retryPeriodMs > 0 && Number.isFinite(leaseDurationMs))) problems.push(`retryPeriod must be positive and leaseDuration finite (got ${retryPeriodMs}ms, ${leaseDurationMs}ms)`);
    if (!(renewDeadlineMs < leaseDurationMs)) problems.push(`renewDeadline (${renewDeadlineMs}ms) must be below leaseDuration (${leaseDurationMs}ms)`);
    if (!(retryPeriodMs < renewDeadlineMs)) problems.push(`retryPeriod (${retryPeriodMs}ms) must be below renewDeadline (${renewDeadlineMs}ms)`);
    if (identity === '') problems.push('identity must not be empty');
    if (problems.length > 0) throw new RuntimeError('E_OPTIONS', `invalid leader election settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.options = options;
    this.identity = identity;
    this.random = options.random ?? Math.random;
    this.leaseDurationSeconds = Math.max(1, Math.ceil(leaseDurationMs / 1000));
    this.observed = new ObservedLease(options.clock, this.leaseDurationSeconds);
    this.logger = (options.logger ?? silentLogger).child({ lease: `${options.lease.namespace}/${options.lease.name}`, identity });
  }

  /** True between `onStartedLeading` and `onStoppedLeading`. */
  get isLeader(): boolean {
    return this.leading;
  }

  /** The holder last seen in the Lease: `''` when nobody holds it, `undefined` before the first read. */
  get holder(): string | undefined {
    return this.observed.record?.holderIdentity;
  }

  /** Starts campaigning in the background. Throws when called twice. */
  start(): void {
    if (this.phase !== 'new') throw new RuntimeError('E_STATE', `leader elector ${this.identity} cannot start twice`);
    this.phase = 'running';
    const { client, clock, lease, retryPeriodMs } = this.options;
    const watchClient = client.watch === undefined ? undefined : { watch: client.watch.bind(client) };
    if (watchClient !== undefined) {
      this.watch = new LeaseWatch({ client: watchClient, clock, logger: this.logger, lease, restartDelayMs: retryPeriodMs, onLease: (object) => this.onLease(object) });
      this.watch.start();
    }
    this.schedule(0);
  }

  /**
   * Stops campaigning. When leading: calls `onStoppedLeading('leader election stopped')`, keeps renewing until its
   * promise settles, then releases the Lease. Idempotent; never rejects (a failed release is logged, and the next
   * leader then waits out the lease duration); leaves no timer or request behind.
   */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    if (this.phase === 'new') {
      this.phase = 'stopped';
      return;
    }
    if (this.leading) {
      this.phase = 'stepping-down';
      this.leading = false;
      this.clearDeadline();
      this.logger.info('stepping down: leader election stopped');
      await this.notifyStopped('leader election stopped');
    }
    this.phase = 'stopped';
    this.watch?.stop();
    const { clock } = this.options;
    if (this.nextAttempt !== undefined) clock.clearTimeout(this.nextAttempt);
    this.nextAttempt = undefined;
    this.clearDeadline();
    const inFlight = this.inFlight;
    if (inFlight !== undefined) {
      inFlight.abort.abort(new RuntimeError('E_STATE', 'leader elector stopped'));
      await inFlight.settled;
    }
    await this.pendingStop;
    await this.release();
  }

  /** Whether attempts go on: while running, and while stepping down (to keep the Lease during the host's drain). */
  private get campaigning(): boolean {
    return this.phase === 'running' || this.phase === 'stepping-down';
  }

  private schedule(delayMs: number): void {
    const { clock } = this.options;
    this.nextAttemptAt = clock.now() + delayMs;
    this.nextAttempt = clock.setTimeout(() => {
      this.nextAttempt = undefined;
      void this.tick();
    }, delayMs);
  }

  /** Brings the next attempt forward to `delayMs` from now, unless one is due sooner or is in flight. */
  private soon(delayMs: number): void {
    if (!this.campaigning) return;
    if (this.inFlight !== undefined) {
      if (delayMs === 0) this.wake = true;
      return;
    }
    if (this.nextAttempt === undefined) return; // a tick is between attempts (waiting for a step-down): it schedules
    if (this.nextAttemptAt <= this.options.clock.now() + delayMs) return;
    this.options.clock.clearTimeout(this.nextAttempt);
    this.schedule(delayMs);
  }

  /**
   * What the watch shows. A standby tries the moment the Lease is released or deleted, and otherwise the moment it
   * expires by our clock (the expiry restarts when we see the record change); a leader that sees another holder
   * tries at once, which makes it step down.
   */
  private onLease(lease: KubeObject | undefined): void {
    if (!this.campaigning) return;
    if (lease === undefined) {
      this.observed.forget();
      this.soon(0);
      return;
    }
    const record = readRecord(lease);
    this.observed.observe(record);
    if (record.holderIdentity === this.identity) return;
    if (this.leading || this.phase === 'stepping-down') {
      this.soon(0);
      return;
    }
    // The next attempt writes this copy without reading the Lease again (the write is conditional on its
    // resourceVersion, so a copy that is already stale only costs a 409).
    this.known = lease;
    this.soon(record.holderIdentity === '' ? 0 : this.observed.untilExpiry());
  }

  private jittered(): number {
    return this.options.retryPeriodMs * (1 + CANDIDATE_JITTER * this.random());
  }

  private async tick(): Promise<void> {
    if (this.pendingStop !== undefined && !this.leading) await this.pendingStop;
    if (!this.campaigning) return;
    const { clock, renewDeadlineMs } = this.options;
    const startedAt = clock.now();
    if (this.leading && this.lastRenewAt + renewDeadlineMs <= startedAt) this.lose(this.deadlineReason());
    // A request may run until the renew deadline: the remaining time while leading, a full deadline otherwise.
    const budget = this.leading ? this.lastRenewAt + renewDeadlineMs - startedAt : renewDeadlineMs;
    const abort = new AbortController();
    const timeout = clock.setTimeout(() => abort.abort(new RuntimeError('E_LEADER', `Lease request gave up after ${Math.round(budget)}ms`)), budget);
    const holding = this.leading || this.phase === 'stepping-down';
    const { client, lease } = this.options;
    const known = this.known;
    this.known = undefined;
    const input = { client, lease, identity: this.identity, leaseDurationSeconds: this.leaseDurationSeconds, observed: this.observed, holding, known, startedAt, signal: abort.signal };
    const settled = attemptLease(input).then(
      (attempt) => attempt,
      (error: unknown) => toError(error),
    );
    this.inFlight = { abort, settled };
    const result = await settled;
    clock.clearTimeout(timeout);
    this.inFlight = undefined;
    if (!(result instanceof Error) && result.outcome === 'holding') this.written = result.lease;
    if (!this.campaigning) return;
    const delay = this.handle(result, startedAt);
    const wake = this.wake;
    this.wake = false;
    if (delay !== undefined && this.campaigning) this.schedule(wake ? 0 : delay);
  }

  /** Acts on one attempt's result; returns when to try next (undefined: do not). */
  private handle(result: Attempt | Error, startedAt: number): number | undefined {
    const { clock, renewDeadlineMs, retryPeriodMs } = this.options;
    if (this.phase === 'stepping-down') {
      if (result instanceof Error) this.logger.debug('cannot renew the Lease while stepping down', { error: result });
      return !(result instanceof Error) && result.outcome === 'held' ? undefined : retryPeriodMs;
    }
    if (result instanceof Error) {
      this.conflicts = 0;
      this.logger.warn(this.leading ? 'cannot renew the Lease' : 'cannot acquire the Lease', { error: result });
      if (result instanceof UnansweredTakeBack) return this.options.leaseDurationMs + this.jittered();
      return this.leading ? retryPeriodMs : this.jittered();
    }
    if (result.outcome === 'conflict') {
      // Someone else wrote between our read and our write: a leader reads again at once (once), then at its pace.
      this.conflicts++;
      if (!this.leading) return this.jittered();
      return this.conflicts === 1 ? 0 : retryPeriodMs;
    }
    this.conflicts = 0;
    if (result.outcome === 'held') {
      const wasLeading = this.leading;
      this.lose(result.holder === '' ? 'the Lease was released or deleted by someone else' : `the Lease is held by ${result.holder}`);
      // A standby tries again at its pace, or the moment the holder's record expires if that comes first.
      return wasLeading ? this.jittered() : Math.min(this.jittered(), this.observed.untilExpiry());
    }
    const now = clock.now();
    if (now - startedAt >= renewDeadlineMs) {
      this.logger.warn('the Lease was written, but the answer came after the renew deadline', { ms: now - startedAt });
      return retryPeriodMs;
    }
    if (this.leading || this.pendingStop === undefined) {
      this.lastRenewAt = startedAt;
      this.armDeadline(startedAt + renewDeadlineMs);
    }
    if (!this.leading) {
      // Never lead again before the last step-down finished; the next attempt waits for it, then renews.
      if (this.pendingStop !== undefined) return 0;
      this.leading = true;
      this.logger.info('started leading');
      try {
        this.options.onStartedLeading();
      } catch (error) {
        this.logger.error('onStartedLeading failed', { error: toError(error) });
      }
    }
    return retryPeriodMs;
  }

  private deadlineReason(): string {
    return `the Lease was not renewed within the renew deadline (${this.options.renewDeadlineMs}ms)`;
  }

  private armDeadline(at: number): void {
    this.clearDeadline();
    const { clock } = this.options;
    this.deadline = clock.setTimeout(() => {
      this.deadline = undefined;
      this.lose(this.deadlineReason());
    }, at - clock.now());
  }

  private clearDeadline(): void {
    if (this.deadline !== undefined) this.options.clock.clearTimeout(this.deadline);
    this.deadline = undefined;
  }

  /** Stops leading at once: the callback runs now; its promise (if any) is remembered, not awaited. */
  private lose(reason: string): void {
    if (!this.leading) return;
    this.leading = false;
    this.clearDeadline();
    this.inFlight?.abort.abort(new RuntimeError('E_LEADER', reason));
    this.logger.warn('stopped leading', { reason });
    const settled = this.notifyStopped(reason);
    this.pendingStop = settled;
    void settled.then(() => {
      if (this.pendingStop === settled) this.pendingStop = undefined;
    });
  }

  /** Calls `onStoppedLeading`; the result settles when its promise does, and never rejects. */
  private notifyStopped(reason: string): Promise<void> {
    let returned: unknown;
    try {
      returned = this.options.onStoppedLeading(reason);
    } catch (error) {
      this.logger.error('onStoppedLeading failed', { error: toError(error) });
      return Promise.resolve();
    }
    return Promise.resolve(returned).then(
      () => undefined,
      (error: unknown) => this.logger.error('onStoppedLeading failed', { error: toError(error) }),
    );
  }

  /** Clears the holder (duration 1 s) when the Lease was last seen naming us. Bounded by the renew deadline. */
  private async release(): Promise<void> {
    const written = this.written;
    if (written === undefined || this.observed.record?.holderIdentity !== this.identity) return;
    const { client, clock, lease, renewDeadlineMs } = this.options;
    try {
      const record = await releaseLease({ client, clock, lease, identity: this.identity, timeoutMs: renewDeadlineMs }, written);
      if (record === undefined) return;
      this.observed.observe(record);
      this.logger.info('released the Lease');
    } catch (error) {
      // stop() never rejects (its contract): a release that cannot be written only makes the next leader wait for
      // the lease to expire, which is what a crash costs too.
      this.logger.warn('cannot release the Lease; the next leader waits for it to expire', { error: toError(error) });
    } finally {
      this.written = undefined;
    }
  }
}
