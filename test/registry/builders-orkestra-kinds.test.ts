// The template kinds katalog took from Orkestra (pkg/types/types_pod.go, types_pvc.go, types_networkpolicy.go,
// types_pdb.go, types_limitrange.go, types_resourcequota.go, types_hpa.go, custom_resource.go; priorityClasses is a
// placeholder there): the manifest each short form builds, its defaults and its errors.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BuildContext } from '../../src/registry/kind-builder.js';
import { applyRank, KindTable } from '../../src/registry/kind-table.js';

const context: BuildContext = { parent: { name: 'blog', namespace: 'web' }, ownerLabel: 'website.web.blog', source: 'spec.crds.website.operatorBox.onCreate.x[0]' };
const table = new KindTable();

function build(kind: string, body: Record<string, unknown>): Record<string, unknown> {
  const builder = table.get(kind);
  assert.ok(builder, `builder for ${kind}`);
  return builder.build(body, context) as Record<string, unknown>;
}

describe('Orkestra template kinds', () => {
  test('pods: default name <cr>-pod, the workload labels, protocol on the port', () => {
    assert.deepEqual(build('pods', { image: 'busybox:1.35', port: '9090', protocol: 'UDP', serviceAccountName: 'runner' }), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'blog-pod', labels: { 'app.kubernetes.io/name': 'blog-pod', 'katalog.dev/owner': 'website.web.blog' } },
      spec: { containers: [{ name: 'app', image: 'busybox:1.35', ports: [{ protocol: 'UDP', containerPort: 9090 }] }], serviceAccountName: 'runner' },
    });
    assert.throws(() => build('pods', {}), /pods need "image"/);
  });

  test('persistentVolumeClaims: storage required, accessModes default ReadWriteOnce, default name <cr>-pvc', () => {
    assert.deepEqual(build('persistentVolumeClaims', { storage: '10Gi', storageClassName: 'fast' }), {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'blog-pvc' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '10Gi' } } },
    });
    assert.throws(() => build('persistentVolumeClaims', { accessModes: ['ReadWriteMany'] }), /persistentVolumeClaims need "storage"/);
  });

  test('persistentVolumes: cluster-scoped (no namespace, name prefixed with the parent namespace), reclaim Retain, hostPath or CSI', () => {
    assert.deepEqual(build('persistentVolumes', { capacity: '5Gi', hostPath: '/mnt/data', namespace: 'ignored' }), {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'web-blog-pv' },
      spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', hostPath: { path: '/mnt/data' } },
    });
    const csi = build('persistentVolumes', { name: 'vol', capacity: '1Gi', csiDriver: 'ebs.csi.aws.com', csiVolumeHandle: 'vol-1', reclaimPolicy: 'Delete' });
    assert.deepEqual((csi['spec'] as Record<string, unknown>)['csi'], { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' });
    assert.throws(() => build('persistentVolumes', { capacity: '1Gi', hostPath: '/x', csiDriver: 'd', csiVolumeHandle: 'h' }), /exclude each other/);
    assert.throws(() => build('persistentVolumes', { capacity: '1Gi', csiDriver: 'd' }), /go together/);
  });

  test('networkPolicies: label maps become selectors, policyTypes derived from the rules given, numeric ports', () => {
    const policy = build('networkPolicies', {
      podSelector: { app: 'web' },
      ingress: [{ from: [{ podSelector: {} }, { namespaceSelector: { team: 'a' } }, { ipBlock: { cidr: '10.0.0.0/8' } }], ports: [{ port: '8080' }] }],
    });
    assert.deepEqual(policy['metadata'], { name: 'blog-netpol' });
    assert.deepEqual(policy['spec'], {
      podSelector: { matchLabels: { app: 'web' } },
      ingress: [{ from: [{ podSelector: {} }, { namespaceSelector: { matchLabels: { team: 'a' } } }, { ipBlock: { cidr: '10.0.0.0/8' } }], ports: [{ protocol: 'TCP', port: 8080 }] }],
      policyTypes: ['Ingress'],
    });
    // Orkestra: an empty ingress list denies all ingress; no rules at all select every pod and leave the types to Kubernetes.
    assert.deepEqual(build('networkPolicies', { name: 'deny', podSelector: {}, ingress: [] })['spec'], { podSelector: {}, ingress: [], policyTypes: ['Ingress'] });
    assert.deepEqual(build('networkPolicies', { egress: [{ to: [{ podSelector: { matchLabels: { k: 'v' } } }] }] })['spec'], {
      podSelector: {},
      egress: [{ to: [{ podSelector: { matchLabels: { k: 'v' } } }] }],
      policyTypes: ['Egress'],
    });
  });

  test('podDisruptionBudgets: default selector = the parent’s pods, integer or percentage budgets, exclusive', () => {
    assert.deepEqual(build('podDisruptionBudgets', { minAvailable: '1' }), {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'blog-pdb' },
      spec: { selector: { matchLabels: { 'katalog.dev/owner': 'website.web.blog' } }, minAvailable: 1 },
    });
    assert.deepEqual(build('podDisruptionBudgets', { selector: { app: 'web' }, maxUnavailable: '25%' })['spec'], { selector: { matchLabels: { app: 'web' } }, maxUnavailable: '25%' });
    assert.deepEqual(build('podDisruptionBudgets', { behavior: { minAvailable: '50%' } })['spec'], { selector: { matchLabels: { 'katalog.dev/owner': 'website.web.blog' } }, minAvailable: '50%' });
    assert.throws(() => build('podDisruptionBudgets', { minAvailable: 1, maxUnavailable: 1 }), /exclude each other/);
    assert.throws(() => build('podDisruptionBudgets', { behavior: { profile: 'zero-downtime' } }), /behavior\.profile/);
  });

  test('limitRanges and resourceQuotas: items and hard limits as strings', () => {
    assert.deepEqual(build('limitRanges', { limits: [{ type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: 0.25 } }] }), {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'blog-limits' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '0.25' } }] },
    });
    assert.throws(() => build('limitRanges', {}), /limitRanges need "limits"/);
    assert.throws(() => build('limitRanges', { limits: [{ type: 'Node' }] }), /Container, Pod or PersistentVolumeClaim/);
    assert.deepEqual(build('resourceQuotas', { hard: { cpu: 4, memory: '8Gi', pods: '20' } }), {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'blog-quota' },
      spec: { hard: { cpu: '4', memory: '8Gi', pods: '20' } },
    });
    assert.throws(() => build('resourceQuotas', {}), /resourceQuotas need "hard"/);
  });

  test('priorityClasses: cluster-scoped, value required, fields at the top level', () => {
    assert.deepEqual(build('priorityClasses', { value: '1000', description: 'batch', preemptionPolicy: 'Never' }), {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'web-blog-priority' },
      value: 1000,
      preemptionPolicy: 'Never',
      description: 'batch',
    });
    assert.throws(() => build('priorityClasses', { description: 'x' }), /need "value"/);
  });

  test('horizontalPodAutoscalers: autoscaling/v2, the default Deployment as target, CPU target as a metric', () => {
    assert.deepEqual(build('horizontalPodAutoscalers', { minReplicas: '2', maxReplicas: '10', targetCPUUtilizationPercentage: '80' }), {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'blog-hpa' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'blog-deployment' },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      },
    });
    const statefulSet = build('horizontalPodAutoscalers', { scaleTargetRef: { kind: 'StatefulSet', name: 'db' }, maxReplicas: 3 });
    assert.deepEqual((statefulSet['spec'] as Record<string, unknown>)['scaleTargetRef'], { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' });
    assert.equal(((build('horizontalPodAutoscalers', { deploymentRef: 'api', maxReplicas: 3 })['spec'] as Record<string, unknown>)['scaleTargetRef'] as { name: string }).name, 'api');
    assert.throws(() => build('horizontalPodAutoscalers', { minReplicas: 1 }), /need "maxReplicas"/);
    assert.throws(() => build('horizontalPodAutoscalers', { minReplicas: 5, maxReplicas: 2 }), /greater than/);
    assert.throws(() => build('horizontalPodAutoscalers', { maxReplicas: 2, behavior: { profile: 'web' } }), /behavior\.profile/);
  });

  test('customResource: Orkestra’s manifest form with metadata.namespaced and hasStatus hints', () => {
    const certificate = build('customResource', {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'blog-tls', namespace: 'web', labels: { app: 'blog' } },
      spec: { secretName: 'blog-tls-secret' },
      hasStatus: false,
    });
    assert.deepEqual(certificate, { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'blog-tls', namespace: 'web', labels: { app: 'blog' } }, spec: { secretName: 'blog-tls-secret' } });
    const clusterIssuer = build('customResource', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'le', namespace: 'web', namespaced: false }, spec: {} });
    assert.deepEqual(clusterIssuer['metadata'], { name: 'le' });
    assert.throws(() => build('customResource', { apiVersion: 'x.io/v1', kind: 'X', metadata: { name: 'a' }, status: { phase: 'Ready' } }), /status/);
    assert.throws(() => build('customResource', { apiVersion: 'x.io/v1', kind: 'X', metadata: { name: 'a' }, hasStatus: true }), /hasStatus/);
    assert.throws(() => build('customResource', { apiVersion: 'x.io/v1', kind: 'X' }), /need "name"/);
  });

  test('application order: policies before service accounts, volumes before workloads, autoscalers and budgets last', () => {
    assert.ok(applyRank('NetworkPolicy') > applyRank('ConfigMap') && applyRank('NetworkPolicy') < applyRank('ServiceAccount'));
    assert.ok(applyRank('PriorityClass') < applyRank('Deployment'));
    assert.ok(applyRank('PersistentVolume') < applyRank('PersistentVolumeClaim') && applyRank('PersistentVolumeClaim') < applyRank('Pod'));
    assert.ok(applyRank('HorizontalPodAutoscaler') > applyRank('Ingress') && applyRank('PodDisruptionBudget') > applyRank('Ingress'));
  });

  test('children keys: each kind appears under its template kind name', () => {
    assert.equal(table.childrenKey('policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets'), 'podDisruptionBudgets');
    assert.equal(table.childrenKey('autoscaling/v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers'), 'horizontalPodAutoscalers');
    assert.equal(table.childrenKey('v1', 'PersistentVolume', 'persistentvolumes'), 'persistentVolumes');
  });
});
