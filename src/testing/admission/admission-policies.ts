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
import type { MatchCondition } from './match-conditions.js';
import type { AdmissionWrite } from './admit.js';
import { matchingVersion, ruleMatches, selectorsMatch, type AdmissionAttributes } from './webhooks.js';

type Map = Record<string, unknown>;

function isMap(value: unknown): value is Map {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function maps(value: unknown): Map[] {
  return Array.isArray(value) ? value.filter(isMap) : [];
}

/** A binding's reference to the params its policy is evaluated with. */
export interface ParamRef {
  readonly name: string;
  readonly namespace: string;
  readonly selector: Map | undefined;
  readonly parameterNotFoundAction: 'Allow' | 'Deny';
}

export interface PolicyBinding {
  readonly name: string;
  readonly validationActions: readonly string[];
  readonly paramRef: ParamRef | undefined;
  readonly matchResources: Map | undefined;
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
  readonly matchConstraints: Map | undefined;
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
  const spec = isMap(record.object['spec']) ? record.object['spec'] : {};
  const ref = isMap(spec['paramRef']) ? spec['paramRef'] : undefined;
  return {
    name: record.name,
    validationActions: Array.isArray(spec['validationActions']) ? spec['validationActions'].filter((action): action is string => typeof action === 'string') : [],
    paramRef:
      ref === undefined
        ? undefined
        : {
            name: text(ref['name']),
            namespace: text(ref['namespace']),
            selector: isMap(ref['selector']) ? ref['selector'] : undefined,
            parameterNotFoundAction: ref['parameterNotFoundAction'] === 'Deny' ? 'Deny' : 'Allow',
          },
    matchResources: isMap(spec['matchResources']) ? spec['matchResources'] : undefined,
  };
}

function policyOf(record: StoredRecord, bindings: readonly PolicyBinding[]): AdmissionPolicy {
  const spec = isMap(record.object['spec']) ? record.object['spec'] : {};
  const paramKind = isMap(spec['paramKind']) ? spec['paramKind'] : undefined;
  return {
    name: record.name,
    failurePolicy: spec['failurePolicy'] === 'Ignore' ? 'Ignore' : 'Fail',
    paramKind: paramKind === undefined ? undefined : { apiVersion: text(paramKind['apiVersion']), kind: text(paramKind['kind']) },
    matchConstraints: isMap(spec['matchConstraints']) ? spec['matchConstraints'] : undefined,
    matchConditions: maps(spec['matchConditions']).map((condition) => ({ name: text(condition['name']), expression: text(condition['expression']) })),
    variables: maps(spec['variables']).map((variable) => ({ name: text(variable['name']), expression: text(variable['expression']) })),
    validations: maps(spec['validations']).map((validation) => ({
      expression: text(validation['expression']),
      message: text(validation['message']),
      messageExpression: text(validation['messageExpression']),
      reason: text(validation['reason']) || 'Invalid',
    })),
    auditAnnotations: maps(spec['auditAnnotations']).map((annotation) => ({ key: text(annotation['key']), valueExpression: text(annotation['valueExpression']) })),
    bindings,
  };
}

/** The policies that have bindings, by name, each with its bindings by name (a binding to no policy does nothing). */
export function boundPolicies(cluster: Cluster): AdmissionPolicy[] {
  const bindings = new globalThis.Map<string, PolicyBinding[]>();
  for (const record of cluster.store.list(POLICY_BINDINGS_KEY).sort(byName)) {
    const spec = isMap(record.object['spec']) ? record.object['spec'] : {};
    const policyName = text(spec['policyName']);
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

function namedRuleMatches(rule: Map, attributes: AdmissionAttributes): boolean {
  if (!ruleMatches(rule, attributes)) return false;
  const names = Array.isArray(rule['resourceNames']) ? rule['resourceNames'] : [];
  return names.length === 0 || names.includes(attributes.name);
}

/**
 * The version in which `criteria` (a policy's matchConstraints or a binding's matchResources) covers the request,
 * under its matchPolicy (its rules, or the request's when it has none), or undefined when it does not.
 */
export function coveringVersion(cluster: Cluster, criteria: Map, request: AdmissionWrite, attributes: AdmissionAttributes): string | undefined {
  const namespaceSelector = isMap(criteria['namespaceSelector']) ? criteria['namespaceSelector'] : undefined;
  const objectSelector = isMap(criteria['objectSelector']) ? criteria['objectSelector'] : undefined;
  if (!selectorsMatch(cluster, namespaceSelector, objectSelector, attributes)) return undefined;
  const policy = criteria['matchPolicy'];
  if (matchingVersion(maps(criteria['excludeResourceRules']), policy, request, attributes, namedRuleMatches) !== undefined) return undefined;
  const rules = maps(criteria['resourceRules']);
  return rules.length === 0 ? attributes.version : matchingVersion(rules, policy, request, attributes, namedRuleMatches);
}
