/**
 * Admission in the test API server, in kube-apiserver's order around a write: the MutatingAdmissionPolicies
 * (mutate-policies.ts), then the mutating webhooks one after the other (each JSONPatch applied before the next is
 * called; review-object.ts, mutation.ts), both again once when one changed the object (reinvocation.ts), then the write's own
 * checks (schema, names, conflicts: run as a dry run), then PodSecurity (pod-security-admission.ts), then the
 * ValidatingAdmissionPolicies (validate-policies.ts),
 * then the validating webhooks (all called; the first refusal in registration order wins), then the write itself.
 * A refusal is answered as kube-apiserver words it; a webhook that cannot be called (refused connection, TLS
 * failure, `timeoutSeconds` passed, a bad answer) fails the request under `failurePolicy: Fail` and is skipped under
 * `Ignore`. Warnings of the webhooks and of `Warn` policy bindings become `Warning: 299` headers.
 *
 * The field manager records a write before the mutating chain runs, as kube-apiserver's handlers do: the policies and
 * webhooks are given the object with its new managedFields, and what they add is owned by no manager.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Cluster } from '../cluster.js';
import type { ManagedFieldsEntry } from '../patch/index.js';
import { ADMISSION_POLICIES_KEY, MUTATING_POLICIES_KEY, MUTATING_POLICY_BINDINGS_KEY, MUTATING_WEBHOOKS_KEY, POLICY_BINDINGS_KEY, VALIDATING_WEBHOOKS_KEY } from '../resources/builtin-resources.js';
import type { ResourceView } from '../resources/resource-type.js';
import { forbidden, StatusError, type KubeStatus } from '../status-errors.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';
import { callWebhook, WebhookCallError, type WebhookAnswer } from './call-webhook.js';
import { checkMutatingAnswer, patchedDocument } from './mutation.js';
import { matchConditionVerdict, verdictMessage } from './match-conditions.js';
import { hasMutatingPolicyBindings, hasPolicyBindings } from './admission-policies.js';
import { mutateByPolicies } from './mutate-policies.js';
import { admitPodSecurity, podSecurityMayApply } from './pod-security-admission.js';
import { PluginReinvocation, type MutationChain } from './reinvocation.js';
import { admissionReview, conditionRequest } from './review.js';
import { reviewForm } from './review-object.js';
import { validatePolicies } from './validate-policies.js';
import { mutationHeld, reviewedAt } from './versions.js';
import { hasWebhooks, registeredWebhooks, requestAttributes, webhookVersion, type Webhook } from './webhooks.js';

/**
 * The admission configuration kinds no webhook is called for (rules.IsExemptAdmissionConfigurationResource), and the
 * ones no policy judges (policy/generic/plugin.go admissionResources): a broken one cannot lock itself in. A policy
 * does judge webhook configurations.
 */
const POLICY_EXEMPT = new Set([ADMISSION_POLICIES_KEY, POLICY_BINDINGS_KEY, MUTATING_POLICIES_KEY, MUTATING_POLICY_BINDINGS_KEY]);
const WEBHOOK_EXEMPT = new Set([VALIDATING_WEBHOOKS_KEY, MUTATING_WEBHOOKS_KEY, ...POLICY_EXEMPT]);

/** A write to admit. `object` is the request body (owned by the admission: it may be replaced by a patched copy). */
export interface AdmissionWrite {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly view: ResourceView;
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string | undefined;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  readonly dryRun: boolean;
  /**
   * What the request set of its CreateOptions, UpdateOptions (a PATCH's too) or DeleteOptions, in their Go fields'
   * order (review.ts adds `kind` and `apiVersion`).
   */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The kind of `object` when it is not the resource's own (a `/scale` write sends an `autoscaling/v1` Scale). */
  readonly kind?: { readonly group: string; readonly version: string; readonly kind: string };
  /** What the validating webhooks see of the checked write's record, when not the record's object (its Scale). */
  readonly shown?: (record: StoredRecord) => KubeObject;
  /** Who writes, when not the test client (a simulated controller: its service account). */
  readonly user?: AdmissionUser;
}

/** The `userInfo` of an admission request. */
export interface AdmissionUser {
  readonly username: string;
  readonly groups: readonly string[];
}

