/**
 * CRD conversion through a webhook, as kube-apiserver does it: a CRD whose `spec.conversion.strategy` is
 * `Webhook` has its objects converted by POSTing a ConversionReview (apiextensions.k8s.io/v1) to
 * `spec.conversion.webhook.clientConfig` whenever they are written or read in a version other than the one they are
 * stored in. The answer must carry the request's uid, `result.status: Success` and one object per object sent, each
 * at the desired apiVersion, with the same kind, name, namespace and uid; anything else is a 500 in the words of
 * kube-apiserver's webhook converter (`conversion webhook for <apiVersion>, Kind=<kind> failed: <why>`, `... returned
 * 0 objects, expected 1`, `... returned invalid object: must have the same name: a != b`) and nothing is written.
 */
import { randomUUID } from 'node:crypto';
import type { Cluster } from '../cluster.js';
import { CRDS_KEY } from '../resources/builtin-resources.js';
import type { ResourceType } from '../resources/resource-type.js';
import { internalError } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { callWebhook, type WebhookEndpoint } from '../admission/call-webhook.js';

/** kube-apiserver's fixed deadline for a conversion webhook call. */
const CONVERSION_TIMEOUT_SECONDS = 30;

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The webhook of `type`'s CRD when it converts with `strategy: Webhook`; undefined for built-ins and `None`. */
export function conversionWebhookOf(cluster: Cluster, type: ResourceType): WebhookEndpoint | undefined {
  if (type.builtin) return undefined;
  const crd = cluster.store.get(CRDS_KEY, '', `${type.plural}.${type.group}`)?.object;
  const conversion = isMap(crd?.['spec']) ? (crd['spec'] as Record<string, unknown>)['conversion'] : undefined;
  if (!isMap(conversion) || conversion['strategy'] !== 'Webhook') return undefined;
  const webhook = isMap(conversion['webhook']) ? conversion['webhook'] : {};
  const config = isMap(webhook['clientConfig']) ? webhook['clientConfig'] : {};
  const service = isMap(config['service']) ? config['service'] : undefined;
  const caBundle = typeof config['caBundle'] === 'string' ? Buffer.from(config['caBundle'], 'base64').toString('utf8') : undefined;
  return {
    url: typeof config['url'] === 'string' ? config['url'] : undefined,
    service:
      service === undefined
        ? undefined
        : { name: String(service['name']), namespace: String(service['namespace']), path: typeof service['path'] === 'string' ? service['path'] : '/', port: typeof service['port'] === 'number' ? service['port'] : 443 },
    caBundle,
    serviceAddress: service === undefined ? undefined : cluster.webhookServices.get(`${String(service['namespace'])}/${String(service['name'])}`),
    timeoutSeconds: CONVERSION_TIMEOUT_SECONDS,
  };
}

function metadataOf(object: KubeObject): Record<string, unknown> {
  return isMap(object['metadata']) ? object['metadata'] : {};
}

/** `object` as kube-apiserver's storage decodes it before converting it: without a resourceVersion. */
function withoutResourceVersion(object: KubeObject): KubeObject {
  const metadata = metadataOf(object);
  if (!('resourceVersion' in metadata)) return object;
  const { resourceVersion: _resourceVersion, ...rest } = metadata;
  return { ...object, metadata: rest };
}

/** validateConvertedObject: the identity a converted object must keep. */
function identityProblem(sent: KubeObject, got: KubeObject): string | undefined {
  const before = metadataOf(sent);
  const after = metadataOf(got);
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  if (got['kind'] !== sent['kind']) return `must have the same kind: ${text(sent['kind'])} != ${text(got['kind'])}`;
  for (const [key, name] of [['name', 'name'], ['namespace', 'namespace'], ['uid', 'UID']] as const) {
    if (text(after[key]) !== text(before[key])) return `must have the same ${name}: ${text(before[key])} != ${text(after[key])}`;
  }
  return undefined;
}

/**
 * restoreObjectMeta: the converted object keeps the original's metadata, but for the labels and annotations the
 * webhook answered (which must be maps of strings); a problem's words, or the object.
 */
