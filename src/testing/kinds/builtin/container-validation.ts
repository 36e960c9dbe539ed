/**
 * The parts of kube-apiserver's pod spec validation about what a container and a volume hold, in its order and with
 * its messages: probes (one handler, its port or command, timings, a liveness or startup success threshold of 1),
 * environment sources (`valueFrom`, `envFrom`), resources (names, values, requests against limits), volume sources
 * (one per volume, a configMap's or secret's name and items) and warnings (a fractional byte value).
 */
import { compareQuantities, formatQuantity, isWholeQuantity, parseQuantity } from '../../../util/quantity.js';
import { POD_FIELDS } from '../../resources/builtin-resources.js';
import { dns1123SubdomainProblems } from '../../resources/dns-names.js';
import { fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { configKeyProblems, nonNegative, portNumberProblems, portNumOrNameProblems, qualifiedNameProblems } from './field-rules.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'];
const PROBE_TIMINGS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];

function handlerProblems(holder: Json, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  let handlers = 0;
  for (const name of HANDLERS) {
    const handler = objectAt(holder, name);
    if (handler === undefined) continue;
    if (handlers > 0) {
      problems.push(fieldForbidden(`${path}.${name}`, 'may not specify more than 1 handler type'));
      continue;
    }
    handlers += 1;
    const at = `${path}.${name}`;
    if (name === 'exec' && !(Array.isArray(handler['command']) && handler['command'].length > 0)) problems.push(fieldRequired(`${at}.command`));
    if (name === 'httpGet' || name === 'tcpSocket') problems.push(...portNumOrNameProblems(handler['port'], `${at}.port`));
    if (name === 'httpGet' && !['HTTP', 'HTTPS'].includes(textAt(handler, 'scheme'))) problems.push(fieldNotSupported(`${at}.scheme`, textAt(handler, 'scheme'), ['HTTP', 'HTTPS']));
    if (name === 'grpc') problems.push(...portNumberProblems(Number(handler['port'] ?? 0)).map((message) => fieldInvalid(`${at}.port`, handler['port'] ?? 0, message)));
  }
  if (handlers === 0) problems.push(fieldRequired(path, 'must specify a handler type'));
  return problems;
}

/** A container's probes (checked after its name is found unique). */
export function probeProblems(container: Json, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const name of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const probe = objectAt(container, name);
    if (probe === undefined) continue;
    const at = `${path}.${name}`;
    problems.push(...handlerProblems(probe, at));
    for (const timing of PROBE_TIMINGS) problems.push(...nonNegative(probe[timing], `${at}.${timing}`));
    if (name !== 'readinessProbe' && probe['successThreshold'] !== 1) problems.push(fieldInvalid(`${at}.successThreshold`, probe['successThreshold'] ?? 0, 'must be 1'));
  }
  return problems;
}

/** A key selector of a ConfigMap or Secret: a name (a DNS subdomain) and a key (a config key). */
function keySelectorProblems(selector: Json, path: string): FieldProblem[] {
  const problems = dns1123SubdomainProblems(textAt(selector, 'name')).map((message) => fieldInvalid(`${path}.name`, textAt(selector, 'name'), message));
  const key = textAt(selector, 'key');
  if (key === '') problems.push(fieldRequired(`${path}.key`));
  else problems.push(...configKeyProblems(key).map((message) => fieldInvalid(`${path}.key`, key, message)));
  return problems;
}

