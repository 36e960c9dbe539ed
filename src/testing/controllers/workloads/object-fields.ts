/** Reading the fields of stored workload objects (JSON as the API answers it) without trusting their shape. */
import type { KubeObject } from '../../store/record.js';

export type Json = Record<string, unknown>;

/** The value as an object, or `{}` when it is not one. */
export function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/** A non-negative integer, or `fallback` when the value is not one. */
export function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** The object's annotations (a string map; `{}` when there are none). */
export function annotationsOf(object: KubeObject): Record<string, string> {
  return record(record(object['metadata'])['annotations']) as Record<string, string>;
}

/** The object's spec and status (`{}` when absent). */
export function specOf(object: KubeObject): Json {
  return record(object['spec']);
}

export function statusOf(object: KubeObject): Json {
  return record(object['status']);
}

/** `spec.replicas` of a workload (defaulted to 1 when stored). */
export function replicasOf(object: KubeObject): number {
  return count(specOf(object)['replicas'], 1);
}

/** The uid of the object's controller owner reference, when it has one of this kind. */
export function controllerUid(object: KubeObject, kind: string): string | undefined {
  const refs = record(object['metadata'])['ownerReferences'];
  if (!Array.isArray(refs)) return undefined;
  const ref = refs.map(record).find((r) => r['controller'] === true);
  return ref !== undefined && ref['kind'] === kind && typeof ref['uid'] === 'string' ? ref['uid'] : undefined;
}

/** Whether the workload's generation is not yet observed (its spec changed since its controller last wrote status). */
export function unobserved(object: KubeObject): boolean {
  return statusOf(object)['observedGeneration'] !== record(object['metadata'])['generation'];
}

/** `status` without the fields Go's `omitempty` leaves out when they are 0 (as a controller's write stores them). */
export function withoutZeros(status: Json, omitEmpty: readonly string[]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(status)) {
    if (value === undefined || (value === 0 && omitEmpty.includes(key))) continue;
    out[key] = value;
  }
  return out;
}
