/**
 * The rules every write applies to object metadata: name validation, system fields the client cannot change,
 * generation, finalizers and the "did anything change" test that keeps no-op writes silent.
 */
import { jsonEqual } from '../patch/json-value.js';
import { dns1035LabelProblems, dns1123LabelProblems, dns1123SubdomainProblems } from '../resources/dns-names.js';
import type { NameRule, ResourceType, ResourceView } from '../resources/resource-type.js';
import { badRequest, fieldInvalid, invalid, type FieldProblem } from '../status-errors.js';
import { storedRecord } from '../resources/stored-record.js';
import { metadataOf, type KubeObject, type StoredRecord } from '../store/record.js';

/** Problems with `name` under `rule` (empty when valid), in Go's words. */
export function nameProblems(rule: NameRule, name: string): string[] {
  switch (rule) {
    case 'label':
      return dns1123LabelProblems(name);
    case 'label1035':
      return dns1035LabelProblems(name);
    case 'path':
      if (name === '.' || name === '..' || name.includes('/') || name.includes('%')) return [`may not be '.' or '..' and may not contain '/' or '%'`];
      return [];
    case 'subdomain':
      return dns1123SubdomainProblems(name);
  }
}

/**
 * Throws 422 when `name`, or the `generateName` it was made from, is not valid for the type: the prefix as Go's
 * name functions check one (a trailing `-` masked), before the name, as ValidateObjectMetaAccessor lists them.
 */
export function checkName(type: ResourceType, name: string, generateName = ''): void {
  const prefixProblems = generateName === '' || type.nameRule === 'path' ? [] : nameProblems(type.nameRule, maskTrailingDash(generateName));
  const problems = [
    ...prefixProblems.map((p) => fieldInvalid('metadata.generateName', generateName, p)),
    ...nameProblems(type.nameRule, name).map((p) => fieldInvalid('metadata.name', name, p)),
  ];
  if (problems.length > 0) throw invalid(type, name, problems);
}

/** apimachinery's maskTrailingDash: a prefix may end in `-`, which the generated suffix follows. */
function maskTrailingDash(prefix: string): string {
  return prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -1)}a` : prefix;
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

/** A dry run's answer: the object the write would have stored, in the request's version, not stored. */
export function unstoredRecord(view: ResourceView, next: KubeObject): StoredRecord {
  next['apiVersion'] = view.apiVersion;
  return storedRecord(view.type, next);
}

export function isDeleting(object: KubeObject): boolean {
  return typeof metadataOf(object)['deletionTimestamp'] === 'string';
}

/** Whether anything outside metadata (and outside status when status is a subresource) differs. */
export function specChanged(prev: KubeObject, next: KubeObject, statusIsSubresource: boolean): boolean {
  for (const key of Object.keys(prev)) {
    if (!isSpecKey(key, statusIsSubresource)) continue;
    if (!jsonEqual(prev[key], next[key])) return true;
  }
  // Keys of `next` that `prev` lacks (those both have were compared above).
  for (const key of Object.keys(next)) {
    if (isSpecKey(key, statusIsSubresource) && !Object.prototype.hasOwnProperty.call(prev, key) && !jsonEqual(prev[key], next[key])) return true;
  }
  return false;
}

function isSpecKey(key: string, statusIsSubresource: boolean): boolean {
  return !(key === 'metadata' || key === 'apiVersion' || key === 'kind' || (statusIsSubresource && key === 'status'));
}

/** Whether two managedFields values are equal but for their entries' `time`. */
function managedFieldsEqual(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return jsonEqual(a, b);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x: unknown = a[i];
    const y: unknown = b[i];
    if (x === y) continue;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (!jsonEqual(x, y)) return false;
      continue;
    }
    const left = x as Record<string, unknown>;
    const right = y as Record<string, unknown>;
    if (!equalKeysBut(left, right, 'time')) return false;
  }
  return true;
}

/** Whether the own keys of `a` and `b` but `ignored` have equal values (as copies of them without it would be). */
function equalKeysBut(a: Record<string, unknown>, b: Record<string, unknown>, ignored: string): boolean {
  let count = 0;
  for (const key of Object.keys(a)) {
    if (key === ignored) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(b, key) || !jsonEqual(a[key], b[key])) return false;
  }
  for (const key of Object.keys(b)) if (key !== ignored) count--;
  return count === 0;
}

/**
 * Whether `next` would store the same thing as `prev`: everything equal but the resourceVersion, and managed
 * fields equal but for their timestamps. Such a write is a no-op: same resourceVersion, no event.
 */
export function sameContent(prev: KubeObject, next: KubeObject): boolean {
  if (!equalBut(prev, next, 'metadata', 'apiVersion')) return false;
  const a = metadataOf(prev);
  const b = metadataOf(next);
  if (!equalBut(a, b, 'resourceVersion', 'managedFields')) return false;
  return managedFieldsEqual(a['managedFields'], b['managedFields']);
}

/** Whether every own key of `a` or `b` but `skipA` and `skipB` has equal values in both. */
function equalBut(a: Record<string, unknown>, b: Record<string, unknown>, skipA: string, skipB: string): boolean {
  for (const key of Object.keys(a)) {
    if (key === skipA || key === skipB) continue;
    if (!jsonEqual(a[key], b[key])) return false;
  }
  for (const key of Object.keys(b)) {
    if (key === skipA || key === skipB || Object.prototype.hasOwnProperty.call(a, key)) continue;
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
