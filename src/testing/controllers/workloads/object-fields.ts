/** Reading the fields of stored workload objects (JSON as the API answers it) without trusting their shape. */
import { asObject } from '../../patch/json-value.js';
import type { KubeObject } from '../../store/record.js';

export type Json = Record<string, unknown>;

/** A non-negative integer, or `fallback` when the value is not one. */
export function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** The object's annotations (a string map; `{}` when there are none). */
export function annotationsOf(object: KubeObject): Record<string, string> {
  return asObject(asObject(object['metadata'])['annotations']) as Record<string, string>;
}

/** The object's spec and status (`{}` when absent). */
export function specOf(object: KubeObject): Json {
  return asObject(object['spec']);
}

export function statusOf(object: KubeObject): Json {
  return asObject(object['status']);
}

/** `spec.replicas` of a workload (defaulted to 1 when stored). */
export function replicasOf(object: KubeObject): number {
  return count(specOf(object)['replicas'], 1);
}

/** The uid of the object's controller owner reference, when it has one of this kind. */
export function controllerUid(object: KubeObject, kind: string): string | undefined {
  const refs = asObject(object['metadata'])['ownerReferences'];
  if (!Array.isArray(refs)) return undefined;
  const ref = refs.map(asObject).find((r) => r['controller'] === true);
  return ref !== undefined && ref['kind'] === kind && typeof ref['uid'] === 'string' ? ref['uid'] : undefined;
}

/** Whether the workload's generation is not yet observed (its spec changed since its controller last wrote status). */
export function unobserved(object: KubeObject): boolean {
  return statusOf(object)['observedGeneration'] !== asObject(object['metadata'])['generation'];
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
