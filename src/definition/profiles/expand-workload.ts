/**
 * Profiles and presets of the workload kinds (orkspace/orkestra `pkg/resources/shared/{resource,probes,security,
 * rolling_update}.go`), expanded at load into the Kubernetes fields katalog's short forms read:
 *
 * - `resources.profile` → `resources.requests` / `limits`;
 * - `securityContext` (Orkestra's is the container's, profile or fields) → `containerSecurityContext`;
 * - `podSecurity` (profile or fields) → the pod's `securityContext`;
 * - `probes.{startup,liveness,readiness}` (`type`, `path`, `port`, `profile`, timings) → `startupProbe`,
 *   `livenessProbe`, `readinessProbe` (timings: Orkestra's `standard` without a profile);
 * - `rollingUpdate` (profile or `maxSurge`/`maxUnavailable`) → a Deployment's `strategy`, a StatefulSet's
 *   `updateStrategy` (maxUnavailable only, as Orkestra).
 */
import type { Path } from '../path.js';
import { isMap } from '../schema-check.js';
import { intOrPercent, mergeUnder, takeProfile, type ProfileScope } from './apply.js';
import { DEFAULT_PROBE_TIMINGS, PROFILE_FIELDS } from './catalog.js';

type Map = Record<string, unknown>;

/** Kinds with a pod template (katalog's pod short-form fields). */
export const WORKLOAD_KINDS: ReadonlySet<string> = new Set(['deployments', 'statefulSets', 'replicaSets', 'daemonSets', 'pods', 'jobs', 'cronJobs']);

const PROBES: ReadonlyArray<readonly [string, string]> = [
  ['startup', 'startupProbe'],
  ['liveness', 'livenessProbe'],
  ['readiness', 'readinessProbe'],
];
const PROBE_FIELDS = ['type', 'path', 'port', 'profile', ...PROFILE_FIELDS.probes];

/** Expands the presets of one workload entry in place. */
export function expandWorkload(scope: ProfileScope, kind: string, entry: Map, path: Path): void {
  const resources = entry.resources;
  if (isMap(resources)) {
    const fields = takeProfile(scope, resources, [...path, 'resources'], 'resources');
    if (fields !== undefined) mergeUnder(resources, fields);
  }
  securityContexts(scope, entry, path);
  if (Object.hasOwn(entry, 'probes')) probes(scope, entry, path);
  if (Object.hasOwn(entry, 'rollingUpdate')) rollingUpdate(scope, kind, entry, path);
}

/** Orkestra's `securityContext` is the container's and `podSecurity` the pod's; katalog's `securityContext` is the pod's. */
function securityContexts(scope: ProfileScope, entry: Map, path: Path): void {
  const container = entry.securityContext;
  const pod = entry.podSecurity;
  if (container !== undefined) {
    delete entry.securityContext;
    if (isMap(container)) {
      const fields = takeProfile(scope, container, [...path, 'securityContext'], 'containerSecurity');
      if (fields !== undefined) mergeUnder(container, fields);
    }
    entry.containerSecurityContext = container;
    scope.origin.positions?.alias([...path, 'securityContext'], [...path, 'containerSecurityContext']);
  }
  if (pod !== undefined) {
    delete entry.podSecurity;
    if (isMap(pod)) {
      const fields = takeProfile(scope, pod, [...path, 'podSecurity'], 'podSecurity');
      if (fields !== undefined) mergeUnder(pod, fields);
    }
    entry.securityContext = pod;
    scope.origin.positions?.alias([...path, 'podSecurity'], [...path, 'securityContext']);
  }
}

function probes(scope: ProfileScope, entry: Map, path: Path): void {
  const block = entry.probes;
  delete entry.probes;
  const at = [...path, 'probes'];
  if (!isMap(block)) {
    scope.problems.add(scope.origin, at, 'invalid-type', 'probes must be a map of startup, liveness, readiness');
    return;
  }
  for (const key of Object.keys(block)) {
    if (!PROBES.some(([name]) => name === key)) scope.problems.add(scope.origin, [...at, key], 'unknown-field', `unknown probe "${key}" (startup, liveness, readiness)`, { at: 'key' });
  }
  for (const [name, field] of PROBES) {
    const config = block[name];
    if (config === undefined || config === null) continue;
    const probeAt = [...at, name];
    if (entry[field] !== undefined) {
      scope.problems.add(scope.origin, probeAt, 'duplicate-field', `probes.${name} and ${field} are both given; keep one`, { at: 'key' });
      continue;
    }
    const probe = probeOf(scope, config, entry, probeAt);
    if (probe !== undefined) entry[field] = probe;
  }
}

