/**
 * Admission in the test API server, in kube-apiserver's order around a write: mutating webhooks one after the
 * other (each JSONPatch applied before the next is called), then the write's own checks (schema, names, conflicts:
 * run as a dry run), then the validating webhooks (all called; the first refusal in registration order wins), then
 * the write itself. A refusal is answered as kube-apiserver words it; a webhook that cannot be called (refused
 * connection, TLS failure, `timeoutSeconds` passed, a bad answer) fails the request under `failurePolicy: Fail`
 * and is skipped under `Ignore`. Warnings of the webhooks become `Warning: 299` headers.
 */
import { randomUUID } from 'node:crypto';
import type { Cluster } from '../cluster.js';
import { applyJsonPatch, PatchError } from '../patch/index.js';
import { MUTATING_WEBHOOKS_KEY, VALIDATING_WEBHOOKS_KEY } from '../resources/builtin-resources.js';
import { apiVersionOf, type ResourceView } from '../resources/resource-type.js';
import { StatusError, type KubeStatus } from '../status-errors.js';
import type { KubeObject, StoredRecord } from '../store/record.js';
import { callWebhook, WebhookCallError, type WebhookAnswer } from './call-webhook.js';
import { hasWebhooks, registeredWebhooks, webhookMatches, type AdmissionAttributes, type Webhook } from './webhooks.js';

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
  /** The kind of `object` when it is not the resource's own (a `/scale` write sends an `autoscaling/v1` Scale). */
  readonly kind?: { readonly group: string; readonly version: string; readonly kind: string };
  /** What the validating webhooks see of the checked write's record, when not the record's object (its Scale). */
  readonly shown?: (record: StoredRecord) => KubeObject;
}

export interface AdmittedWrite {
  readonly record: StoredRecord;
  /** Warnings of the webhooks, in call order. */
  readonly warnings: readonly string[];
}

/** Performs `write` (the real operation; `dryRun` asks for a check without storing) under admission. */
export async function admitWrite(cluster: Cluster, request: AdmissionWrite, write: (object: KubeObject | undefined, dryRun: boolean) => StoredRecord): Promise<AdmittedWrite> {
  const key = request.view.type.key;
  if (!hasWebhooks(cluster) || key === VALIDATING_WEBHOOKS_KEY || key === MUTATING_WEBHOOKS_KEY) return { record: write(request.object, request.dryRun), warnings: [] };
  const warnings: string[] = [];
  let object = request.object;
  if (request.operation !== 'DELETE') {
    for (const webhook of matching(cluster, 'mutating', request, object)) {
      const answer = await call(webhook, request, object, warnings);
      if (answer === undefined) continue;
      if (!answer.allowed) throw denied(webhook, answer);
      object = patched(webhook, object, answer);
    }
  }
  let checked: KubeObject | undefined = object;
  let dryRecord: StoredRecord | undefined;
  if (request.operation !== 'DELETE') {
    dryRecord = write(object === undefined ? undefined : structuredClone(object), true);
    checked = request.shown === undefined ? dryRecord.object : request.shown(dryRecord);
  }
  const validating = matching(cluster, 'validating', request, checked);
  const answers = await Promise.all(validating.map((webhook) => call(webhook, request, checked, warnings)));
  answers.forEach((answer, index) => {
    const webhook = validating[index];
    if (answer !== undefined && webhook !== undefined && !answer.allowed) throw denied(webhook, answer);
  });
  if (request.dryRun && dryRecord !== undefined) return { record: dryRecord, warnings };
  return { record: write(object, request.dryRun), warnings };
}

function attributesOf(request: AdmissionWrite, object: KubeObject | undefined): AdmissionAttributes {
  const { type, version } = request.view;
  return {
    operation: request.operation,
    group: type.group,
    version,
    resource: type.plural,
    subresource: request.subresource,
    namespaced: type.namespaced,
    namespace: request.namespace,
    object,
    oldObject: request.oldObject,
  };
}

function matching(cluster: Cluster, type: 'validating' | 'mutating', request: AdmissionWrite, object: KubeObject | undefined): Webhook[] {
  const attributes = attributesOf(request, object);
  return registeredWebhooks(cluster, type).filter((webhook) => webhookMatches(cluster, webhook, attributes));
}

function nameOf(request: AdmissionWrite, object: KubeObject | undefined): string {
  if (request.name !== '') return request.name;
  const metadata = object?.metadata;
  return typeof metadata === 'object' && metadata !== null && typeof (metadata as Record<string, unknown>).name === 'string' ? String((metadata as Record<string, unknown>).name) : '';
}

function reviewOf(request: AdmissionWrite, object: KubeObject | undefined, uid: string): Record<string, unknown> {
  const { type, version } = request.view;
  const gvk = request.kind ?? { group: type.group, version, kind: type.kind };
  const gvr = { group: type.group, version, resource: type.plural };
  const optionsKind = request.operation === 'CREATE' ? 'CreateOptions' : request.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions';
  const apiVersion = apiVersionOf(gvk.group, gvk.version);
  const withKind = (value: KubeObject | undefined): KubeObject | null => (value === undefined ? null : { ...value, apiVersion, kind: gvk.kind });
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: gvk,
      resource: gvr,
      ...(request.subresource === undefined ? {} : { subResource: request.subresource }),
      requestKind: gvk,
      requestResource: gvr,
      name: nameOf(request, object),
      ...(type.namespaced ? { namespace: request.namespace } : {}),
      operation: request.operation,
      userInfo: { username: 'katalog-testing', groups: ['system:masters', 'system:authenticated'] },
      object: withKind(object),
      oldObject: withKind(request.oldObject),
      dryRun: request.dryRun,
      options: { apiVersion: 'meta.k8s.io/v1', kind: optionsKind },
    },
  };
}

/** Calls one webhook; `undefined` when the call failed and the policy is Ignore. */
async function call(webhook: Webhook, request: AdmissionWrite, object: KubeObject | undefined, warnings: string[]): Promise<WebhookAnswer | undefined> {
  const uid = randomUUID();
  try {
    const answer = await callWebhook(webhook, reviewOf(request, object, uid), uid);
    for (const warning of answer.warnings ?? []) if (typeof warning === 'string') warnings.push(warning);
    return answer;
  } catch (error) {
    if (!(error instanceof WebhookCallError)) throw error;
    // failurePolicy: Ignore is kube-apiserver's documented "fail open": the write goes on without this webhook.
    if (webhook.failurePolicy === 'Ignore') return undefined;
    const message = `failed calling webhook "${webhook.name}": ${error.message}`;
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 });
  }
}

function patched(webhook: Webhook, object: KubeObject | undefined, answer: WebhookAnswer): KubeObject | undefined {
  if (answer.patch === undefined || answer.patch === '') return object;
  const fail = (reason: string): StatusError => {
    const message = `failed calling webhook "${webhook.name}": ${reason}`;
    return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 });
  };
  if (answer.patchType !== 'JSONPatch') throw fail(`unsupported patch type "${String(answer.patchType)}"`);
  let operations: unknown;
  try {
    operations = JSON.parse(Buffer.from(answer.patch, 'base64').toString('utf8'));
  } catch {
    throw fail('the patch is not base64 JSON');
  }
  try {
    return applyJsonPatch(object ?? {}, operations) as KubeObject;
  } catch (error) {
    if (error instanceof PatchError) throw fail(`JSON Patch: ${error.message}`);
    throw error;
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