/** The test client's user: every request over HTTP is made as it. */
export const CLIENT_USER: AdmissionUser = { username: 'katalog-testing', groups: ['system:masters', 'system:authenticated'] };

export interface AdmittedWrite {
  readonly record: StoredRecord;
  /** Warnings of the webhooks, in call order. */
  readonly warnings: readonly string[];
}

/**
 * The real operation: `dryRun` asks for a check without storing; `managedFields`, when given, are the ones to store
 * (recorded before the mutating webhooks changed the object).
 */
export type AdmittedOperation = (object: KubeObject | undefined, dryRun: boolean, managedFields?: ManagedFieldsEntry[]) => StoredRecord;

/**
 * Whether a write may be admitted by anything: a webhook or policy binding configured, or (given the write's resource
 * key and namespace) PodSecurity. Without one, writes skip admission (the fast path).
 */
export function hasAdmission(cluster: Cluster, write?: { readonly key: string; readonly namespace: string }): boolean {
  if (hasWebhooks(cluster) || hasPolicyBindings(cluster) || hasMutatingPolicyBindings(cluster)) return true;
  return write !== undefined && podSecurityMayApply(cluster, write.key, write.namespace);
}

/** Performs `write` under admission. */
export async function admitWrite(cluster: Cluster, request: AdmissionWrite, write: AdmittedOperation): Promise<AdmittedWrite> {
  const key = request.view.type.key;
  const webhooks = hasWebhooks(cluster) && !WEBHOOK_EXEMPT.has(key);
  const policiesApply = !POLICY_EXEMPT.has(key);
  const policies = policiesApply && hasPolicyBindings(cluster);
  const podSecurity = podSecurityMayApply(cluster, key, request.namespace);
  if (!webhooks && !policies && !podSecurity && !(policiesApply && hasMutatingPolicyBindings(cluster))) return { record: write(request.object, request.dryRun), warnings: [] };
  const warnings: string[] = [];
  const oldObject = request.oldObject === undefined ? undefined : reviewForm(request, request.oldObject);
  // MutatingAdmissionPolicies mutate what is written (CREATE, UPDATE), never a DELETE.
  const mutatingPolicies = policiesApply && request.object !== undefined && hasMutatingPolicyBindings(cluster);
  // Without a policy before them, the first mutating webhook called matches the request's own object; none matching
  // it, none is called.
  const registered = webhooks ? registeredWebhooks(cluster, 'mutating') : [];
  const attributes = requestAttributes(request, request.object);
  const mutating = mutatingPolicies || registered.some((webhook) => webhookVersion(cluster, webhook, request, attributes) !== undefined) ? registered : [];
  const mutation = mutating.length === 0 && !mutatingPolicies ? { object: request.object, managedFields: undefined } : await mutate(cluster, request, write, { webhooks: mutating, policies: mutatingPolicies }, oldObject, warnings);
  const { object, managedFields } = mutation;
  // Without a validating webhook to call or a policy binding to evaluate, the checks run once, in the write itself.
  // (With a binding, every write is checked first: whether a policy covers it depends on its checked object.)
  const candidates = (webhooks ? registeredWebhooks(cluster, 'validating') : []).filter((webhook) => webhookVersion(cluster, webhook, request, requestAttributes(request, object)) !== undefined);
  if (candidates.length === 0 && !policies && !podSecurity) return { record: write(object, request.dryRun, managedFields), warnings };
  let checked: KubeObject | undefined = object;
  let dryRecord: StoredRecord | undefined;
  if (request.operation !== 'DELETE') {
    dryRecord = write(object === undefined ? undefined : structuredClone(object), true, managedFields);
    checked = request.shown === undefined ? dryRecord.object : request.shown(dryRecord);
  }
  if (podSecurity) admitPodSecurity(cluster, request, checked, warnings);
  const checkedForm = checked === undefined ? undefined : reviewForm(request, checked);
  if (policies) await validatePolicies(cluster, request, checkedForm, oldObject, warnings);
  const validating = (await Promise.all(candidates.map((webhook) => callOf(cluster, webhook, request, checkedForm, oldObject)))).filter((sent) => sent !== undefined);
  const answers = await Promise.all(validating.map((sent) => underPolicy(sent.webhook, () => call(request, sent, warnings, checkValidatingAnswer))));
  answers.forEach((answer, index) => {
    const webhook = validating[index]?.webhook;
    if (answer !== undefined && webhook !== undefined && !answer.allowed) throw denied(webhook, answer);
  });
  if (request.dryRun && dryRecord !== undefined) return { record: dryRecord, warnings };
  return { record: write(object, request.dryRun, managedFields), warnings };
}

