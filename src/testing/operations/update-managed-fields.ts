/**
 * The managedFields an update leaves (a client's PUT or non-apply patch, or a controller's status write): the
 * writer's `Update` entry owns what changed, of the whole object or, for `/status`, of its status (and metadata,
 * for a built-in kind), as kube-apiserver's field manager records it (`patch/managed-fields.ts`), comparing the objects
 * as Go writes them (`prev` is stored so already).
 */
import { recordUpdate, type ManagedFieldsEntry } from '../patch/index.js';
import type { ResourceType } from '../resources/resource-type.js';
import { storedForm } from '../resources/stored-record.js';
import { metadataOf, type KubeObject } from '../store/record.js';

export function managedFieldsOfUpdate(
  type: ResourceType,
  apiVersion: string,
  prev: KubeObject,
  next: KubeObject,
  write: { readonly manager: string; readonly now: string; readonly subresource: 'status' | undefined },
): ManagedFieldsEntry[] {
  const entries = metadataOf(prev)['managedFields'];
  // The field manager compares the objects as Go writes them: a field left out when empty is not owned.
  return recordUpdate(prev, type.builtin ? storedForm(type, next, prev) : next, Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : [], {
    manager: write.manager,
    apiVersion,
    now: write.now,
    listKeys: type.listKeys,
    // A built-in kind's status strategy takes the request's metadata too (update.ts).
    statusMetadata: type.builtin,
    ...(write.subresource === undefined ? {} : { subresource: write.subresource }),
  });
}