/** The pod fields a `fieldRef` can name: what a Pod's field selectors convert, and labels' and annotations' keys. */
function fieldPathProblems(fieldRef: Json, path: string): FieldProblem[] {
  const fieldPath = textAt(fieldRef, 'fieldPath');
  if (fieldPath === '') return [fieldRequired(`${path}.fieldPath`)];
  const known = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.labels', 'metadata.annotations', ...POD_FIELDS];
  if (known.includes(fieldPath) || /^metadata\.(labels|annotations)\['[^']*'\]$/.test(fieldPath)) return [];
  return [fieldInvalid(`${path}.fieldPath`, fieldPath, `error converting fieldPath: field label not supported: ${fieldPath}`)];
}

function envProblems(container: Json, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  objectsAt(container, 'env').forEach((env, i) => {
    const from = objectAt(env, 'valueFrom');
    if (from === undefined) return;
    const at = `${path}.env[${i}].valueFrom`;
    let sources = 0;
    const fieldRef = objectAt(from, 'fieldRef');
    if (fieldRef !== undefined) {
      sources += 1;
      problems.push(...fieldPathProblems(fieldRef, `${at}.fieldRef`));
    }
    if (objectAt(from, 'resourceFieldRef') !== undefined) sources += 1;
    for (const name of ['configMapKeyRef', 'secretKeyRef']) {
      const selector = objectAt(from, name);
      if (selector === undefined) continue;
      sources += 1;
      problems.push(...keySelectorProblems(selector, `${at}.${name}`));
    }
    if (objectAt(from, 'fileKeyRef') !== undefined) sources += 1;
    if (sources === 0) problems.push(fieldInvalid(at, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`'));
    else if (textAt(env, 'value') !== '') problems.push(fieldInvalid(at, '', 'may not be specified when `value` is not empty'));
    else if (sources > 1) problems.push(fieldInvalid(at, '', 'may not have more than one field specified at a time'));
  });
  for (const source of objectsAt(container, 'envFrom')) {
    const count = ['configMapRef', 'secretRef'].filter((name) => objectAt(source, name) !== undefined).length;
    if (count === 0) problems.push(fieldInvalid(`${path}.envFrom`, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) problems.push(fieldInvalid(`${path}.envFrom`, '', 'may not have more than one field specified at a time'));
  }
  return problems;
}

const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory',
  'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'persistentvolumeclaims', 'configmaps',
  'services.nodeports', 'services.loadbalancers', 'requests.storage', 'storage',
]);
const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const INTEGER_RESOURCES = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);

const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
/** In the default `kubernetes.io` namespace: no slash, or a `kubernetes.io/` one. */
const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
const isExtended = (name: string): boolean => !isNative(name) && !name.startsWith('requests.') && qualifiedNameProblems(`requests.${name}`).length === 0;
/** Requests of these may differ from their limits (not an extended resource, not huge pages). */
const overcommits = (name: string): boolean => isNative(name) && !isHugePages(name);

/** Go's ValidateContainerResourceName. */
function resourceNameProblems(name: string, field: string): FieldProblem[] {
  const problems = qualifiedNameProblems(name).map((message) => fieldInvalid(field, name, message));
  if (problems.length === 0 && !name.includes('/') && !STANDARD_RESOURCES.has(name) && !/^(requests\.)?hugepages-/.test(name)) {
    problems.push(fieldInvalid(field, name, 'must be a standard resource type or fully qualified'));
  }
  if (!name.includes('/')) {
    if (!CONTAINER_RESOURCES.has(name) && !isHugePages(name)) problems.push(fieldInvalid(field, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    problems.push(fieldInvalid(field, name, "doesn't follow extended resource name standard"));
  }
  return problems;
}

/** Go's ValidateResourceQuantityValue: not negative, and whole for counted and extended resources. */
export function quantityValueProblems(name: string, value: unknown, field: string): FieldProblem[] {
  const text = String(value);
  const problems = compareQuantities(value, 0) === -1 ? [fieldInvalid(field, text, 'must be greater than or equal to 0')] : [];
  const quantity = parseQuantity(text);
  if ((INTEGER_RESOURCES.has(name) || isExtended(name)) && quantity !== undefined && !isWholeQuantity(quantity)) {
    problems.push(fieldInvalid(field, formatQuantity(quantity), 'must be an integer'));
  }
  return problems;
}

function resourceProblems(container: Json, path: string): FieldProblem[] {
  const resources = objectAt(container, 'resources') ?? {};
  const limits = objectAt(resources, 'limits') ?? {};
  const requests = objectAt(resources, 'requests') ?? {};
  const problems: FieldProblem[] = [];
  for (const [name, value] of Object.entries(limits)) {
    const at = `${path}.resources.limits[${name}]`;
    problems.push(...resourceNameProblems(name, at), ...quantityValueProblems(name, value, at));
  }
  for (const [name, value] of Object.entries(requests)) {
    const at = `${path}.resources.requests[${name}]`;
    problems.push(...resourceNameProblems(name, at), ...quantityValueProblems(name, value, at));
    const limit = limits[name];
    if (limit !== undefined) {
      const order = compareQuantities(value, limit);
      if (order !== 0 && !overcommits(name)) problems.push(fieldInvalid(`${path}.resources.requests`, String(value), `must be equal to ${name} limit of ${String(limit)}`));
      else if (order === 1) problems.push(fieldInvalid(`${path}.resources.requests`, String(value), `must be less than or equal to ${name} limit of ${String(limit)}`));
    } else if (!overcommits(name)) {
      problems.push(fieldRequired(`${path}.resources.limits`, 'Limit must be set for non overcommitable resources'));
    }
  }
  return problems;
}

/** A container's env sources and resources, which kube-apiserver checks before and after its mounts. */
export function containerContentProblems(container: Json, path: string): { env: FieldProblem[]; resources: FieldProblem[] } {
  return { env: envProblems(container, path), resources: resourceProblems(container, path) };
}

/** The volume sources in kube-apiserver's order (the first one counts, any other is Forbidden). */
const VOLUME_SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs', 'flocker',
  'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap', 'azureFile',
  'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO', 'projected', 'storageos', 'csi', 'ephemeral', 'image',
];

function itemProblems(items: Json[], path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  items.forEach((item, i) => {
    const at = `${path}.items[${i}]`;
    if (textAt(item, 'key') === '') problems.push(fieldRequired(`${at}.key`));
    const target = textAt(item, 'path');
    if (target === '') problems.push(fieldRequired(`${at}.path`));
    if (target.startsWith('/')) problems.push(fieldInvalid(`${at}.path`, target, 'must be a relative path'));
    if (target.split('/').includes('..')) problems.push(fieldInvalid(`${at}.path`, target, "must not contain '..'"));
  });
  return problems;
}

/** What kube-apiserver checks of one volume source: a configMap's name, a secret's or configMap's items, a claim's name. */
function sourceProblems(name: string, source: Json, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (name === 'configMap' && textAt(source, 'name') === '') problems.push(fieldRequired(`${path}.name`));
  if (name === 'configMap' || name === 'secret') problems.push(...itemProblems(objectsAt(source, 'items'), path));
  if (name === 'persistentVolumeClaim' && textAt(source, 'claimName') === '') problems.push(fieldRequired(`${path}.claimName`));
  return problems;
}

/** A volume's source: the first, in kube-apiserver's order, is checked; any other is Forbidden. */
export function volumeSourceProblems(volume: Json, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  let sources = 0;
  for (const name of VOLUME_SOURCES) {
    const source = objectAt(volume, name);
    if (source === undefined) continue;
    if (sources > 0) problems.push(fieldForbidden(`${path}.${name}`, 'may not specify more than 1 volume type'));
    else problems.push(...sourceProblems(name, source, `${path}.${name}`));
    sources += 1;
  }
  return problems;
}

/** kube-apiserver's warnings for a pod spec's containers: a fractional byte value of memory or ephemeral storage. */
export function containerWarnings(spec: Json, path: string): string[] {
  const warnings: string[] = [];
  for (const list of ['initContainers', 'containers']) {
    objectsAt(spec, list).forEach((container, i) => {
      const resources = objectAt(container, 'resources') ?? {};
      for (const kind of ['limits', 'requests']) {
        for (const [name, value] of Object.entries(objectAt(resources, kind) ?? {})) {
          if (name !== 'memory' && name !== 'ephemeral-storage') continue;
          const quantity = parseQuantity(String(value));
          if (quantity !== undefined && !isWholeQuantity(quantity)) {
            warnings.push(`${path}.${list}[${i}].resources.${kind}[${name}]: fractional byte value "${String(value)}" is invalid, must be an integer`);
          }
        }
      }
    });
  }
  return warnings;
}
