/**
 * The ValidatingAdmissionPolicies in force in the test API server: read from the stored policies and bindings each
 * time (no informer to lag behind, unlike kube-apiserver's, which enforces a new binding a moment after it is
 * stored), each policy with the bindings that name it, both by name; and whether a policy's `matchConstraints` or a
 * binding's `matchResources` cover a request (policy/matching/matching.go): the namespace and object selectors, then
 * `excludeResourceRules`, then `resourceRules` (with `resourceNames`; none in a binding covers what its policy does).
 */
import type { Cluster } from '../cluster.js';
import { ADMISSION_POLICIES_KEY, POLICY_BINDINGS_KEY } from '../resources/builtin-resources.js';
import type { StoredRecord } from '../store/record.js';
import { objectAt, objectsAt, textAt, type Json } from '../kinds/builtin/fields.js';
import type { MatchCondition } from './match-conditions.js';
import type { AdmissionWrite } from './admit.js';
import { matchingVersion, ruleMatches, selectorsMatch, type AdmissionAttributes } from './webhooks.js';

/** A binding's reference to the params its policy is evaluated with. */
export interface ParamRef {
  readonly name: string;
  readonly namespace: string;
  readonly selector: Json | undefined;
  readonly parameterNotFoundAction: 'Allow' | 'Deny';
}

export interface PolicyBinding {
  readonly name: string;
  readonly validationActions: readonly string[];
  readonly paramRef: ParamRef | undefined;
  readonly matchResources: Json | undefined;
}

export interface Validation {
  readonly expression: string;
  readonly message: string;
  readonly messageExpression: string;
  /** The Status reason of a denial: Invalid (422) unless given. */
  readonly reason: string;
}

export interface AdmissionPolicy {
  readonly name: string;
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly paramKind: { readonly apiVersion: string; readonly kind: string } | undefined;
  readonly matchConstraints: Json | undefined;
  readonly matchConditions: readonly MatchCondition[];
  readonly variables: readonly { readonly name: string; readonly expression: string }[];
  readonly validations: readonly Validation[];
  readonly auditAnnotations: readonly { readonly key: string; readonly valueExpression: string }[];
  readonly bindings: readonly PolicyBinding[];
}

/** Whether a binding is stored: a policy without one is not enforced (the fast path of every write). */
export function hasPolicyBindings(cluster: Cluster): boolean {
  return cluster.store.count(POLICY_BINDINGS_KEY) > 0;
}

function byName(a: StoredRecord, b: StoredRecord): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function bindingOf(record: StoredRecord): PolicyBinding {
  const spec = objectAt(record.object, 'spec') ?? {};
  const ref = objectAt(spec, 'paramRef');
  const actions = spec['validationActions'];
  return {
    name: record.name,
    validationActions: Array.isArray(actions) ? actions.filter((action): action is string => typeof action === 'string') : [],
    paramRef:
      ref === undefined
        ? undefined
        : { name: textAt(ref, 'name'), namespace: textAt(ref, 'namespace'), selector: objectAt(ref, 'selector'), parameterNotFoundAction: ref['parameterNotFoundAction'] === 'Deny' ? 'Deny' : 'Allow' },
    matchResources: objectAt(spec, 'matchResources'),
  };
}

function policyOf(record: StoredRecord, bindings: readonly PolicyBinding[]): AdmissionPolicy {
  const spec = objectAt(record.object, 'spec') ?? {};
  const paramKind = objectAt(spec, 'paramKind');
  return {
    name: record.name,
    failurePolicy: spec['failurePolicy'] === 'Ignore' ? 'Ignore' : 'Fail',
    paramKind: paramKind === undefined ? undefined : { apiVersion: textAt(paramKind, 'apiVersion'), kind: textAt(paramKind, 'kind') },
    matchConstraints: objectAt(spec, 'matchConstraints'),
    matchConditions: objectsAt(spec, 'matchConditions').map((condition) => ({ name: textAt(condition, 'name'), expression: textAt(condition, 'expression') })),
    variables: objectsAt(spec, 'variables').map((variable) => ({ name: textAt(variable, 'name'), expression: textAt(variable, 'expression') })),
    validations: objectsAt(spec, 'validations').map((validation) => ({
      expression: textAt(validation, 'expression'),
      message: textAt(validation, 'message'),
      messageExpression: textAt(validation, 'messageExpression'),
      reason: textAt(validation, 'reason') || 'Invalid',
    })),
    auditAnnotations: objectsAt(spec, 'auditAnnotations').map((annotation) => ({ key: textAt(annotation, 'key'), valueExpression: textAt(annotation, 'valueExpression') })),
    bindings,
  };
}

/** The policies that have bindings, by name, each with its bindings by name (a binding to no policy does nothing). */
export function boundPolicies(cluster: Cluster): AdmissionPolicy[] {
  const bindings = new Map<string, PolicyBinding[]>();
  for (const record of cluster.store.list(POLICY_BINDINGS_KEY).sort(byName)) {
    const policyName = textAt(objectAt(record.object, 'spec') ?? {}, 'policyName');
    bindings.set(policyName, [...(bindings.get(policyName) ?? []), bindingOf(record)]);
  }
  return cluster.store
    .list(ADMISSION_POLICIES_KEY)
    .sort(byName)
    .flatMap((record) => {
      const bound = bindings.get(record.name);
      return bound === undefined ? [] : [policyOf(record, bound)];
    });
}

function namedRuleMatches(rule: Json, attributes: AdmissionAttributes): boolean {
  if (!ruleMatches(rule, attributes)) return false;
  const names = Array.isArray(rule['resourceNames']) ? rule['resourceNames'] : [];
  return names.length === 0 || names.includes(attributes.name);
}

/**
 * The version in which `criteria` (a policy's matchConstraints or a binding's matchResources) covers the request,
 * under its matchPolicy (its rules, or the request's when it has none), or undefined when it does not.
 */
export function coveringVersion(cluster: Cluster, criteria: Json, request: AdmissionWrite, attributes: AdmissionAttributes): string | undefined {
  if (!selectorsMatch(cluster, objectAt(criteria, 'namespaceSelector'), objectAt(criteria, 'objectSelector'), attributes)) return undefined;
  const policy = criteria['matchPolicy'];
  if (matchingVersion(objectsAt(criteria, 'excludeResourceRules'), policy, request, attributes, namedRuleMatches) !== undefined) return undefined;
  const rules = objectsAt(criteria, 'resourceRules');
  return rules.length === 0 ? attributes.version : matchingVersion(rules, policy, request, attributes, namedRuleMatches);
}
