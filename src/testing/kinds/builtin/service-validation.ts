/**
 * kube-apiserver's validation of a Service (Go's validateService), in its order: ports required (but for headless
 * and ExternalName Services), what each type forbids, the external name, each port (name required when there are
 * several, a DNS label, unique; number; protocol; target port as a number or an IANA name), selector labels, session
 * affinity, the cluster IPs' form, the type, node ports on a ClusterIP Service, duplicate node ports. Addresses and
 * node ports that cannot be allocated are service-addresses.ts's (kube-apiserver allocates before it validates).
 */
import { dns1123LabelProblems, dns1123SubdomainProblems } from '../../resources/dns-names.js';
import { fieldDuplicate, fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { IPV4, labelProblems, portNumberProblems, portNumOrNameProblems } from './field-rules.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];

function headless(spec: Json): boolean {
  const ips = spec['clusterIPs'];
  return spec['clusterIP'] === 'None' || (Array.isArray(ips) && ips[0] === 'None');
}

function portProblems(spec: Json): FieldProblem[] {
  const ports = objectsAt(spec, 'ports');
  const names = new Set<string>();
  const problems: FieldProblem[] = [];
  ports.forEach((port, i) => {
    const at = `spec.ports[${i}]`;
    const name = textAt(port, 'name');
    if (ports.length > 1 && name === '') problems.push(fieldRequired(`${at}.name`));
    else if (name !== '') {
      for (const message of dns1123LabelProblems(name)) problems.push(fieldInvalid(`${at}.name`, name, message));
      if (names.has(name)) problems.push(fieldDuplicate(`${at}.name`, name));
      else names.add(name);
    }
    for (const message of portNumberProblems(Number(port['port'] ?? 0))) problems.push(fieldInvalid(`${at}.port`, port['port'] ?? 0, message));
    const protocol = textAt(port, 'protocol');
    if (protocol === '') problems.push(fieldRequired(`${at}.protocol`));
    else if (!PROTOCOLS.includes(protocol)) problems.push(fieldNotSupported(`${at}.protocol`, protocol, PROTOCOLS));
    // The decoder defaulted targetPort to the port.
    problems.push(...portNumOrNameProblems(port['targetPort'], `${at}.targetPort`));
  });
  return problems;
}

function typeProblems(spec: Json): FieldProblem[] {
  const type = textAt(spec, 'type');
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless(spec)) return [fieldInvalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${type} services`)];
  if (type !== 'ExternalName') return [];
  const problems: FieldProblem[] = [];
  if (Array.isArray(spec['clusterIPs']) && spec['clusterIPs'].length > 0) problems.push(fieldForbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
  if (Array.isArray(spec['ipFamilies']) && spec['ipFamilies'].length > 0) problems.push(fieldForbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
  if (spec['ipFamilyPolicy'] !== undefined && spec['ipFamilyPolicy'] !== null) problems.push(fieldForbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
  const name = textAt(spec, 'externalName').replace(/\.$/, '');
  if (name === '') problems.push(fieldRequired('spec.externalName'));
  else for (const message of dns1123SubdomainProblems(name)) problems.push(fieldInvalid('spec.externalName', name, message));
  return problems;
}

function clusterIPProblems(spec: Json): FieldProblem[] {
  const ips = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'] : [];
  const problems: FieldProblem[] = [];
  ips.forEach((ip, i) => {
    if (ip === 'None' || (typeof ip === 'string' && IPV4.test(ip))) return;
    problems.push(fieldInvalid(`spec.clusterIPs[${i}]`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  const single = textAt(spec, 'clusterIP');
  if (ips.length === 0 && single !== '' && single !== 'None' && !IPV4.test(single)) {
    problems.push(fieldInvalid('spec.clusterIPs[0]', single, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  }
  return problems;
}

/** The IP families a single-stack IPv4 server accepts for a Service with an address: IPv4 only; two need a dual-stack policy. */
function ipFamilyProblems(spec: Json): FieldProblem[] {
  // A headless Service has no address of its own: kube-apiserver records both families for a selectorless one.
  if (headless(spec)) return [];
  const families = Array.isArray(spec['ipFamilies']) ? spec['ipFamilies'].map(String) : [];
  const policy = textAt(spec, 'ipFamilyPolicy');
  if (families.length > 1 && policy === 'SingleStack') {
    return [fieldInvalid('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified")];
  }
  const problems: FieldProblem[] = [];
  families.forEach((family, i) => {
    if (family === 'IPv4') return;
    const ip = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'][i] : undefined;
    if (i === 0 && typeof ip === 'string' && IPV4.test(ip)) problems.push(fieldInvalid('spec.clusterIPs[0]', ip, `expected an ${family} value as indicated by \`ipFamilies[0]\``));
    else problems.push(fieldInvalid(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster'));
  });
  return problems;
}

export function serviceProblems(object: Json): FieldProblem[] {
  const spec = objectAt(object, 'spec') ?? {};
  const problems: FieldProblem[] = [];
  if (objectsAt(spec, 'ports').length === 0 && !headless(spec) && spec['type'] !== 'ExternalName') problems.push(fieldRequired('spec.ports'));
  problems.push(...typeProblems(spec), ...portProblems(spec), ...labelProblems(objectAt(spec, 'selector'), 'spec.selector'));
  const affinity = textAt(spec, 'sessionAffinity');
  if (affinity === '') problems.push(fieldRequired('spec.sessionAffinity'));
  else if (!AFFINITIES.includes(affinity)) problems.push(fieldNotSupported('spec.sessionAffinity', affinity, AFFINITIES));
  problems.push(...clusterIPProblems(spec), ...ipFamilyProblems(spec));
  const type = textAt(spec, 'type');
  if (type === '') problems.push(fieldRequired('spec.type'));
  else if (!TYPES.includes(type)) problems.push(fieldNotSupported('spec.type', type, TYPES));
  if (type === 'ClusterIP') {
    objectsAt(spec, 'ports').forEach((port, i) => {
      if (typeof port['nodePort'] === 'number' && port['nodePort'] !== 0) problems.push(fieldForbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  return problems;
}
