/**
 * How a child says who owns it. Every child carries:
 * - `app.kubernetes.io/managed-by: katalog` and `katalog.dev/crd: <crd>` (what the child informers select on and
 *   route by);
 * - `katalog.dev/owner: <crd>.<namespace>.<name>` (`<crd>.<name>` for a cluster-scoped parent). Label values are
 *   limited to 63 characters: a longer value is cut and ended with `-` and 10 hex digits of its SHA-256, and the
 *   full value is kept in the annotation `katalog.dev/owner`;
 * - an owner reference to the parent (`controller: true`, `blockOwnerDeletion: true`) when Kubernetes allows one:
 *   the child is in the parent's namespace, or the parent is cluster-scoped. Otherwise (a cluster-scoped child of a
 *   namespaced parent, or a child in another namespace) ownership is by label only, and the runtime deletes the
 *   child itself when the parent is deleted, since the garbage collector cannot.
 */
import { createHash } from 'node:crypto';
import type { KubeObject, OwnerReference } from '../kube/resource.js';

export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'katalog';
export const CRD_LABEL = 'katalog.dev/crd';
export const OWNER_LABEL = 'katalog.dev/owner';
/** Holds the full owner value when the label had to be shortened. */
export const OWNER_ANNOTATION = 'katalog.dev/owner';

/**
 * On a child of a `forEach` entry: which entry made it (a hash of the CRD and the entry's place). Conditional
 * pruning (Orkestra documents) finds by it the children of items that left the list, which no render names.
 */
export const FOR_EACH_LABEL = 'katalog.dev/for-each';

/** The `katalog.dev/for-each` value of an entry: 16 hex digits of SHA-256 over the CRD and the entry's path. */
export function forEachLabelValue(crd: string, entryPath: string): string {
  return createHash('sha256').update(`${crd}\0${entryPath}`).digest('hex').slice(0, 16);
}

const LABEL_VALUE_LIMIT = 63;
const HASH_LENGTH = 10;

/** The full owner value of a parent: `<crd>.<namespace>.<name>`, or `<crd>.<name>` when it has no namespace. */
export function ownerValue(crd: string, namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? `${crd}.${name}` : `${crd}.${namespace}.${name}`;
}

/** The owner value fitted into a label value (63 characters at most). Deterministic. */
export function ownerLabelValue(full: string): string {
  if (full.length <= LABEL_VALUE_LIMIT) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, HASH_LENGTH);
  const head = full.slice(0, LABEL_VALUE_LIMIT - HASH_LENGTH - 1).replace(/[^A-Za-z0-9]+$/, '');
  return `${head}-${hash}`;
}

/** The longest label selector the runtime's child informers send (see `childrenSelector`). */
export const CHILDREN_SELECTOR_LIMIT = 4096;

/**
 * The label selector of the children of every CRD in `crds` (one runtime's):
 * `app.kubernetes.io/managed-by=katalog,katalog.dev/crd in (a,b)`, names sorted and deduplicated. Past
 * CHILDREN_SELECTOR_LIMIT characters (a few hundred CRDs with long names), or without names, it selects every child
 * of katalog (`katalog.dev/crd` only has to exist) and the caller keeps only its own CRDs' children: the selector
 * stays short enough for the URL limit of any API server or proxy.
 */
export function childrenSelector(crds: Iterable<string>): string {
  const names = [...new Set(crds)].sort();
  const managed = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;
  const listed = `${managed},${CRD_LABEL} in (${names.join(',')})`;
  return names.length > 0 && listed.length <= CHILDREN_SELECTOR_LIMIT ? listed : `${managed},${CRD_LABEL}`;
}

/** The owner of one family of children: what is stamped on them and how they are recognised. */
export interface Owner {
  readonly crd: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string | undefined;
  readonly uid: string | undefined;
  /** The full owner value. */
  readonly value: string;
  /** The value of the owner label (shortened when needed). */
  readonly label: string;
}

export function ownerOf(crd: string, parent: KubeObject): Owner {
  const namespace = parent.metadata?.namespace;
  const name = parent.metadata?.name ?? '';
  const value = ownerValue(crd, namespace === '' ? undefined : namespace, name);
  return {
    crd,
    apiVersion: parent.apiVersion ?? '',
    kind: parent.kind ?? '',
    name,
    namespace: namespace === '' ? undefined : namespace,
    uid: parent.metadata?.uid,
    value,
    label: ownerLabelValue(value),
  };
}

/** Whether Kubernetes accepts an owner reference from a child in `childNamespace` (undefined: cluster-scoped) to `owner`. */
export function canOwnerReference(owner: Owner, childNamespace: string | undefined): boolean {
  if (owner.uid === undefined || owner.uid === '') return false;
  if (owner.namespace === undefined) return true;
  return childNamespace === owner.namespace;
}

/** The owner reference of a child (controller, blocking owner deletion). */
export function ownerReference(owner: Owner): OwnerReference {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/**
 * Stamps ownership on a manifest (in place): labels, the annotation when the label was shortened, and the owner
 * reference when one is allowed. Other owner references the manifest declares are kept.
 */
export function stampOwnership(manifest: KubeObject, owner: Owner): KubeObject {
  const metadata = (manifest.metadata ??= {});
  metadata.labels = { ...(metadata.labels ?? {}), [MANAGED_BY_LABEL]: MANAGED_BY_VALUE, [CRD_LABEL]: owner.crd, [OWNER_LABEL]: owner.label };
  if (owner.label !== owner.value) metadata.annotations = { ...(metadata.annotations ?? {}), [OWNER_ANNOTATION]: owner.value };
  if (canOwnerReference(owner, metadata.namespace)) {
    const others = (metadata.ownerReferences ?? []).filter((ref) => ref.uid !== owner.uid);
    metadata.ownerReferences = [...others, ownerReference(owner)];
  }
  return manifest;
}

/** Whether a live object is a child of `owner` (by its owner label). */
export function isOwnedBy(object: KubeObject, owner: Owner): boolean {
  const labels = object.metadata?.labels ?? {};
  return labels[OWNER_LABEL] === owner.label && labels[CRD_LABEL] === owner.crd;
}

/** Whether the garbage collector will delete `object` with its owner (it has the owner's reference). */
export function collectedWithOwner(object: KubeObject, owner: Owner): boolean {
  return owner.uid !== undefined && (object.metadata?.ownerReferences ?? []).some((ref) => ref.uid === owner.uid);
}

/**
 * The queue key (`namespace/name` or `name`) of the parent of a child of `crd`, read from its owner annotation or
 * label; undefined when the child does not belong to `crd`. `namespaced` is the parent CRD's scope.
 */
export function parentKeyOf(child: KubeObject, crd: string, namespaced: boolean): string | undefined {
  const labels = child.metadata?.labels ?? {};
  if (labels[CRD_LABEL] !== crd) return undefined;
  const full = child.metadata?.annotations?.[OWNER_ANNOTATION] ?? labels[OWNER_LABEL];
  const prefix = `${crd}.`;
  if (full === undefined || !full.startsWith(prefix)) return undefined;
  const rest = full.slice(prefix.length);
  if (!namespaced) return rest === '' ? undefined : rest;
  const dot = rest.indexOf('.');
  if (dot <= 0 || dot === rest.length - 1) return undefined;
  return `${rest.slice(0, dot)}/${rest.slice(dot + 1)}`;
}
