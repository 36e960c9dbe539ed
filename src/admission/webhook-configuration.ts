/**
 * The ValidatingWebhookConfiguration and MutatingWebhookConfiguration (admissionregistration.k8s.io/v1) that
 * make an API server call the admission router for a definition: one webhook each, with a rule per CRD (its
 * group, version, plural and operations), `sideEffects: None`, `admissionReviewVersions: [v1]`.
 */
import type { AdmissionOperation, CrdDefinition, Definition } from '../definition/index.js';
import { subdomainProblem } from '../definition/name-checks.js';
import { KatalogError } from '../errors.js';
import { checkWebhookClient } from '../definition/webhook-client-checks.js';

export interface WebhookClient {
  /** The router's base URL (`https://host:port/admission`); `/validate` and `/mutate` are appended. */
  readonly url?: string;
  /** Or the Service in front of it; `path` is the mount point (default `/`). */
  readonly service?: { readonly name: string; readonly namespace: string; readonly port?: number; readonly path?: string };
}

export interface WebhookConfigurationOptions extends WebhookClient {
  /** PEM of the CA that signed the router's serving certificate (base64-encoded into `caBundle`). */
  readonly caBundle?: string;
  /** What the API server does when the router cannot be reached or times out. Default `Fail`. */
  readonly failurePolicy?: 'Fail' | 'Ignore';
  /** Seconds the API server waits for an answer (1–30). Default 5. */
  readonly timeoutSeconds?: number;
  /** Name of both configuration objects. Default `<definition name>-katalog-admission`. */
  readonly name?: string;
  /** Names of the webhooks inside them. Default `validate.katalog.dev` / `mutate.katalog.dev`. */
  readonly validatingWebhookName?: string;
  readonly mutatingWebhookName?: string;
}

export interface WebhookConfigurations {
  /** Absent when no CRD has validation rules or deletion protection. */
  readonly validating: Record<string, unknown> | undefined;
  /** Absent when no CRD has mutation rules or deletion protection. */
  readonly mutating: Record<string, unknown> | undefined;
}

interface RuleWithOperations {
  readonly operations: AdmissionOperation[];
  readonly apiGroups: string[];
  readonly apiVersions: string[];
  readonly resources: string[];
  readonly scope: 'Namespaced' | 'Cluster';
}

function ruleOf(crd: CrdDefinition, operations: readonly AdmissionOperation[]): RuleWithOperations {
  return {
    operations: [...operations],
    apiGroups: [crd.apiTypes.group],
    apiVersions: [crd.apiTypes.version],
    resources: [crd.apiTypes.plural],
    scope: crd.apiTypes.scope,
  };
}

function configName(definition: Definition, given: string | undefined): string {
  if (given !== undefined) return given;
  const base = definition.name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return `${base === '' ? 'katalog' : base}-katalog-admission`;
}

function clientConfig(options: WebhookConfigurationOptions, route: '/validate' | '/mutate'): Record<string, unknown> {
  const caBundle = options.caBundle === undefined ? {} : { caBundle: Buffer.from(options.caBundle).toString('base64') };
  if (options.url !== undefined) return { url: `${options.url.replace(/\/+$/, '')}${route}`, ...caBundle };
  const service = options.service;
  if (service === undefined) throw new KatalogError('E_CONFIG', 'webhook configuration: give either url or service');
  const base = (service.path ?? '').replace(/\/+$/, '');
  return {
    service: { name: service.name, namespace: service.namespace, path: `${base}${route}`, ...(service.port === undefined ? {} : { port: service.port }) },
    ...caBundle,
  };
}

/**
 * What kube-apiserver would refuse in the names, refused here first with what and where: the configurations' name
 * (a DNS-1123 subdomain), each webhook's (a subdomain of at least three dot-separated segments, IsFullyQualifiedName).
 */
function checkNames(options: WebhookConfigurationOptions): void {
  const refuse = (what: string, value: unknown, why: string): never => {
    throw new KatalogError('E_CONFIG', `webhook configuration: ${what} ${why} (the API server refuses it), got ${JSON.stringify(value)}`);
  };
  if (options.name !== undefined) {
    const problem = subdomainProblem(options.name);
    if (problem !== undefined) refuse('name', options.name, problem);
  }
  for (const [what, name] of [
    ['validatingWebhookName', options.validatingWebhookName],
    ['mutatingWebhookName', options.mutatingWebhookName],
  ] as const) {
    if (name === undefined) continue;
    const problem = subdomainProblem(name);
    if (problem !== undefined) refuse(what, name, problem);
    if (name.split('.').length < 3) refuse(what, name, 'should be a domain with at least three segments separated by dots');
  }
}

/**
 * Builds both configurations for `definition`. Throws a KatalogError when neither or both of `url` and `service`
 * are given, when the URL is not https (the API server calls webhooks over https only), when timeoutSeconds is
 * outside 1–30, or when a name or port is one the API server would refuse.
 */
export function webhookConfigurations(definition: Definition, options: WebhookConfigurationOptions): WebhookConfigurations {
  checkWebhookClient('webhook configuration', options);
  checkNames(options);
  const timeoutSeconds = options.timeoutSeconds ?? 5;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 30) {
    throw new KatalogError('E_CONFIG', `webhook configuration: timeoutSeconds must be an integer from 1 to 30, got ${String(options.timeoutSeconds)}`);
  }
  const validatingRules: RuleWithOperations[] = [];
  const mutatingRules: RuleWithOperations[] = [];
  for (const crd of definition.crds.values()) {
    const admission = crd.admission;
    if (!crd.enabled || admission === undefined) continue;
    const validating = new Set<AdmissionOperation>(admission.validate && admission.validation.length > 0 ? admission.operations : []);
    if (admission.protectDelete) validating.add('DELETE');
    if (validating.size > 0) validatingRules.push(ruleOf(crd, [...validating]));
    const mutating = new Set<AdmissionOperation>(admission.mutate && admission.mutation.length > 0 ? admission.operations.filter((op) => op === 'CREATE' || op === 'UPDATE') : []);
    if (admission.protectDelete) mutating.add('CREATE');
    if (mutating.size > 0) mutatingRules.push(ruleOf(crd, [...mutating]));
  }
  const name = configName(definition, options.name);
  const common = {
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    failurePolicy: options.failurePolicy ?? 'Fail',
    timeoutSeconds,
    matchPolicy: 'Equivalent',
  };
  const metadata = { name, labels: { 'app.kubernetes.io/managed-by': 'katalog' } };
  return {
    validating:
      validatingRules.length === 0
        ? undefined
        : {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingWebhookConfiguration',
            metadata,
            webhooks: [{ name: options.validatingWebhookName ?? 'validate.katalog.dev', clientConfig: clientConfig(options, '/validate'), rules: validatingRules, ...common }],
          },
    mutating:
      mutatingRules.length === 0
        ? undefined
        : {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'MutatingWebhookConfiguration',
            metadata,
            webhooks: [
              { name: options.mutatingWebhookName ?? 'mutate.katalog.dev', clientConfig: clientConfig(options, '/mutate'), rules: mutatingRules, ...common, reinvocationPolicy: 'Never' },
            ],
          },
  };
}