function restoredMetadata(original: KubeObject, converted: KubeObject): KubeObject | string {
  const answered = converted['metadata'];
  if (answered === undefined) return 'missing metadata in converted object';
  if (!isMap(answered)) return `invalid metadata of type ${goTypeOf(answered)} in converted object`;
  const metadata: Record<string, unknown> = structuredClone(metadataOf(original));
  for (const field of ['labels', 'annotations']) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete metadata[field];
      continue;
    }
    if (!isMap(value)) return `invalid metadata.${field} of type ${goTypeOf(value)} in converted object`;
    for (const [key, item] of Object.entries(value)) if (typeof item !== 'string') return `metadata.${field}[${key}] must be a string, but is ${goTypeOf(item)} in converted object`;
    metadata[field] = value;
  }
  return { ...converted, metadata };
}

/** How Go's %T prints a JSON value as an Unstructured holds it (an integer is an int64). */
function goTypeOf(value: unknown): string {
  if (Array.isArray(value)) return '[]interface {}';
  if (isMap(value)) return 'map[string]interface {}';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : typeof value === 'string' ? 'string' : '<nil>';
}

/**
 * Converts `objects` (all of one kind and version) to `desiredApiVersion` with one call of `webhook`; resolves with
 * the converted objects in order, or rejects with the 500 StatusError kube-apiserver answers (its message `framed`
 * as the caller's path words it: a read from storage says which stored object it could not decode). The objects are sent
 * as kube-apiserver's storage decodes them (no resourceVersion); a converted object keeps the original's metadata
 * but for its labels and annotations, as kube-apiserver restores it.
 */
export async function convertThroughWebhook(
  webhook: WebhookEndpoint,
  objects: readonly KubeObject[],
  desiredApiVersion: string,
  framed: (message: string) => string = (message) => message,
): Promise<KubeObject[]> {
  const first = objects[0];
  if (first === undefined) return [];
  const gvk = `${String(first['apiVersion'])}, Kind=${String(first['kind'])}`;
  const refused = (why: string): Error => internalError(new Error(framed(`conversion webhook for ${gvk} ${why}`)));
  const uid = randomUUID();
  // The review as kube-apiserver's client writes it: `kind` first, and the empty response it decodes the answer into.
  const review = {
    kind: 'ConversionReview',
    apiVersion: 'apiextensions.k8s.io/v1',
    request: { uid, desiredAPIVersion: desiredApiVersion, objects: objects.map(withoutResourceVersion) },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  };
  let answer: Record<string, unknown>;
  try {
    answer = (await callWebhook(webhook, review, uid, 'ConversionReview')) as unknown as Record<string, unknown>;
  } catch (error) {
    throw refused(`failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = isMap(answer['result']) ? answer['result'] : {};
  if (result['status'] !== 'Success') {
    const message = typeof result['message'] === 'string' ? result['message'] : '';
    throw refused(`failed: ${message !== '' ? message : `response.result.status was '${typeof result['status'] === 'string' ? result['status'] : ''}', not 'Success'`}`);
  }
  const converted = Array.isArray(answer['convertedObjects']) ? (answer['convertedObjects'] as unknown[]) : [];
  if (converted.length !== objects.length) throw refused(`returned ${converted.length} objects, expected ${objects.length}`);
  // One object is kube-apiserver's single conversion, several its list's: each words a bad object its own way.
  const single = objects.length === 1;
  return objects.map((sent, index) => {
    const got = converted[index];
    const at = single ? 'invalid object at index 0' : `invalid converted object at index ${index}`;
    if (!isMap(got)) throw refused(`returned ${at}: the converted object is not a JSON object`);
    if (got['apiVersion'] !== desiredApiVersion) throw refused(`returned ${at}: invalid groupVersion (expected ${desiredApiVersion}, received ${String(got['apiVersion'])})`);
    if (got['kind'] !== sent['kind']) throw refused(`returned ${at}: invalid kind (expected ${String(sent['kind'])}, received ${String(got['kind'])})`);
    const identity = identityProblem(sent, got);
    if (identity !== undefined) throw refused(`returned ${single ? 'invalid object' : `invalid converted object at index ${index}`}: ${identity}`);
    const restored = restoredMetadata(sent, got);
    if (typeof restored === 'string') throw refused(`returned ${single ? 'invalid metadata' : `invalid metadata in object at index ${index}`}: ${restored}`);
    return restored;
  });
}
