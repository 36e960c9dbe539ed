/**
 * This replica's part in leader election: it campaigns for the Lease (of its shard) and turns winning and losing
 * into workers started and stopped on every active CRD, the `controller_leader` gauge and `leadershipChanged`.
 * Without leader election every replica leads.
 */
import type { Controller } from '../controller/controller.js';
import type { KubeClient } from '../kube/client.js';
import type { LifecycleEmitter } from '../observe/events.js';
import type { Logger } from '../observe/logger.js';
import type { Metrics } from '../observe/metrics.js';
import type { Clock } from '../util/clock.js';
import { LeaderElector } from './leader-election.js';
import type { ResolvedLeaderElection } from './leader-options.js';

export interface LeaderInfo {
  readonly identity: string;
  readonly leader: boolean;
  /** The identity the Lease last named, as this replica saw it. */
  readonly holder: string | undefined;
  /** `namespace/name` of the Lease. */
  readonly lease: string;
  readonly shard?: { readonly index: number; readonly count: number };
}

export interface LeadershipDeps {
  readonly election: ResolvedLeaderElection | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly events: LifecycleEmitter;
  /** The controllers of the active CRDs now. */
  controllers(): Controller[];
  /** True once the runtime is stopping (workers are drained there, not here). */
  stopping(): boolean;
}

export class Leadership {
  private elector: LeaderElector | undefined;
  private leading: boolean;

  constructor(private readonly deps: LeadershipDeps) {
    this.leading = deps.election === undefined;
  }

  /** Whether this replica runs workers. */
  get leader(): boolean {
    return this.leading;
  }

  info(): LeaderInfo | undefined {
    const election = this.deps.election;
    if (election === undefined) return undefined;
    return {
      identity: election.identity,
      leader: this.leading,
      holder: this.elector?.holder,
      lease: `${election.lease.namespace}/${election.lease.name}`,
      ...(election.shard === undefined ? {} : { shard: { index: election.shard.index, count: election.shard.count } }),
    };
  }

  /** Starts campaigning (no-op without leader election). Does not wait for the Lease. */
  start(client: KubeClient): void {
    const election = this.deps.election;
    if (election === undefined) return;
    this.deps.metrics.leader(false);
    this.elector = new LeaderElector({
      client,
      clock: this.deps.clock,
      logger: this.deps.logger.child({ component: 'leader-election' }),
      lease: election.lease,
      identity: election.identity,
      leaseDurationMs: election.leaseDurationMs,
      renewDeadlineMs: election.renewDeadlineMs,
      retryPeriodMs: election.retryPeriodMs,
      onStartedLeading: () => void this.change(true, 'acquired the Lease'),
      onStoppedLeading: (reason) => this.change(false, reason),
    });
    this.elector.start();
  }

  /** Stops campaigning and releases the Lease if held. */
  async stop(): Promise<void> {
    await this.elector?.stop();
  }

  /** Gaining the Lease starts every active CRD's workers; losing it stops them at once. */
  private async change(leader: boolean, reason: string): Promise<void> {
    const { election, logger, metrics, events } = this.deps;
    this.leading = leader;
    metrics.leader(leader);
    events.emit('leadershipChanged', {
      leader,
      identity: election?.identity ?? '',
      ...(election?.shard === undefined ? {} : { shard: { index: election.shard.index, count: election.shard.count } }),
    });
    const controllers = this.deps.controllers();
    if (leader) {
      logger.info('leading: starting workers', { reason });
      for (const controller of controllers) controller.startWorkers();
      return;
    }
    logger.warn('not leading: stopping workers', { reason });
    if (this.deps.stopping()) return;
    await Promise.all(controllers.map((controller) => controller.stopWorkers(`lost leadership: ${reason}`)));
  }
}
