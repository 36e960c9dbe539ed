/**
 * kube-apiserver's validation of a pod spec (Go's ValidatePodSpec), the part operators' pod specs most often get
 * wrong, in its order: volume names; each container's name, image, ports, env names, volume mounts, pull policy and
 * requests against limits, and duplicate names; the restart and DNS policies; node selector labels; the service
 * account name. Not judged here (documented): volume sources, probes, lifecycle hooks, security contexts, affinity,
 * topology spread, resource names.
 */
import { dns1123LabelProblems, dns1123SubdomainProblems } from '../../resources/dns-names.js';
import { fieldDuplicate, fieldInvalid, fieldNotFound, fieldNotSupported, fieldRequired, type FieldProblem } from '../../status-errors.js';
import { labelProblems, portNameProblems, portNumberProblems } from './field-rules.js';
import { containerContentProblems, probeProblems, volumeSourceProblems } from './container-validation.js';
import { objectAt, objectsAt, textAt, type Json } from './fields.js';


const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

function portProblems(ports: Json[], path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = `${path}[${i}]`;
    const name = textAt(port, 'name');
    if (name !== '') {
      const messages = portNameProblems(name);
      if (messages.length > 0) for (const message of messages) problems.push(fieldInvalid(`${at}.name`, name, message));
      else if (names.has(name)) problems.push(fieldDuplicate(`${at}.name`, name));
      else names.add(name);
    }
    const containerPort = port['containerPort'];
    if (containerPort === undefined || containerPort === null || containerPort === 0) problems.push(fieldRequired(`${at}.containerPort`));
    else for (const message of portNumberProblems(Number(containerPort))) problems.push(fieldInvalid(`${at}.containerPort`, containerPort, message));
    const hostPort = port['hostPort'];
    if (typeof hostPort === 'number' && hostPort !== 0) for (const message of portNumberProblems(hostPort)) problems.push(fieldInvalid(`${at}.hostPort`, hostPort, message));
    const protocol = textAt(port, 'protocol');
    if (protocol === '') problems.push(fieldRequired(`${at}.protocol`));
    else if (!PROTOCOLS.includes(protocol)) problems.push(fieldNotSupported(`${at}.protocol`, protocol, PROTOCOLS));
  });
  return problems;
}

function containerProblems(container: Json, path: string, volumes: ReadonlySet<string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const name = textAt(container, 'name');
  if (name === '') problems.push(fieldRequired(`${path}.name`));
  else for (const message of dns1123LabelProblems(name)) problems.push(fieldInvalid(`${path}.name`, name, message));
  if (textAt(container, 'image') === '') problems.push(fieldRequired(`${path}.image`));
  const messagePolicy = textAt(container, 'terminationMessagePolicy');
  if (!TERMINATION_MESSAGE_POLICIES.includes(messagePolicy)) problems.push(fieldNotSupported(`${path}.terminationMessagePolicy`, messagePolicy, TERMINATION_MESSAGE_POLICIES));
  problems.push(...portProblems(objectsAt(container, 'ports'), `${path}.ports`));
  objectsAt(container, 'env').forEach((env, i) => {
    if (textAt(env, 'name') === '') problems.push(fieldRequired(`${path}.env[${i}].name`));
  });
  const content = containerContentProblems(container, path);
  problems.push(...content.env);
  const mountPaths = new Set<string>();
  objectsAt(container, 'volumeMounts').forEach((mount, i) => {
    const volume = textAt(mount, 'name');
    if (volume === '') problems.push(fieldRequired(`${path}.volumeMounts[${i}].name`));
    else if (!volumes.has(volume)) problems.push(fieldNotFound(`${path}.volumeMounts[${i}].name`, volume));
    const mountPath = textAt(mount, 'mountPath');
    if (mountPath === '') problems.push(fieldRequired(`${path}.volumeMounts[${i}].mountPath`));
    else if (mountPaths.has(mountPath)) problems.push(fieldInvalid(`${path}.volumeMounts[${i}].mountPath`, mountPath, 'must be unique'));
    mountPaths.add(mountPath);
  });
  const pullPolicy = textAt(container, 'imagePullPolicy');
  if (!PULL_POLICIES.includes(pullPolicy)) problems.push(fieldNotSupported(`${path}.imagePullPolicy`, pullPolicy, PULL_POLICIES));
  return [...problems, ...content.resources];
}

function containerListProblems(containers: Json[], path: string, volumes: ReadonlySet<string>, taken: Set<string>, required: boolean): FieldProblem[] {
  if (containers.length === 0) return required ? [fieldRequired(path)] : [];
  const problems: FieldProblem[] = [];
  containers.forEach((container, i) => {
    problems.push(...containerProblems(container, `${path}[${i}]`, volumes));
    const name = textAt(container, 'name');
    if (taken.has(name)) problems.push(fieldDuplicate(`${path}[${i}].name`, name));
    else taken.add(name);
    problems.push(...probeProblems(container, `${path}[${i}]`));
  });
  return problems;
}

/** The problems of a pod spec at `path`; `claimVolumes` are volumes a StatefulSet's claim templates add. */
export function podSpecProblems(spec: Json, path: string, claimVolumes: readonly string[] = []): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (spec['terminationGracePeriodSeconds'] === undefined || spec['terminationGracePeriodSeconds'] === null) problems.push(fieldRequired(`${path}.terminationGracePeriodSeconds`));
  const volumes = new Set<string>(claimVolumes);
  objectsAt(spec, 'volumes').forEach((volume, i) => {
    const name = textAt(volume, 'name');
    if (name === '') problems.push(fieldRequired(`${path}.volumes[${i}].name`));
    else if (volumes.has(name)) problems.push(fieldDuplicate(`${path}.volumes[${i}].name`, name));
    else for (const message of dns1123LabelProblems(name)) problems.push(fieldInvalid(`${path}.volumes[${i}].name`, name, message));
    volumes.add(name);
    problems.push(...volumeSourceProblems(volume, `${path}.volumes[${i}]`));
  });
  const names = new Set<string>();
  problems.push(...containerListProblems(objectsAt(spec, 'containers'), `${path}.containers`, volumes, names, true));
  problems.push(...containerListProblems(objectsAt(spec, 'initContainers'), `${path}.initContainers`, volumes, names, false));
  const restartPolicy = textAt(spec, 'restartPolicy');
  if (restartPolicy === '') problems.push(fieldRequired(`${path}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(restartPolicy)) problems.push(fieldNotSupported(`${path}.restartPolicy`, restartPolicy, RESTART_POLICIES));
  const dnsPolicy = textAt(spec, 'dnsPolicy');
  if (!DNS_POLICIES.includes(dnsPolicy)) problems.push(fieldNotSupported(`${path}.dnsPolicy`, dnsPolicy, DNS_POLICIES));
  problems.push(...labelProblems(objectAt(spec, 'nodeSelector'), `${path}.nodeSelector`));
  const account = textAt(spec, 'serviceAccountName');
  if (account !== '') for (const message of dns1123SubdomainProblems(account)) problems.push(fieldInvalid(`${path}.serviceAccountName`, account, message));
  return problems;
}

/** A pod template's problems (Go's ValidatePodTemplateSpec): its labels at `<path>.labels`, then its spec. */
export function podTemplateProblems(template: Json, path: string, claimVolumes: readonly string[] = []): FieldProblem[] {
  return [...labelProblems(objectAt(objectAt(template, 'metadata') ?? {}, 'labels'), `${path}.labels`), ...podSpecProblems(objectAt(template, 'spec') ?? {}, `${path}.spec`, claimVolumes)];
}
