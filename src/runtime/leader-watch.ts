/**
 * A watch on one Lease, kept open for the leader elector so that it learns of every change the moment it is made:
 * a renewal (the expiry clock restarts then, not at the next poll), a release (a standby acquires at once) or a
 * new holder (a leader steps down at once). The watch only makes the elector faster: its decisions still rest on
 * its own reads and conditional writes, and without the watch (a client without `watch`, a watch that keeps
 * failing) the elector polls every retry period as before.
 */
import type { KubeClient, WatchHandle } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import { LEASE_RESOURCE } from './leader-lease.js';

export type LeaseWatchClient = Pick<KubeClient, 'watch'>;

export interface LeaseWatchOptions {
  readonly client: LeaseWatchClient;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly lease: { readonly namespace: string; readonly name: string };
  /** Wait before watching again after the watch ended or failed. */
  readonly restartDelayMs: number;
  /** The Lease as the watch shows it; `undefined` when it was deleted. */
  readonly onLease: (lease: KubeObject | undefined) => void;
}

export class LeaseWatch {
  private handle: WatchHandle | undefined;
  private restart: TimerHandle | undefined;
  private running = false;

  constructor(private readonly options: LeaseWatchOptions) {}

  /** Opens the watch (the server first sends the Lease as it is now, then every change). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  /** Closes the watch; no callback runs afterwards. */
  stop(): void {
    this.running = false;
    if (this.restart !== undefined) this.options.clock.clearTimeout(this.restart);
    this.restart = undefined;
    this.handle?.abort();
    this.handle = undefined;
  }

  private open(): void {
    const { client, lease, logger } = this.options;
    const handle = client.watch(LEASE_RESOURCE, { namespace: lease.namespace, fieldSelector: `metadata.name=${lease.name}` }, (type, object) => {
      if (!this.running || this.handle !== handle) return;
      if (type === 'ADDED' || type === 'MODIFIED') this.options.onLease(object);
      else if (type === 'DELETED') this.options.onLease(undefined);
    });
    this.handle = handle;
    void handle.done.then(({ error }) => {
      if (!this.running || this.handle !== handle) return;
      // Not swallowed: the elector polls every retry period meanwhile, so a broken watch only costs speed.
      if (error !== undefined) logger.debug('the Lease watch ended; watching again', { error });
      this.handle = undefined;
      this.restart = this.options.clock.setTimeout(() => {
        this.restart = undefined;
        if (this.running) this.open();
      }, this.options.restartDelayMs);
    });
  }
}
