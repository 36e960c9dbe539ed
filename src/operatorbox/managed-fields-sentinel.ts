/**
 * Whether a CRD's gates may read the `managedFieldsChanged` sentinel, which compares fingerprints of the objects'
 * dropped `managedFields` (kube/cache-slim.ts). Only then do the informers behind those gates keep the fingerprint:
 * everywhere else the watch cuts the field out of each event unparsed and hashes nothing (kube/managed-fields-cut.ts).
 *
 * A textual check over the gate's definition (its declared sentinels, its gates' sentinels and conditions, where
 * `.sentinels.managedFieldsChanged` may be read): it errs on the side of keeping the fingerprint, never the other way.
 */
const SENTINEL = 'managedFieldsChanged';

/** True when `gates` (a `preReconcile` block or a watch entry's `enqueueGate`) mentions the sentinel anywhere. */
export function readsManagedFieldsChanged(gates: unknown): boolean {
  return gates !== undefined && JSON.stringify(gates).includes(SENTINEL);
}
