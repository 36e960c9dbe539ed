/**
 * The managedFields of a write to a custom resource whose CRD converts through a webhook, as kube-apiserver's field
 * manager records them. The write is made at the request's version (converted-write.ts), so:
 *
 * - the writer's entry is recorded at the request's version, comparing the stored object and the new one there (the
 *   write does that itself);
 * - every other entry is compared in its own version, the two objects converted to it through the webhook
 *   (structured-merge-diff's `Updater.update`), so a field renamed between versions is still the same field.
 *
 * For the second, a write learns the object it will make from a dry run of itself, converts that and the stored
 * object to each version the entries need (one ConversionReview of the two per version), and is handed the entries
 * computed there.
 */
import type { Cluster } from '../cluster.js';
import type { AdmittedOperation } from '../admission/admit.js';
import { recordUpdate, type ManagedFieldsEntry, type VersionPair } from '../patch/index.js';
import type { ResourceView } from '../resources/resource-type.js';
import { copyObject, metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { convertObjects, type WebhookConversion } from './converted-views.js';

/** The apiVersions that `object`'s managedFields entries name, other than `apiVersion`. */
export function otherEntryVersions(object: KubeObject | undefined, apiVersion: string): string[] {
  const entries = object === undefined ? undefined : metadataOf(object)['managedFields'];
  if (!Array.isArray(entries)) return [];
  const versions = new Set<string>();
  for (const entry of entries as { apiVersion?: unknown }[]) if (typeof entry.apiVersion === 'string' && entry.apiVersion !== apiVersion) versions.add(entry.apiVersion);
  return [...versions];
}

/**
 * The object before and after a write at each of `versions`: `before` and `after` (at one version) as they are for
 * their own version, else converted through the webhook, the two in one review.
 */
export async function objectsAt(conversion: WebhookConversion, before: KubeObject | undefined, after: KubeObject, versions: readonly string[]): Promise<Map<string, VersionPair>> {
  const out = new Map<string, VersionPair>();
  for (const version of versions) {
    if (out.has(version)) continue;
    if (version === after['apiVersion']) {
      out.set(version, { before, after });
      continue;
    }
    const converted = await convertObjects(conversion, before === undefined ? [after] : [before, after], version);
    out.set(version, before === undefined ? { before: undefined, after: converted[0] ?? after } : { before: converted[0], after: converted[1] ?? after });
  }
  return out;
}

/** What the write is: its field manager and subresource, and the stored object it replaces at its version (none: a create). */
export interface VersionedWrite {
  readonly manager: string;
  readonly subresource: 'status' | undefined;
  readonly prev: StoredRecord | undefined;
}

/**
 * `write` (made at `view`'s version, on the stored object held there as `what.prev`) made to compare each
 * managedFields entry of another version in its own version; `write` itself when every entry is at `view`'s. The
 * entries are computed once, before admission, as kube-apiserver's field manager runs before the mutating webhooks
 * (what they change is nobody's).
 */
export async function withVersionedFields(cluster: Cluster, view: ResourceView, conversion: WebhookConversion, object: KubeObject, write: AdmittedOperation, what: VersionedWrite): Promise<AdmittedOperation> {
  const prev = what.prev?.object;
  const others = otherEntryVersions(prev, view.apiVersion);
  if (prev === undefined || others.length === 0) return write;
  let planned: StoredRecord;
  try {
    planned = write(structuredClone(object), true);
  } catch {
    // Not swallowed: the write is refused, and the real write (after admission, which may change the object, as
    // kube-apiserver's validation comes after its mutating webhooks) answers that refusal to the client.
    return write;
  }
  if (planned === what.prev) return write;
  const next = copyObject(planned, view.apiVersion, view.type.kind);
  const entries = metadataOf(prev)['managedFields'];
  const managedFields = recordUpdate(prev, next, Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : [], {
    manager: what.manager,
    apiVersion: view.apiVersion,
    now: cluster.now(),
    listKeys: view.type.listKeys,
    ...(what.subresource === undefined ? {} : { subresource: what.subresource }),
    elsewhere: await objectsAt(conversion, prev, next, others),
  });
  return (candidate, dryRun, computed) => write(candidate, dryRun, computed ?? managedFields);
}
