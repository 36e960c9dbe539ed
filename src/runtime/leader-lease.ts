/**
 * The leader-election record as it lives in a `coordination.k8s.io/v1` Lease's spec, read from and written to
 * plain JSON. The fields are the ones client-go's LeaseLock uses, so katalog replicas and Go tools (`kubectl`,
 * dashboards) read the same Lease the same way.
 */
import type { KubeObject, ResourceRef } from '../kube/resource.js';

export const LEASE_RESOURCE: ResourceRef = Object.freeze({
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
});

/** The election fields of a Lease spec. */
export interface LeaseRecord {
  /** '' when nobody holds the Lease (never acquired, or released). */
  readonly holderIdentity: string;
  /** 0 when the Lease does not say. */
  readonly leaseDurationSeconds: number;
  readonly acquireTime: string | undefined;
  readonly renewTime: string | undefined;
  readonly leaseTransitions: number;
}

/** Reads the record of a Lease; missing or ill-typed fields read as empty. */
export function readRecord(lease: KubeObject): LeaseRecord {
  const spec = isObject(lease['spec']) ? lease['spec'] : {};
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
  return {
    holderIdentity: text(spec['holderIdentity']) ?? '',
    leaseDurationSeconds: count(spec['leaseDurationSeconds']),
    acquireTime: text(spec['acquireTime']),
    renewTime: text(spec['renewTime']),
    leaseTransitions: count(spec['leaseTransitions']),
  };
}

/** A stable text form of a record, to tell whether it changed since it was last seen. */
export function recordKey(record: LeaseRecord): string {
  return JSON.stringify([record.holderIdentity, record.leaseDurationSeconds, record.acquireTime ?? null, record.renewTime ?? null, record.leaseTransitions]);
}

/** A Kubernetes MicroTime (`2026-01-01T00:00:00.123000Z`: RFC 3339 with exactly six fraction digits, UTC). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** A new Lease carrying `record`, for a create. */
export function newLease(namespace: string, name: string, record: LeaseRecord): KubeObject {
  return leaseWithRecord({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { namespace, name } }, record);
}

/**
 * A copy of `base` carrying `record`: everything of `base` is kept (metadata, including the resourceVersion that
 * makes a replace conditional, and spec fields we do not own) and only the record's fields are overwritten.
 */
export function leaseWithRecord(base: KubeObject, record: LeaseRecord): KubeObject {
  const object = structuredClone(base);
  const spec: Record<string, unknown> = isObject(object['spec']) ? object['spec'] : {};
  spec['holderIdentity'] = record.holderIdentity;
  spec['leaseDurationSeconds'] = record.leaseDurationSeconds;
  spec['leaseTransitions'] = record.leaseTransitions;
  if (record.acquireTime === undefined) delete spec['acquireTime'];
  else spec['acquireTime'] = record.acquireTime;
  if (record.renewTime === undefined) delete spec['renewTime'];
  else spec['renewTime'] = record.renewTime;
  object['spec'] = spec;
  delete object.metadata?.managedFields;
  return object;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
