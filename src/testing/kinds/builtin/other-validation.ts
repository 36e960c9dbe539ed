/**
 * kube-apiserver's validation of the other built-in kinds operators create, in its order: ConfigMap and Secret keys
 * (and a Secret's type-specific keys), Ingress paths and backends, RBAC rules, bindings and subjects, a claim's
 * access modes and storage request; on update, a Secret's type, an immutable ConfigMap's or Secret's data, a
 * binding's roleRef.
 */
import { jsonEqual } from '../../patch/json-value.js';
import { fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, fieldTooLong, type FieldProblem } from '../../status-errors.js';
import { configKeyProblems, portNameProblems, portNumberProblems } from './field-rules.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

function keyProblems(map: Json | undefined, field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(map ?? {})) for (const message of configKeyProblems(key)) problems.push(fieldInvalid(`${field}[${key}]`, key, message));
  return problems;
}

/** What a ConfigMap or a Secret may hold in all: its values' bytes (corev1.MaxSecretSize, 1 MiB). */
const MAX_DATA_BYTES = 1024 * 1024;

/** The bytes of a map's values: text as UTF-8, or base64 as the bytes it decodes to (already checked to decode). */
function valueBytes(map: Json, encoding: 'utf8' | 'base64'): number {
  let total = 0;
  for (const value of Object.values(map)) if (typeof value === 'string') total += encoding === 'utf8' ? Buffer.byteLength(value) : Buffer.from(value, 'base64').length;
  return total;
}

export function configMapProblems(object: Json): FieldProblem[] {
  const data = objectAt(object, 'data') ?? {};
  const binary = objectAt(object, 'binaryData') ?? {};
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(data)) {
    for (const message of configKeyProblems(key)) problems.push(fieldInvalid(`data[${key}]`, key, message));
    if (Object.hasOwn(binary, key)) problems.push(fieldInvalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
  }
  problems.push(...keyProblems(binary, 'binaryData'));
  // The whole object's problem: kube-apiserver names the empty path, which it prints as `[]`.
  if (valueBytes(data, 'utf8') + valueBytes(binary, 'base64') > MAX_DATA_BYTES) problems.push(fieldTooLong('[]', MAX_DATA_BYTES));
  return problems;
}

/** The keys each Secret type needs in `data`. */
function secretTypeProblems(object: Json): FieldProblem[] {
  const data = objectAt(object, 'data') ?? {};
  const need = (key: string): FieldProblem[] => (Object.hasOwn(data, key) ? [] : [fieldRequired(`data[${key}]`)]);
  switch (textAt(object, 'type')) {
    case 'kubernetes.io/service-account-token':
      return textAt(objectAt(objectAt(object, 'metadata') ?? {}, 'annotations') ?? {}, 'kubernetes.io/service-account.name') === '' ? [fieldRequired('metadata.annotations[kubernetes.io/service-account.name]')] : [];
    case 'kubernetes.io/dockercfg':
      return need('.dockercfg');
    case 'kubernetes.io/dockerconfigjson':
      return need('.dockerconfigjson');
    case 'kubernetes.io/basic-auth':
      return Object.hasOwn(data, 'username') || Object.hasOwn(data, 'password') ? [] : [fieldRequired('data[username]'), fieldRequired('data[password]')];
    case 'kubernetes.io/ssh-auth':
      return textAt(data, 'ssh-privatekey') === '' ? [fieldRequired('data[ssh-privatekey]')] : [];
    case 'kubernetes.io/tls':
      return [...need('tls.crt'), ...need('tls.key')];
    default:
      return [];
  }
}

export function secretProblems(object: Json): FieldProblem[] {
  const data = objectAt(object, 'data') ?? {};
  const tooLong = valueBytes(data, 'base64') > MAX_DATA_BYTES ? [fieldTooLong('data', MAX_DATA_BYTES)] : [];
  return [...keyProblems(data, 'data'), ...tooLong, ...secretTypeProblems(object)];
}

/** An immutable ConfigMap's or Secret's data may not change, nor may it become mutable again. */
function immutableDataProblems(object: Json, old: Json): FieldProblem[] {
  if (old['immutable'] !== true) return [];
  const problems: FieldProblem[] = [];
  if (object['immutable'] !== true) problems.push(fieldForbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const field of ['data', 'binaryData']) {
    if (!jsonEqual(object[field] ?? null, old[field] ?? null)) problems.push(fieldForbidden(field, 'field is immutable when `immutable` is set'));
  }
  return problems;
}

export function configMapUpdateProblems(object: Json, old: Json): FieldProblem[] {
  return [...immutableDataProblems(object, old), ...configMapProblems(object)];
}

export function secretUpdateProblems(object: Json, old: Json): FieldProblem[] {
  const problems = textAt(object, 'type') === textAt(old, 'type') ? [] : [fieldInvalid('type', textAt(object, 'type'), 'field is immutable')];
  return [...problems, ...immutableDataProblems(object, old), ...secretProblems(object)];
}

function backendProblems(backend: Json, field: string): FieldProblem[] {
  const service = objectAt(backend, 'service');
  const resource = objectAt(backend, 'resource');
  if (service !== undefined && resource !== undefined) return [fieldInvalid(field, '', 'cannot set both resource and service backends')];
  if (resource !== undefined) return [];
  if (service === undefined) return [fieldInvalid(field, '', 'resource or service backend is required')];
  const problems = textAt(service, 'name') === '' ? [fieldRequired(`${field}.service.name`)] : [];
  const port = objectAt(service, 'port') ?? {};
  const name = textAt(port, 'name');
  const number = typeof port['number'] === 'number' ? port['number'] : 0;
  if (name !== '' && number !== 0) problems.push(fieldInvalid(field, '', 'cannot set both port name & port number'));
  else if (name !== '') for (const message of portNameProblems(name)) problems.push(fieldInvalid(`${field}.service.port.name`, name, message));
  else if (number !== 0) for (const message of portNumberProblems(number)) problems.push(fieldInvalid(`${field}.service.port.number`, number, message));
  else problems.push(fieldRequired(field, 'port name or number is required'));
  return problems;
}

