/**
 * Which custom resources of a CRD a change of another object reconciles (Orkestra's WatchEntry routing, shared by
 * `watch` entries and observed Events): `keyFrom.name` (qualified by `keyFrom.namespace`, else the object's
 * namespace), `keyFrom.label` (`namespace/name` or a bare name), else the object's owner references to the CRD's
 * kind, else every custom resource of the CRD (broadcast). A bare name is qualified only for a namespaced CRD.
 */
import type { WatchEntry } from '../definition/types.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';

export interface KeyRouting {
  /** The CRD's kind: owner references to it name the key. */
  readonly owner: Pick<ResourceRef, 'group' | 'kind' | 'namespaced'>;
  /** Every key of the CRD's cache (the broadcast). */
  readonly keys: () => Iterable<string>;
}

/** The keys of the CRD that a change of `object` concerns (not yet checked against the cache). */
export function keysFor(keyFrom: WatchEntry['keyFrom'], object: KubeObject, routing: KeyRouting): Iterable<string> {
  const namespace = object.metadata?.namespace;
  const qualify = (name: string, ns: string | undefined): string => (routing.owner.namespaced && ns !== undefined && ns !== '' ? `${ns}/${name}` : name);
  if (keyFrom !== undefined && 'name' in keyFrom) return [qualify(keyFrom.name, keyFrom.namespace ?? namespace)];
  if (keyFrom !== undefined) {
    const value = object.metadata?.labels?.[keyFrom.label];
    if (value === undefined || value === '') return [];
    return [value.includes('/') ? value : qualify(value, namespace)];
  }
  const { group, kind } = routing.owner;
  const owners = (object.metadata?.ownerReferences ?? []).filter((ref) => ref.kind === kind && groupOf(ref.apiVersion) === group);
  if (owners.length > 0) return owners.map((ref) => qualify(ref.name, namespace));
  return [...routing.keys()];
}

/** The group of an apiVersion (`""` for the core group). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