/** One Orkestra probe as a Kubernetes probe (Orkestra's BuildProbe): http when `type: http` or a `path`, or tcp. */
function probeOf(scope: ProfileScope, config: unknown, entry: Map, path: Path): Map | undefined {
  if (!isMap(config)) {
    scope.problems.add(scope.origin, path, 'invalid-type', 'a probe must be a map (type, path, port, profile, timings)');
    return undefined;
  }
  const unknown = Object.keys(config).filter((key) => !PROBE_FIELDS.includes(key));
  for (const key of unknown) scope.problems.add(scope.origin, [...path, key], 'unknown-field', `unknown field "${key}" in a probe (${PROBE_FIELDS.join(', ')})`, { at: 'key' });
  const http = config.type === 'http' || (config.type === undefined && config.path !== undefined);
  const tcp = config.type === 'tcp';
  if (!http && !tcp) {
    // Orkestra builds no probe here, silently; katalog says so.
    scope.problems.add(scope.origin, path, 'invalid-value', 'a probe needs type: http (with a path) or type: tcp');
    return undefined;
  }
  const hasProfile = Object.hasOwn(config, 'profile');
  const profile = takeProfile(scope, config, path, 'probes');
  if (hasProfile && profile === undefined) return undefined;
  // A numeric text ("9090", as Orkestra documents often write ports) is the port number, never a port name.
  const port = intOrPercent(config.port ?? entry.containerPort ?? entry.port ?? firstPort(entry.ports));
  if (port === undefined) {
    scope.problems.add(scope.origin, path, 'missing-field', "a probe needs a port: its own port, or the entry's port");
    return undefined;
  }
  const timings: Map = { ...(profile ?? DEFAULT_PROBE_TIMINGS) };
  for (const key of PROFILE_FIELDS.probes) if (config[key] !== undefined) timings[key] = config[key];
  const handler = http ? { httpGet: { path: config.path ?? '/', port, scheme: 'HTTP' } } : { tcpSocket: { port } };
  return { ...handler, ...timings };
}

function firstPort(ports: unknown): unknown {
  if (!Array.isArray(ports) || ports.length === 0) return undefined;
  const first: unknown = ports[0];
  return isMap(first) ? (first.containerPort ?? first.port) : first;
}

function rollingUpdate(scope: ProfileScope, kind: string, entry: Map, path: Path): void {
  const block = entry.rollingUpdate;
  delete entry.rollingUpdate;
  const at = [...path, 'rollingUpdate'];
  if (!isMap(block)) {
    scope.problems.add(scope.origin, at, 'invalid-type', 'rollingUpdate must be a map (profile, maxSurge, maxUnavailable)');
    return;
  }
  const target = kind === 'deployments' ? 'strategy' : kind === 'statefulSets' ? 'updateStrategy' : undefined;
  if (target === undefined) {
    scope.problems.add(scope.origin, at, 'invalid-field', `rollingUpdate is for deployments and statefulSets, not ${kind}`, { at: 'key' });
    return;
  }
  for (const key of Object.keys(block)) {
    if (!['profile', 'maxSurge', 'maxUnavailable'].includes(key)) scope.problems.add(scope.origin, [...at, key], 'unknown-field', `unknown field "${key}" in rollingUpdate (profile, maxSurge, maxUnavailable)`, { at: 'key' });
  }
  if (entry[target] !== undefined) {
    scope.problems.add(scope.origin, at, 'duplicate-field', `rollingUpdate and ${target} are both given; keep one`, { at: 'key' });
    return;
  }
  if (kind === 'statefulSets' && block.maxSurge !== undefined) {
    scope.problems.add(scope.origin, [...at, 'maxSurge'], 'invalid-field', 'a StatefulSet has no maxSurge (as in Orkestra, its rolling update takes maxUnavailable only)', { at: 'key' });
    return;
  }
  const fields = takeProfile(scope, block, at, 'rollingUpdate');
  if (fields !== undefined) mergeUnder(block, fields);
  const keys = kind === 'deployments' ? ['maxSurge', 'maxUnavailable'] : ['maxUnavailable'];
  const rolling: Map = {};
  for (const key of keys) if (block[key] !== undefined && block[key] !== '') rolling[key] = intOrPercent(block[key]);
  entry[target] = { type: 'RollingUpdate', rollingUpdate: rolling };
}
