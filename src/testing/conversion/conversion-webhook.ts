/**
 * CRD conversion through a webhook, as kube-apiserver does it: a CRD whose `spec.conversion.strategy` is
 * `Webhook` has its objects converted by POSTing a ConversionReview (apiextensions.k8s.io/v1) to
 * `spec.conversion.webhook.clientConfig.url` whenever they are written or read in a version other than the one
 * they are stored in. The answer must carry the request's uid, `result.status: Success` and one object per object
 * sent, each at the desired apiVersion, with the same kind, name, namespace and uid; anything else is a 500
 * `conversion webhook for <apiVersion>, Kind=<kind> failed: <why>` and nothing is written.
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

/** Why a converted object cannot stand for the one sent, or undefined when it can. */
function mismatch(sent: KubeObject, got: unknown, desired: string): string | undefined {
  if (!isMap(got)) return 'a converted object is not an object';
  if (got['apiVersion'] !== desired) return `invalid converted object: expected apiVersion ${desired}, got ${String(got['apiVersion'])}`;
  if (got['kind'] !== sent['kind']) return `invalid converted object: expected kind ${String(sent['kind'])}, got ${String(got['kind'])}`;
  const before = metadataOf(sent);
  const after = metadataOf(got);
  for (const key of ['name', 'namespace', 'uid']) {
    if (after[key] !== before[key]) return `invalid converted object: metadata.${key} must not change`;
  }
  return undefined;
}

/**
 * Converts `objects` (all of one kind and version) to `desiredApiVersion` with one call of `webhook`; resolves with
 * the converted objects in order, or rejects with the 500 StatusError kube-apiserver answers.
 */
export async function convertThroughWebhook(webhook: WebhookEndpoint, objects: readonly KubeObject[], desiredApiVersion: string): Promise<KubeObject[]> {
  const first = objects[0];
  if (first === undefined) return [];
  const failed = (why: string): Error => internalError(new Error(`conversion webhook for ${String(first['apiVersion'])}, Kind=${String(first['kind'])} failed: ${why}`));
  const uid = randomUUID();
  const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion: desiredApiVersion, objects } };
  let answer: Record<string, unknown>;
  try {
    answer = (await callWebhook(webhook, review, uid, 'ConversionReview')) as unknown as Record<string, unknown>;
  } catch (error) {
    throw failed(error instanceof Error ? error.message : String(error));
  }
  const result = isMap(answer['result']) ? answer['result'] : {};
  if (result['status'] !== 'Success') throw failed(typeof result['message'] === 'string' && result['message'] !== '' ? result['message'] : 'the webhook did not answer Success');
  const converted = answer['convertedObjects'];
  if (!Array.isArray(converted) || converted.length !== objects.length) {
    throw failed(`expected ${objects.length} converted objects, got ${Array.isArray(converted) ? converted.length : 'none'}`);
  }
  return objects.map((sent, index) => {
    const got: unknown = converted[index];
    const why = mismatch(sent, got, desiredApiVersion);
    if (why !== undefined) throw failed(why);
    return got as KubeObject;
  });
}
