/**
 * Orkestra's built-in profiles: named presets in ten of its eleven classes (LimitRanges have none), with the
 * values of orkspace/orkestra `pkg/profiles/*.go` (each class names its file below). A preset is written in
 * the shape a user-defined profile of the same class has (`spec.profiles`, Orkestra's `pkg/types/types_profiles.go`),
 * so that expansion treats both alike. Built-in names match case-insensitively, except probes (Orkestra looks
 * them up as written); user-defined names always match as written.
 */

/** The classes of Orkestra's profile registry, as its `profiles:` block names them. */
export const PROFILE_CLASSES = [
  'networkPolicies',
  'resourceQuotas',
  'limitRanges',
  'hpa',
  'pdb',
  'rollingUpdate',
  'reconciler',
  'resources',
  'probes',
  'containerSecurity',
  'podSecurity',
] as const;

export type ProfileClass = (typeof PROFILE_CLASSES)[number];

/** A profile's fields (its `name` and `description` removed). */
export type ProfileValue = Readonly<Record<string, unknown>>;

/** The fields a profile of each class may declare besides `name` and `description`. */
export const PROFILE_FIELDS: Readonly<Record<ProfileClass, readonly string[]>> = {
  networkPolicies: ['podSelector', 'ingress', 'egress', 'policyTypes'],
  resourceQuotas: ['hard'],
  limitRanges: ['limits'],
  hpa: ['minReplicas', 'maxReplicas', 'targetCPUUtilizationPercentage', 'behavior'],
  pdb: ['minAvailable', 'maxUnavailable'],
  rollingUpdate: ['maxSurge', 'maxUnavailable'],
  reconciler: ['workers', 'resync', 'queue'],
  resources: ['requests', 'limits'],
  probes: ['initialDelaySeconds', 'periodSeconds', 'failureThreshold', 'successThreshold', 'timeoutSeconds'],
  containerSecurity: ['allowPrivilegeEscalation', 'readOnlyRootFilesystem', 'runAsNonRoot', 'runAsUser', 'runAsGroup', 'capabilities'],
  podSecurity: ['runAsNonRoot', 'runAsUser', 'runAsGroup', 'fsGroup'],
};

const rq = (pods: string, cpu: string, memory: string, requestsCpu: string, requestsMemory: string): ProfileValue => ({
  hard: { pods, cpu, memory, 'requests.cpu': requestsCpu, 'requests.memory': requestsMemory, 'limits.cpu': cpu, 'limits.memory': memory },
});

const res = (requestsCpu: string, requestsMemory: string, limitsCpu: string, limitsMemory: string): ProfileValue => ({
  requests: { cpu: requestsCpu, memory: requestsMemory },
  limits: { cpu: limitsCpu, memory: limitsMemory },
});

type Policy = { type: string; value: number; periodSeconds: number };
const rules = (stabilizationWindowSeconds: number, selectPolicy: string, policies: Policy[]): Record<string, unknown> => ({ stabilizationWindowSeconds, selectPolicy, policies });
const hpa = (cpu: number, scaleUp: Record<string, unknown>, scaleDown: Record<string, unknown>): ProfileValue => ({
  targetCPUUtilizationPercentage: cpu,
  behavior: { scaleUp, scaleDown },
});
const percent = (value: number, periodSeconds: number): Policy => ({ type: 'Percent', value, periodSeconds });
const pods = (value: number, periodSeconds: number): Policy => ({ type: 'Pods', value, periodSeconds });

const probe = (initialDelaySeconds: number, periodSeconds: number, failureThreshold: number, timeoutSeconds: number): ProfileValue => ({
  initialDelaySeconds,
  periodSeconds,
  failureThreshold,
  successThreshold: 1,
  timeoutSeconds,
});

/** Probe timings without a profile: Orkestra's `DefaultProbeTimings` (the `standard` preset). */
export const DEFAULT_PROBE_TIMINGS: ProfileValue = probe(15, 20, 3, 10);

