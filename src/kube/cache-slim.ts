/**
 * What the informer cache drops from every object before keeping it: the fields that neither reconcile nor drift
 * correction reads and that can be larger than the object itself. `metadata.managedFields` (server-side apply
 * bookkeeping, often half of an object's JSON) and kubectl's `last-applied-configuration` annotation (a second copy
 * of the object as JSON). Everything else is kept as parsed: one plain object per resource, no copies, no closures.
 */
import type { KubeObject } from './resource.js';

/** kubectl's client-side apply annotation: the whole last applied object, as a JSON string. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** Removes what the cache does not keep, in place, and returns the same object. */
export function slimForCache(object: KubeObject): KubeObject {
  const metadata = object.metadata;
  if (metadata === undefined) return object;
  if ('managedFields' in metadata) delete metadata.managedFields;
  const annotations = metadata.annotations;
  if (annotations !== undefined && LAST_APPLIED_ANNOTATION in annotations) {
    delete annotations[LAST_APPLIED_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete metadata.annotations;
  }
  return object;
}