/**
 * The mutating chain: the MutatingAdmissionPolicies (mutate-policies.ts), then the mutating webhooks (`mutators.webhooks`:
 * all registered) one after the other, each matched against and sent what the ones before made of the object; and a
 * second round when one changed it (reinvocation.ts). Answers the object to write (the request's own when nothing
 * changed it) and, when something did, the managedFields recorded before.
 */
async function mutate(
  cluster: Cluster,
  request: AdmissionWrite,
  write: AdmittedOperation,
  mutators: { readonly webhooks: readonly Webhook[]; readonly policies: boolean },
  oldObject: KubeObject | undefined,
  warnings: string[],
): Promise<{ readonly object: KubeObject | undefined; readonly managedFields: ManagedFieldsEntry[] | undefined }> {
  const managedFields = request.object === undefined || request.kind !== undefined ? undefined : recordedFields(request.object, write);
  const first = request.object === undefined ? undefined : reviewForm(request, heldObject(request, request.object, managedFields));
  let sent = first;
  const chain: MutationChain = { reinvoke: false };
  const policies = new PluginReinvocation<string>(chain);
  const webhooks = new PluginReinvocation<Webhook>(chain);
  for (const round of [0, 1]) {
    if (round === 1 && !chain.reinvoke) break;
    if (mutators.policies) sent = await mutateByPolicies(cluster, request, sent, oldObject, round, policies);
    webhooks.begin(round, sent);
    for (const webhook of mutators.webhooks) {
      // Each webhook is matched against the object as the mutators before it left it (its labels, for objectSelector).
      const target = await callOf(cluster, webhook, request, sent, oldObject);
      if (target === undefined || !webhooks.runs(round, webhook)) continue;
      const answer = await underPolicy(webhook, () => call(request, target, warnings, checkMutatingAnswer));
      if (answer !== undefined && !answer.allowed) throw denied(webhook, answer);
      const current = sent;
      const patched = answer === undefined ? undefined : underPolicy(webhook, () => patchedDocument(webhook, target.object, answer));
      if (patched !== undefined) sent = await mutationHeld(cluster, request, patched, target.version);
      webhooks.ran(webhook, sent !== current && !isDeepStrictEqual(sent, current), webhook.reinvocationPolicy === 'IfNeeded');
    }
    webhooks.end(sent);
  }
  if (sent === first) return { object: request.object, managedFields: undefined };
  return { object: sent, managedFields };
}

/**
 * The managedFields the field manager records for the write of `object`, from a dry run of it; undefined when the
 * dry run refuses it. That refusal is not the answer (yet): kube-apiserver validates after the mutating webhooks,
 * which may mend the object; the same write runs again after them, and its refusal then is the request's answer.
 */
function recordedFields(object: KubeObject, write: AdmittedOperation): ManagedFieldsEntry[] | undefined {
  let record: StoredRecord;
  try {
    record = write(structuredClone(object), true);
  } catch (error) {
    if (error instanceof StatusError) return undefined;
    throw error;
  }
  const entries = metadataOf(record.object)['managedFields'];
  return Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : [];
}

/** The object as kube-apiserver holds it when it calls the mutating webhooks: its namespace and managedFields set. */
function heldObject(request: AdmissionWrite, object: KubeObject, managedFields: ManagedFieldsEntry[] | undefined): KubeObject {
  const metadata = { ...metadataOf(object) };
  if (request.view.type.namespaced && (metadata['namespace'] === undefined || metadata['namespace'] === '')) metadata['namespace'] = request.namespace;
  if (managedFields !== undefined) {
    if (managedFields.length > 0) metadata['managedFields'] = managedFields;
    else delete metadata['managedFields'];
  }
  return { ...object, metadata };
}

/** A call of a webhook: the version its rules matched, and the objects at that version in their review form. */
interface WebhookCall {
  readonly webhook: Webhook;
  readonly version: string;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
}

