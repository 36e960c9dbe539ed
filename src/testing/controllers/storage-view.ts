/** The view controllers use to act on a type: its storage version when served, else its preferred version. */
import type { ResourceType, ResourceView } from '../resources/resource-type.js';
import { viewOf } from '../resources/resource-type.js';

export function storageView(type: ResourceType): ResourceView | undefined {
  return viewOf(type, type.storageVersion) ?? (type.versions[0] === undefined ? undefined : viewOf(type, type.versions[0].name));
}
