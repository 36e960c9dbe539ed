/**
 * What kube-apiserver's Service registry adds on a write, besides the decoded defaults: a cluster IP from the service
 * range (10.0.0.0/24, as `startKubeApiServer` starts kube-apiserver; dynamic addresses from the upper band .17–.254,
 * .1 kept for the `kubernetes` Service), the IP families, node ports from 30000–32767 (dynamically from 30086 up) for
 * NodePort and LoadBalancer Services, a health-check node port for `externalTrafficPolicy: Local` load balancers; on
 * update, the allocated values a client left out are kept, a changed cluster IP is refused, and values the new type
 * does not use are dropped. Addresses in use are read from the stored Services (no allocator state to drift).
 */
import { jsonEqual } from '../../patch/json-value.js';
import { fieldInvalid, invalid, type FieldProblem } from '../../status-errors.js';
import type { ObjectStore } from '../../store/object-store.js';
import { IPV4 } from './field-rules.js';
import { ensureObject, objectAt, objectsAt, textAt, unset, type Json } from './fields.js';
import { externallyAccessible } from './service-defaults.js';

const SERVICES_KEY = '/services';
const RANGE_PREFIX = '10.0.0.';
const STATIC_BAND = 16;
const FIRST_HOST = 1;
const LAST_HOST = 254;
const NODE_PORT_BASE = 30_000;
const NODE_PORT_LAST = 32_767;
const NODE_PORT_STATIC_BAND = 86;

function needsClusterIP(spec: Json): boolean {
  return spec['type'] !== 'ExternalName';
}

function needsNodePorts(spec: Json): boolean {
  return spec['type'] === 'NodePort' || (spec['type'] === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] !== false);
}

function needsHealthCheckPort(spec: Json): boolean {
  return spec['type'] === 'LoadBalancer' && spec['externalTrafficPolicy'] === 'Local';
}

/** The address a client asked for: `clusterIP`, else the first of `clusterIPs`, else ''. */
function requestedIP(spec: Json): string {
  const single = textAt(spec, 'clusterIP');
  if (single !== '') return single;
  const list = spec['clusterIPs'];
  return Array.isArray(list) && typeof list[0] === 'string' ? list[0] : '';
}

/** The cluster IPs and node ports of every stored Service but the one being written. */
function inUse(store: ObjectStore, except: { namespace: string; name: string }): { ips: Set<string>; ports: Set<number> } {
  const ips = new Set<string>([`${RANGE_PREFIX}${FIRST_HOST}`]);
  const ports = new Set<number>();
  for (const record of store.list(SERVICES_KEY)) {
    if (record.namespace === except.namespace && record.name === except.name) continue;
    const spec = objectAt(record.object, 'spec') ?? {};
    ips.add(textAt(spec, 'clusterIP'));
    for (const port of objectsAt(spec, 'ports')) if (typeof port['nodePort'] === 'number') ports.add(port['nodePort']);
    if (typeof spec['healthCheckNodePort'] === 'number') ports.add(spec['healthCheckNodePort']);
  }
  return { ips, ports };
}

/** A random free value of [low, high], else of [fallbackLow, low): kube-apiserver's upper band first. */
function pick<T>(low: number, high: number, fallbackLow: number, make: (n: number) => T, taken: (value: T) => boolean): T | undefined {
  for (const [from, to] of [[low, high], [fallbackLow, low - 1]] as const) {
    const size = to - from + 1;
    const start = Math.floor(Math.random() * size);
    for (let i = 0; i < size; i++) {
      const value = make(from + ((start + i) % size));
      if (!taken(value)) return value;
    }
  }
  return undefined;
}

