/**
 * The AdmissionReview a webhook is sent, as kube-apiserver's REST client writes an `admission.k8s.io/v1`
 * AdmissionReview: the Go struct's field order (`kind` before `apiVersion`, as TypeMeta declares them), `omitempty`
 * fields left out (`subResource`, `requestSubResource`, `name` and `namespace` when empty), the objects in the form
 * review-object.ts gives them, and the request's options (CreateOptions, UpdateOptions, DeleteOptions) with what
 * the request set of them.
 */
import type { KubeObject } from '../store/record.js';
import { CLIENT_USER, type AdmissionWrite } from './admit.js';
import { kindOf, requestIdentity } from './review-object.js';
import { requestVersionOf } from './versions.js';

/** The kind of options each operation carries: a PATCH is admitted as an UPDATE, with UpdateOptions. */
const OPTIONS_KIND = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

/**
 * The review of `request` for a webhook whose rules matched it in `version`; both objects are already in the form
 * they are sent in (review-object.ts), at that version.
 */
export function admissionReview(request: AdmissionWrite, object: KubeObject | undefined, oldObject: KubeObject | undefined, uid: string, version: string): Record<string, unknown> {
  return { kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', request: admissionRequest(request, object, oldObject, uid, version) };
}

/**
 * The `request` variable of a webhook's or policy's CEL: the AdmissionRequest kube-apiserver makes for CEL
 * (cel/condition.go CreateAdmissionRequest) for a match in `version`, without a uid, objects or options.
 */
export function conditionRequest(request: AdmissionWrite, version: string): Record<string, unknown> {
  return { ...admissionRequest(request, undefined, undefined, '', version), object: null, oldObject: null, options: null };
}

/** `kind` and `resource` are the matched version's, `requestKind` and `requestResource` the client's. */
function admissionRequest(request: AdmissionWrite, object: KubeObject | undefined, oldObject: KubeObject | undefined, uid: string, version: string): Record<string, unknown> {
  const { type } = request.view;
  const requested = requestVersionOf(request);
  const gvk = kindOf(request, version);
  const gvr = { group: type.group, version: request.kind === undefined ? version : request.view.version, resource: type.plural };
  const requestGvk = kindOf(request, requested);
  const requestGvr = { ...gvr, version: request.kind === undefined ? requested : request.view.version };
  const subresource = request.subresource === undefined ? {} : { subResource: request.subresource };
  const { name, namespace } = requestIdentity(request, object);
  return {
      uid,
      kind: gvk,
      resource: gvr,
      ...subresource,
      requestKind: requestGvk,
      requestResource: requestGvr,
      ...(request.subresource === undefined ? {} : { requestSubResource: request.subresource }),
      ...(name === '' ? {} : { name }),
      ...(namespace === '' ? {} : { namespace }),
      operation: request.operation,
      userInfo: { username: (request.user ?? CLIENT_USER).username, groups: [...(request.user ?? CLIENT_USER).groups] },
      object: object ?? null,
      oldObject: oldObject ?? null,
      dryRun: request.dryRun,
      options: { kind: OPTIONS_KIND[request.operation], apiVersion: 'meta.k8s.io/v1', ...request.options },
  };
}
