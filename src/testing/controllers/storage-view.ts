/** The view controllers use to act on a type: its storage version when served, else its preferred version. */
import type { Cluster } from '../cluster.js';
import type { ResourceType, ResourceView } from '../resources/resource-type.js';
import { viewOf } from '../resources/resource-type.js';

export function storageView(type: ResourceType): ResourceView | undefined {
  return viewOf(type, type.storageVersion) ?? (type.versions[0] === undefined ? undefined : viewOf(type, type.versions[0].name));
}

/** {@link storageView} of the type stored under `key` (`batch/jobs`), or undefined when it is not registered. */
export function storageViewOf(cluster: Cluster, key: string): ResourceView | undefined {
  const type = cluster.registry.byKey(key);
  return type === undefined ? undefined : storageView(type);
}
