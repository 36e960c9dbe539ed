/**
 * PATCH of a custom resource whose CRD converts through a webhook, in a version other than its storage version (or at
 * the storage version when the stored object has managedFields entries of other versions), as kube-apiserver does
 * (`staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go`, the update of `registry/rest/update.go`): the
 * stored object is converted to the request's version, the patch (merge, JSON, or server-side apply) is applied
 * there, and the result is written there and stored at the storage version (conversion/converted-write.ts); the
 * answer is converted to the request's version by the caller. A strategic merge patch is a 415, as for every custom
 * resource. A webhook that fails answers the conversion's 500 and nothing is written.
 *
 * The conversions are awaited, so another write may land between the read and the store: the whole patch is then
 * made again on the new object (kube-apiserver's GuaranteedUpdate retries the same way), at most
 * {@link PATCH_ATTEMPTS} times before a 409.
 */
import type { Cluster } from '../cluster.js';
import type { AdmittedOperation, AdmittedWrite } from '../admission/admit.js';
import type { WebhookConversion } from '../conversion/converted-views.js';
import { admitConverted, ChangedUnderneath, heldRecord } from '../conversion/converted-write.js';
import { objectsAt, otherEntryVersions } from '../conversion/versioned-fields.js';
import { applyMergePatch, serverSideApply, type ManagedFieldsEntry, type ObjectsByVersion } from '../patch/index.js';
import type { ResourceView } from '../resources/resource-type.js';
import { conflict, notFound, STRATEGIC_ON_CUSTOM_RESOURCE, unsupportedMediaType } from '../status-errors.js';
import { copyObject, metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { createObject } from './create.js';
import { decodedJsonPatch, jsonPatched } from './json-patch-answers.js';
import { jsonPatchedText } from '../patch/patched-text.js';
import { applyConfiguration, applySettings, asObject, checkUnchangedIdentity, runApply, runEngine, type PatchOptions, type PatchType } from './patch.js';
import { finishUpdate, type ObjectTarget } from './update.js';

/** How many times a patch is made again when the object changed during its conversions. */
export const PATCH_ATTEMPTS = 5;

interface Patched {
  /** The object to write, at the request's version. */
  readonly object: KubeObject;
  /** Server-side apply's managedFields. */
  readonly managedFields?: ManagedFieldsEntry[];
}

/** Patches the object named by `target` at `view`'s version through `conversion`; the record is at the storage version. */
export async function patchConverted(
  cluster: Cluster,
  view: ResourceView,
  conversion: WebhookConversion,
  type: PatchType,
  patch: unknown,
  target: ObjectTarget,
  options: Omit<PatchOptions, 'replace'> & { readonly admissionOptions?: Readonly<Record<string, unknown>> },
): Promise<AdmittedWrite & { readonly created: boolean }> {
  if (type === 'strategic') throw unsupportedMediaType(STRATEGIC_ON_CUSTOM_RESOURCE);
  for (let attempt = 1; ; attempt++) {
    const prev = cluster.store.get(view.type.key, target.namespace, target.name);
    if (prev === undefined && type !== 'apply') throw notFound(view.type, target.name);
    const held = prev === undefined ? undefined : await heldRecord(conversion, view, prev);
    const live = held === undefined ? undefined : copyObject(held, view.apiVersion, view.type.kind);
    const made = type === 'apply' ? await appliedAcrossVersions(cluster, view, conversion, patch, live, target, options) : patched(view, type, patch, live, held, options);
    const writeOptions = {
      manager: options.manager,
      ...(options.warn === undefined ? {} : { warn: options.warn }),
      ...(made.managedFields === undefined ? {} : { managedFields: made.managedFields, fromApply: true }),
    };
    const write: AdmittedOperation = (candidate, dryRun, managedFields) => {
      const computed = { ...writeOptions, dryRun, ...(managedFields === undefined ? {} : { managedFields }) };
      if (held === undefined) return createObject(cluster, view, candidate ?? made.object, view.type.namespaced ? target.namespace : undefined, computed);
      return finishUpdate(cluster, view, held, candidate ?? made.object, target.subresource, computed);
    };
    try {
      const admitted = await admitConverted(
        cluster,
        conversion,
        {
          operation: prev === undefined ? 'CREATE' : 'UPDATE',
          view,
          namespace: target.namespace,
          name: target.name,
          subresource: target.subresource,
          object: made.object,
          dryRun: options.dryRun,
          ...(options.admissionOptions === undefined ? {} : { options: options.admissionOptions }),
        },
        { prev, held },
        write,
        // An apply's entries were computed across versions above; a merge or JSON patch's are computed there.
        made.managedFields === undefined ? { manager: options.manager } : undefined,
      );
      return { ...admitted, created: prev === undefined };
    } catch (error) {
      if (!(error instanceof ChangedUnderneath)) throw error;
      if (attempt >= PATCH_ATTEMPTS) throw conflict(view.type, target.name);
    }
  }
}

/** A merge or JSON patch applied to the live object at the request's version. */
function patched(
  view: ResourceView,
  type: 'merge' | 'json',
  patch: unknown,
  live: KubeObject | undefined,
  prev: StoredRecord | undefined,
  options: Pick<PatchOptions, 'checkFields' | 'decodeJsonPatch'>,
): Patched {
  if (live === undefined || prev === undefined) throw new Error('katalog/testing: a merge or JSON patch needs the stored object');
  const base = live;
  const jsonPatch = type === 'json' ? (options.decodeJsonPatch ?? decodedJsonPatch)(patch) : [];
  const result = asObject(type === 'merge' ? runEngine(() => applyMergePatch(base, patch)) : jsonPatched(base, jsonPatch), 'the patch');
  const object = options.checkFields === undefined ? result : options.checkFields(result, type === 'json' ? () => jsonPatchedText(base, jsonPatch) : undefined);
  checkUnchangedIdentity(view, object, prev);
  return { object };
}

/**
 * Server-side apply at the request's version, each entry of another version compared in its own, as kube-apiserver's
 * apply compares them: the object is merged once (forced, to learn the merged object), the live and merged objects
 * are converted to those versions, and the apply is made again with them.
 */
async function appliedAcrossVersions(
  cluster: Cluster,
  view: ResourceView,
  conversion: WebhookConversion,
  patch: unknown,
  live: KubeObject | undefined,
  target: ObjectTarget,
  options: Pick<PatchOptions, 'manager' | 'force'>,
): Promise<Patched> {
  const others = otherEntryVersions(live, view.apiVersion);
  if (live === undefined || others.length === 0) return applied(cluster, view, structuredClone(patch), live, target, options);
  const merged = applied(cluster, view, structuredClone(patch), live, target, { ...options, force: true }).object;
  const elsewhere = await objectsAt(conversion, live, merged, others);
  return applied(cluster, view, structuredClone(patch), live, target, options, elsewhere);
}

/** Server-side apply at the request's version, over the live object there (or none: apply creates). */
function applied(
  cluster: Cluster,
  view: ResourceView,
  body: unknown,
  live: KubeObject | undefined,
  target: ObjectTarget,
  options: Pick<PatchOptions, 'manager' | 'force'>,
  elsewhere?: ObjectsByVersion,
): Patched {
  const configuration = applyConfiguration(view, body, target);
  if (live === undefined && target.subresource !== undefined) throw notFound(view.type, target.name);
  const askedRv = metadataOf(configuration)['resourceVersion'];
  if (live !== undefined && typeof askedRv === 'string' && askedRv !== '' && askedRv !== metadataOf(live)['resourceVersion']) throw conflict(view.type, target.name);
  const result = runApply(() => serverSideApply(live, configuration, { ...applySettings(cluster, view, target, options), ...(elsewhere === undefined ? {} : { elsewhere }) }));
  result.object['apiVersion'] = view.apiVersion;
  result.object['kind'] = view.type.kind;
  return { object: result.object, managedFields: result.managedFields };
}
