/**
 * The etcd key kube-apiserver stores an object under (`/registry/<prefix>/[<namespace>/]<name>`), which its storage
 * errors name (a failed UID precondition). The prefix is the resource's name, a custom resource's `group/plural`,
 * or one of the older names kube-apiserver keeps (`SpecialDefaultResourcePrefixes`).
 */
import type { ResourceType } from './resource-type.js';

const SPECIAL_PREFIXES: Readonly<Record<string, string>> = {
  '/replicationcontrollers': 'controllers',
  '/endpoints': 'services/endpoints',
  '/nodes': 'minions',
  '/services': 'services/specs',
  'extensions/ingresses': 'ingress',
  'networking.k8s.io/ingresses': 'ingress',
  // Served by apiextensions-apiserver, which prefixes with the group as it does for custom resources.
  'apiextensions.k8s.io/customresourcedefinitions': 'apiextensions.k8s.io/customresourcedefinitions',
};

export function storageKey(type: ResourceType, namespace: string, name: string): string {
  const prefix = SPECIAL_PREFIXES[type.key] ?? (type.builtin ? type.plural : `${type.group}/${type.plural}`);
  return type.namespaced ? `/registry/${prefix}/${namespace}/${name}` : `/registry/${prefix}/${name}`;
}
