// Orkestra's notes over what enrich puts beside a child other than its pods (and the job notes over `_pods`), row
// by row against Orkestra's catalog (orkspace/orkestra pkg/note/catalog_generated.go @ eacb2604: domains
// "warnings", "node", "replicaset", "job", "hpa", "ingress", "pvc", "statefulset", "service") and the shapes of its
// enrich layers (pkg/children/docs/04-enrichment-layers.md). A child without the data gives the zero value.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, type TemplateData } from '../../src/template/index.js';

const CATALOG = 'pkg/note/catalog_generated.go @ eacb2604';

function render(source: string, children: Record<string, unknown>): unknown {
  const data: TemplateData = { metadata: { name: 'web' }, spec: {}, status: {}, inputs: {}, children };
  return compileTemplate(source, { name: 't', dialect: 'orkestra' }).render(data);
}

type Row = [string, Record<string, unknown>, unknown];
const check = (rows: readonly Row[]): void => {
  for (const [source, children, expected] of rows) assert.deepEqual(render(source, children), expected, source);
};

describe(`enriched notes (${CATALOG})`, () => {
  test('warnings: hasWarnings, warningCount, firstWarning, warningMessages, warningReasons (de-duplicated)', () => {
    const w = (reason: string, message: string): Record<string, unknown> => ({ reason, message, count: 1, lastTimestamp: '' });
    const some = { deployment: { _warnings: [w('BackOff', 'Back-off restarting failed container'), w('Unhealthy', 'Liveness probe failed'), w('BackOff', 'Back-off again')] } };
    const none = { deployment: { metadata: { name: 'web' } } };
    check([
      ['{{ hasWarnings .children.deployment }}', some, true],
      ['{{ hasWarnings .children.deployment }}', none, false],
      ['{{ warningCount .children.deployment }}', some, 3],
      ['{{ warningCount .children.deployment }}', none, 0],
      ['{{ firstWarning .children.deployment }}', some, 'Back-off restarting failed container'],
      ['{{ firstWarning .children.deployment }}', none, ''],
      ['{{ warningMessages .children.deployment }}', some, 'Back-off restarting failed container, Liveness probe failed, Back-off again'],
      ['{{ warningReasons .children.deployment }}', some, 'BackOff, Unhealthy'],
      ['{{ warningReasons .children.missing }}', {}, ''],
    ]);
  });

  test('node: podNodeName, podNodeZone, podNodeRegion, podNodeInstanceType read _node of a Pod', () => {
    const pod = { pod: { _node: { name: 'ip-10-0-1-5', zone: 'us-east-2a', region: 'us-east-2', instanceType: 't3.medium' } } };
    check([
      ['{{ podNodeName .children.pod }}', pod, 'ip-10-0-1-5'],
      ['{{ podNodeZone .children.pod }}', pod, 'us-east-2a'],
      ['{{ podNodeRegion .children.pod }}', pod, 'us-east-2'],
      ['{{ podNodeInstanceType .children.pod }}', pod, 't3.medium'],
      ['{{ podNodeName .children.pod }}', { pod: {} }, ''],
    ]);
  });

  test('replicaset: counts and names of _replicaSets, the old ones, and the owner of a ReplicaSet', () => {
    const rs = (name: string, revision: string): Record<string, unknown> => ({ metadata: { name, annotations: { 'deployment.kubernetes.io/revision': revision } }, spec: { replicas: 1 } });
    const sets = [rs('my-app-7cb76d588c', '1'), rs('my-app-d9c74fd9b', '2')];
    const byRevision = { deployment: { metadata: { name: 'my-app', annotations: { 'deployment.kubernetes.io/revision': '2' } }, _replicaSets: sets } };
    const byStatus = { deployment: { metadata: { name: 'my-app' }, status: { currentReplicaSet: 'my-app-7cb76d588c' }, _replicaSets: sets } };
    check([
      ['{{ deploymentReplicaSetCount .children.deployment }}', byRevision, 2],
      ['{{ deploymentReplicaSets .children.deployment }}', byRevision, ['my-app-7cb76d588c', 'my-app-d9c74fd9b']],
      ['{{ oldDeploymentReplicaSets .children.deployment }}', byRevision, ['my-app-7cb76d588c']],
      ['{{ oldDeploymentReplicaSets .children.deployment }}', byStatus, ['my-app-d9c74fd9b']],
      ['{{ oldDeploymentReplicaSets .children.deployment }}', { deployment: { _replicaSets: sets } }, []],
      ['{{ deploymentReplicaSetCount .children.deployment }}', { deployment: {} }, 0],
      ['{{ replicaSetOwnerName .children.replicaset }}', { replicaset: { _owner: { name: 'my-app', kind: 'Deployment', uid: 'u' } } }, 'my-app'],
      ['{{ replicaSetOwnerKind .children.replicaset }}', { replicaset: { _owner: { name: 'my-app', kind: 'Deployment', uid: 'u' } } }, 'Deployment'],
      ['{{ replicaSetOwnerKind .children.replicaset }}', { replicaset: {} }, ''],
    ]);
  });

  test('job: pod names by phase and the first exit code from _pods; the CronJob notes from _lastJob and _lastSuccessfulJob', () => {
    const pod = (name: string, phase: string, exitCode: number): Record<string, unknown> => ({ name, phase, exitCode });
    const job = { migrationjob: { _pods: [pod('my-job-abc', 'Succeeded', 0), pod('my-job-def', 'Running', -1), pod('my-job-xyz', 'Failed', 2), pod('my-job-new', 'Pending', -1)] } };
    const running = { migrationjob: { _pods: [pod('my-job-def', 'Running', -1)] } };
    const cron = {
      cronjob: { _lastJob: { metadata: { name: 'my-job-28600000' }, status: { active: 1 } }, _lastSuccessfulJob: { metadata: { name: 'my-job-28599900' }, status: { succeeded: 1 } } },
    };
    check([
      ['{{ jobActivePodNames .children.migrationjob }}', job, 'my-job-def, my-job-new'],
      ['{{ jobSucceededPodNames .children.migrationjob }}', job, 'my-job-abc'],
      ['{{ jobFailedPodNames .children.migrationjob }}', job, 'my-job-xyz'],
      ['{{ jobFirstExitCode .children.migrationjob }}', job, 0],
      ['{{ jobFirstExitCode .children.migrationjob }}', running, -1],
      ['{{ jobFirstExitCode .children.missing }}', {}, -1],
      ['{{ cronJobLastJobName .children.cronjob }}', cron, 'my-job-28600000'],
      ['{{ cronJobLastJobSucceeded .children.cronjob }}', cron, false],
      ['{{ cronJobLastSuccessfulJobName .children.cronjob }}', cron, 'my-job-28599900'],
      ['{{ cronJobLastJobSucceeded .children.cronjob }}', { cronjob: { _lastJob: { status: { succeeded: 1 } } } }, true],
      ['{{ cronJobLastJobName .children.cronjob }}', { cronjob: {} }, ''],
    ]);
  });

  test('hpa and ingress: metric types, scale target, load-balancer addresses, TLS secret count', () => {
    const hpa = { hpa: { _currentMetrics: [{ type: 'Resource', name: 'cpu', current: 50 }, { type: 'External', name: 'queue', current: '30' }], _scaleTarget: { name: 'my-app', kind: 'Deployment', apiVersion: 'apps/v1' } } };
    const ingress = { ingress: { _loadBalancerIPs: ['1.2.3.4', 'abc.elb.amazonaws.com'], _tlsSecrets: [{ metadata: { name: 'tls' } }] } };
    check([
      ['{{ hpaMetricTypes .children.hpa }}', hpa, 'Resource, External'],
      ['{{ hpaScaleTargetKind .children.hpa }}', hpa, 'Deployment'],
      ['{{ hpaScaleTargetName .children.hpa }}', hpa, 'my-app'],
      ['{{ hpaMetricTypes .children.hpa }}', { hpa: {} }, ''],
      ['{{ ingressLoadBalancerIPs .children.ingress }}', ingress, '1.2.3.4, abc.elb.amazonaws.com'],
      ['{{ ingressTLSSecretCount .children.ingress }}', ingress, 1],
      ['{{ ingressTLSSecretCount .children.ingress }}', { ingress: {} }, 0],
    ]);
  });

  test('pvc and statefulset: the bound volume, its StorageClass, the claims of a StatefulSet', () => {
    const pvc = {
      pvc: {
        _pv: { metadata: { annotations: { 'pv.kubernetes.io/provisioned-by': 'ebs.csi.aws.com' } }, spec: { volumeMode: 'Filesystem' }, status: {} },
        _storageClass: { provisioner: 'ebs.csi.aws.com', reclaimPolicy: 'Retain' },
      },
    };
    check([
      ['{{ pvcProvisioner .children.pvc }}', pvc, 'ebs.csi.aws.com'],
      ['{{ pvcVolumeMode .children.pvc }}', pvc, 'Filesystem'],
      ['{{ pvcStorageClassProvisioner .children.pvc }}', pvc, 'ebs.csi.aws.com'],
      // The catalog reads `_storageClass.spec.reclaimPolicy`; a StorageClass carries it at the top level (both are read).
      ['{{ pvcStorageClassReclaimPolicy .children.pvc }}', pvc, 'Retain'],
      ['{{ pvcStorageClassReclaimPolicy .children.pvc }}', { pvc: { _storageClass: { spec: { reclaimPolicy: 'Delete' } } } }, 'Delete'],
      ['{{ pvcProvisioner .children.pvc }}', { pvc: {} }, ''],
      ['{{ statefulSetPVCCount .children.statefulset }}', { statefulset: { _pvcs: [{}, {}, {}] } }, 3],
      ['{{ statefulSetPVCCount .children.statefulset }}', { statefulset: {} }, 0],
    ]);
  });

  test('service: backing pods, endpoints (ready ones for endpointsReady/hasEndpoints), ip:port lists', () => {
    const service = {
      service: {
        _backingPods: [{ name: 'app-abc' }, { name: 'app-def' }],
        _endpoints: [{ ip: '10.0.0.1', port: 8080, ready: false }, { ip: '10.0.0.2', port: 8080, ready: true }],
      },
    };
    const unready = { service: { _endpoints: [{ ip: '10.0.0.1', port: 8080, ready: false }] } };
    check([
      ['{{ backingPodCount .children.service }}', service, 2],
      ['{{ backingPodNames .children.service }}', service, 'app-abc, app-def'],
      ['{{ endpointsReady .children.service }}', service, true],
      ['{{ endpointsReady .children.service }}', unready, false],
      ['{{ hasEndpoints .children.service }}', unready, false],
      ['{{ serviceEndpointCount .children.service }}', service, 2],
      ['{{ serviceEndpoints .children.service }}', service, '10.0.0.1:8080, 10.0.0.2:8080'],
      ['{{ serviceFirstEndpoint .children.service }}', service, '10.0.0.1:8080'],
      ['{{ serviceFirstEndpoint .children.service }}', { service: {} }, ''],
      ['{{ backingPodNames .children.service }}', { service: {} }, ''],
    ]);
  });

  test('the notes are Orkestra notes: a katalog.dev/v1 template does not have them', () => {
    assert.throws(() => compileTemplate('{{ warningCount . }}', { name: 't', dialect: 'katalog' }), /warningCount/);
  });
});
