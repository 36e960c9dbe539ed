/**
 * kube-apiserver 1.37's validation of ValidatingAdmissionPolicies and their bindings (admissionregistration's
 * ValidateValidatingAdmissionPolicy, ValidateValidatingAdmissionPolicyBinding and their updates, run on the defaulted
 * object after ObjectMeta's), in its order: a policy's failure policy, paramKind, matchConstraints (rules, selectors,
 * match policy), matchConditions, variables, validations and audit annotations, each CEL expression compiled
 * (admission-policy-expressions.ts); a binding's policy name, paramRef, matchResources and validation actions.
 * A name ending in `.static.k8s.io` is refused on create (the ManifestBasedAdmissionControlConfig gate, on in 1.37).
 * A binding's missing policyName and validationActions are declarative validation's errors, which kube-apiserver
 * lists after the handwritten ones. An update is judged as a create, except that a policy's matchConditions are not
 * compiled again while they and its paramKind are unchanged.
 * The rules a MutatingAdmissionPolicy shares with these are exported for mutating-policy-validation.ts.
 * Left out: the authorization check of a paramKind's or paramRef's resource (the test server's clients are
 * admins), the status subresource's rules (typeChecking warnings and conditions: only a controller writes them), and
 * the CEL checks admission-policy-expressions.ts lists.
 */
import { jsonEqual } from '../../patch/json-value.js';
import { dns1035LabelProblems, dns1123SubdomainProblems } from '../../resources/dns-names.js';
import { goJson, goQuote } from '../../go/go-values.js';
import { fieldDuplicate, fieldForbidden, fieldInvalid, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { compileExpression, type CelScope, type VariableType, type Want } from './admission-policy-expressions.js';
import { labelSelectorProblems, qualifiedNameProblems } from './field-rules.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const NOT_FOUND_ACTIONS = ['Deny', 'Allow'];
const STATIC_SUFFIX = '.static.k8s.io';
const MAX_MATCH_CONDITIONS = 64;
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION_BYTES = 5 * 1024;

/** Go's field.NotSupported of a value of a named string type, which a field error prints as encoding/json does. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldProblem {
  return { field, reason: 'FieldValueNotSupported', message: `Unsupported value: ${goJson(value)}: supported values: ${supported.map(goQuote).join(', ')}` };
}

/** The strings of the list at `key` (none when there is no list). */
export function listAt(parent: Json, key: string): string[] {
  const value = parent[key];
  return Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : String(item))) : [];
}

const isSet = (parent: Json, key: string): boolean => parent[key] !== undefined && parent[key] !== null;
const blank = (text: string): boolean => text.trim() === '';

/** apimachinery's IsPathSegmentName: a resource name or a paramRef's name. */
function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((part) => name.includes(part)).map((part) => `may not contain '${part}'`);
}

