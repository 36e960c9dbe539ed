/**
 * MutatingAdmissionPolicy admission, as kube-apiserver's dispatcher runs it (policy/mutating/dispatcher.go): first in
 * the mutating chain, before the mutating webhooks, on CREATE and UPDATE. Each policy that has bindings and whose
 * matchConstraints cover the request is evaluated once per binding that covers it and per param the binding selects,
 * against the object as the mutations before left it (converted to the version the policy matched in): its
 * matchConditions, then each mutation in order (policy-mutation.ts), its result decoded and defaulted before the
 * next. What the mutations add is owned by no manager (the field manager ran before admission).
 *
 * A policy that cannot be configured, an expression that fails and a mutation that does not apply are errors the
 * policy's failurePolicy decides on: under `Fail`, the request is refused with a 403 whose message is the first
 * error's, `policy '<p>' with binding '<b>' denied request: <error>` (reason Invalid for an evaluation's error), and
 * under `Ignore` the mutation is skipped. A patched document that does not decode is a 500 whatever the policy.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Cluster } from '../cluster.js';
import { fromJson, type CelValue } from '../cel/values.js';
import { rootNode } from '../resources/known-fields.js';
import { apiVersionOf } from '../resources/resource-type.js';
import { forbidden, StatusError, type KubeStatus } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { boundMutatingPolicies, type Mutation, type MutatingPolicy, type PolicyBinding } from './admission-policies.js';
import type { AdmissionWrite } from './admit.js';
import { conditionsVerdict, verdictMessage } from './match-conditions.js';
import { policyScope, run } from './policy-evaluation.js';
import { inputAt, inputOf, invocationsOf } from './policy-inputs.js';
import { appliedConfiguration, jsonPatched, MutationError, type MutationSchema } from './policy-mutation.js';
import type { PluginReinvocation } from './reinvocation.js';
import { mutationHeld, reviewedAt } from './versions.js';
import { requestAttributes } from './webhooks.js';

/** An error of one policy (and binding), with the Status reason it is answered with. */
interface PolicyError {
  readonly policy: MutatingPolicy;
  readonly binding: PolicyBinding | undefined;
  readonly message: string;
  readonly reason: string;
}

/**
 * One round (0, or 1 for the reinvocation) of the policies over `object` (held, in its review form); answers the
 * object they leave, or throws the refusal.
 */
export async function mutateByPolicies(
  cluster: Cluster,
  request: AdmissionWrite,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  round: number,
  reinvocation: PluginReinvocation<string>,
): Promise<KubeObject | undefined> {
  reinvocation.begin(round, object);
  if (object === undefined) return object;
  const attributes = requestAttributes(request, object);
  const configurationErrors: PolicyError[] = [];
  const errors: PolicyError[] = [];
  let current = object;
  for (const found of invocationsOf(cluster, boundMutatingPolicies(cluster), request, attributes)) {
    const { policy, binding } = found;
    if ('message' in found) {
      configurationErrors.push({ policy, binding, message: found.message, reason: '' });
      continue;
    }
    const key = invocationKey(policy, found.binding, found.param);
    const failed = (message: string): void => void errors.push({ policy, binding, message, reason: 'Invalid' });
    const params = fromJson(found.param, undefined);
    if (policy.matchConditions.length > 0) {
      const verdict = conditionsVerdict(policy.matchConditions, policyScope(policy, { ...(await inputOf(cluster, request, current, oldObject, found.version)), params }));
      if ('errors' in verdict) {
        failed(verdictMessage(verdict.errors));
        continue;
      }
      if (!verdict.call) continue;
    }
    if (!reinvocation.runs(round, key)) continue;
    const before = current;
    for (const mutation of policy.mutations) {
      try {
        current = await mutated(cluster, request, current, oldObject, found.version, policy, params, mutation);
      } catch (error) {
        if (!(error instanceof MutationError)) throw error;
        failed(error.message);
      }
    }
    reinvocation.ran(key, !isDeepStrictEqual(current, before), policy.reinvocationPolicy === 'IfNeeded');
  }
  reinvocation.end(current);
  const refusing = [...configurationErrors, ...errors].filter((error) => error.policy.failurePolicy === 'Fail');
  if (refusing.length > 0) throw refusal(request, attributes.name, refusing);
  return current;
}

/** The key of one invocation: the policy, the binding and the param (kube-apiserver's key of the reinvoke context). */
function invocationKey(policy: MutatingPolicy, binding: PolicyBinding, param: KubeObject | null): string {
  const metadata = (param?.['metadata'] ?? {}) as Record<string, unknown>;
  return JSON.stringify([policy.name, binding.name, metadata['namespace'] ?? '', metadata['name'] ?? '']);
}

/** The object one mutation makes of `object` (held), applied at `version` and brought back; `object` when unchanged. */
async function mutated(
  cluster: Cluster,
  request: AdmissionWrite,
  object: KubeObject,
  oldObject: KubeObject | undefined,
  version: string,
  policy: MutatingPolicy,
  params: CelValue,
  mutation: Mutation,
): Promise<KubeObject> {
  const target = (await reviewedAt(cluster, request, object, version)) ?? object;
  const input = inputAt(cluster, request, target, await reviewedAt(cluster, request, oldObject, version), version);
  const result = run(mutation.expression, policyScope(policy, { ...input, params }), true);
  if ('error' in result) throw new MutationError(result.error);
  if (mutation.patchType === 'ApplyConfiguration') return mutationHeld(cluster, request, appliedConfiguration(target, result.value, schemaAt(request, version)), version);
  const patched = jsonPatched(target, result.value);
  return patched === target ? object : mutationHeld(cluster, request, patched, version, true);
}

/** The kind's schema at `version`, for an ApplyConfiguration (a Scale or an Eviction: none). */
function schemaAt(request: AdmissionWrite, version: string): MutationSchema {
  const { type } = request.view;
  const root = request.kind === undefined ? rootNode({ ...request.view, version, apiVersion: apiVersionOf(type.group, version) }) : undefined;
  return { root, listKeys: type.listKeys, unstructured: !type.builtin };
}

/** The refusal: admission.NewForbidden's 403 with the first error's message and reason, each error a cause. */
function refusal(request: AdmissionWrite, name: string, refusing: readonly PolicyError[]): StatusError {
  const messages = refusing.map((error) =>
    error.binding === undefined ? `policy "${error.policy.name}" denied request: ${error.message}` : `policy '${error.policy.name}' with binding '${error.binding.name}' denied request: ${error.message}`,
  );
  const { group, plural } = request.view.type;
  const base = forbidden({ group, plural }, name, messages[0] ?? '', messages.map((message) => ({ message }))).body;
  const reason = refusing[0]?.reason ?? '';
  const body: KubeStatus = { ...base, message: messages[0] ?? '', ...(reason === '' ? {} : { reason }) };
  return new StatusError(body);
}
