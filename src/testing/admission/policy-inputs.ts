/**
 * What an admission policy, validating or mutating, is evaluated with (policy/generic/policy_dispatcher.go and
 * plugin/cel): the params its binding selects, and the CEL inputs of a request at the version the policy matched
 * in: `object`, `oldObject`, `request` and `namespaceObject`.
 */
import type { Cluster } from '../cluster.js';
import { fromJson, type CelValue } from '../cel/values.js';
import { selectorMatches } from '../kinds/builtin/field-rules.js';
import { NAMESPACES_KEY } from '../resources/builtin-resources.js';
import type { ResourceView } from '../resources/resource-type.js';
import type { KubeObject } from '../store/record.js';
import { coveringVersion, type PolicyBase, type PolicyBinding } from './admission-policies.js';
import type { AdmissionWrite } from './admit.js';
import type { PolicyInput } from './policy-evaluation.js';
import { conditionRequest } from './review.js';
import { reviewedAt } from './versions.js';
import type { AdmissionAttributes } from './webhooks.js';

/** Thrown inside: a policy or binding that cannot be evaluated, decided by the policy's failure policy. */
class ConfigurationError extends Error {}

/** How Go prints a GroupVersionKind: `v1, Kind=ConfigMap`, `example.com/v1, Kind=Limit`. */
function gvkText(paramKind: { readonly apiVersion: string; readonly kind: string }): string {
  return `${paramKind.apiVersion}, Kind=${paramKind.kind}`;
}

/**
 * The params a binding evaluates its policy with (policy/generic/policy_dispatcher.go CollectParams): one null
 * param when the policy has no paramKind or the binding no paramRef; else the named object, or those its selector
 * selects, in the ref's namespace or the request's; none found is a denial under `parameterNotFoundAction: Deny`.
 */
function paramsOf(cluster: Cluster, policy: PolicyBase, binding: PolicyBinding, paramType: ResourceView | undefined, attributes: AdmissionAttributes): (KubeObject | null)[] {
  const ref = binding.paramRef;
  if (policy.paramKind === undefined || ref === undefined || paramType === undefined) return [null];
  const { key, namespaced } = paramType.type;
  let namespace = '';
  if (namespaced) {
    namespace = ref.namespace !== '' ? ref.namespace : attributes.namespace;
    if (namespace === '') throw new ConfigurationError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (ref.namespace !== '') {
    throw new ConfigurationError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  let found: KubeObject[];
  if (ref.name !== '') {
    const record = cluster.store.get(key, namespace, ref.name);
    found = record === undefined ? [] : [record.object];
  } else {
    const selector = ref.selector ?? {};
    found = cluster.store
      .list(key, namespaced ? namespace : undefined)
      .filter((record) => selectorMatches(selector, record.labels ?? {}))
      .map((record) => record.object);
  }
  if (found.length === 0 && ref.parameterNotFoundAction === 'Deny') throw new ConfigurationError('no params found for policy binding with `Deny` parameterNotFoundAction');
  return found;
}

/**
 * The CEL inputs but the params, for a policy that matched in `version`: the objects (held) at that version, the
 * AdmissionRequest and the request's Namespace as kube-apiserver trims it.
 */
export async function inputOf(cluster: Cluster, request: AdmissionWrite, object: KubeObject | undefined, oldObject: KubeObject | undefined, version: string): Promise<Omit<PolicyInput, 'params'>> {
  return inputAt(cluster, request, await reviewedAt(cluster, request, object, version), await reviewedAt(cluster, request, oldObject, version), version);
}

/** {@link inputOf} of objects already at `version`. */
export function inputAt(cluster: Cluster, request: AdmissionWrite, object: KubeObject | undefined, oldObject: KubeObject | undefined, version: string): Omit<PolicyInput, 'params'> {
  // The objects are unstructured there, custom resources too: a `date-time` string is a string, not a timestamp.
  return {
    object: fromJson(object ?? null, undefined),
    oldObject: fromJson(oldObject ?? null, undefined),
    request: fromJson(conditionRequest(request, version), undefined),
    namespaceObject: namespaceObjectOf(cluster, request),
  };
}

const NAMESPACE_META = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'];

/**
 * `namespaceObject`: the request's Namespace with only the metadata kube-apiserver copies (cel/condition.go
 * CreateNamespaceObject), its spec and status; null for a cluster-scoped request and for a Namespace itself.
 */
function namespaceObjectOf(cluster: Cluster, request: AdmissionWrite): CelValue {
  if (!request.view.type.namespaced || request.namespace === '') return null;
  const record = cluster.store.get(NAMESPACES_KEY, '', request.namespace);
  if (record === undefined) return null;
  const metadata = (record.object['metadata'] ?? {}) as Record<string, unknown>;
  const kept = Object.fromEntries(NAMESPACE_META.filter((key) => metadata[key] !== undefined).map((key) => [key, metadata[key]]));
  return fromJson({ metadata: kept, spec: record.object['spec'] ?? {}, status: record.object['status'] ?? {} }, undefined);
}

/** One evaluation of a policy: a binding that covers the request, a param it selects, the version the policy matched in. */
export interface Invocation<P extends PolicyBase> {
  readonly policy: P;
  readonly binding: PolicyBinding;
  readonly param: KubeObject | null;
  readonly version: string;
}

/** A policy or binding that cannot be configured (no binding: the policy); its failure policy decides. */
export interface ConfigurationFailure<P extends PolicyBase> {
  readonly policy: P;
  readonly binding: PolicyBinding | undefined;
  readonly message: string;
}

/**
 * The evaluations of `policies` that cover the request, and the configuration failures met, in the order met
 * (policy/generic/policy_dispatcher.go Dispatch): each policy whose matchConstraints cover it, each of its bindings
 * whose matchResources do too, each param the binding selects.
 */
export function invocationsOf<P extends PolicyBase>(cluster: Cluster, policies: readonly P[], request: AdmissionWrite, attributes: AdmissionAttributes): (Invocation<P> | ConfigurationFailure<P>)[] {
  const found: (Invocation<P> | ConfigurationFailure<P>)[] = [];
  for (const policy of policies) {
    const version = policy.matchConstraints === undefined ? undefined : coveringVersion(cluster, policy.matchConstraints, request, attributes);
    if (version === undefined) continue;
    const paramType = policy.paramKind === undefined ? undefined : cluster.registry.byKind(policy.paramKind.apiVersion, policy.paramKind.kind);
    if (policy.paramKind !== undefined && paramType === undefined) {
      found.push({ policy, binding: undefined, message: `failed to configure policy: failed to find resource referenced by paramKind: '${gvkText(policy.paramKind)}'` });
      continue;
    }
    for (const binding of policy.bindings) {
      if (binding.matchResources !== undefined && coveringVersion(cluster, binding.matchResources, request, attributes) === undefined) continue;
      try {
        for (const param of paramsOf(cluster, policy, binding, paramType, attributes)) found.push({ policy, binding, param, version });
      } catch (error) {
        if (!(error instanceof ConfigurationError)) throw error;
        found.push({ policy, binding, message: `failed to configure binding: ${error.message}` });
      }
    }
  }
  return found;
}
