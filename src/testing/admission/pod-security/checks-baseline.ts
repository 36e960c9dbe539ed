/**
 * The baseline Pod Security Standards checks on the host and on privileges, as k8s.io/pod-security-admission
 * v0.37.2 runs them at `latest`: policy/check_capabilities_baseline.go, check_hostNamespaces.go,
 * check_hostPathVolumes.go, check_hostPorts.go, check_hostProbesAndhostLifecycle.go, check_privileged.go,
 * check_procMount_baseline.go (its 1.35 version) and check_sysctls.go (its 1.37 list). The profile checks are in
 * checks-profiles.ts.
 */
import type { JsonObject } from '../../patch/json-value.js';
import {
  boolField,
  containerName,
  containersPhrase,
  inUserNamespace,
  joinQuote,
  numberField,
  objectField,
  objectsField,
  optionalStringField,
  pluralize,
  podContainers,
  securityContext,
  sortedSet,
  stringField,
  stringsField,
  type CheckResult,
  type PodSecurityCheck,
} from './check-helpers.js';

/** The capabilities baseline lets a container add. */
const DEFAULT_CAPABILITIES = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD',
  'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

/** The sysctls baseline lets a pod set (the 1.37 list). */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
  'net.ipv4.tcp_slow_start_after_idle',
  'net.ipv4.tcp_notsent_lowat',
]);

/** capabilities_baseline: no container adds a capability outside the default set. */
function capabilitiesBaseline(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const badContainers: string[] = [];
  const added: string[] = [];
  for (const container of podContainers(spec)) {
    const extra = stringsField(objectField(securityContext(container), 'capabilities'), 'add').filter((c) => !DEFAULT_CAPABILITIES.has(c));
    if (extra.length === 0) continue;
    badContainers.push(containerName(container));
    added.push(...extra);
  }
  if (badContainers.length === 0) return undefined;
  return {
    reason: 'non-default capabilities',
    detail: `${containersPhrase(badContainers)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`,
  };
}

/** hostNamespaces: the pod shares none of the host's network, PID and IPC namespaces. */
function hostNamespaces(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const shared = ['hostNetwork', 'hostPID', 'hostIPC'].filter((key) => boolField(spec, key) === true).map((key) => `${key}=true`);
  return shared.length === 0 ? undefined : { reason: 'host namespaces', detail: shared.join(', ') };
}

/** hostPathVolumes: no volume is a hostPath. */
function hostPathVolumes(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const names = objectsField(spec, 'volumes')
    .filter((volume) => objectField(volume, 'hostPath') !== undefined)
    .map((volume) => stringField(volume, 'name'));
  if (names.length === 0) return undefined;
  return { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` };
}

/** hostPorts: no container port has a hostPort other than 0. */
function hostPorts(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const badContainers: string[] = [];
  const ports: string[] = [];
  for (const container of podContainers(spec)) {
    const used = objectsField(container, 'ports')
      .map((port) => numberField(port, 'hostPort') ?? 0)
      .filter((hostPort) => hostPort !== 0);
    if (used.length === 0) continue;
    badContainers.push(containerName(container));
    ports.push(...used.map(String));
  }
  if (badContainers.length === 0) return undefined;
  const distinct = sortedSet(ports);
  return {
    reason: 'hostPort',
    detail: `${containersPhrase(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}`,
  };
}

/** The hosts an `httpGet` or `tcpSocket` handler (a probe or a lifecycle hook) names, in that order. */
function handlerHosts(handler: JsonObject | undefined): string[] {
  return [stringField(objectField(handler, 'httpGet'), 'host'), stringField(objectField(handler, 'tcpSocket'), 'host')].filter((host) => host !== '');
}

/** The hosts a container's probes and lifecycle hooks name. */
function containerHosts(container: JsonObject): string[] {
  const lifecycle = objectField(container, 'lifecycle');
  return [
    ...handlerHosts(objectField(container, 'livenessProbe')),
    ...handlerHosts(objectField(container, 'readinessProbe')),
    ...handlerHosts(objectField(container, 'startupProbe')),
    ...handlerHosts(objectField(lifecycle, 'postStart')),
    ...handlerHosts(objectField(lifecycle, 'preStop')),
  ];
}

/** hostProbesAndHostLifecycle: no probe or lifecycle hook names a host (containers and hosts both listed sorted). */
function hostProbesAndHostLifecycle(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const badContainers: string[] = [];
  const hosts: string[] = [];
  for (const container of podContainers(spec)) {
    const named = containerHosts(container);
    if (named.length === 0) continue;
    badContainers.push(containerName(container));
    hosts.push(...named);
  }
  if (badContainers.length === 0) return undefined;
  const containers = sortedSet(badContainers);
  const distinct = sortedSet(hosts);
  return {
    reason: 'probe or lifecycle host',
    detail:
      `${containersPhrase(containers)} ${pluralize('uses', 'use', containers.length)} ` +
      `${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', distinct.length)} ${joinQuote(distinct)}`,
  };
}

/** privileged: no container sets `securityContext.privileged: true`. */
function privileged(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const names = podContainers(spec)
    .filter((container) => boolField(securityContext(container), 'privileged') === true)
    .map(containerName);
  if (names.length === 0) return undefined;
  return { reason: 'privileged', detail: `${containersPhrase(names)} must not set securityContext.privileged=true` };
}

/** procMount as of 1.0, which the restricted procMount_restricted check also runs: no procMount but `Default`. */
export function procMountDefaultOnly(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const badContainers: string[] = [];
  const types: string[] = [];
  for (const container of podContainers(spec)) {
    const procMount = optionalStringField(securityContext(container), 'procMount');
    if (procMount === undefined || procMount === 'Default') continue;
    badContainers.push(containerName(container));
    types.push(procMount);
  }
  if (badContainers.length === 0) return undefined;
  return {
    reason: 'procMount',
    detail: `${containersPhrase(badContainers)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  };
}

/** procMount (1.35): any procMount in a user namespace, only `Default` otherwise. */
function procMountBaseline(metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  return inUserNamespace(spec) ? undefined : procMountDefaultOnly(metadata, spec);
}

/** sysctls: the pod sets only safe sysctls (the others listed in the pod's order, repeats kept). */
function sysctls(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const forbidden = objectsField(objectField(spec, 'securityContext'), 'sysctls')
    .map((sysctl) => stringField(sysctl, 'name'))
    .filter((name) => !SAFE_SYSCTLS.has(name));
  return forbidden.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: forbidden.join(', ') };
}

/** The baseline checks on the host and on privileges, under their registry IDs. */
export const HOST_CHECKS: readonly PodSecurityCheck[] = [
  { id: 'capabilities_baseline', level: 'baseline', check: capabilitiesBaseline },
  { id: 'hostNamespaces', level: 'baseline', check: hostNamespaces },
  { id: 'hostPathVolumes', level: 'baseline', check: hostPathVolumes },
  { id: 'hostPorts', level: 'baseline', check: hostPorts },
  { id: 'hostProbesAndHostLifecycle', level: 'baseline', check: hostProbesAndHostLifecycle },
  { id: 'privileged', level: 'baseline', check: privileged },
  { id: 'procMount', level: 'baseline', check: procMountBaseline },
  { id: 'sysctls', level: 'baseline', check: sysctls },
];