function ingressPathProblems(path: Json, field: string): FieldProblem[] {
  const type = path['pathType'];
  if (typeof type !== 'string') return [fieldRequired(`${field}.pathType`, 'pathType must be specified')];
  const value = textAt(path, 'path');
  const problems: FieldProblem[] = [];
  if (type === 'Exact' || type === 'Prefix' || (type === 'ImplementationSpecific' && value !== '')) {
    if (!value.startsWith('/')) problems.push(fieldInvalid(`${field}.path`, value, 'must be an absolute path'));
  } else if (type !== 'ImplementationSpecific') {
    problems.push(fieldNotSupported(`${field}.pathType`, type, PATH_TYPES));
  }
  return [...problems, ...backendProblems(objectAt(path, 'backend') ?? {}, `${field}.backend`)];
}

export function ingressProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  const fallback = objectAt(spec, 'defaultBackend');
  if (fallback !== undefined) problems.push(...backendProblems(fallback, 'spec.defaultBackend'));
  objectsAt(spec, 'rules').forEach((rule, i) => {
    objectsAt(objectAt(rule, 'http') ?? {}, 'paths').forEach((path, j) => problems.push(...ingressPathProblems(path, `spec.rules[${i}].http.paths[${j}]`)));
  });
  return problems;
}

export function roleProblems(object: Json): FieldProblem[] {
  const problems: FieldProblem[] = [];
  objectsAt(object, 'rules').forEach((rule, i) => {
    const at = `rules[${i}]`;
    if (!Array.isArray(rule['verbs']) || rule['verbs'].length === 0) problems.push(fieldRequired(`${at}.verbs`));
    const urls = Array.isArray(rule['nonResourceURLs']) ? rule['nonResourceURLs'] : [];
    if (urls.length > 0) return;
    if (!Array.isArray(rule['apiGroups']) || rule['apiGroups'].length === 0) problems.push(fieldRequired(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
    if (!Array.isArray(rule['resources']) || rule['resources'].length === 0) problems.push(fieldRequired(`${at}.resources`, 'resource rules must supply at least one resource'));
  });
  return problems;
}

function subjectProblems(subject: Json, field: string, namespaced: boolean): FieldProblem[] {
  const problems = textAt(subject, 'name') === '' ? [fieldRequired(`${field}.name`)] : [];
  const group = textAt(subject, 'apiGroup');
  switch (subject['kind']) {
    case 'ServiceAccount':
      if (group !== '') problems.push(fieldNotSupported(`${field}.apiGroup`, group, ['']));
      if (!namespaced && textAt(subject, 'namespace') === '') problems.push(fieldRequired(`${field}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (group !== RBAC_GROUP) problems.push(fieldNotSupported(`${field}.apiGroup`, group, [RBAC_GROUP]));
      break;
    default:
      problems.push(fieldNotSupported(`${field}.kind`, textAt(subject, 'kind'), ['ServiceAccount', 'User', 'Group']));
  }
  return problems;
}

/** A RoleBinding's (`namespaced`) or ClusterRoleBinding's roleRef and subjects. */
export function roleBindingProblems(object: Json, namespaced: boolean): FieldProblem[] {
  const ref = objectAt(object, 'roleRef') ?? {};
  const problems: FieldProblem[] = [];
  if (textAt(ref, 'apiGroup') !== RBAC_GROUP) problems.push(fieldNotSupported('roleRef.apiGroup', textAt(ref, 'apiGroup'), [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(textAt(ref, 'kind'))) problems.push(fieldNotSupported('roleRef.kind', textAt(ref, 'kind'), kinds));
  if (textAt(ref, 'name') === '') problems.push(fieldRequired('roleRef.name'));
  objectsAt(object, 'subjects').forEach((subject, i) => problems.push(...subjectProblems(subject, `subjects[${i}]`, namespaced)));
  return problems;
}

/** roleRef cannot change; the value is printed as Go prints the internal RoleRef (its Go field names). */
export function roleBindingUpdateProblems(object: Json, old: Json, namespaced: boolean): FieldProblem[] {
  const ref = objectAt(object, 'roleRef') ?? {};
  const changed = !jsonEqual(ref, objectAt(old, 'roleRef') ?? {});
  const immutable = changed ? [fieldInvalid('roleRef', { APIGroup: textAt(ref, 'apiGroup'), Kind: textAt(ref, 'kind'), Name: textAt(ref, 'name') }, 'field is immutable')] : [];
  return [...immutable, ...roleBindingProblems(object, namespaced)];
}

export function persistentVolumeClaimProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  const modes = Array.isArray(spec['accessModes']) ? spec['accessModes'] : [];
  if (modes.length === 0 && objectAt(spec, 'dataSourceRef') === undefined) problems.push(fieldRequired('spec.accessModes', 'at least 1 access mode is required'));
  for (const mode of modes) if (!ACCESS_MODES.includes(String(mode))) problems.push(fieldNotSupported('spec.accessModes', String(mode), ACCESS_MODES));
  const requests = objectAt(objectAt(spec, 'resources') ?? {}, 'requests') ?? {};
  if (!Object.hasOwn(requests, 'storage')) problems.push(fieldRequired('spec.resources[storage]'));
  return problems;
}
