/**
 * Kubernetes-shaped `Status` failures. Every error the test API server answers is a {@link StatusError}: the HTTP
 * layer writes its {@link StatusError.status} body as JSON with its code, and the direct (HTTP-less) methods of the
 * server throw it as is, so a test sees the same `reason` both ways.
 */
import { KubeError } from '../errors.js';
import { goBadValue, goQuote } from './go/go-values.js';

/** One field-level cause inside `Status.details.causes`. */
export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** The `meta/v1 Status` object the server answers on failures (and on successful built-in deletions). */
export interface KubeStatus {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  /** Empty, but for the fresh token of a 410 on an expired continue token (listContinueTooOld). */
  readonly metadata: { readonly continue?: string };
  readonly status: 'Failure' | 'Success';
  readonly message?: string;
  readonly reason?: string;
  readonly details?: {
    readonly name?: string;
    readonly group?: string;
    readonly kind?: string;
    readonly uid?: string;
    readonly causes?: readonly StatusCause[];
    readonly retryAfterSeconds?: number;
  };
  readonly code: number;
}

/** A request failed with a Kubernetes `Status`; `status` is the HTTP code, `reason` the Status reason. */
export class StatusError extends KubeError {
  /** The full Status body, as the server sends it. */
  readonly body: KubeStatus;
  /** Extra response headers (e.g. `Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(body: KubeStatus, headers: Record<string, string> = {}) {
    super(body.message ?? body.reason ?? `HTTP ${body.code}`, { status: body.code, reason: body.reason });
    this.body = body;
    this.headers = headers;
  }
}

/**
 * A request kube-apiserver gives no answer to: its handler panicked, and its HTTP server closed the connection
 * (the client sees the connection reset). The HTTP layer cuts the connection; the direct methods throw it.
 */
export class NoAnswer extends KubeError {
  constructor(why: string) {
    super(`kube-apiserver answers nothing here, it panics: ${why}`, {});
  }
}

/** What a resource is called in messages: `configmaps` for core, `deployments.apps` otherwise. */
export interface ResourceName {
  readonly group: string;
  readonly plural: string;
}

function qualified(resource: ResourceName): string {
  return resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
}

/** Status details as Kubernetes encodes them: `group` is omitted when empty (the core group). */
function omitEmptyGroup(details: NonNullable<KubeStatus['details']>): NonNullable<KubeStatus['details']> {
  if (details.group !== '') return details;
  const { group: _group, ...rest } = details;
  return rest;
}

function failure(code: number, reason: string, message: string, rawDetails?: KubeStatus['details']): KubeStatus {
  const details = rawDetails === undefined ? undefined : omitEmptyGroup(rawDetails);
  return details === undefined
    ? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }
    : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details, code };
}

/** 404 for an object: `configmaps "x" not found`. */
/** Whether `error` is the API server's 404 (NotFound). */
export function isNotFound(error: unknown): boolean {
  return error instanceof StatusError && error.body.reason === 'NotFound';
}

export function notFound(resource: ResourceName, name: string): StatusError {
  return new StatusError(
    failure(404, 'NotFound', `${qualified(resource)} "${name}" not found`, { name, group: resource.group, kind: resource.plural }),
  );
}

/** 404 for a path the server does not serve. */
export function pathNotFound(): StatusError {
  return new StatusError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
}

/** 409 AlreadyExists; of an object being deleted, kube-apiserver says so first. */
export function alreadyExists(resource: ResourceName, name: string, beingDeleted = false): StatusError {
  const message = `${beingDeleted ? 'object is being deleted: ' : ''}${qualified(resource)} "${name}" already exists`;
  return new StatusError(failure(409, 'AlreadyExists', message, { name, group: resource.group, kind: resource.plural }));
}

/** The message of an optimistic-concurrency conflict. */
export const STALE_OBJECT_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

