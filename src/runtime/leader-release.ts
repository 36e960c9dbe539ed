/**
 * Releasing a Lease on a graceful stop, as client-go's ReleaseOnCancel does: the holder is cleared and the duration
 * set to 1 s, so the next replica takes over at its next attempt instead of after a lease duration.
 */
import { KubeError, RuntimeError } from '../errors.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import type { Clock } from '../util/clock.js';
import { LEASE_RESOURCE, leaseWithRecord, microTime, readRecord, type LeaseRecord } from './leader-lease.js';

export interface ReleaseOptions {
  readonly client: Pick<KubeClient, 'get' | 'replace'>;
  readonly clock: Clock;
  readonly lease: { readonly namespace: string; readonly name: string };
  readonly identity: string;
  /** Bound on the whole release, requests included. */
  readonly timeoutMs: number;
}

/**
 * Writes the released record over `written` (our last write of the Lease). On a 409 (our copy is stale: a write of
 * ours whose answer we never saw, or someone else's) it reads once more and releases only if the Lease still names
 * us. Resolves with the record as written, or undefined when the Lease is no longer ours; rejects when the release
 * could not be written within `timeoutMs` (the next leader then waits for the lease to expire).
 */
export async function releaseLease(options: ReleaseOptions, written: KubeObject): Promise<LeaseRecord | undefined> {
  const { client, clock, lease, identity, timeoutMs } = options;
  const abort = new AbortController();
  const timeout = clock.setTimeout(() => abort.abort(new RuntimeError('E_LEADER', `releasing the Lease gave up after ${timeoutMs}ms`)), timeoutMs);
  const released = (base: KubeObject): KubeObject => {
    const now = microTime(clock.now());
    const { leaseTransitions } = readRecord(base);
    return leaseWithRecord(base, { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions });
  };
  try {
    try {
      return readRecord(await client.replace(LEASE_RESOURCE, released(written), { signal: abort.signal }));
    } catch (error) {
      if (!(error instanceof KubeError && error.status === 409)) throw error;
    }
    const fresh = await client.get(LEASE_RESOURCE, lease.name, lease.namespace, abort.signal);
    if (fresh === undefined || readRecord(fresh).holderIdentity !== identity) return undefined;
    return readRecord(await client.replace(LEASE_RESOURCE, released(fresh), { signal: abort.signal }));
  } finally {
    clock.clearTimeout(timeout);
  }
}
