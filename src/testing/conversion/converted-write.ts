/**
 * A write of a custom resource whose CRD converts through a webhook, as kube-apiserver makes it. apiextensions-apiserver
 * serves each version with a storage of its own whose objects are at that version; its codec converts them only to
 * write them to etcd and to read them back. So, for a write in a version other than the storage version:
 *
 * - the stored object is converted to the request's version (`held`), and the write is made there as any write is:
 *   decoding, defaults, the field manager, admission, and that version's schema and CEL rules, ratcheted against the
 *   held object;
 * - each managedFields entry of another version is compared in its own version (versioned-fields.ts);
 * - the result is converted to the storage version (pruned to its schema), decoded with its defaults, and stored. A
 *   dry run is converted the same way and not stored, and a write that leaves the stored object as it was stores
 *   nothing.
 *
 * At the storage version, a write comes here only when the stored object has entries of other versions: it is made
 * and stored as any write is, those entries compared in their versions.
 *
 * The conversions are awaited, so another write may land meanwhile. The write is then not stored, and the caller is
 * told with {@link ChangedUnderneath}: a create answers AlreadyExists, a PUT a 409, a PATCH is made again.
 */
import type { Cluster } from '../cluster.js';
import { admitWrite, type AdmissionWrite, type AdmittedOperation, type AdmittedWrite } from '../admission/admit.js';
import { commitChange } from '../operations/commit-change.js';
import { sameContent } from '../operations/object-rules.js';
import { storedRecord } from '../resources/stored-record.js';
import type { ResourceView } from '../resources/resource-type.js';
import { heldAtView, withStorageDefaults } from '../resources/version-forms.js';
import { copyObject, metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { convertObjects, webhookConversionOf, type WebhookConversion } from './converted-views.js';
import { otherEntryVersions, withVersionedFields } from './versioned-fields.js';

/** Thrown when the stored object is no longer the one the write was made on; `current` is what the store holds now. */
export class ChangedUnderneath extends Error {
  constructor(readonly current: StoredRecord | undefined) {
    super('katalog/testing: the stored object changed while the write was converted');
  }
}

/** A write as admission is told of it, but for the old object, which this module gives. */
export type VersionedRequest = Omit<AdmissionWrite, 'oldObject'>;

/**
 * The conversion a write at `view` of the object stored as `prev` goes through here, or undefined: the CRD does not
 * convert through a webhook, or the write and every managedFields entry are at the storage version.
 */
export function convertedWriteOf(cluster: Cluster, view: ResourceView, prev: StoredRecord | undefined): WebhookConversion | undefined {
  const conversion = webhookConversionOf(cluster, view.type);
  if (conversion === undefined) return undefined;
  if (view.version !== conversion.storage.version) return conversion;
  return prev !== undefined && otherEntryVersions(prev.object, view.apiVersion).length > 0 ? conversion : undefined;
}

/** The stored object of `prev` at `view`'s version, converted through the webhook, with `prev`'s resourceVersion. */
export async function heldRecord(conversion: WebhookConversion, view: ResourceView, prev: StoredRecord): Promise<StoredRecord> {
  if (view.version === conversion.storage.version) return prev;
  const [object] = await convertObjects(conversion, [copyObject(prev, conversion.storage.apiVersion, view.type.kind)], view.apiVersion);
  const held = object ?? copyObject(prev, view.apiVersion, view.type.kind);
  metadataOf(held)['resourceVersion'] = String(prev.rv);
  return storedRecord(view.type, held);
}

/**
 * Performs the write `operation` makes of the object stored as `prev` (none: a create) under admission. The write is
 * made at `request.view`'s version: `operation` is given the object as that version holds it (undefined when the
 * write is not converted, and looks it up itself). `fields` asks for the entries of other versions to be compared in
 * theirs (not for an apply, which compares them itself). `changed` words the error of a write whose stored object
 * changed while it was converted (a PATCH passes undefined and is told with {@link ChangedUnderneath}).
 */
export async function admitVersioned(
  cluster: Cluster,
  request: VersionedRequest,
  prev: StoredRecord | undefined,
  operation: (held: StoredRecord | undefined) => AdmittedOperation,
  fields: { readonly manager: string } | undefined,
  changed?: (current: StoredRecord | undefined) => Error,
): Promise<AdmittedWrite> {
  const { view } = request;
  const conversion = convertedWriteOf(cluster, view, prev);
  if (conversion === undefined) {
    const oldObject = prev === undefined ? undefined : heldAtView(view, copyObject(prev, view.apiVersion, view.type.kind));
    return admitWrite(cluster, { ...request, oldObject }, operation(undefined));
  }
  const held = prev === undefined ? undefined : await heldRecord(conversion, view, prev);
  try {
    return await admitConverted(cluster, conversion, request, { prev, held }, operation(held), fields);
  } catch (error) {
    if (error instanceof ChangedUnderneath && changed !== undefined) throw changed(error.current);
    throw error;
  }
}

/** The stored object a write replaces, and the same at the write's version. */
export interface HeldWrite {
  readonly prev: StoredRecord | undefined;
  readonly held: StoredRecord | undefined;
}

/** {@link admitVersioned} once the stored object is held at the request's version: `write` makes the write there. */
export async function admitConverted(
  cluster: Cluster,
  conversion: WebhookConversion,
  request: VersionedRequest,
  { prev, held }: HeldWrite,
  write: AdmittedOperation,
  fields: { readonly manager: string } | undefined,
): Promise<AdmittedWrite> {
  const { view } = request;
  const { type } = view;
  const atStorage = view.version === conversion.storage.version;
  const unchanged = (namespace: string, name: string): void => {
    const current = cluster.store.get(type.key, namespace, name);
    if (current !== prev) throw new ChangedUnderneath(current);
  };
  // At the storage version the write stores itself, once it is sure of the object; elsewhere it only checks, and
  // what it would store is converted and stored below.
  const checked: AdmittedOperation = atStorage
    ? (object, dryRun, managedFields) => {
        unchanged(request.namespace, request.name);
        return write(object, dryRun, managedFields);
      }
    : (object, _dryRun, managedFields) => write(object, true, managedFields);
  const versioned =
    fields === undefined || request.object === undefined
      ? checked
      : await withVersionedFields(cluster, view, conversion, request.object, checked, { manager: fields.manager, subresource: request.subresource === 'status' ? 'status' : undefined, prev: held });
  const admitted = await admitWrite(cluster, { ...request, oldObject: held === undefined ? undefined : copyObject(held, view.apiVersion, type.kind) }, versioned);
  if (atStorage) return admitted;
  const { warnings } = admitted;
  // The write changes nothing at its version (finishUpdate answered the held object).
  if (prev !== undefined && admitted.record === held) return { record: prev, warnings };
  const planned = admitted.record;
  const [converted] = await convertObjects(conversion, [copyObject(planned, view.apiVersion, type.kind)], conversion.storage.apiVersion);
  const object: KubeObject = withStorageDefaults(type, converted ?? copyObject(planned, conversion.storage.apiVersion, type.kind));
  if (request.dryRun) {
    if (prev !== undefined) metadataOf(object)['resourceVersion'] = String(prev.rv);
    return { record: storedRecord(type, object), warnings };
  }
  unchanged(planned.namespace, planned.name);
  // kube-apiserver's store compares the bytes it would write with the stored ones: the same, it writes nothing.
  if (prev !== undefined && sameContent(prev.object, object)) return { record: prev, warnings };
  return { record: prev === undefined ? cluster.commit(type, 'ADDED', object, undefined) : commitChange(cluster, type, object, prev), warnings };
}
