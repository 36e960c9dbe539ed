/**
 * ValidatingAdmissionPolicy admission, as kube-apiserver's dispatcher runs it (policy/validating/dispatcher.go):
 * after the mutating webhooks and the write's own checks, before the validating webhooks. Each policy that has
 * bindings and whose matchConstraints cover the request is evaluated once per binding that covers it and per param
 * the binding selects. A binding's `validationActions` decide what a failed validation does: `Deny` refuses the
 * request, `Warn` adds a `Warning` header, `Audit` would annotate the audit event (the test server keeps no audit
 * log). The first denial, in the order policies and bindings are met (both by name here), is the answer: a 403
 * `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy '<p>' with binding '<b>' denied request: <message>`
 * whose reason and code are the validation's (Invalid, 422, unless it says otherwise).
 */
import type { Cluster } from '../cluster.js';
import { fromJson, type CelValue } from '../cel/values.js';
import { selectorMatches } from '../kinds/builtin/field-rules.js';
import { NAMESPACES_KEY } from '../resources/builtin-resources.js';
import type { ResourceView } from '../resources/resource-type.js';
import { forbidden, StatusError, type KubeStatus } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { boundPolicies, coveringVersion, type AdmissionPolicy, type PolicyBinding } from './admission-policies.js';
import type { AdmissionWrite } from './admit.js';
import { policyDenials, type Denial, type PolicyInput } from './policy-evaluation.js';
import { requestAttributes, type AdmissionAttributes } from './webhooks.js';
import { conditionRequest } from './review.js';
import { reviewedAt } from './versions.js';

/** A denial with the policy and binding it came from (no binding: the policy could not be configured). */
interface Denied extends Denial {
  readonly policy: string;
  readonly binding: string | undefined;
}

/** Thrown inside: a policy or binding that cannot be evaluated, decided by the policy's failure policy. */
class ConfigurationError extends Error {}

/**
 * Evaluates the policies bound for `request`, whose objects (in the form the webhooks are sent them) are given;
 * throws the first denial, and adds the warnings of `Warn` bindings to `warnings`.
 */
export async function validatePolicies(cluster: Cluster, request: AdmissionWrite, object: KubeObject | undefined, oldObject: KubeObject | undefined, warnings: string[]): Promise<void> {
  const attributes = requestAttributes(request, object);
  const denied: Denied[] = [];
  // The inputs at each version a policy matched in (the objects converted once per version).
  const inputs = new Map<string, Omit<PolicyInput, 'params'>>();
  for (const policy of boundPolicies(cluster)) {
    const version = policy.matchConstraints === undefined ? undefined : coveringVersion(cluster, policy.matchConstraints, request, attributes);
    if (version === undefined) continue;
    const configurationFailed = (message: string, binding: PolicyBinding | undefined): void => {
      if (policy.failurePolicy === 'Fail') denied.push({ policy: policy.name, binding: binding?.name, message, reason: 'Invalid' });
    };
    const paramType = policy.paramKind === undefined ? undefined : cluster.registry.byKind(policy.paramKind.apiVersion, policy.paramKind.kind);
    if (policy.paramKind !== undefined && paramType === undefined) {
      configurationFailed(`failed to configure policy: failed to find resource referenced by paramKind: '${gvkText(policy.paramKind)}'`, undefined);
      continue;
    }
    for (const binding of policy.bindings) {
      if (binding.matchResources !== undefined && coveringVersion(cluster, binding.matchResources, request, attributes) === undefined) continue;
      let params: (KubeObject | null)[];
      try {
        params = paramsOf(cluster, policy, binding, paramType, attributes);
      } catch (error) {
        if (!(error instanceof ConfigurationError)) throw error;
        configurationFailed(`failed to configure binding: ${error.message}`, binding);
        continue;
      }
      let input = inputs.get(version);
      if (input === undefined) {
        input = await inputOf(cluster, request, object, oldObject, version);
        inputs.set(version, input);
      }
      for (const param of params) {
        for (const denial of policyDenials(policy, { ...input, params: fromJson(param, undefined) })) {
          for (const action of binding.validationActions) {
            if (action === 'Deny') denied.push({ ...denial, policy: policy.name, binding: binding.name });
            else if (action === 'Warn') warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${denial.message}`);
            // `Audit` annotates the request's audit event: the test server writes no audit log.
          }
        }
      }
    }
  }
  const first = denied[0];
  if (first !== undefined) throw deniedError(request, attributes.name, first);
}

/** How Go prints a GroupVersionKind: `v1, Kind=ConfigMap`, `example.com/v1, Kind=Limit`. */
function gvkText(paramKind: { readonly apiVersion: string; readonly kind: string }): string {
  return `${paramKind.apiVersion}, Kind=${paramKind.kind}`;
}

/**
 * The params a binding evaluates its policy with (policy/generic/policy_dispatcher.go CollectParams): one null
 * param when the policy has no paramKind or the binding no paramRef; else the named object, or those its selector
 * selects, in the ref's namespace or the request's; none found is a denial under `parameterNotFoundAction: Deny`.
 */
function paramsOf(cluster: Cluster, policy: AdmissionPolicy, binding: PolicyBinding, paramType: ResourceView | undefined, attributes: AdmissionAttributes): (KubeObject | null)[] {
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
 * The CEL inputs but the params, for a policy that matched in `version`: the objects at that version, the
 * AdmissionRequest and the request's Namespace as kube-apiserver trims it.
 */
async function inputOf(cluster: Cluster, request: AdmissionWrite, object: KubeObject | undefined, oldObject: KubeObject | undefined, version: string): Promise<Omit<PolicyInput, 'params'>> {
  // The objects are unstructured there, custom resources too: a `date-time` string is a string, not a timestamp.
  return {
    object: fromJson((await reviewedAt(cluster, request, object, version)) ?? null, undefined),
    oldObject: fromJson((await reviewedAt(cluster, request, oldObject, version)) ?? null, undefined),
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

/** The denial as admission.NewForbidden words it, with the validation's reason and its code (reasonToCode). */
function deniedError(request: AdmissionWrite, name: string, denial: Denied): StatusError {
  const by = denial.binding === undefined ? `ValidatingAdmissionPolicy '${denial.policy}'` : `ValidatingAdmissionPolicy '${denial.policy}' with binding '${denial.binding}'`;
  const message = `${by} denied request: ${denial.message}`;
  const { group, plural } = request.view.type;
  const base = forbidden({ group, plural }, name, message, [{ message }]).body;
  const body: KubeStatus = { ...base, reason: denial.reason, code: CODES[denial.reason] ?? 422 };
  return new StatusError(body);
}

const CODES: Readonly<Record<string, number>> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };
