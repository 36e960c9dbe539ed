// Orkestra's built-in profiles, expanded at load into the fields they stand for. Each row pins a preset's values
// against the Orkestra file that defines it (orkspace/orkestra pkg/profiles/*.go @ its main branch as stored:
// resource.go, security.go, hpa.go, rolling_update.go, networkpolicy.go; probes.go, pdb.go, reconciler.go and
// resourcequota.go as carried unchanged by its fork inrundev/inrun pkg/profiles, whose values the comments of
// orkspace/orkestra pkg/katalog and pkg/katalog/validate/*_profile.go repeat).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';

type Map = Record<string, unknown>;

function katalog(onCreate: string, reconcile = ''): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
${reconcile}        onCreate:
${onCreate}`;
}

/** The body of the first entry of `kind` after load. */
function body(kind: string, entry: string): Map {
  const definition = parseDefinition(katalog(`          ${kind}:\n            - ${entry}\n`));
  const full = ({ hpa: 'horizontalPodAutoscalers', pdb: 'podDisruptionBudgets' } as Record<string, string>)[kind] ?? kind;
  const phase: Readonly<Record<string, ReadonlyArray<{ readonly body: unknown }> | undefined>> = definition.crds.get('widget')?.operatorBox.onCreate ?? {};
  const entries = phase[full] ?? [];
  return (entries[0]?.body ?? {}) as Map;
}

const deployment = (fields: string): Map => body('deployments', `{ image: nginx, port: 8080, ${fields} }`);

describe('built-in resource profiles (pkg/profiles/resource.go)', () => {
  const rows: Array<[string, [string, string], [string, string]]> = [
    ['tiny', ['25m', '64Mi'], ['100m', '128Mi']],
    ['small', ['100m', '128Mi'], ['500m', '512Mi']],
    ['medium', ['250m', '256Mi'], ['1', '1Gi']],
    ['large', ['500m', '512Mi'], ['2', '2Gi']],
    ['burst', ['200m', '256Mi'], ['2', '2Gi']],
    ['steady', ['300m', '256Mi'], ['600m', '512Mi']],
    ['compute-heavy', ['1', '512Mi'], ['2', '1Gi']],
    ['memory-heavy', ['250m', '1Gi'], ['500m', '2Gi']],
  ];
  for (const [name, [rcpu, rmem], [lcpu, lmem]] of rows) {
    test(name, () => {
      assert.deepEqual(deployment(`resources: { profile: ${name} }`).resources, { requests: { cpu: rcpu, memory: rmem }, limits: { cpu: lcpu, memory: lmem } });
    });
  }
  test('built-in names match case-insensitively, as in Orkestra', () => {
    assert.deepEqual(deployment('resources: { profile: Medium }').resources, { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } });
  });
});

describe('built-in probe profiles (pkg/profiles/probes.go)', () => {
  const rows: Array<[string, number, number, number, number]> = [
    ['fast', 5, 10, 2, 5],
    ['standard', 15, 20, 3, 10],
    ['patient', 30, 30, 5, 10],
    ['slow-start', 0, 10, 30, 10],
  ];
  for (const [name, initialDelaySeconds, periodSeconds, failureThreshold, timeoutSeconds] of rows) {
    test(name, () => {
      const probe = deployment(`probes: { startup: { path: /ready, profile: ${name} } }`).startupProbe;
      assert.deepEqual(probe, { httpGet: { path: '/ready', port: 8080, scheme: 'HTTP' }, initialDelaySeconds, periodSeconds, failureThreshold, successThreshold: 1, timeoutSeconds });
    });
  }
  test('a port written as text is the port number', () => {
    const probe = body('deployments', '{ image: nginx, port: "9090", probes: { readiness: { path: /, port: "9091" }, liveness: { type: tcp } } }');
    assert.deepEqual([(probe.readinessProbe as Map).httpGet, (probe.livenessProbe as Map).tcpSocket], [{ path: '/', port: 9091, scheme: 'HTTP' }, { port: 9090 }]);
  });
  test('without a profile the timings are standard (DefaultProbeTimings); tcp probes the entry port', () => {
    assert.deepEqual(deployment('probes: { liveness: { type: tcp } }').livenessProbe, {
      tcpSocket: { port: 8080 },
      initialDelaySeconds: 15,
      periodSeconds: 20,
      failureThreshold: 3,
      successThreshold: 1,
      timeoutSeconds: 10,
    });
  });
});

describe('built-in security profiles (pkg/profiles/security.go)', () => {
  const container: Array<[string, Map]> = [
    ['baseline', { allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW'] } }],
    ['restricted', { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] } }],
    ['hardened', { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } }],
  ];
  const pod: Array<[string, Map]> = [
    ['baseline', { runAsNonRoot: false }],
    ['restricted', { runAsNonRoot: true, runAsUser: 1000 }],
    ['hardened', { runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, fsGroup: 65534 }],
  ];
  for (const [name, expected] of container) {
    test(`container ${name} (Orkestra's securityContext is the container's)`, () => {
      assert.deepEqual(deployment(`securityContext: { profile: ${name} }`).containerSecurityContext, expected);
    });
  }
  for (const [name, expected] of pod) {
    test(`pod ${name} (podSecurity is the pod's securityContext)`, () => {
      assert.deepEqual(deployment(`podSecurity: { profile: ${name} }`).securityContext, expected);
    });
  }
});

