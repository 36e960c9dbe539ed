/**
 * The rules every write applies to object metadata: name validation, system fields the client cannot change,
 * generation, finalizers and the "did anything change" test that keeps no-op writes silent.
 */
import { jsonEqual } from '../patch/json-value.js';
import type { NameRule, ResourceType, ResourceView } from '../resources/resource-type.js';
import { badRequest, invalid, type FieldProblem } from '../status-errors.js';
import { metadataOf, type KubeObject } from '../store/record.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Problems with `name` under `rule` (empty when valid). */
export function nameProblems(rule: NameRule, name: string): string[] {
  switch (rule) {
    case 'label':
      if (name.length > 63 || !DNS_LABEL.test(name)) {
        return [`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character`];
      }
      return [];
    case 'label1035':
      if (name.length > 63 || !DNS_1035.test(name)) {
        return [`a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character`];
      }
      return [];
    case 'path':
      if (name === '.' || name === '..' || name.includes('/') || name.includes('%')) return [`may not be '.' or '..' and may not contain '/' or '%'`];
      return [];
    case 'subdomain':
      if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
        return [`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`];
      }
      return [];
  }
}

/** Throws 422 when `name` is not valid for the type. */
export function checkName(type: ResourceType, name: string): void {
  const problems = nameProblems(type.nameRule, name);
  if (problems.length > 0) {
    throw invalid(type, name, problems.map((p) => ({ field: 'metadata.name', message: `Invalid value: "${name}": ${p}` })));
  }
}

/**
 * Checks (and for built-ins, defaults) the body's apiVersion and kind against the endpoint. A custom resource body
 * must carry both, as on a real server.
 */
export function checkKind(view: ResourceView, body: KubeObject): void {
  const { apiVersion, kind } = body;
  if (apiVersion === undefined || apiVersion === '' || kind === undefined || kind === '') {
    if (!view.type.builtin) {
      const missing = kind === undefined || kind === '' ? 'Kind' : 'apiVersion';
      throw badRequest(`Object '${missing}' is missing in '${JSON.stringify(body).slice(0, 200)}'`);
    }
    body['apiVersion'] = apiVersion === undefined || apiVersion === '' ? view.apiVersion : apiVersion;
    body['kind'] = kind === undefined || kind === '' ? view.type.kind : kind;
  }
  if (body['apiVersion'] !== view.apiVersion) {
    throw badRequest(`the API version in the data (${String(body['apiVersion'])}) does not match the expected API version (${view.apiVersion})`);
  }
  if (body['kind'] !== view.type.kind) {
    throw badRequest(`the kind in the data (${String(body['kind'])}) does not match the expected kind (${view.type.kind})`);
  }
}

/** The body's metadata, created when missing or not an object. */
export function ensureMetadata(object: KubeObject): Record<string, unknown> {
  const metadata = object['metadata'];
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) return metadata as Record<string, unknown>;
  const fresh: Record<string, unknown> = {};
  object['metadata'] = fresh;
  return fresh;
}

/** `metadata.finalizers` as strings. */
export function finalizersOf(object: KubeObject): string[] {
  const finalizers = metadataOf(object)['finalizers'];
  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
}

/**
 * Finalizers that keep an object being deleted in place: `metadata.finalizers`, plus `spec.finalizers` for
 * Namespaces (the namespace controller's `kubernetes`).
 */
export function pendingFinalizers(object: KubeObject): string[] {
  const own = finalizersOf(object);
  if (object['kind'] !== 'Namespace') return own;
  const spec = object['spec'];
  const specFinalizers = typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>)['finalizers'] : undefined;
  return Array.isArray(specFinalizers) ? [...own, ...specFinalizers.filter((f): f is string => typeof f === 'string')] : own;
}

export function isDeleting(object: KubeObject): boolean {
  return typeof metadataOf(object)['deletionTimestamp'] === 'string';
}

/** Whether anything outside metadata (and outside status when status is a subresource) differs. */
export function specChanged(prev: KubeObject, next: KubeObject, statusIsSubresource: boolean): boolean {
  const skip = (key: string): boolean => key === 'metadata' || key === 'apiVersion' || key === 'kind' || (statusIsSubresource && key === 'status');
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)]);
  for (const key of keys) {
    if (skip(key)) continue;
    if (!jsonEqual(prev[key], next[key])) return true;
  }
  return false;
}

function withoutTimes(entries: unknown): unknown {
  if (!Array.isArray(entries)) return entries;
  return entries.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return entry;
    const { time: _time, ...rest } = entry as Record<string, unknown>;
    void _time;
    return rest;
  });
}

/**
 * Whether `next` would store the same thing as `prev`: everything equal but the resourceVersion, and managed
 * fields equal but for their timestamps. Such a write is a no-op: same resourceVersion, no event.
 */
export function sameContent(prev: KubeObject, next: KubeObject): boolean {
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)]);
  for (const key of keys) {
    if (key === 'metadata' || key === 'apiVersion') continue;
    if (!jsonEqual(prev[key], next[key])) return false;
  }
  const a = metadataOf(prev);
  const b = metadataOf(next);
  const metaKeys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of metaKeys) {
    if (key === 'resourceVersion') continue;
    if (key === 'managedFields') {
      if (!jsonEqual(withoutTimes(a[key]), withoutTimes(b[key]))) return false;
      continue;
    }
    if (!jsonEqual(a[key], b[key])) return false;
  }
  return true;
}

/** 422 when new finalizers are added to an object that is being deleted. */
export function checkNoNewFinalizers(type: ResourceType, name: string, prev: KubeObject, next: KubeObject): void {
  if (!isDeleting(prev)) return;
  const before = new Set(finalizersOf(prev));
  const added = finalizersOf(next).filter((f) => !before.has(f));
  if (added.length === 0) return;
  const problem: FieldProblem = {
    field: 'metadata.finalizers',
    reason: 'FieldValueForbidden',
    message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
  };
  throw invalid(type, name, [problem]);
}