function allocateIP(spec: Json, used: Set<string>, problems: FieldProblem[]): void {
  const requested = requestedIP(spec);
  if (requested === 'None') {
    spec['clusterIP'] = 'None';
    spec['clusterIPs'] = ['None'];
    return;
  }
  // A malformed address is the validation's to report (spec.clusterIPs[0]).
  if (requested !== '' && !IPV4.test(requested)) return;
  let ip = requested;
  if (ip === '') {
    ip = pick(FIRST_HOST + STATIC_BAND, LAST_HOST, FIRST_HOST, (n) => `${RANGE_PREFIX}${n}`, (value) => used.has(value)) ?? '';
    if (ip === '') {
      problems.push(fieldInvalid('spec.clusterIPs', [], 'failed to allocate a serviceIP: range is full'));
      return;
    }
  } else {
    const host = Number(ip.slice(RANGE_PREFIX.length));
    const why = !ip.startsWith(RANGE_PREFIX) || host < FIRST_HOST || host > LAST_HOST ? 'the provided network does not match the current range' : used.has(ip) ? 'provided IP is already allocated' : '';
    if (why !== '') {
      problems.push(fieldInvalid('spec.clusterIPs', [ip], `failed to allocate IP ${ip}: ${why}`));
      return;
    }
  }
  spec['clusterIP'] = ip;
  spec['clusterIPs'] = [ip];
}

/** The IP families kube-apiserver gives a single-stack IPv4 cluster: a headless Service without selector asks for both. */
function ipFamilies(spec: Json): void {
  if (!unset(spec, 'ipFamilyPolicy') || !unset(spec, 'ipFamilies')) return;
  const selectorless = spec['clusterIP'] === 'None' && Object.keys(objectAt(spec, 'selector') ?? {}).length === 0;
  spec['ipFamilyPolicy'] = selectorless ? 'RequireDualStack' : 'SingleStack';
  spec['ipFamilies'] = selectorless ? ['IPv4', 'IPv6'] : ['IPv4'];
}

function nodePortProblem(field: string, port: number, used: Set<number>): FieldProblem | undefined {
  if (port < NODE_PORT_BASE || port > NODE_PORT_LAST) {
    return fieldInvalid(field, port, `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_BASE}-${NODE_PORT_LAST}`);
  }
  return used.has(port) ? fieldInvalid(field, port, 'provided port is already allocated') : undefined;
}

function allocatePort(field: string, given: unknown, used: Set<number>, problems: FieldProblem[]): number | undefined {
  if (typeof given === 'number' && given !== 0) {
    const problem = nodePortProblem(field, given, used);
    if (problem !== undefined) {
      problems.push(problem);
      return undefined;
    }
    used.add(given);
    return given;
  }
  const port = pick(NODE_PORT_BASE + NODE_PORT_STATIC_BAND, NODE_PORT_LAST, NODE_PORT_BASE, (n) => n, (value) => used.has(value));
  if (port === undefined) problems.push(fieldInvalid(field, 0, 'failed to allocate a nodePort: range is full'));
  else used.add(port);
  return port;
}

function allocatePorts(spec: Json, used: Set<number>, problems: FieldProblem[]): void {
  if (needsNodePorts(spec)) {
    objectsAt(spec, 'ports').forEach((port, i) => {
      const value = allocatePort(`spec.ports[${i}].nodePort`, port['nodePort'], used, problems);
      if (value !== undefined) port['nodePort'] = value;
    });
  }
  if (needsHealthCheckPort(spec)) {
    const value = allocatePort('spec.healthCheckNodePort', spec['healthCheckNodePort'], used, problems);
    if (value !== undefined) spec['healthCheckNodePort'] = value;
  }
}

function refuse(service: Json, problems: FieldProblem[]): void {
  if (problems.length > 0) throw invalid({ group: '', kind: 'Service' }, textAt(objectAt(service, 'metadata') ?? {}, 'name'), problems);
}

/** Allocates the addresses and ports of a new Service (in place); throws 422 when one asked for cannot be had. */
export function allocateServiceCreate(service: Json, store: ObjectStore): void {
  const spec = ensureObject(service, 'spec');
  const metadata = objectAt(service, 'metadata') ?? {};
  const used = inUse(store, { namespace: textAt(metadata, 'namespace'), name: textAt(metadata, 'name') });
  const problems: FieldProblem[] = [];
  if (needsClusterIP(spec)) {
    allocateIP(spec, used.ips, problems);
    ipFamilies(spec);
  }
  allocatePorts(spec, used.ports, problems);
  refuse(service, problems);
}

