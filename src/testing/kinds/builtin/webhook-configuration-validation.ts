/**
 * kube-apiserver 1.37's validation of ValidatingWebhookConfigurations and MutatingWebhookConfigurations
 * (admissionregistration's Validate(Validating|Mutating)WebhookConfiguration and their updates, run on the defaulted
 * object after ObjectMeta's), in its order: for each webhook its name (a domain of three segments or more), rules,
 * failurePolicy, matchPolicy, sideEffects, timeoutSeconds, selectors, a mutating one's reinvocationPolicy, its client
 * (exactly one of an https `url` and a `service`), its matchConditions (compiled as a policy's, without `params`),
 * then its admissionReviewVersions and its name's uniqueness; a name ending in `.static.k8s.io` last, on create only.
 * An update is judged with the options kube-apiserver derives from the stored object: what the stored object already
 * broke (sideEffects other than None/NoneOnDryRun, no known review version, duplicate names, a selector's bad label
 * value) is allowed again, and unchanged matchConditions are not compiled again.
 * The warnings kube-apiserver gives for a rule naming a resource admission webhooks never see are here too.
 * Left out: the checks of the test server's own CEL compiler (admission-policy-expressions.ts) and of an IPv6 host
 * (go/go-url.ts).
 */
import { jsonEqual } from '../../patch/json-value.js';
import { dns1123SubdomainProblems } from '../../resources/dns-names.js';
import { REVIEW_VERSIONS, reviewVersionProblems } from '../review-versions.js';
import { fieldDuplicate, fieldInvalid, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { listAt, matchConditionProblems, notSupported, ruleProblems, staticSuffixProblems } from './admission-policy-validation.js';
import { labelSelectorProblems } from './field-rules.js';
import { clientConfigProblems } from '../webhook-client-config.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
/** The resources admission webhooks never see (kubeapiserver/admission/exclusion), as `resource.group`. */
const EXCLUDED = new Set([
  'selfsubjectreviews.authentication.k8s.io',
  'tokenreviews.authentication.k8s.io',
  'localsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectrulesreviews.authorization.k8s.io',
  'subjectaccessreviews.authorization.k8s.io',
]);

/** Go's validationOptions: what a create requires, relaxed on update where the stored object broke it already. */
interface Options {
  readonly compileMatchConditions: boolean;
  readonly requireNoSideEffects: boolean;
  readonly requireKnownReviewVersion: boolean;
  readonly requireUniqueNames: boolean;
  readonly allowInvalidLabelValues: boolean;
}

const ON_CREATE: Options = { compileMatchConditions: true, requireNoSideEffects: true, requireKnownReviewVersion: true, requireUniqueNames: true, allowInvalidLabelValues: false };

const isSet = (parent: Json, key: string): boolean => parent[key] !== undefined && parent[key] !== null;

/** apimachinery's IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function webhookNameProblems(name: string, at: string): FieldProblem[] {
  if (name === '') return [fieldRequired(at)];
  const problems = dns1123SubdomainProblems(name);
  if (problems.length > 0) return [fieldInvalid(at, name, problems.join(','))];
  return name.split('.').length < 3 ? [fieldInvalid(at, name, 'should be a domain with at least three segments separated by dots')] : [];
}

/** A value of one of `supported`, when set (a policy kube-apiserver's defaulting always sets). */
function choiceProblems(hook: Json, key: string, supported: readonly string[], at: string): FieldProblem[] {
  return isSet(hook, key) && !supported.includes(textAt(hook, key)) ? [notSupported(`${at}.${key}`, hook[key], supported)] : [];
}

/** Go's ValidateLabelSelector, a requirement's values left unchecked when the option allows bad ones. */
function selectorProblems(selector: Json, at: string, options: Options): FieldProblem[] {
  const problems = labelSelectorProblems(selector, at);
  if (!options.allowInvalidLabelValues) return problems;
  return problems.filter((problem) => !/\.matchExpressions\[\d+\]\.values\[\d+\]$/.test(problem.field));
}

/** Go's validateValidatingWebhook and validateMutatingWebhook (the same but for reinvocationPolicy). */
function webhookProblems(hook: Json, mutating: boolean, options: Options, at: string): FieldProblem[] {
  const problems = webhookNameProblems(textAt(hook, 'name'), `${at}.name`);
  objectsAt(hook, 'rules').forEach((rule, i) => problems.push(...ruleProblems(rule, `${at}.rules[${i}]`)));
  problems.push(...choiceProblems(hook, 'failurePolicy', FAILURE_POLICIES, at), ...choiceProblems(hook, 'matchPolicy', MATCH_POLICIES, at));
  const sideEffects = options.requireNoSideEffects ? NO_SIDE_EFFECTS : SIDE_EFFECTS;
  if (!isSet(hook, 'sideEffects')) problems.push(fieldRequired(`${at}.sideEffects`, `must specify one of ${sideEffects.join(', ')}`));
  problems.push(...choiceProblems(hook, 'sideEffects', sideEffects, at));
  const timeout = hook['timeoutSeconds'];
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) problems.push(fieldInvalid(`${at}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  for (const key of ['namespaceSelector', 'objectSelector']) {
    const selector = objectAt(hook, key);
    if (selector !== undefined) problems.push(...selectorProblems(selector, `${at}.${key}`, options));
  }
  if (mutating) problems.push(...choiceProblems(hook, 'reinvocationPolicy', REINVOCATION_POLICIES, at));
  problems.push(...clientConfigProblems(objectAt(hook, 'clientConfig') ?? {}, `${at}.clientConfig`));
  if (options.compileMatchConditions) problems.push(...matchConditionProblems(objectsAt(hook, 'matchConditions'), false, `${at}.matchConditions`));
  return problems;
}

/** Go's validate(Validating|Mutating)WebhookConfiguration after ObjectMeta: each webhook, its versions, its name once. */
function configurationProblems(object: Json, mutating: boolean, options: Options): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const names = new Set<string>();
  objectsAt(object, 'webhooks').forEach((hook, i) => {
    const at = `webhooks[${i}]`;
    problems.push(...webhookProblems(hook, mutating, options, at));
    problems.push(...reviewVersionProblems(listAt(hook, 'admissionReviewVersions'), `${at}.admissionReviewVersions`, { requireKnown: options.requireKnownReviewVersion, requiredDetail: `must specify one of ${REVIEW_VERSIONS.join(', ')}` }));
    const name = textAt(hook, 'name');
    if (options.requireUniqueNames && name !== '') {
      if (names.has(name)) problems.push(fieldDuplicate(`${at}.name`, name));
      names.add(name);
    }
  });
  return problems;
}

export function webhookConfigurationProblems(object: Json, mutating: boolean): FieldProblem[] {
  return [...configurationProblems(object, mutating, ON_CREATE), ...staticSuffixProblems(object)];
}

/** Absent, null and an empty list are the same here: an empty list has nothing to compile. */
const normal = (value: unknown): unknown => (value === undefined || value === null || (Array.isArray(value) && value.length === 0) ? null : value);

/** The options of Validate(Validating|Mutating)WebhookConfigurationUpdate, from the stored webhooks. */
function updateOptions(hooks: readonly Json[], oldHooks: readonly Json[]): Options {
  const unchangedConditions = hooks.length === oldHooks.length && hooks.every((hook, i) => jsonEqual(normal(hook['matchConditions']), normal(oldHooks[i]?.['matchConditions'])));
  const names = oldHooks.map((hook) => textAt(hook, 'name'));
  const badSelector = oldHooks.some((hook) =>
    ['namespaceSelector', 'objectSelector'].some((key) => {
      const selector = objectAt(hook, key);
      return selector !== undefined && labelSelectorProblems(selector, key).length > 0;
    }),
  );
  return {
    compileMatchConditions: !unchangedConditions,
    requireNoSideEffects: oldHooks.every((hook) => NO_SIDE_EFFECTS.includes(textAt(hook, 'sideEffects'))),
    requireKnownReviewVersion: oldHooks.every((hook) => {
      const versions = listAt(hook, 'admissionReviewVersions');
      return versions.length === 0 || versions.some((version) => REVIEW_VERSIONS.includes(version));
    }),
    requireUniqueNames: new Set(names).size === names.length,
    allowInvalidLabelValues: badSelector,
  };
}

export function webhookConfigurationUpdateProblems(object: Json, old: Json, mutating: boolean): FieldProblem[] {
  return configurationProblems(object, mutating, updateOptions(objectsAt(object, 'webhooks'), objectsAt(old, 'webhooks')));
}

/**
 * kube-apiserver's warnings (ExcludeAdmissionWebhookVirtualResources, on in 1.37) for each rule naming a resource
 * admission webhooks never see: once per resource a rule names, none for a rule with a `*` group or resource.
 */
export function webhookRuleWarnings(object: Json): string[] {
  const warnings: string[] = [];
  objectsAt(object, 'webhooks').forEach((hook, i) =>
    objectsAt(hook, 'rules').forEach((rule, j) => {
      const [groups, resources] = [listAt(rule, 'apiGroups'), listAt(rule, 'resources')];
      if (groups.includes('*') || resources.includes('*')) return;
      const named = new Set(groups.flatMap((group) => resources.map((resource) => (group === '' ? resource : `${resource}.${group}`))));
      for (const resource of named) if (EXCLUDED.has(resource)) warnings.push(`webhooks[${i}].rules[${j}]: ${resource} is excluded from admission webhooks; this rule will have no effect`);
    }),
  );
  return warnings;
}
