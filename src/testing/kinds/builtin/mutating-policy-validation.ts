/**
 * kube-apiserver 1.37's validation of MutatingAdmissionPolicies and their bindings (admissionregistration's
 * ValidateMutatingAdmissionPolicy, ValidateMutatingAdmissionPolicyBinding and their updates, run on the defaulted
 * object after ObjectMeta's; then the registry strategies' `.static.k8s.io` rule on create), in its order: a
 * policy's failure policy, paramKind, matchConstraints (with ValidatingAdmissionPolicy's rules, then the operations a
 * mutation cannot serve), matchConditions, variables, mutations and reinvocation policy; a binding's policy name,
 * paramRef and matchResources. The rules shared with ValidatingAdmissionPolicies are admission-policy-validation.ts's.
 * Unlike a ValidatingAdmissionPolicy's, `variables` is declared to every expression after the matchConditions (the
 * composition compiler is always used), so `variables.x` without such a variable is an `undefined field`.
 * Left out, as for ValidatingAdmissionPolicies: the authorization check of a paramKind or paramRef, and the CEL
 * checks admission-policy-expressions.ts lists.
 */
import { dns1123SubdomainProblems } from '../../resources/dns-names.js';
import { fieldInvalid, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { compileExpression, type CelScope, type VariableType } from './admission-policy-expressions.js';
import {
  listAt,
  matchConditionProblems,
  matchConditionsUnchanged,
  matchResourcesProblems,
  notSupported,
  paramRefProblems,
  policyMatchProblems,
  staticSuffixProblems,
  variableProblems,
} from './admission-policy-validation.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

/** The operations a mutation can serve (no DELETE), as Go's sorted set lists them. */
const MUTATING_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'UPDATE'];
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

/** Each operation of the resourceRules (not the exclusions) that cannot be mutated, on the rules' list without an index. */
function mutatingOperationProblems(match: Json, at: string): FieldProblem[] {
  return objectsAt(match, 'resourceRules').flatMap((rule) =>
    listAt(rule, 'operations')
      .filter((operation) => !MUTATING_OPERATIONS.includes(operation))
      .map((operation) => notSupported(`${at}.resourceRules.operations`, operation, MUTATING_OPERATIONS)),
  );
}

/**
 * Go's validateApplyConfiguration and validateJSONPatch: an expression, compiled trimmed (and shown so) with the
 * mutation's types declared, which must evaluate to an `Object` or a `list(JSONPatch)`.
 */
function patchExpressionProblems(patch: Json, scope: CelScope, field: string, patchType: string): FieldProblem[] {
  const expression = textAt(patch, 'expression').trim();
  if (expression === '') return [fieldRequired(field)];
  const problem = compileExpression(expression, field, { ...scope, patchTypes: true }, patchType === 'JSONPatch' ? 'list(JSONPatch)' : 'Object').problem;
  return problem === undefined ? [] : [problem];
}

/** Go's validateMutation: a known patchType, its own patch (compiled), not the other one. */
function mutationProblems(mutation: Json, scope: CelScope, at: string): FieldProblem[] {
  const patchType = textAt(mutation, 'patchType');
  if (patchType === '') return [fieldRequired(`${at}.patchType`)];
  if (!PATCH_TYPES.includes(patchType)) return [notSupported(`${at}.patchType`, patchType, PATCH_TYPES)];
  const [own, other] = patchType === 'JSONPatch' ? ['jsonPatch', 'applyConfiguration'] : ['applyConfiguration', 'jsonPatch'];
  const patch = objectAt(mutation, own);
  const problems = patch === undefined ? [fieldRequired(`${at}.${own}`, `must be specified when patchType is ${patchType}`)] : patchExpressionProblems(patch, scope, `${at}.${own}.expression`, patchType);
  // Go shows the other field's name in braces as its value.
  if (objectAt(mutation, other) !== undefined) problems.push(fieldInvalid(`${at}.${other}`, `{${other}}`, `must not be specified when patchType is ${patchType}`));
  return problems;
}

/** Go's validateMutatingAdmissionPolicySpec; `compileMatchConditions` false on an update that left them alone. */
function policySpecProblems(object: Json, compileMatchConditions: boolean): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems = policyMatchProblems(spec, (constraints) => mutatingOperationProblems(constraints, 'spec.matchConstraints'));
  const params = objectAt(spec, 'paramKind') !== undefined;
  if (compileMatchConditions) problems.push(...matchConditionProblems(objectsAt(spec, 'matchConditions'), params, 'spec.matchConditions'));
  const variables = new Map<string, VariableType>();
  const scope = (): CelScope => ({ params, authorizer: true, variables: new Map(variables) });
  objectsAt(spec, 'variables').forEach((variable, i) => problems.push(...variableProblems(variable, scope(), variables, `spec.variables[${i}]`)));
  const mutations = objectsAt(spec, 'mutations');
  if (mutations.length === 0) problems.push(fieldRequired('spec.mutations', 'mutations must contain at least one item'));
  mutations.forEach((mutation, i) => problems.push(...mutationProblems(mutation, scope(), `spec.mutations[${i}]`)));
  const reinvocation = textAt(spec, 'reinvocationPolicy');
  if (reinvocation === '') problems.push(fieldRequired('spec.reinvocationPolicy'));
  else if (!REINVOCATION_POLICIES.includes(reinvocation)) problems.push(notSupported('spec.reinvocationPolicy', reinvocation, REINVOCATION_POLICIES));
  return problems;
}

export function mutatingPolicyProblems(object: Json): FieldProblem[] {
  return [...policySpecProblems(object, true), ...staticSuffixProblems(object)];
}

/** On update, matchConditions are compiled again only when they or the paramKind changed. */
export function mutatingPolicyUpdateProblems(object: Json, old: Json): FieldProblem[] {
  return policySpecProblems(object, !matchConditionsUnchanged(object, old));
}

/** Go's validateMutatingAdmissionPolicyBindingSpec: the policy name (required first), paramRef, matchResources. */
function bindingProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  const policyName = textAt(spec, 'policyName');
  if (policyName === '') problems.push(fieldRequired('spec.policyName'));
  else for (const message of dns1123SubdomainProblems(policyName)) problems.push(fieldInvalid('spec.policyName', policyName, message));
  const paramRef = objectAt(spec, 'paramRef');
  if (paramRef !== undefined) problems.push(...paramRefProblems(paramRef, 'spec.paramRef'));
  const match = objectAt(spec, 'matchResources');
  if (match !== undefined) problems.push(...matchResourcesProblems(match, 'spec.matchResources'), ...mutatingOperationProblems(match, 'spec.matchResources'));
  return problems;
}

export function mutatingBindingProblems(object: Json): FieldProblem[] {
  return [...bindingProblems(object), ...staticSuffixProblems(object)];
}

export function mutatingBindingUpdateProblems(object: Json): FieldProblem[] {
  return bindingProblems(object);
}
