/**
 * The managedFields of a write to a custom resource whose CRD converts through a webhook, as kube-apiserver's field
 * manager records them. kube-apiserver handles a custom resource at the request's version and converts it to the
 * storage version only to store it (`HubGroupVersion` in apiextensions-apiserver's handler), so:
 *
 * - the writer's entry is recorded at the request's version, comparing the stored object and the new one there;
 * - every other entry is compared in its own version, the two objects converted to it through the webhook
 *   (structured-merge-diff's `Updater.update`), so a field renamed between versions is still the same field.
 *
 * This server stores and checks the object at the storage version, so a write of such a resource learns the object
 * it will store from a dry run of the write itself, converts that and the stored object to each version the entries
 * need (one ConversionReview of the two per version), and hands the write the entries computed there.
 */
import type { Cluster } from '../cluster.js';
import type { AdmittedOperation } from '../admission/admit.js';
import { recordUpdate, type ManagedFieldsEntry, type VersionPair } from '../patch/index.js';
import type { ResourceView } from '../resources/resource-type.js';
import { metadataOf, objectJson, type KubeObject, type StoredRecord } from '../store/record.js';
import { conversionOf, convertObjects, webhookConversionFor, type WebhookConversion } from './converted-views.js';

/** The webhook and storage view of `view`'s CRD when it converts through a webhook, whatever the request's version. */
export function webhookConversionOf(cluster: Cluster, view: ResourceView): WebhookConversion | undefined {
  const conversion = conversionOf(cluster, view.type);
  return conversion?.webhook === undefined ? undefined : { webhook: conversion.webhook, storage: conversion.storage };
}

/** The apiVersions that `object`'s managedFields entries name, other than `apiVersion`. */
export function otherEntryVersions(object: KubeObject | undefined, apiVersion: string): string[] {
  const entries = object === undefined ? undefined : metadataOf(object)['managedFields'];
  if (!Array.isArray(entries)) return [];
  const versions = new Set<string>();
  for (const entry of entries as { apiVersion?: unknown }[]) if (typeof entry.apiVersion === 'string' && entry.apiVersion !== apiVersion) versions.add(entry.apiVersion);
  return [...versions];
}

/**
 * The conversion a PATCH goes through (operations/patch-converted.ts): the request version's, or, at the storage
 * version, the CRD's webhook when the stored object has entries of other versions, which are compared there.
 */
export function patchConversion(cluster: Cluster, view: ResourceView, namespace: string, name: string): WebhookConversion | undefined {
  const converted = webhookConversionFor(cluster, view);
  if (converted !== undefined) return converted;
  const conversion = webhookConversionOf(cluster, view);
  const stored = conversion === undefined ? undefined : cluster.store.get(view.type.key, namespace, name);
  return conversion !== undefined && otherEntryVersions(stored?.object, conversion.storage.apiVersion).length > 0 ? conversion : undefined;
}

/** True when a write at `view`'s version must have its managedFields computed across versions. */
export function needsVersionedFields(conversion: WebhookConversion, view: ResourceView, prev: KubeObject | undefined): boolean {
  return view.version !== conversion.storage.version || otherEntryVersions(prev, conversion.storage.apiVersion).length > 0;
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

/** What the write is: its field manager and subresource, and the stored object it replaces (none: a create). */
export interface VersionedWrite {
  readonly manager: string;
  readonly subresource: 'status' | undefined;
  readonly prev: StoredRecord | undefined;
}

/**
 * `write` (of an object at the storage version) made to record its managedFields at `view`'s version, each other
 * entry compared in its own version; `write` itself when the CRD does not convert through a webhook or every entry
 * and the request are at the storage version. The entries are computed once, before admission, as kube-apiserver's
 * field manager runs before the mutating webhooks (what they change is nobody's).
 */
export async function withVersionedFields(cluster: Cluster, view: ResourceView, object: KubeObject, write: AdmittedOperation, what: VersionedWrite): Promise<AdmittedOperation> {
  const conversion = webhookConversionOf(cluster, view);
  if (conversion === undefined) return write;
  const { storage } = conversion;
  const prev = what.prev === undefined ? undefined : (JSON.parse(objectJson(what.prev, storage.apiVersion, view.type.kind)) as KubeObject);
  if (!needsVersionedFields(conversion, view, prev)) return write;
  let planned: StoredRecord;
  try {
    planned = write(structuredClone(object), true);
  } catch {
    // Not swallowed: the write is refused, and the real write (after admission, which may change the object, as
    // kube-apiserver's validation comes after its mutating webhooks) answers that refusal to the client.
    return write;
  }
  const next = JSON.parse(objectJson(planned, storage.apiVersion, view.type.kind)) as KubeObject;
  const others = otherEntryVersions(prev, view.apiVersion);
  const pairs = await objectsAt(conversion, prev, next, [view.apiVersion, ...others]);
  const here = pairs.get(view.apiVersion) ?? { before: prev, after: next };
  const entries = metadataOf(prev ?? {})['managedFields'];
  const managedFields = recordUpdate(here.before, here.after, Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : [], {
    manager: what.manager,
    apiVersion: view.apiVersion,
    now: cluster.now(),
    listKeys: view.type.listKeys,
    ...(what.subresource === undefined ? {} : { subresource: what.subresource }),
    ...(prev === undefined ? { create: true } : {}),
    elsewhere: pairs,
  });
  return (candidate, dryRun, computed) => {
    // Another write landed while the conversions were awaited: the entries were computed against an object that is
    // gone, so the write computes its own, at the storage version, rather than misattribute that write's fields.
    const current = what.prev === undefined ? undefined : cluster.store.get(view.type.key, what.prev.namespace, what.prev.name);
    if (current !== what.prev) return write(candidate, dryRun, computed);
    return write(candidate, dryRun, computed ?? managedFields);
  };
}