/** 409 Conflict: `Operation cannot be fulfilled on <resource> "<name>": <message>`. */
export function conflict(resource: ResourceName, name: string, message: string = STALE_OBJECT_MESSAGE, causes?: StatusCause[]): StatusError {
  const details = { name, group: resource.group, kind: resource.plural, ...(causes === undefined ? {} : { causes }) };
  return new StatusError(failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(resource)} "${name}": ${message}`, details));
}

/** 409 Conflict with a message of its own (server-side apply conflicts). */
export function conflictWithMessage(message: string, causes: StatusCause[]): StatusError {
  return new StatusError(failure(409, 'Conflict', message, { causes }));
}

/** One invalid field: `field: message` in the Status message. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
  readonly reason?: string;
}

/** 422 Invalid: `<Kind>.<group> "<name>" is invalid: <field>: <message>`. */
export function invalid(kind: { group: string; kind: string }, name: string, problems: readonly FieldProblem[]): StatusError {
  const qualifiedKind = kind.group === '' ? kind.kind : `${kind.kind}.${kind.group}`;
  const text = problems.map((p) => `${p.field}: ${p.message}`);
  const summary = text.length === 1 ? (text[0] ?? '') : `[${text.join(', ')}]`;
  const causes = problems.map((p) => ({ reason: p.reason ?? 'FieldValueInvalid', message: p.message, field: p.field }));
  return new StatusError(
    failure(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${summary}`, { name, group: kind.group, kind: kind.kind, causes }),
  );
}

/**
 * kube-apiserver's 422 for a patch whose result it cannot make into the kind's Go object: a field error on `patch`
 * of no kind and no name (` "" is invalid: patch: Invalid value: "<value>": <why>`), the value being the patched
 * object's text (a merge or JSON patch) or the patch printed as a Go map (a strategic merge patch).
 */
export function patchInvalid(value: string, why: string): StatusError {
  const message = `Invalid value: ${goQuote(value)}: ${why}`;
  return new StatusError(failure(422, 'Invalid', ` "" is invalid: patch: ${message}`, { causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] }));
}

/** 422 Invalid without a field (a failed JSON patch, for example). */
export function unprocessable(message: string): StatusError {
  return new StatusError(failure(422, 'Invalid', message));
}

/** 400 BadRequest. */
export function badRequest(message: string): StatusError {
  return new StatusError(failure(400, 'BadRequest', message));
}

/** 500 with only a message and no reason, as kube-apiserver answers an error its storage layer did not classify. */
export function internalErrorWithMessage(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/** 403 Forbidden. */
export function forbidden(resource: ResourceName, name: string, message: string, causes?: readonly StatusCause[]): StatusError {
  return new StatusError(
    failure(403, 'Forbidden', `${qualified(resource)} "${name}" is forbidden: ${message}`, { name, group: resource.group, kind: resource.plural, ...(causes === undefined ? {} : { causes }) }),
  );
}

/** 405 MethodNotAllowed. */
export function methodNotAllowed(message = 'the server does not allow this method on the requested resource'): StatusError {
  return new StatusError(failure(405, 'MethodNotAllowed', message, {}));
}

/** 413 RequestEntityTooLarge. */
export function tooLarge(limit: number): StatusError {
  return new StatusError(failure(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`));
}

/** The exact 415 message a real API server gives for a strategic merge patch on a custom resource. */
export const STRATEGIC_ON_CUSTOM_RESOURCE =
  'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';

/** 415 UnsupportedMediaType. */
export function unsupportedMediaType(message: string): StatusError {
  return new StatusError(failure(415, 'UnsupportedMediaType', message));
}

/**
 * 415 for a PATCH whose Content-Type is no patch type: a built-in kind's is go-restful's bare `415: Unsupported
 * Media Type` (its routes refuse it before kube-apiserver's handler runs), a custom resource's the handler's own.
 */
export function unknownPatchType(view: { readonly type: { readonly builtin: boolean } }): StatusError {
  if (!view.type.builtin) return unsupportedMediaType(STRATEGIC_ON_CUSTOM_RESOURCE);
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: '415: Unsupported Media Type', reason: 'UnsupportedMediaType', details: {}, code: 415 });
}

/** 410 Expired: `too old resource version: <asked> (<oldest>)`. */
export function expired(asked: string, oldest: number): StatusError {
  return new StatusError(failure(410, 'Expired', `too old resource version: ${asked} (${oldest})`));
}

/** 410 for a list at a resourceVersion older than what is kept (etcd's compaction, on a real server). */
export function listTooOld(): StatusError {
  return new StatusError(failure(410, 'Expired', 'The resourceVersion for the provided list is too old.'));
}

/**
 * 410 for a continue token whose snapshot is older than the history (kube-apiserver: etcd compacted it). Its Status
 * carries a token that continues from the same key at the newest state, the choice kube-apiserver's etcd store leaves
 * to the client: start the list again for a consistent result, or read on with objects changed since mixed in.
 */
export function listContinueTooOld(freshToken: string): StatusError {
  const body = failure(
    410,
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue ' +
      'parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided ' +
      'token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was ' +
      'returned and now may show up in the list.',
  );
  return new StatusError({ ...body, metadata: { continue: freshToken } });
}

/** 504 for a read at a resourceVersion the server has not reached yet (kube-apiserver waits 3 s for it first). */
export function tooLargeResourceVersion(asked: number, current: number): StatusError {
  return new StatusError(
    failure(504, 'Timeout', `Timeout: Too large resource version: ${asked}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    }),
    { 'Retry-After': '1' },
  );
}