/** The built-in presets by class and (lower-case) name. */
export const BUILTIN_PROFILES: Readonly<Record<ProfileClass, Readonly<Record<string, ProfileValue>>>> = {
  // pkg/profiles/networkpolicy.go
  networkPolicies: {
    'deny-all': { ingress: [], egress: [], policyTypes: ['Ingress', 'Egress'] },
    'deny-all-ingress': { ingress: [], policyTypes: ['Ingress'] },
    'deny-all-egress': { egress: [], policyTypes: ['Egress'] },
    'allow-same-namespace': { ingress: [{ from: [{ podSelector: {} }] }], policyTypes: ['Ingress'] },
    'allow-dns-egress': { egress: [{ ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] }], policyTypes: ['Egress'] },
  },
  // pkg/profiles/resourcequota.go
  resourceQuotas: {
    small: rq('10', '2', '4Gi', '1', '2Gi'),
    medium: rq('20', '4', '8Gi', '2', '4Gi'),
    large: rq('50', '8', '16Gi', '4', '8Gi'),
    xlarge: rq('100', '16', '32Gi', '8', '16Gi'),
  },
  // user-defined only in Orkestra
  limitRanges: {},
  // pkg/profiles/hpa.go
  hpa: {
    web: hpa(70, rules(0, 'Max', [percent(100, 15), pods(4, 15)]), rules(300, 'Min', [percent(10, 60)])),
    api: hpa(60, rules(0, 'Max', [percent(100, 15), pods(4, 15)]), rules(600, 'Min', [percent(5, 60)])),
    'latency-sensitive': hpa(50, rules(0, 'Max', [percent(200, 15), pods(10, 15)]), rules(900, 'Min', [percent(5, 120)])),
    batch: hpa(80, rules(30, 'Max', [percent(100, 60)]), rules(120, 'Min', [percent(50, 60)])),
    'cost-optimized': hpa(80, rules(180, 'Min', [percent(25, 60)]), rules(60, 'Max', [percent(50, 60)])),
  },
  // pkg/profiles/pdb.go
  pdb: {
    'zero-downtime': { minAvailable: '100%' },
    rolling: { maxUnavailable: 1 },
    relaxed: { maxUnavailable: '25%' },
  },
  // pkg/profiles/rolling_update.go
  rollingUpdate: {
    safe: { maxSurge: 1, maxUnavailable: 0 },
    fast: { maxSurge: '25%', maxUnavailable: '25%' },
    'blue-green': { maxSurge: '100%', maxUnavailable: 0 },
  },
  // pkg/profiles/reconciler.go
  reconciler: {
    'high-throughput': { workers: 10, resync: '5m', queue: { maxDepth: 1000 } },
    conservative: { workers: 2, resync: '1m', queue: { maxDepth: 100 } },
    development: { workers: 1, resync: '30s', queue: { maxDepth: 50 } },
  },
  // pkg/profiles/resource.go
  resources: {
    tiny: res('25m', '64Mi', '100m', '128Mi'),
    small: res('100m', '128Mi', '500m', '512Mi'),
    medium: res('250m', '256Mi', '1', '1Gi'),
    large: res('500m', '512Mi', '2', '2Gi'),
    burst: res('200m', '256Mi', '2', '2Gi'),
    steady: res('300m', '256Mi', '600m', '512Mi'),
    'compute-heavy': res('1', '512Mi', '2', '1Gi'),
    'memory-heavy': res('250m', '1Gi', '500m', '2Gi'),
  },
  // pkg/profiles/probes.go
  probes: {
    fast: probe(5, 10, 2, 5),
    standard: DEFAULT_PROBE_TIMINGS,
    patient: probe(30, 30, 5, 10),
    'slow-start': probe(0, 10, 30, 10),
  },
  // pkg/profiles/security.go (container side)
  containerSecurity: {
    baseline: { allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW'] } },
    restricted: { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
    hardened: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
  },
  // pkg/profiles/security.go (pod side)
  podSecurity: {
    baseline: { runAsNonRoot: false },
    restricted: { runAsNonRoot: true, runAsUser: 1000 },
    hardened: { runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, fsGroup: 65534 },
  },
};

/** Classes whose built-in names Orkestra matches as written rather than case-insensitively. */
export const CASE_SENSITIVE_BUILTINS: ReadonlySet<ProfileClass> = new Set<ProfileClass>(['probes']);

/** A built-in preset of `profileClass` named `name`, or undefined. */
export function builtinProfile(profileClass: ProfileClass, name: string): ProfileValue | undefined {
  const key = CASE_SENSITIVE_BUILTINS.has(profileClass) ? name : name.toLowerCase();
  const table = BUILTIN_PROFILES[profileClass];
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
