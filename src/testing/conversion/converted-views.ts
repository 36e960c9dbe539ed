/**
 * What the resource endpoints do for a CRD that converts through a webhook, when the request's version is not the
 * storage version: objects read are converted from the storage version to the request's (one call for a list), and
 * a body written is converted to the storage version before it is admitted and stored, so the store keeps one
 * version as etcd does. Every other request is served as before (`conversionFor` answers undefined).
 */
import type { Cluster } from '../cluster.js';
import { storageView } from '../controllers/storage-view.js';
import type { ResourceView } from '../resources/resource-type.js';
import { objectJson, type KubeObject, type StoredRecord } from '../store/record.js';
import type { WebhookEndpoint } from '../admission/call-webhook.js';
import { conversionWebhookOf, convertThroughWebhook } from './conversion-webhook.js';
import { goEncodedUnstructured } from '../go/go-encoding.js';

export interface Conversion {
  readonly webhook: WebhookEndpoint;
  /** The storage version's view: writes go through it. */
  readonly storage: ResourceView;
}

/** The conversion a request at `view` needs, or undefined (built-in, `None` strategy, or the storage version). */
export function conversionFor(cluster: Cluster, view: ResourceView): Conversion | undefined {
  if (view.type.builtin || view.version === view.type.storageVersion) return undefined;
  const webhook = conversionWebhookOf(cluster, view.type);
  const storage = storageView(view.type);
  if (webhook === undefined || storage === undefined || storage.version === view.version) return undefined;
  return { webhook, storage };
}

/** The JSON texts of `records` at `view`'s version. */
export async function recordTexts(cluster: Cluster, view: ResourceView, records: readonly StoredRecord[]): Promise<string[]> {
  const conversion = conversionFor(cluster, view);
  if (conversion === undefined) return records.map((record) => objectJson(record, view.apiVersion, view.type.kind));
  const stored = records.map((record) => JSON.parse(objectJson(record, conversion.storage.apiVersion, view.type.kind)) as KubeObject);
  const converted = await convertThroughWebhook(conversion.webhook, stored, view.apiVersion, (message) => undecodable(view, records[0], message));
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

/**
 * The view and body a write goes through: the storage view and the body converted to it when the CRD converts
 * through a webhook and the body is at the request's version; else both as given (a body at another apiVersion is
 * refused by the operation, as before).
 */
export async function writeTarget(cluster: Cluster, view: ResourceView, body: KubeObject): Promise<{ readonly view: ResourceView; readonly body: KubeObject }> {
  const conversion = conversionFor(cluster, view);
  if (conversion === undefined || body['apiVersion'] !== view.apiVersion) return { view, body };
  const [converted] = await convertThroughWebhook(conversion.webhook, [body], conversion.storage.apiVersion);
  return { view: conversion.storage, body: converted ?? body };
}