/** An injected failure (429, 500, 503, 504 or 410), with `Retry-After` when given. */
export function injected(code: number, retryAfterSeconds?: number): StatusError {
  const headers: Record<string, string> = retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) };
  const retry = retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
  switch (code) {
    case 429:
      return new StatusError(failure(429, 'TooManyRequests', 'Too many requests, please try again later.', retry), headers);
    case 503:
      return new StatusError(failure(503, 'ServiceUnavailable', 'The server is currently unable to handle the request (injected fault)', retry), headers);
    case 410:
      return new StatusError(failure(410, 'Expired', 'too old resource version (injected fault)'), headers);
    case 504:
      return new StatusError(failure(504, 'Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded (injected fault)', retry), headers);
    default:
      return new StatusError(failure(code, 'InternalError', 'Internal error occurred: injected fault', retry), headers);
  }
}

/** 500 InternalError wrapping an unexpected exception (a bug in the server). */
export function internalError(error: unknown): StatusError {
  const message = error instanceof Error ? error.message : String(error);
  // apimachinery's NewInternalError: the message again as the one cause.
  return new StatusError(failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }));
}

/**
 * The `Success` Status a DELETE answers when the object is gone (unless its kind answers the object itself): the
 * registry's, without a `code`.
 */
export function deletedStatus(resource: ResourceName, name: string, uid: string): Omit<KubeStatus, 'code'> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: omitEmptyGroup({ name, group: resource.group, kind: resource.plural, uid }),
  };
}

/** Go's `field.Required`: `Required value`, with its detail when there is one. */
export function fieldRequired(field: string, detail = ''): FieldProblem {
  return { field, reason: 'FieldValueRequired', message: detail === '' ? 'Required value' : `Required value: ${detail}` };
}

/** Go's `field.Forbidden`. */
export function fieldForbidden(field: string, detail: string): FieldProblem {
  return { field, reason: 'FieldValueForbidden', message: `Forbidden: ${detail}` };
}

/** Go's `field.Invalid`: the bad value as a field error prints it, then the detail. */
export function fieldInvalid(field: string, value: unknown, detail: string): FieldProblem {
  return { field, reason: 'FieldValueInvalid', message: `Invalid value: ${goBadValue(value)}: ${detail}` };
}

/** Go's `field.TooLong` of a size in bytes (kube-apiserver 1.37 says `bytes`). */
export function fieldTooLong(field: string, limit: number): FieldProblem {
  return { field, reason: 'FieldValueTooLong', message: `Too long: may not be more than ${limit} bytes` };
}

/** Go's `field.Duplicate` of a string value. */
export function fieldDuplicate(field: string, value: string): FieldProblem {
  return { field, reason: 'FieldValueDuplicate', message: `Duplicate value: ${goQuote(value)}` };
}

/** Go's `field.NotFound` of a string value. */
export function fieldNotFound(field: string, value: string): FieldProblem {
  return { field, reason: 'FieldValueNotFound', message: `Not found: ${goQuote(value)}` };
}

/** Go's `field.NotSupported`: the value and the supported ones, each quoted. */
export function fieldNotSupported(field: string, value: string, supported: readonly string[]): FieldProblem {
  return { field, reason: 'FieldValueNotSupported', message: `Unsupported value: ${goQuote(value)}: supported values: ${supported.map(goQuote).join(', ')}` };
}
