/**
 * Tells the echo of a status write apart from a change the reconcile must see: two states of an object that differ
 * only in `status`, `metadata.resourceVersion` and `metadata.managedFields` (what every write changes).
 *
 * Runs for every update event of every custom resource, so it compares the two trees in place (JSON semantics: key
 * order does not matter, a key holding `undefined` is the same as no key, array order does) instead of serialising
 * both states; it stops at the first difference.
 */
import type { KubeObject } from '../kube/resource.js';

const IGNORED_TOP = new Set(['status', 'metadata']);
const IGNORED_METADATA = new Set(['resourceVersion', 'managedFields']);

/** True when two states of an object differ only in `status` and in what every write changes. */
export function onlyStatusChanged(old: KubeObject, next: KubeObject): boolean {
  return sameJsonExcept(old, next, IGNORED_TOP) && sameJsonExcept(old.metadata ?? {}, next.metadata ?? {}, IGNORED_METADATA);
}

function sameJsonExcept(a: object, b: object, ignored: ReadonlySet<string>): boolean {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key) || ignored.has(key) || left[key] === undefined) continue;
    if (!sameJson(left[key], right[key])) return false;
    count++;
  }
  for (const key in right) if (Object.hasOwn(right, key) && !ignored.has(key) && right[key] !== undefined) count--;
  return count === 0;
}

/** Whether two values serialise to the same JSON, up to key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  return !Array.isArray(b) && sameJsonExcept(a, b, NOTHING);
}

const NOTHING: ReadonlySet<string> = new Set();
