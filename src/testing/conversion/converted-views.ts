/**
 * What the resource endpoints do for a custom resource asked for in a version other than its storage version: the
 * store keeps one version, as etcd does, so objects read are converted from the storage version to the request's
 * (through the CRD's webhook, one call for a list; or, under the `None` strategy, by their apiVersion alone), and are
 * then pruned to the request version's schema, as kube-apiserver's converter prunes what it converts
 * (resources/version-forms.ts). A write through a CRD's webhook is made at the request's version and converted to
 * be stored (converted-write.ts). Every other request is served as before (`conversionFor` answers undefined): a
 * built-in kind, the storage version, or a `None` CRD whose versions' schemas are the same.
 */
import type { Cluster } from '../cluster.js';
import { storageView } from '../controllers/storage-view.js';
import type { ResourceType, ResourceView } from '../resources/resource-type.js';
import { convertedWithoutWebhook, differsFromStorage, prunedTo } from '../resources/version-forms.js';
import { objectJson, type KubeObject, type StoredRecord } from '../store/record.js';
import type { WebhookEndpoint } from '../admission/call-webhook.js';
import { conversionWebhookOf, convertThroughWebhook } from './conversion-webhook.js';
import { goEncodedUnstructured } from '../go/go-encoding.js';

export interface Conversion {
  /** The CRD's conversion webhook; undefined under the `None` strategy. */
  readonly webhook: WebhookEndpoint | undefined;
  /** The storage version's view: writes go through it. */
  readonly storage: ResourceView;
}

/** A conversion through a CRD's webhook. */
export interface WebhookConversion extends Conversion {
  readonly webhook: WebhookEndpoint;
}

/** How `type`'s objects convert between its versions; undefined for a built-in kind. */
export function conversionOf(cluster: Cluster, type: ResourceType): Conversion | undefined {
  const storage = type.builtin ? undefined : storageView(type);
  return storage === undefined ? undefined : { webhook: conversionWebhookOf(cluster, type), storage };
}

/**
 * The conversion a request at `view` needs, or undefined: a built-in kind, the storage version, or the `None`
 * strategy between versions whose schemas are the same (the apiVersion alone changes).
 */
export function conversionFor(cluster: Cluster, view: ResourceView): Conversion | undefined {
  if (view.type.builtin || view.version === view.type.storageVersion) return undefined;
  if (view.type.webhookConversion !== true && !differsFromStorage(view.type, view.version)) return undefined;
  const conversion = conversionOf(cluster, view.type);
  return conversion === undefined || conversion.storage.version === view.version ? undefined : conversion;
}

/** The webhook and storage view of `type`'s CRD when it converts through a webhook, whatever the version asked. */
export function webhookConversionOf(cluster: Cluster, type: ResourceType): WebhookConversion | undefined {
  if (type.webhookConversion !== true) return undefined;
  const conversion = conversionOf(cluster, type);
  return conversion?.webhook === undefined ? undefined : { webhook: conversion.webhook, storage: conversion.storage };
}

/**
 * `objects` (all of one version) converted to `apiVersion` and pruned to its schema: through the webhook in one call
 * (`framed` words its failure), or by their apiVersion under the `None` strategy.
 */
export async function convertObjects(conversion: Conversion, objects: readonly KubeObject[], apiVersion: string, framed?: (message: string) => string): Promise<KubeObject[]> {
  const { type } = conversion.storage;
  const version = apiVersion.slice(type.group.length + 1);
  if (conversion.webhook === undefined) return objects.map((object) => convertedWithoutWebhook(type, object, version));
  const converted = await convertThroughWebhook(conversion.webhook, objects, apiVersion, framed);
  return converted.map((object) => prunedTo(type, version, object));
}

/** The JSON texts of `records` at `view`'s version. */
export async function recordTexts(cluster: Cluster, view: ResourceView, records: readonly StoredRecord[]): Promise<string[]> {
  const conversion = conversionFor(cluster, view);
  if (conversion === undefined) return records.map((record) => objectJson(record, view.apiVersion, view.type.kind));
  const stored = records.map((record) => JSON.parse(objectJson(record, conversion.storage.apiVersion, view.type.kind)) as KubeObject);
  const converted = await convertObjects(conversion, stored, view.apiVersion, (message) => undecodable(view, records[0], message));
  // A converted custom resource is written as the map it is, its keys sorted.
  return converted.map((object) => JSON.stringify(goEncodedUnstructured(object)));
}

/**
 * kube-apiserver's words for a stored object its storage could not decode (the conversion failed while reading it
 * from etcd): the etcd key below the storage prefix and the object's revision.
 */
function undecodable(view: ResourceView, record: StoredRecord | undefined, message: string): string {
  if (record === undefined) return message;
  const { group, plural, namespaced } = view.type;
  const key = namespaced ? `/${group}/${plural}/${record.namespace}/${record.name}` : `/${group}/${plural}/${record.name}`;
  return `StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${record.rv}: ${message}`;
}

/** The JSON text of `record` at `view`'s version. */
export async function recordText(cluster: Cluster, view: ResourceView, record: StoredRecord): Promise<string> {
  const [text] = await recordTexts(cluster, view, [record]);
  return text ?? '';
}
