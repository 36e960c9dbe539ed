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
import { fromJson } from '../cel/values.js';
import { forbidden, StatusError, type KubeStatus } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { boundPolicies } from './admission-policies.js';
import type { AdmissionWrite } from './admit.js';
import { policyDenials, type Denial, type PolicyInput } from './policy-evaluation.js';
import { inputOf, invocationsOf } from './policy-inputs.js';
import { requestAttributes } from './webhooks.js';

/** A denial with the policy and binding it came from (no binding: the policy could not be configured). */
interface Denied extends Denial {
  readonly policy: string;
  readonly binding: string | undefined;
}

/**
 * Evaluates the policies bound for `request`, whose objects (in the form the webhooks are sent them) are given;
 * throws the first denial, and adds the warnings of `Warn` bindings to `warnings`.
 */
export async function validatePolicies(cluster: Cluster, request: AdmissionWrite, object: KubeObject | undefined, oldObject: KubeObject | undefined, warnings: string[]): Promise<void> {
  const attributes = requestAttributes(request, object);
  const denied: Denied[] = [];
  // The inputs at each version a policy matched in (the objects converted once per version).
  const inputs = new Map<string, Omit<PolicyInput, 'params'>>();
  for (const found of invocationsOf(cluster, boundPolicies(cluster), request, attributes)) {
    const { policy, binding } = found;
    if ('message' in found) {
      if (policy.failurePolicy === 'Fail') denied.push({ policy: policy.name, binding: binding?.name, message: found.message, reason: 'Invalid' });
      continue;
    }
    let input = inputs.get(found.version);
    if (input === undefined) {
      input = await inputOf(cluster, request, object, oldObject, found.version);
      inputs.set(found.version, input);
    }
    for (const denial of policyDenials(policy, { ...input, params: fromJson(found.param, undefined) })) {
      for (const action of found.binding.validationActions) {
        if (action === 'Deny') denied.push({ ...denial, policy: policy.name, binding: found.binding.name });
        else if (action === 'Warn') warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${found.binding.name}': ${denial.message}`);
        // `Audit` annotates the request's audit event: the test server writes no audit log.
      }
    }
  }
  const first = denied[0];
  if (first !== undefined) throw deniedError(request, attributes.name, first);
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
