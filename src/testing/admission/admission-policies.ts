/**
 * The admission policies in force in the test API server, validating and mutating: read from the stored policies and bindings each
 * time (no informer to lag behind, unlike kube-apiserver's, which enforces a new binding a moment after it is
 * stored), each policy with the bindings that name it, both by name; and whether a policy's `matchConstraints` or a
 * binding's `matchResources` cover a request (policy/matching/matching.go): the namespace and object selectors, then
 * `excludeResourceRules`, then `resourceRules` (with `resourceNames`; none in a binding covers what its policy does).
 */
import type { Cluster } from '../cluster.js';
import { ADMISSION_POLICIES_KEY, MUTATING_POLICIES_KEY, MUTATING_POLICY_BINDINGS_KEY, POLICY_BINDINGS_KEY } from '../resources/builtin-resources.js';
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

/** What validating and mutating policies have alike. */
export interface PolicyBase {
  readonly name: string;
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly paramKind: { readonly apiVersion: string; readonly kind: string } | undefined;
  readonly matchConstraints: Json | undefined;
  readonly matchConditions: readonly MatchCondition[];
  readonly variables: readonly { readonly name: string; readonly expression: string }[];
  readonly bindings: readonly PolicyBinding[];
}

export interface AdmissionPolicy extends PolicyBase {
  readonly validations: readonly Validation[];
  readonly auditAnnotations: readonly { readonly key: string; readonly valueExpression: string }[];
}

/** One of a MutatingAdmissionPolicy's mutations: a CEL expression and the kind of patch it makes. */
export interface Mutation {
  readonly patchType: 'ApplyConfiguration' | 'JSONPatch';
  readonly expression: string;
}

export interface MutatingPolicy extends PolicyBase {
  readonly mutations: readonly Mutation[];
  readonly reinvocationPolicy: 'Never' | 'IfNeeded';
}

/** Whether a ValidatingAdmissionPolicy binding is stored: a policy without one is not enforced (the fast path of every write). */
export function hasPolicyBindings(cluster: Cluster): boolean {
  return cluster.store.count(POLICY_BINDINGS_KEY) > 0;
}

/** Whether a MutatingAdmissionPolicy binding is stored. */
export function hasMutatingPolicyBindings(cluster: Cluster): boolean {
  return cluster.store.count(MUTATING_POLICY_BINDINGS_KEY) > 0;
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

function baseOf(record: StoredRecord, spec: Json, bindings: readonly PolicyBinding[]): PolicyBase {
  const paramKind = objectAt(spec, 'paramKind');
  return {
    name: record.name,
    failurePolicy: spec['failurePolicy'] === 'Ignore' ? 'Ignore' : 'Fail',
    paramKind: paramKind === undefined ? undefined : { apiVersion: textAt(paramKind, 'apiVersion'), kind: textAt(paramKind, 'kind') },
    matchConstraints: objectAt(spec, 'matchConstraints'),
    matchConditions: objectsAt(spec, 'matchConditions').map((condition) => ({ name: textAt(condition, 'name'), expression: textAt(condition, 'expression') })),
    variables: objectsAt(spec, 'variables').map((variable) => ({ name: textAt(variable, 'name'), expression: textAt(variable, 'expression') })),
    bindings,
  };
}

function policyOf(record: StoredRecord, bindings: readonly PolicyBinding[]): AdmissionPolicy {
  const spec = objectAt(record.object, 'spec') ?? {};
  return {
    ...baseOf(record, spec, bindings),
    validations: objectsAt(spec, 'validations').map((validation) => ({
      expression: textAt(validation, 'expression'),
      message: textAt(validation, 'message'),
      messageExpression: textAt(validation, 'messageExpression'),
      reason: textAt(validation, 'reason') || 'Invalid',
    })),
    auditAnnotations: objectsAt(spec, 'auditAnnotations').map((annotation) => ({ key: textAt(annotation, 'key'), valueExpression: textAt(annotation, 'valueExpression') })),
  };
}

function mutatingPolicyOf(record: StoredRecord, bindings: readonly PolicyBinding[]): MutatingPolicy {
  const spec = objectAt(record.object, 'spec') ?? {};
  return {
    ...baseOf(record, spec, bindings),
    mutations: objectsAt(spec, 'mutations').map((mutation) => {
      const patchType = mutation['patchType'] === 'JSONPatch' ? 'JSONPatch' : 'ApplyConfiguration';
      return { patchType, expression: textAt(objectAt(mutation, patchType === 'JSONPatch' ? 'jsonPatch' : 'applyConfiguration') ?? {}, 'expression') };
    }),
    reinvocationPolicy: spec['reinvocationPolicy'] === 'IfNeeded' ? 'IfNeeded' : 'Never',
  };
}

/** The stored policies of `policiesKey` that have bindings (of `bindingsKey`), by name, each with its bindings by name. */
function bound<P>(cluster: Cluster, policiesKey: string, bindingsKey: string, policyOf: (record: StoredRecord, bindings: readonly PolicyBinding[]) => P): P[] {
  const bindings = new Map<string, PolicyBinding[]>();
  for (const record of cluster.store.list(bindingsKey).sort(byName)) {
    const policyName = textAt(objectAt(record.object, 'spec') ?? {}, 'policyName');
    bindings.set(policyName, [...(bindings.get(policyName) ?? []), bindingOf(record)]);
  }
  return cluster.store
    .list(policiesKey)
    .sort(byName)
    .flatMap((record) => {
      const found = bindings.get(record.name);
      return found === undefined ? [] : [policyOf(record, found)];
    });
}

/** The ValidatingAdmissionPolicies that have bindings (a binding to no policy does nothing). */
export function boundPolicies(cluster: Cluster): AdmissionPolicy[] {
  return bound(cluster, ADMISSION_POLICIES_KEY, POLICY_BINDINGS_KEY, policyOf);
}

/** The MutatingAdmissionPolicies that have bindings. */
export function boundMutatingPolicies(cluster: Cluster): MutatingPolicy[] {
  return bound(cluster, MUTATING_POLICIES_KEY, MUTATING_POLICY_BINDINGS_KEY, mutatingPolicyOf);
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