/** The values of a stored Service an update keeps when the client left them out, or drops when the new type has no use for them. */
function keepAllocated(spec: Json, old: Json): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (textAt(spec, 'clusterIP') === '' && requestedIP(spec) === '') spec['clusterIP'] = old['clusterIP'];
    if (unset(spec, 'clusterIPs')) spec['clusterIPs'] = old['clusterIPs'];
    if (unset(spec, 'ipFamilies')) spec['ipFamilies'] = old['ipFamilies'];
    if (unset(spec, 'ipFamilyPolicy')) spec['ipFamilyPolicy'] = old['ipFamilyPolicy'];
  }
  // What only the old type used goes, unless the client changed it (then validation judges it).
  const dropUnchanged = (keys: readonly string[]): void => {
    for (const key of keys) if (jsonEqual(spec[key] ?? null, old[key] ?? null)) delete spec[key];
  };
  if (needsClusterIP(old) && !needsClusterIP(spec)) dropUnchanged(['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy']);
  if (externallyAccessible(old) && !externallyAccessible(spec)) dropUnchanged(['externalTrafficPolicy']);
  if (old['type'] === 'LoadBalancer' && spec['type'] !== 'LoadBalancer') dropUnchanged(['allocateLoadBalancerNodePorts']);
  const oldPorts = new Map(objectsAt(old, 'ports').map((port) => [textAt(port, 'name'), port['nodePort']]));
  if (needsNodePorts(old) && needsNodePorts(spec)) {
    for (const port of objectsAt(spec, 'ports')) {
      const previous = oldPorts.get(textAt(port, 'name'));
      if ((unset(port, 'nodePort') || port['nodePort'] === 0) && previous !== undefined) port['nodePort'] = previous;
    }
  }
  if (needsNodePorts(old) && !needsNodePorts(spec)) {
    for (const port of objectsAt(spec, 'ports')) if (port['nodePort'] === oldPorts.get(textAt(port, 'name'))) delete port['nodePort'];
  }
  if (needsHealthCheckPort(old) && needsHealthCheckPort(spec) && unset(spec, 'healthCheckNodePort')) spec['healthCheckNodePort'] = old['healthCheckNodePort'];
  if (needsHealthCheckPort(old) && !needsHealthCheckPort(spec) && spec['healthCheckNodePort'] === old['healthCheckNodePort']) delete spec['healthCheckNodePort'];
}

/** Keeps, checks and allocates the addresses and ports of an updated Service (in place); throws 422 as kube-apiserver does. */
export function allocateServiceUpdate(service: Json, old: Json, store: ObjectStore): void {
  const spec = ensureObject(service, 'spec');
  const oldSpec = objectAt(old, 'spec') ?? {};
  keepAllocated(spec, oldSpec);
  const oldIP = textAt(oldSpec, 'clusterIP');
  const wanted = textAt(spec, 'clusterIP') || requestedIP(spec);
  if (needsClusterIP(oldSpec) && needsClusterIP(spec) && oldIP !== '' && wanted !== oldIP) {
    refuse(service, [fieldInvalid('spec.clusterIPs[0]', [wanted], 'may not change once set')]);
  }
  const metadata = objectAt(service, 'metadata') ?? {};
  const used = inUse(store, { namespace: textAt(metadata, 'namespace'), name: textAt(metadata, 'name') });
  const problems: FieldProblem[] = [];
  if (needsClusterIP(spec) && !needsClusterIP(oldSpec)) {
    allocateIP(spec, used.ips, problems);
    ipFamilies(spec);
  }
  // The Service's own ports are not in `used`: the ones it keeps need no check.
  const kept = new Set(objectsAt(oldSpec, 'ports').map((port) => port['nodePort']));
  if (needsNodePorts(spec)) {
    objectsAt(spec, 'ports').forEach((port, i) => {
      if (typeof port['nodePort'] === 'number' && kept.has(port['nodePort'])) return;
      const value = allocatePort(`spec.ports[${i}].nodePort`, port['nodePort'], used.ports, problems);
      if (value !== undefined) port['nodePort'] = value;
    });
  }
  if (needsHealthCheckPort(spec) && spec['healthCheckNodePort'] !== oldSpec['healthCheckNodePort']) {
    const value = allocatePort('spec.healthCheckNodePort', spec['healthCheckNodePort'], used.ports, problems);
    if (value !== undefined) spec['healthCheckNodePort'] = value;
  }
  refuse(service, problems);
}
