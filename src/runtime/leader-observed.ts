/**
 * What a replica last saw in the Lease, and when by its own clock. Expiry is always measured from the moment the
 * record was first seen, never from the Lease's remote `renewTime`, so clock offsets between machines do not matter
 * (leader-election.ts).
 */
import type { Clock } from '../util/clock.js';
import { recordKey, type LeaseRecord } from './leader-lease.js';

export class ObservedLease {
  private seen: { readonly key: string; readonly record: LeaseRecord; readonly at: number } | undefined;

  /** `defaultDurationSeconds` stands in for a record whose `leaseDurationSeconds` is missing or zero. */
  constructor(
    private readonly clock: Clock,
    private readonly defaultDurationSeconds: number,
  ) {}

  /** The last seen record, undefined before the first read or after the Lease was seen deleted. */
  get record(): LeaseRecord | undefined {
    return this.seen?.record;
  }

  /** Records what the Lease says; the expiry clock restarts only when the record changed. */
  observe(record: LeaseRecord): void {
    const key = recordKey(record);
    if (this.seen?.key !== key) this.seen = { key, record, at: this.clock.now() };
  }

  /** The Lease was seen deleted. */
  forget(): void {
    this.seen = undefined;
  }

  /** Whether the last seen record is still within its lease duration, by our clock since we first saw it. */
  valid(): boolean {
    const expiresAt = this.expiresAt();
    return expiresAt !== undefined && expiresAt > this.clock.now();
  }

  /** Milliseconds until the last seen record expires by our clock (1 ms past it), 0 when nothing is seen. */
  untilExpiry(): number {
    const expiresAt = this.expiresAt();
    return expiresAt === undefined ? 0 : Math.max(0, expiresAt - this.clock.now()) + 1;
  }

  private expiresAt(): number | undefined {
    const seen = this.seen;
    if (seen === undefined) return undefined;
    const seconds = seen.record.leaseDurationSeconds > 0 ? seen.record.leaseDurationSeconds : this.defaultDurationSeconds;
    return seen.at + seconds * 1000;
  }
}