describe('built-in rolling update profiles (pkg/profiles/rolling_update.go)', () => {
  const rows: Array<[string, unknown, unknown]> = [
    ['safe', 1, 0],
    ['fast', '25%', '25%'],
    ['blue-green', '100%', 0],
  ];
  for (const [name, maxSurge, maxUnavailable] of rows) {
    test(name, () => {
      assert.deepEqual(deployment(`rollingUpdate: { profile: ${name} }`).strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } });
    });
  }
  test('a StatefulSet takes maxUnavailable only, as Orkestra builds it', () => {
    const set = body('statefulSets', '{ image: db, rollingUpdate: { profile: fast } }');
    assert.deepEqual(set.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%' } });
  });
});

describe('built-in HPA behavior profiles (pkg/profiles/hpa.go)', () => {
  const policy = (type: string, value: number, periodSeconds: number): Map => ({ type, value, periodSeconds });
  const rows: Array<[string, number, Map, Map]> = [
    ['web', 70, { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [policy('Percent', 100, 15), policy('Pods', 4, 15)] }, { stabilizationWindowSeconds: 300, selectPolicy: 'Min', policies: [policy('Percent', 10, 60)] }],
    ['api', 60, { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [policy('Percent', 100, 15), policy('Pods', 4, 15)] }, { stabilizationWindowSeconds: 600, selectPolicy: 'Min', policies: [policy('Percent', 5, 60)] }],
    ['latency-sensitive', 50, { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [policy('Percent', 200, 15), policy('Pods', 10, 15)] }, { stabilizationWindowSeconds: 900, selectPolicy: 'Min', policies: [policy('Percent', 5, 120)] }],
    ['batch', 80, { stabilizationWindowSeconds: 30, selectPolicy: 'Max', policies: [policy('Percent', 100, 60)] }, { stabilizationWindowSeconds: 120, selectPolicy: 'Min', policies: [policy('Percent', 50, 60)] }],
    ['cost-optimized', 80, { stabilizationWindowSeconds: 180, selectPolicy: 'Min', policies: [policy('Percent', 25, 60)] }, { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [policy('Percent', 50, 60)] }],
  ];
  for (const [name, cpu, scaleUp, scaleDown] of rows) {
    test(name, () => {
      const hpa = body('hpa', `{ maxReplicas: 5, behavior: { profile: ${name} } }`);
      assert.deepEqual(hpa, { maxReplicas: 5, targetCPUUtilizationPercentage: cpu, behavior: { scaleUp, scaleDown } });
    });
  }
});

describe('built-in PDB profiles (pkg/profiles/pdb.go)', () => {
  const rows: Array<[string, Map]> = [
    ['zero-downtime', { minAvailable: '100%' }],
    ['rolling', { maxUnavailable: 1 }],
    ['relaxed', { maxUnavailable: '25%' }],
  ];
  for (const [name, budget] of rows) {
    test(name, () => assert.deepEqual(body('pdb', `{ behavior: { profile: ${name} } }`).behavior, budget));
  }
});

describe('built-in NetworkPolicy and ResourceQuota profiles (pkg/profiles/networkpolicy.go, resourcequota.go)', () => {
  const policies: Array<[string, Map]> = [
    ['deny-all', { ingress: [], egress: [], policyTypes: ['Ingress', 'Egress'] }],
    ['deny-all-ingress', { ingress: [], policyTypes: ['Ingress'] }],
    ['deny-all-egress', { egress: [], policyTypes: ['Egress'] }],
    ['allow-same-namespace', { ingress: [{ from: [{ podSelector: {} }] }], policyTypes: ['Ingress'] }],
    ['allow-dns-egress', { egress: [{ ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] }], policyTypes: ['Egress'] }],
  ];
  for (const [name, expected] of policies) {
    test(`networkPolicies ${name}`, () => assert.deepEqual(body('networkPolicies', `{ profile: ${name} }`), expected));
  }
  const quotas: Array<[string, string, string, string, string, string]> = [
    ['small', '10', '2', '4Gi', '1', '2Gi'],
    ['medium', '20', '4', '8Gi', '2', '4Gi'],
    ['large', '50', '8', '16Gi', '4', '8Gi'],
    ['xlarge', '100', '16', '32Gi', '8', '16Gi'],
  ];
  for (const [name, pods, cpu, memory, requestsCpu, requestsMemory] of quotas) {
    test(`resourceQuotas ${name}`, () => {
      const hard = { pods, cpu, memory, 'requests.cpu': requestsCpu, 'requests.memory': requestsMemory, 'limits.cpu': cpu, 'limits.memory': memory };
      assert.deepEqual(body('resourceQuotas', `{ profile: ${name} }`), { hard });
    });
  }
});

describe('built-in reconciler profiles (pkg/profiles/reconciler.go)', () => {
  const rows: Array<[string, number, number, number]> = [
    ['high-throughput', 10, 300_000, 1000],
    ['conservative', 2, 60_000, 100],
    ['development', 1, 30_000, 50],
  ];
  for (const [name, workers, resync, maxDepth] of rows) {
    test(name, () => {
      const definition = parseDefinition(katalog('          {}\n', `        reconciler:\n          profile: ${name}\n`));
      const settings = definition.crds.get('widget')?.settings;
      assert.deepEqual([settings?.workers?.value, settings?.resync?.value, settings?.maxDepth?.value], [workers, resync, maxDepth]);
    });
  }
});
