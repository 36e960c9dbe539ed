/**
 * PUT, and the update rules shared with PATCH and server-side apply: preconditions (resourceVersion, uid), the
 * status subresource split, system metadata kept from the stored object, finalizer rules, generation on spec
 * changes only, managed fields, silent no-ops, and deletion when the last finalizer goes.
 */
import type { Cluster } from '../cluster.js';
import { withBuiltinDefaults } from '../kinds/builtin/builtin-defaults.js';
import { behaviourOf } from '../kinds/kind-behaviour.js';
import type { ResourceView } from '../resources/resource-type.js';
import { storageKey } from '../resources/storage-key.js';
import { badRequest, conflict, invalid, notFound } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { resolveNamespace } from './create.js';
import { commitChange } from './commit-change.js';
import { checkKind, checkNoNewFinalizers, ensureMetadata, sameContent, specChanged, unstoredRecord } from './object-rules.js';
import { checkSchema } from './schema-rules.js';
import { managedFieldsOfUpdate } from './update-managed-fields.js';
import { heldAtView, storedFormAt } from '../resources/version-forms.js';
import type { ComputedWriteOptions } from './write-options.js';

/** Where a write goes: the object's namespace ('' for cluster scope), name and subresource. */
export interface ObjectTarget {
  readonly namespace: string;
  readonly name: string;
  readonly subresource: 'status' | undefined;
}

/** Metadata the server owns: always taken from the stored object on update. */
const SYSTEM_METADATA = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const;

/** Looks up the stored object of a target, or throws 404. */
export function existing(cluster: Cluster, view: ResourceView, target: ObjectTarget): StoredRecord {
  const prev = cluster.store.get(view.type.key, target.namespace, target.name);
  if (prev === undefined) throw notFound(view.type, target.name);
  return prev;
}

/** Checks that the body names the object of the URL (filling the name in when it is missing). */
export function checkIdentity(view: ResourceView, body: KubeObject, target: ObjectTarget): void {
  const metadata = ensureMetadata(body);
  const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
  if (name === '') metadata['name'] = target.name;
  else if (name !== target.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${target.name})`);
  resolveNamespace(view, metadata, view.type.namespaced ? target.namespace : undefined);
}

/**
 * PUT of `body` (owned by the caller) on the main resource or `/status`; `held`, the stored object as the write's
 * version holds it when the caller converted it (conversion/converted-write.ts), else the store's.
 */
export function updateObject(cluster: Cluster, view: ResourceView, body: KubeObject, target: ObjectTarget, options: ComputedWriteOptions, held?: StoredRecord): StoredRecord {
  checkKind(view, body);
  checkIdentity(view, body, target);
  const prev = held ?? existing(cluster, view, target);
  const rv = metadataOf(body)['resourceVersion'];
  if ((rv === undefined || rv === '') && !view.type.unconditionalUpdate) {
    // The generic store names the resource, not the kind: `leases.coordination.k8s.io "l" is invalid: ...`.
    throw invalid({ group: view.type.group, kind: view.type.plural }, target.name, [{ field: 'metadata.resourceVersion', message: 'Invalid value: 0: must be specified for an update' }]);
  }
  return finishUpdate(cluster, view, prev, body, target.subresource, options);
}

/** `metadata` of `next` with the system fields (and `kept`) taken from the stored object. */
function withSystemMetadata(next: KubeObject, prev: KubeObject, kept: readonly string[] = []): void {
  const metadata = ensureMetadata(next);
  const prevMetadata = metadataOf(prev);
  for (const key of [...SYSTEM_METADATA, ...kept]) {
    if (prevMetadata[key] === undefined) delete metadata[key];
    else metadata[key] = prevMetadata[key];
  }
  delete metadata['selfLink'];
}

/** `candidate` merged with `prev` (the stored object, at the write's version) as the subresource written takes it. */
function mergeForSubresource(view: ResourceView, prev: KubeObject, candidate: KubeObject, subresource: 'status' | undefined): KubeObject {
  if (subresource === 'status') {
    // A custom resource's status write takes only its status; a built-in kind's takes its metadata too, as
    // kube-apiserver's status strategies do (every one keeps the stored spec).
    const metadata = view.type.builtin ? { ...metadataOf(candidate) } : { ...metadataOf(prev) };
    const next: KubeObject = { ...prev, metadata };
    if (candidate['status'] === undefined) delete next['status'];
    else next['status'] = candidate['status'];
    if (view.type.builtin) {
      const behaviour = behaviourOf(view.type.key);
      withSystemMetadata(next, prev, behaviour?.statusKeeps);
      behaviour?.prepareStatusUpdate?.(next, prev);
    }
    return next;
  }
  const next = candidate;
  if (view.statusSubresource) {
    if (prev['status'] === undefined) delete next['status'];
    else next['status'] = prev['status'];
  }
  withSystemMetadata(next, prev);
  return next;
}

/**
 * Applies the update rules to `candidate` (the full new object as the client wants it) against `prev`, and stores
 * the result. Returns `prev` itself for a no-op. The rules compare `candidate` with the stored object as the write's
 * version holds it, and the result is stored in the storage version's form (resources/version-forms.ts); a no-op is
 * one that leaves the stored form as it was.
 */
export function finishUpdate(
  cluster: Cluster,
  view: ResourceView,
  prev: StoredRecord,
  candidate: KubeObject,
  subresource: 'status' | undefined,
  options: ComputedWriteOptions,
): StoredRecord {
  const { type } = view;
  const asked = metadataOf(candidate);
  const askedRv = asked['resourceVersion'];
  if (typeof askedRv === 'string' && askedRv !== '' && askedRv !== String(prev.rv)) throw conflict(type, prev.name);
  const askedUid = asked['uid'];
  if (typeof askedUid === 'string' && askedUid !== '' && askedUid !== prev.uid) {
    const key = storageKey(type, prev.namespace, prev.name);
    const detail = `Precondition failed: UID in precondition: ${askedUid}, UID in object meta: ${prev.uid}`;
    throw conflict(type, prev.name, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${detail}`);
  }
  const held = heldAtView(view, prev.object);
  const requested = mergeForSubresource(view, held, candidate, subresource);
  // A built-in object is defaulted before its registry sees it, as kube-apiserver decodes it first.
  const merged = type.builtin ? withBuiltinDefaults(type, requested) : requested;
  const now = cluster.now();
  if (subresource === undefined) behaviourOf(type.key)?.prepareUpdate(merged, prev, { registry: cluster.registry, store: cluster.store, now, warn: options.warn });
  checkNoNewFinalizers(type, prev.name, held, merged);
  const next = checkSchema(view, merged, held, { subresource, decoded: options.fromApply !== true, warn: options.warn });
  const metadata = ensureMetadata(next);
  const prevMetadata = metadataOf(held);
  if (type.generation) {
    const generation = typeof prevMetadata['generation'] === 'number' ? prevMetadata['generation'] : 1;
    metadata['generation'] = specChanged(held, next, view.statusSubresource) ? generation + 1 : generation;
  }
  const managed = options.managedFields ?? managedFieldsOfUpdate(type, view.apiVersion, held, next, { manager: options.manager, now, subresource });
  if (managed.length > 0) metadata['managedFields'] = managed;
  else delete metadata['managedFields'];
  metadata['resourceVersion'] = String(prev.rv);
  const stored = storedFormAt(type, view.version, next);
  if (sameContent(prev.object, stored)) return prev;
  if (options.dryRun) return unstoredRecord(view, next);
  return commitChange(cluster, type, stored, prev);
}