/**
 * Whether `webhook` is called for `request`, whose objects are `object` and `oldObject` (held, in their review form),
 * and with what: its rules (under its matchPolicy) and selectors, then its matchConditions over the objects at the
 * version matched, whose error is a 403 under `failurePolicy: Fail`.
 */
async function callOf(cluster: Cluster, webhook: Webhook, request: AdmissionWrite, object: KubeObject | undefined, oldObject: KubeObject | undefined): Promise<WebhookCall | undefined> {
  const version = webhookVersion(cluster, webhook, request, requestAttributes(request, object));
  if (version === undefined) return undefined;
  const sent: WebhookCall = { webhook, version, object: await reviewedAt(cluster, request, object, version), oldObject: await reviewedAt(cluster, request, oldObject, version) };
  if (webhook.matchConditions.length === 0) return sent;
  const verdict = matchConditionVerdict(webhook.matchConditions, sent.object, sent.oldObject, conditionRequest(request, version));
  if ('call' in verdict) return verdict.call ? sent : undefined;
  if (webhook.failurePolicy === 'Ignore') return undefined;
  throw forbidden({ group: request.view.type.group, plural: request.view.type.plural }, request.name, verdictMessage(verdict.errors));
}

/** VerifyAdmissionResponse's checks of a validating webhook's answer. */
function checkValidatingAnswer(answer: WebhookAnswer): void {
  if (typeof answer.patch === 'string' && answer.patch !== '') throw new WebhookCallError('received invalid webhook response: validating webhook may not return response.patch');
  if (answer.patchType !== undefined && answer.patchType !== null) throw new WebhookCallError('received invalid webhook response: validating webhook may not return response.patchType');
}

/** Makes one call of a webhook; its warnings are collected once its answer is found valid. */
async function call(request: AdmissionWrite, sent: WebhookCall, warnings: string[], check: (answer: WebhookAnswer) => void): Promise<WebhookAnswer> {
  const uid = randomUUID();
  const answer = await callWebhook(sent.webhook, admissionReview(request, sent.object, sent.oldObject, uid, sent.version), uid);
  check(answer);
  for (const warning of answer.warnings ?? []) if (typeof warning === 'string') warnings.push(warning);
  return answer;
}

/**
 * `run`'s result, or, when it fails as a call of `webhook` fails ({@link WebhookCallError}), undefined under
 * `failurePolicy: Ignore` and kube-apiserver's 500 under `Fail`.
 */
function underPolicy<T>(webhook: Webhook, run: () => Promise<T>): Promise<T | undefined>;
function underPolicy<T>(webhook: Webhook, run: () => T): T | undefined;
function underPolicy<T>(webhook: Webhook, run: () => T | Promise<T>): T | undefined | Promise<T | undefined> {
  const failed = (error: unknown): undefined => {
    if (!(error instanceof WebhookCallError)) throw error;
    // failurePolicy: Ignore is kube-apiserver's documented "fail open": the write goes on without this webhook.
    if (webhook.failurePolicy === 'Ignore') return undefined;
    const message = `failed calling webhook "${webhook.name}": ${error.message}`;
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 });
  };
  try {
    const result = run();
    return result instanceof Promise ? result.catch(failed) : result;
  } catch (error) {
    return failed(error);
  }
}

/**
 * A webhook's refusal, as kube-apiserver's ToStatusErr (webhook/errors/statuserror.go) passes it on: the webhook's Status with its message prefixed
 * `admission webhook "<name>" denied the request`, a code below 400 made 400, its reason and details as given.
 */
function denied(webhook: Webhook, answer: WebhookAnswer): StatusError {
  const status = answer.status ?? {};
  const code = typeof status.code === 'number' && status.code >= 400 ? status.code : 400;
  const given = typeof status.message === 'string' ? status.message : '';
  const reason = typeof status.reason === 'string' ? status.reason : '';
  const deniedBy = `admission webhook "${webhook.name}" denied the request`;
  const message = given !== '' ? `${deniedBy}: ${given}` : reason !== '' ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  const details = typeof status.details === 'object' && status.details !== null ? (status.details as KubeStatus['details']) : undefined;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason === '' ? {} : { reason }), ...(details === undefined ? {} : { details }), code });
}