/** Go's validateResources: a rule's resources, `*` and `x/*` wildcards excluding what they cover. */
function resourceProblems(resources: readonly string[], at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (resources.length === 0) problems.push(fieldRequired(at));
  const wildcardSubresources = new Set<string>();
  const wildcardResources = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  resources.forEach((resource, i) => {
    if (resource === '') {
      problems.push(fieldRequired(`${at}[${i}]`));
      return;
    }
    if (resource === '*/*') doubleWildcard = true;
    if (resource === '*') singleWildcard = true;
    const slash = resource.indexOf('/');
    if (slash < 0) {
      // Go assigns, not accumulates: only the last resource without a subresource counts.
      withoutSubresource = resource !== '*';
      return;
    }
    const [name, sub] = [resource.slice(0, slash), resource.slice(slash + 1)];
    if (wildcardSubresources.has(name)) problems.push(fieldInvalid(`${at}[${i}]`, resource, `if '${name}/*' is present, must not specify ${resource}`));
    if (wildcardResources.has(sub)) problems.push(fieldInvalid(`${at}[${i}]`, resource, `if '*/${sub}' is present, must not specify ${resource}`));
    if (sub === '*') wildcardSubresources.add(name);
    if (name === '*') wildcardResources.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) problems.push(fieldInvalid(at, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSubresource) problems.push(fieldInvalid(at, resources, "if '*' is present, must not specify other resources without subresources"));
  return problems;
}

/** Go's validateRuleWithOperations (a policy's or binding's rules, and a webhook's): operations, groups, versions, resources, scope. */
export function ruleProblems(rule: Json, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const operations = listAt(rule, 'operations');
  if (operations.length === 0) problems.push(fieldRequired(`${at}.operations`));
  if (operations.length > 1 && operations.includes('*')) problems.push(fieldInvalid(`${at}.operations`, operations, "if '*' is present, must not specify other operations"));
  operations.forEach((operation, i) => {
    if (!OPERATIONS.includes(operation)) problems.push(notSupported(`${at}.operations[${i}]`, operation, OPERATIONS));
  });
  const groups = listAt(rule, 'apiGroups');
  if (groups.length === 0) problems.push(fieldRequired(`${at}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) problems.push(fieldInvalid(`${at}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = listAt(rule, 'apiVersions');
  if (versions.length === 0) problems.push(fieldRequired(`${at}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) problems.push(fieldInvalid(`${at}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((version, i) => {
    if (version === '') problems.push(fieldRequired(`${at}.apiVersions[${i}]`));
  });
  problems.push(...resourceProblems(listAt(rule, 'resources'), `${at}.resources`));
  if (isSet(rule, 'scope') && !SCOPES.includes(textAt(rule, 'scope'))) problems.push(notSupported(`${at}.scope`, rule['scope'], SCOPES));
  return problems;
}

/** Go's validateNamedRuleWithOperations: the resource names, then the rule. */
function namedRuleProblems(rule: Json, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  listAt(rule, 'resourceNames').forEach((name, i) => {
    for (const message of pathSegmentProblems(name)) problems.push(fieldInvalid(`${at}.resourceNames[${i}]`, name, message));
    if (seen.has(name)) problems.push(fieldDuplicate(`${at}.resourceNames[${i}]`, name));
    seen.add(name);
  });
  return [...problems, ...ruleProblems(rule, at)];
}

/** Go's validateMatchResources: a policy's matchConstraints or a binding's matchResources (defaulted). */
export function matchResourcesProblems(match: Json, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isSet(match, 'matchPolicy')) problems.push(fieldRequired(`${at}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(textAt(match, 'matchPolicy'))) problems.push(notSupported(`${at}.matchPolicy`, match['matchPolicy'], MATCH_POLICIES));
  for (const key of ['namespaceSelector', 'objectSelector']) {
    const selector = objectAt(match, key);
    // Strictly, as the type came after kubernetes#99139: no invalid label value is tolerated.
    problems.push(...(selector === undefined ? [fieldRequired(`${at}.${key}`)] : labelSelectorProblems(selector, `${at}.${key}`)));
  }
  for (const key of ['resourceRules', 'excludeResourceRules']) objectsAt(match, key).forEach((rule, i) => problems.push(...namedRuleProblems(rule, `${at}.${key}[${i}]`)));
  return problems;
}

/** Go's parseGroupVersion: `group/version`, a bare version, or the reason it is neither. */
function groupVersion(text: string): { group: string; version: string } | string {
  if (text === '/') return { group: '', version: '' };
  const parts = text.split('/');
  if (parts.length > 2) return `unexpected GroupVersion string: ${text}`;
  return parts.length === 1 ? { group: '', version: text } : { group: parts[0] ?? '', version: parts[1] ?? '' };
}

/** Go's validateParamKind: an apiVersion of a DNS subdomain group and a DNS-1035 version, a kind of any case. */
function paramKindProblems(kind: Json, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const apiVersion = textAt(kind, 'apiVersion');
  const parsed = groupVersion(apiVersion);
  if (apiVersion === '') problems.push(fieldRequired(`${at}.apiVersion`));
  else if (typeof parsed === 'string') problems.push(fieldInvalid(`${at}.apiVersion`, apiVersion, parsed));
  else {
    const groupProblems = parsed.group === '' ? [] : dns1123SubdomainProblems(parsed.group);
    if (groupProblems.length > 0) problems.push(fieldInvalid(`${at}.apiVersion`, parsed.group, groupProblems.join(',')));
    const versionProblems = dns1035LabelProblems(parsed.version);
    if (parsed.version === '') problems.push(fieldInvalid(`${at}.apiVersion`, apiVersion, 'version must be specified'));
    else if (versionProblems.length > 0) problems.push(fieldInvalid(`${at}.apiVersion`, parsed.version, versionProblems.join(',')));
  }
  const name = textAt(kind, 'kind');
  const kindProblems = dns1035LabelProblems(name.toLowerCase());
  if (name === '') problems.push(fieldRequired(`${at}.kind`));
  else if (kindProblems.length > 0) problems.push(fieldInvalid(`${at}.kind`, name, `may have mixed case, but should otherwise match: ${kindProblems.join(',')}`));
  return problems;
}

/**
 * Go's validateMatchConditions: at most 64, each a compiled bool expression (no `variables`) and a unique qualified
 * name; a policy's (`params` with a paramKind) and a webhook's (never `params`) alike.
 */
export function matchConditionProblems(conditions: readonly Json[], params: boolean, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) problems.push({ field: at, reason: 'FieldValueTooMany', message: `Too many: ${conditions.length}: must have at most ${MAX_MATCH_CONDITIONS} items` });
  const names = new Set<string>();
  conditions.forEach((condition, i) => {
    const expression = textAt(condition, 'expression').trim();
    if (expression === '') problems.push(fieldRequired(`${at}[${i}].expression`));
    else problems.push(...compiled(expression, `${at}[${i}].expression`, { params, authorizer: true, variables: undefined }, 'bool'));
    const name = textAt(condition, 'name');
    if (name === '') problems.push(fieldRequired(`${at}[${i}].name`));
    else for (const message of qualifiedNameProblems(name)) problems.push(fieldInvalid(`${at}[${i}].name`, name, message));
    if (name !== '' && names.has(name)) problems.push(fieldDuplicate(`${at}[${i}].name`, name));
    names.add(name);
  });
  return problems;
}

/** The refusal of an expression's compilation, as a list. */
function compiled(text: string, field: string, scope: CelScope, want: Want, shown?: string): FieldProblem[] {
  const problem = compileExpression(text, field, scope, want, shown).problem;
  return problem === undefined ? [] : [problem];
}

/** CEL's identifiers: not a reserved word (isCELIdentifier). */
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const isCelIdentifier = (name: string): boolean => /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !CEL_RESERVED.has(name);

/** Go's validateVariable; a compiled variable joins `variables` for the expressions after it, even a failed one (as dyn). */
export function variableProblems(variable: Json, scope: CelScope, into: Map<string, VariableType>, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const name = textAt(variable, 'name');
  if (blank(name)) problems.push(fieldRequired(`${at}.name`, 'name is not specified'));
  else if (!isCelIdentifier(name)) problems.push(fieldInvalid(`${at}.name`, name, 'must be a valid CEL identifier'));
  const expression = textAt(variable, 'expression');
  if (blank(expression)) problems.push(fieldRequired(`${at}.expression`, 'expression is not specified'));
  else {
    const result = compileExpression(expression, `${at}.expression`, scope, 'any');
    if (result.problem !== undefined) problems.push(result.problem);
    into.set(name, result.variable);
  }
  return problems;
}

/** Go's validateValidation: the expression (a bool), messageExpression (a string, no authorizer), message, reason. */
function validationProblems(validation: Json, scope: CelScope, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const expression = textAt(validation, 'expression');
  if (blank(expression)) problems.push(fieldRequired(`${at}.expression`, 'expression is not specified'));
  else problems.push(...compiled(expression, `${at}.expression`, scope, 'bool'));
  const messageExpression = textAt(validation, 'messageExpression');
  if (messageExpression !== '' && blank(messageExpression)) problems.push(fieldInvalid(`${at}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  else if (messageExpression !== '') problems.push(...compiled(messageExpression, `${at}.messageExpression`, { ...scope, authorizer: false }, 'string'));
  const message = textAt(validation, 'message');
  if (message !== '' && blank(message)) problems.push(fieldInvalid(`${at}.message`, message, 'must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim())) problems.push(fieldInvalid(`${at}.message`, message, 'must not contain line breaks'));
  if (typeof validation['reason'] === 'string' && !REASONS.includes(validation['reason'])) problems.push(notSupported(`${at}.reason`, validation['reason'], REASONS));
  return problems;
}

/** Go's validateAuditAnnotation: `<policy>/<key>` a qualified name, the value expression (trimmed) a string or null. */
function auditAnnotationProblems(annotation: Json, policy: string, scope: CelScope, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const key = textAt(annotation, 'key');
  if (policy === '') problems.push(fieldInvalid(`${at}.key`, key, 'requires metadata.name be non-empty'));
  else for (const message of qualifiedNameProblems(`${policy}/${key}`)) problems.push(fieldInvalid(`${at}.key`, `${policy}/${key}`, message));
  const value = textAt(annotation, 'valueExpression');
  const trimmed = value.trim();
  if (trimmed === '') problems.push(fieldRequired(`${at}.valueExpression`, 'valueExpression is not specified'));
  else if (Buffer.byteLength(trimmed) > MAX_VALUE_EXPRESSION_BYTES) problems.push(fieldRequired(`${at}.valueExpression`, `must not exceed ${MAX_VALUE_EXPRESSION_BYTES} bytes in length`));
  else problems.push(...compiled(trimmed, `${at}.valueExpression`, scope, 'string-or-null', value));
  return problems;
}

/** The validations and audit annotations: at least one of them, each compiled with the policy's variables. */
function checksProblems(spec: Json, policy: string, scope: CelScope): FieldProblem[] {
  const validations = objectsAt(spec, 'validations');
  const annotations = objectsAt(spec, 'auditAnnotations');
  if (validations.length === 0 && annotations.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    return [fieldRequired('spec.validations', detail), fieldRequired('spec.auditAnnotations', detail)];
  }
  const problems = validations.flatMap((validation, i) => validationProblems(validation, scope, `spec.validations[${i}]`));
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) {
    // The internal Go structs, which have no JSON tags: their fields' names as Go spells them.
    const shown = annotations.map((annotation) => ({ Key: textAt(annotation, 'key'), ValueExpression: textAt(annotation, 'valueExpression') }));
    problems.push(fieldInvalid('spec.auditAnnotations', shown, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const keys = new Set<string>();
  annotations.forEach((annotation, i) => {
    problems.push(...auditAnnotationProblems(annotation, policy, scope, `spec.auditAnnotations[${i}]`));
    const key = textAt(annotation, 'key');
    if (keys.has(key)) problems.push(fieldDuplicate(`spec.auditAnnotations[${i}].key`, key));
    keys.add(key);
  });
  return problems;
}

const nameOf = (object: Json): string => textAt(objectAt(object, 'metadata') ?? {}, 'name');

/** Go's ValidateStaticSuffix: names of this suffix are kept for configurations from manifests (policies, bindings, webhook configurations). */
export function staticSuffixProblems(object: Json): FieldProblem[] {
  const name = nameOf(object);
  const detail = `names ending with ${goQuote(STATIC_SUFFIX)} are reserved for static manifest-based configurations and cannot be managed via the API`;
  return name.endsWith(STATIC_SUFFIX) ? [fieldInvalid('metadata.name', name, detail)] : [];
}

/** A policy's failurePolicy (defaulted, so missing only when nulled): Fail or Ignore. */
function failurePolicyProblems(spec: Json): FieldProblem[] {
  if (!isSet(spec, 'failurePolicy')) return [fieldRequired('spec.failurePolicy')];
  return FAILURE_POLICIES.includes(textAt(spec, 'failurePolicy')) ? [] : [notSupported('spec.failurePolicy', spec['failurePolicy'], FAILURE_POLICIES)];
}

/**
 * What both policy kinds check first, in this order: `failurePolicy`, `paramKind`, `matchConstraints` (at least one
 * rule, which gives the expressions their types), then `constraintProblems`, a kind's own checks of its constraints.
 */
export function policyMatchProblems(spec: Json, constraintProblems: (constraints: Json) => FieldProblem[] = () => []): FieldProblem[] {
  const problems = failurePolicyProblems(spec);
  const paramKind = objectAt(spec, 'paramKind');
  if (paramKind !== undefined) problems.push(...paramKindProblems(paramKind, 'spec.paramKind'));
  const constraints = objectAt(spec, 'matchConstraints');
  if (constraints === undefined) return [...problems, fieldRequired('spec.matchConstraints')];
  problems.push(...matchResourcesProblems(constraints, 'spec.matchConstraints'));
  if (objectsAt(constraints, 'resourceRules').length === 0) problems.push(fieldRequired('spec.matchConstraints.resourceRules'));
  return [...problems, ...constraintProblems(constraints)];
}

function policySpecProblems(object: Json, compileMatchConditions: boolean): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems = policyMatchProblems(spec);
  const params = objectAt(spec, 'paramKind') !== undefined;
  if (compileMatchConditions) problems.push(...matchConditionProblems(objectsAt(spec, 'matchConditions'), params, 'spec.matchConditions'));
  const declared = objectsAt(spec, 'variables');
  const variables = new Map<string, VariableType>();
  // `variables` is declared only for a policy with variables (the composition compiler), growing as each compiles.
  const scope = (): CelScope => ({ params, authorizer: true, variables: declared.length > 0 ? new Map(variables) : undefined });
  declared.forEach((variable, i) => problems.push(...variableProblems(variable, scope(), variables, `spec.variables[${i}]`)));
  return [...problems, ...checksProblems(spec, nameOf(object), scope())];
}

export function admissionPolicyProblems(object: Json): FieldProblem[] {
  return [...policySpecProblems(object, true), ...staticSuffixProblems(object)];
}

/** Absent, null and an empty list are the same to Go's semantic equality. */
const normal = (value: unknown): unknown => (value === undefined || value === null || (Array.isArray(value) && value.length === 0) ? null : value);
const same = (a: unknown, b: unknown): boolean => jsonEqual(normal(a), normal(b));

/** Whether an update leaves a policy's matchConditions and paramKind as they were (then they are not compiled again). */
export function matchConditionsUnchanged(object: Json, old: Json): boolean {
  const spec = objectAt(object, 'spec') ?? {};
  const oldSpec = objectAt(old, 'spec') ?? {};
  return same(spec['paramKind'], oldSpec['paramKind']) && same(spec['matchConditions'], oldSpec['matchConditions']);
}

/** On update, matchConditions are compiled again only when they or the paramKind changed. */
export function admissionPolicyUpdateProblems(object: Json, old: Json): FieldProblem[] {
  return policySpecProblems(object, !matchConditionsUnchanged(object, old));
}

/** Go's validateParamRef: a name or a selector (not both), and what to do when no parameter is found. */
export function paramRefProblems(ref: Json, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const name = textAt(ref, 'name');
  const selector = objectAt(ref, 'selector');
  const exclusive = 'name and selector are mutually exclusive';
  if (name !== '') {
    for (const message of pathSegmentProblems(name)) problems.push(fieldInvalid(`${at}.name`, name, message));
    if (selector !== undefined) problems.push(fieldForbidden(`${at}.name`, exclusive));
  }
  if (selector !== undefined) {
    problems.push(...labelSelectorProblems(selector, `${at}.selector`));
    if (name !== '') problems.push(fieldForbidden(`${at}.selector`, exclusive));
  }
  if (name === '' && selector === undefined) problems.push(fieldRequired(at, 'one of name or selector must be specified'));
  const action = ref['parameterNotFoundAction'];
  if (action === undefined || action === null || action === '') problems.push(fieldRequired(`${at}.parameterNotFoundAction`));
  else if (!NOT_FOUND_ACTIONS.includes(textAt(ref, 'parameterNotFoundAction'))) problems.push(notSupported(`${at}.parameterNotFoundAction`, action, NOT_FOUND_ACTIONS));
  return problems;
}

/** Go's validateValidationActions: known, unique, not both Deny and Warn (none at all is declarative validation's). */
function actionProblems(actions: readonly string[], at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (!ACTIONS.includes(action)) problems.push(notSupported(`${at}[${i}]`, action, ACTIONS));
    if (seen.has(action)) problems.push({ field: `${at}[${i}]`, reason: 'FieldValueDuplicate', message: `Duplicate value: ${goJson(action)}` });
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    problems.push(fieldInvalid(at, actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  return problems;
}

/** The handwritten rules of a binding's spec, then `extra` (the static suffix on create), then the declarative ones. */
function bindingProblems(object: Json, extra: readonly FieldProblem[]): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  const policyName = textAt(spec, 'policyName');
  if (policyName !== '') for (const message of dns1123SubdomainProblems(policyName)) problems.push(fieldInvalid('spec.policyName', policyName, message));
  const paramRef = objectAt(spec, 'paramRef');
  if (paramRef !== undefined) problems.push(...paramRefProblems(paramRef, 'spec.paramRef'));
  const match = objectAt(spec, 'matchResources');
  if (match !== undefined) problems.push(...matchResourcesProblems(match, 'spec.matchResources'));
  const actions = listAt(spec, 'validationActions');
  problems.push(...actionProblems(actions, 'spec.validationActions'), ...extra);
  if (policyName === '') problems.push(fieldRequired('spec.policyName'));
  if (actions.length === 0) problems.push(fieldRequired('spec.validationActions'));
  return problems;
}

export function policyBindingProblems(object: Json): FieldProblem[] {
  return bindingProblems(object, staticSuffixProblems(object));
}

export function policyBindingUpdateProblems(object: Json): FieldProblem[] {
  return bindingProblems(object, []);
}
