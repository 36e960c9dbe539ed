/**
 * One attempt of the elector (leader-election.ts): one read of the Lease and, when this replica may hold it, one
 * conditional write. Writes are conditional on the Lease's resourceVersion (a replace answered 409 means someone else
 * wrote first) or a create (409 AlreadyExists means someone created it first).
 */
import { KubeError, toError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import { LEASE_RESOURCE, leaseWithRecord, microTime, newLease, readRecord, type LeaseRecord } from './leader-lease.js';
import type { ObservedLease } from './leader-observed.js';

export type Attempt =
  /** We hold the Lease as of the attempt's start (acquired or renewed); `lease` is what the write returned. */
  | { readonly outcome: 'holding'; readonly lease: KubeObject }
  /** Someone else holds it, or (while we lead) it is no longer ours. */
  | { readonly outcome: 'held'; readonly holder: string }
  /** Someone else wrote between our read and our write (409). */
  | { readonly outcome: 'conflict' };

/**
 * A write of a Lease that names us, sent while not leading, that got no answer: it may well have landed. Taking the
 * Lease back again at once would renew it blindly and keep every other replica waiting for as long as the answers
 * are lost, so the next try waits a lease duration, which lets a replica that does get answers take over.
 */
export class UnansweredTakeBack extends Error {
  constructor(cause: unknown) {
    super(`taking the Lease back got no answer: ${toError(cause).message}`, { cause });
    this.name = 'UnansweredTakeBack';
  }
}

export interface AttemptInput {
  readonly client: Pick<KubeClient, 'get' | 'create' | 'replace'>;
  readonly lease: { readonly namespace: string; readonly name: string };
  readonly identity: string;
  /** Written into the Lease we hold. */
  readonly leaseDurationSeconds: number;
  /** Updated with every record read or written. */
  readonly observed: ObservedLease;
  /** Leading, or stepping down: the Lease must still be ours, we never take it from another. */
  readonly holding: boolean;
  /** A copy of the Lease a standby's watch just showed: written without reading the Lease again. */
  readonly known: KubeObject | undefined;
  readonly startedAt: number;
  readonly signal: AbortSignal;
}

/** One read and, when allowed, one write of the Lease. Rejects with the request's error (409 is an outcome). */
export async function attemptLease(input: AttemptInput): Promise<Attempt> {
  const { client, lease, identity, leaseDurationSeconds, observed, holding, startedAt, signal } = input;
  // A Lease the watch just showed released is written at once: one round trip from the release to the new leader.
  // Only a standby uses it: a copy seen before we acquired must never make a leader believe it lost the Lease.
  const known = holding ? undefined : input.known;
  const current = known ?? (await client.get(LEASE_RESOURCE, lease.name, lease.namespace, signal));
  if (current === undefined) {
    observed.forget();
    // Deleted under a leader: step down first, campaign again after.
    if (holding) return { outcome: 'held', holder: '' };
    const record: LeaseRecord = {
      holderIdentity: identity,
      leaseDurationSeconds,
      acquireTime: microTime(startedAt),
      renewTime: microTime(startedAt),
      leaseTransitions: 0,
    };
    return write(observed, () => client.create(LEASE_RESOURCE, newLease(lease.namespace, lease.name, record), { signal }));
  }
  const record = readRecord(current);
  observed.observe(record);
  const holder = record.holderIdentity;
  const ours = holder === identity;
  if (!ours && (holding || (holder !== '' && observed.valid()))) return { outcome: 'held', holder };
  const next: LeaseRecord = {
    holderIdentity: identity,
    leaseDurationSeconds,
    acquireTime: ours ? (record.acquireTime ?? microTime(startedAt)) : microTime(startedAt),
    renewTime: microTime(startedAt),
    leaseTransitions: ours ? record.leaseTransitions : record.leaseTransitions + 1,
  };
  // Taking back a Lease that still names us (we stepped down, or never saw the answer of our last write) is
  // what client-go does too: nobody else may hold it before it expires, and we are the holder it names.
  const takeBack = ours && !holding;
  return write(observed, () => client.replace(LEASE_RESOURCE, leaseWithRecord(current, next), { signal }), takeBack);
}

async function write(observed: ObservedLease, send: () => Promise<KubeObject>, takeBack = false): Promise<Attempt> {
  let lease: KubeObject;
  try {
    lease = await send();
  } catch (error) {
    if (error instanceof KubeError && error.status === 409) return { outcome: 'conflict' };
    const answered = error instanceof KubeError && error.status !== undefined;
    if (takeBack && !answered) throw new UnansweredTakeBack(error);
    throw error;
  }
  observed.observe(readRecord(lease));
  return { outcome: 'holding', lease };
}
