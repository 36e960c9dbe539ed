/**
 * The record of an object as kube-apiserver writes it back once stored: a built-in kind in its Go struct's encoding
 * (go/go-encoding.ts), a custom resource with its keys sorted. Every write that stores or answers an object (a dry
 * run's answer too: kube-apiserver copies it through the storage codec) makes its record here, so reads, watches and
 * a write's answer all show what a cluster shows.
 */
import { goEncoded, goEncodedUnstructured } from '../go/go-encoding.js';
import { makeRecord, type KubeObject, type StoredRecord } from '../store/record.js';
import { builtInRootStruct } from './builtin-typed-schema.js';
import type { ResourceType } from './resource-type.js';

/**
 * `object` of `type` (complete, at the storage version) as the server writes it; `stored`, the stored object it
 * replaces, lets what the write did not reach be shared as it is.
 */
export function storedForm(type: ResourceType, object: KubeObject, stored?: KubeObject): KubeObject {
  if (!type.builtin) return goEncodedUnstructured(object) as KubeObject;
  const struct = builtInRootStruct(type, type.storageVersion);
  return struct === undefined ? object : goEncoded(struct, object, stored);
}

/** The record of `object` of `type` (`stored`: the stored object it replaces). */
export function storedRecord(type: ResourceType, object: KubeObject, stored?: KubeObject): StoredRecord {
  return makeRecord(storedForm(type, object, stored), type.builtin);
}
