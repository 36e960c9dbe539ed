/**
 * The webhooks registered in the test API server: read from the stored ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration objects each time (no cache to go stale), in kube-apiserver's order (configurations
 * by name, webhooks in declared order), and matched against a request by their rules, namespaceSelector and
 * objectSelector.
 */
import type { Cluster } from '../cluster.js';
import { MUTATING_WEBHOOKS_KEY, NAMESPACES_KEY, VALIDATING_WEBHOOKS_KEY } from '../resources/builtin-resources.js';
import { selectorMatches } from '../kinds/builtin/field-rules.js';
import type { KubeObject } from '../store/record.js';
import type { AdmissionWrite } from './admit.js';
import { isNamespaceResource, requestIdentity } from './review-object.js';
import { candidateVersions, requestVersionOf } from './versions.js';
import type { MatchCondition } from './match-conditions.js';

type Map = Record<string, unknown>;

function isMap(value: unknown): value is Map {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** One webhook as the server calls it. */
export interface Webhook {
  readonly name: string;
  readonly configuration: string;
  readonly url: string | undefined;
  readonly service: { readonly name: string; readonly namespace: string; readonly path: string; readonly port: number } | undefined;
  /** PEM text of `clientConfig.caBundle`, when given. */
  readonly caBundle: string | undefined;
  /** Where the test said the webhook of `service` listens (the `webhookServices` option). */
  readonly serviceAddress: URL | undefined;
  readonly failurePolicy: 'Fail' | 'Ignore';
  /** `Equivalent` (the default): a rule naming another served version of the resource matches too (versions.ts). */
  readonly matchPolicy: 'Exact' | 'Equivalent';
  /** A mutating webhook's: `IfNeeded` is called again once when a webhook after it changed the object. */
  readonly reinvocationPolicy: 'Never' | 'IfNeeded';
  readonly timeoutSeconds: number;
  readonly rules: readonly Map[];
  readonly namespaceSelector: Map | undefined;
  readonly objectSelector: Map | undefined;
  /** CEL conditions evaluated once the rules and selectors matched (match-conditions.ts). */
  readonly matchConditions: readonly MatchCondition[];
}

/** What a request is, for matching. */
export interface AdmissionAttributes {
  /** The object's name (the generated one, once the write's checks ran), for a policy's `resourceNames`. */
  readonly name: string;
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string | undefined;
  readonly namespaced: boolean;
  /** The request's namespace; a Namespace's own name for a request on a Namespace, as kube-apiserver has it. */
  readonly namespace: string;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
}

function webhookOf(cluster: Cluster, configuration: string, item: Map): Webhook {
  const client = isMap(item.clientConfig) ? item.clientConfig : {};
  const service = isMap(client.service) ? client.service : undefined;
  const caBundle = typeof client.caBundle === 'string' && client.caBundle !== '' ? Buffer.from(client.caBundle, 'base64').toString('utf8') : undefined;
  return {
    name: typeof item.name === 'string' ? item.name : '',
    configuration,
    url: typeof client.url === 'string' ? client.url : undefined,
    service:
      service === undefined
        ? undefined
        : {
            name: String(service.name ?? ''),
            namespace: String(service.namespace ?? ''),
            path: typeof service.path === 'string' ? service.path : '/',
            port: typeof service.port === 'number' ? service.port : 443,
          },
    caBundle,
    serviceAddress: service === undefined ? undefined : cluster.webhookServices.get(`${String(service.namespace ?? '')}/${String(service.name ?? '')}`),
    failurePolicy: item.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    matchPolicy: item.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
    reinvocationPolicy: item.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never',
    timeoutSeconds: typeof item.timeoutSeconds === 'number' ? item.timeoutSeconds : 10,
    rules: Array.isArray(item.rules) ? item.rules.filter(isMap) : [],
    namespaceSelector: isMap(item.namespaceSelector) ? item.namespaceSelector : undefined,
    objectSelector: isMap(item.objectSelector) ? item.objectSelector : undefined,
    matchConditions: Array.isArray(item.matchConditions)
      ? item.matchConditions.filter(isMap).map((condition) => ({ name: String(condition.name ?? ''), expression: String(condition.expression ?? '') }))
      : [],
  };
}

/** The registered webhooks of one type, in the order kube-apiserver calls them. */
export function registeredWebhooks(cluster: Cluster, type: 'validating' | 'mutating'): Webhook[] {
  const key = type === 'validating' ? VALIDATING_WEBHOOKS_KEY : MUTATING_WEBHOOKS_KEY;
  const records = cluster.store.list(key).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return records.flatMap((record) => (Array.isArray(record.object.webhooks) ? record.object.webhooks.filter(isMap).map((item) => webhookOf(cluster, record.name, item)) : []));
}

/** Whether any webhook configuration is stored (the fast path of every write). */
export function hasWebhooks(cluster: Cluster): boolean {
  return cluster.store.count(VALIDATING_WEBHOOKS_KEY) + cluster.store.count(MUTATING_WEBHOOKS_KEY) > 0;
}

function matchesName(patterns: readonly string[], value: string): boolean {
  return patterns.includes('*') || patterns.includes(value);
}

function matchesResource(patterns: readonly string[], resource: string, subresource: string | undefined): boolean {
  const full = subresource === undefined ? resource : `${resource}/${subresource}`;
  return patterns.some((pattern) => {
    if (pattern === '*') return subresource === undefined;
    if (pattern === '*/*') return true;
    if (pattern === full) return true;
    if (subresource !== undefined && pattern === `*/${subresource}`) return true;
    return subresource === undefined ? false : pattern === `${resource}/*`;
  });
}

/** Whether one rule (operations, API groups and versions, resources, scope) covers the request. */
export function ruleMatches(rule: Map, attributes: AdmissionAttributes): boolean {
  const operations = strings(rule.operations);
  if (!operations.includes('*') && !operations.includes(attributes.operation)) return false;
  if (!matchesName(strings(rule.apiGroups), attributes.group)) return false;
  if (!matchesName(strings(rule.apiVersions), attributes.version)) return false;
  if (!matchesResource(strings(rule.resources), attributes.resource, attributes.subresource)) return false;
  const scope = typeof rule.scope === 'string' ? rule.scope : '*';
  if (scope === 'Namespaced') return attributes.namespaced;
  if (scope === 'Cluster') return !attributes.namespaced;
  return true;
}

function labelsOf(object: KubeObject | undefined): Record<string, string> {
  const metadata = object?.metadata;
  return isMap(metadata) && isMap(metadata.labels) ? (metadata.labels as Record<string, string>) : {};
}

/** A webhook's label selector against labels: an absent one selects everything, as an empty one does. */
function webhookSelects(selector: Map | undefined, labels: Readonly<Record<string, string>>): boolean {
  return selector === undefined || selectorMatches(selector, labels);
}

/**
 * The version `webhook` is called in for `request` (kube-apiserver's rules, under its matchPolicy, then its namespace
 * and object selectors), or undefined when it is not called.
 */
export function webhookVersion(cluster: Cluster, webhook: Webhook, request: AdmissionWrite, attributes: AdmissionAttributes): string | undefined {
  const version = matchingVersion(webhook.rules, webhook.matchPolicy, request, attributes);
  if (version === undefined) return undefined;
  return selectorsMatch(cluster, webhook.namespaceSelector, webhook.objectSelector, attributes) ? version : undefined;
}

/** The first version (the request's, then under Equivalent the other served ones) in which a rule `matches`. */
export function matchingVersion(rules: readonly Map[], matchPolicy: unknown, request: AdmissionWrite, attributes: AdmissionAttributes, matches = ruleMatches): string | undefined {
  return candidateVersions(request, matchPolicy).find((version) => rules.some((rule) => matches(rule, { ...attributes, version })));
}

/**
 * Whether a webhook's or a policy's selectors select the request: the object selector the object's labels or the
 * old object's, the namespace selector the labels of the request's namespace (not asked of a cluster-scoped one).
 */
export function selectorsMatch(cluster: Cluster, namespaceSelector: Map | undefined, objectSelector: Map | undefined, attributes: AdmissionAttributes): boolean {
  if (objectSelector !== undefined) {
    const objects = [attributes.object, attributes.oldObject].filter((object): object is KubeObject => object !== undefined);
    const either = objects.some((object) => webhookSelects(objectSelector, labelsOf(object)));
    if (!either) return false;
  }
  if (namespaceSelector !== undefined && (attributes.namespaced || isNamespaceResource(attributes.group, attributes.resource))) {
    // A Namespace written is selected by its own new labels (namespace/matcher.go GetNamespaceLabels).
    const written = isNamespaceResource(attributes.group, attributes.resource) && attributes.subresource === undefined && attributes.operation !== 'DELETE';
    const labels = written ? labelsOf(attributes.object) : (cluster.store.get(NAMESPACES_KEY, '', attributes.namespace)?.labels ?? {});
    if (!webhookSelects(namespaceSelector, labels)) return false;
  }
  return true;
}

/** What `request` is, for matching, when its object (after the mutating webhooks, or checked) is `object`. */
export function requestAttributes(request: AdmissionWrite, object: KubeObject | undefined): AdmissionAttributes {
  const { type } = request.view;
  const { name, namespace } = requestIdentity(request, object);
  return {
    name,
    operation: request.operation,
    group: type.group,
    version: requestVersionOf(request),
    resource: type.plural,
    subresource: request.subresource,
    namespaced: type.namespaced,
    namespace,
    object,
    oldObject: request.oldObject,
  };
}
