/**
 * What the informer cache drops from every object before keeping it: the fields that neither reconcile nor drift
 * correction reads and that can be larger than the object itself. `metadata.managedFields` (server-side apply
 * bookkeeping, often half of an object's JSON) and kubectl's `last-applied-configuration` annotation (a second copy
 * of the object as JSON). Everything else is kept as parsed: one plain object per resource, no copies, no closures.
 *
 * The fields are left out of a rebuilt `metadata` (and `annotations`) rather than `delete`d: V8 turns an object that
 * loses a property into a dictionary (a hash table of its own, several hundred bytes), while objects rebuilt with the
 * same keys in the same order share one hidden class. With 100,000 cached objects that is the difference between
 * about 3.5 and 1.5 KB per custom resource and its child (docs/performance.md, "Scale").
 */
import type { KubeObject } from './resource.js';

/** kubectl's client-side apply annotation: the whole last applied object, as a JSON string. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** Removes what the cache does not keep and returns the same object (its `metadata` replaced when anything went). */
export function slimForCache(object: KubeObject): KubeObject {
  const metadata = object.metadata;
  if (metadata === undefined) return object;
  const annotations = metadata.annotations;
  const lastApplied = annotations !== undefined && LAST_APPLIED_ANNOTATION in annotations;
  if (!lastApplied && !('managedFields' in metadata)) return object;
  const slim: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(metadata)) {
    if (field === 'managedFields') continue;
    if (field === 'annotations' && lastApplied) {
      const kept = without(value as Record<string, string>, LAST_APPLIED_ANNOTATION);
      if (kept !== undefined) slim[field] = kept;
      continue;
    }
    slim[field] = value;
  }
  object.metadata = slim as NonNullable<KubeObject['metadata']>;
  return object;
}

/** A copy of `record` without `omitted`, or undefined when nothing else is left. */
function without(record: Readonly<Record<string, string>>, omitted: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let kept = 0;
  for (const [key, value] of Object.entries(record)) {
    if (key === omitted) continue;
    out[key] = value;
    kept++;
  }
  return kept === 0 ? undefined : out;
}
