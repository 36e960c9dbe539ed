// Orkestra's enrich targets beside pods, end to end against the test API server (the runtime talks to it through the
// real client-node over HTTP). One Katalog declares a child of each kind a target reads beside, and its status
// fields read the data through Orkestra's notes (orkspace/orkestra pkg/note/catalog_generated.go @ eacb2604; the
// layers of pkg/children/docs/04-enrichment-layers.md). The test plays the cluster's controllers: it writes the
// Events, ReplicaSets, EndpointSlices, Nodes, volumes and Jobs a cluster would, then changes the custom resource so
// it is reconciled and its status rendered again. Workload simulation is off, so nothing else writes them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> };

const GROUP = 'demo.orkestra.io';
const API = `${GROUP}/v1alpha1`;

const field = (path: string, note: string, child: string, type = ''): string => `            - { path: ${path}, value: "{{ ${note} .children.${child} }}"${type === '' ? '' : `, type: ${type}`} }\n`;

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: observers }
spec:
  crds:
    site:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Site, plural: sites }
      enrich: [events, replicasets, endpoints, backingpods, node, pvc, storageclass, pvcs, cronjob, hpa, ingress]
      operatorBox:
        onCreate:
          deployments:
            - { name: "{{ .metadata.name }}", image: nginx }
          services:
            - { name: "{{ .metadata.name }}", port: 80 }
          pods:
            - { name: "{{ .metadata.name }}-probe", image: busybox, spec: { nodeName: node-a } }
          persistentVolumeClaims:
            - { name: "{{ .metadata.name }}-data", storage: 1Gi, storageClassName: fast, volumeName: pv-site }
          statefulSets:
            - name: "{{ .metadata.name }}-db"
              image: postgres
              replicas: 2
              volumeClaimTemplates: [{ metadata: { name: data }, spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } } }]
          cronJobs:
            - { name: "{{ .metadata.name }}-backup", schedule: "0 * * * *", image: busybox }
          ingresses:
            - { name: "{{ .metadata.name }}", host: site.example.com, serviceName: "{{ .metadata.name }}", servicePort: 80, spec: { tls: [{ hosts: [site.example.com], secretName: site-tls }] } }
          horizontalPodAutoscalers:
            - { name: "{{ .metadata.name }}", deploymentRef: "{{ .metadata.name }}", minReplicas: 1, maxReplicas: 3 }
        status:
          fields:
            - { path: round, value: "{{ .spec.round }}", type: int }
${field('warnings', 'warningCount', 'deployment', 'int')}${field('warningReasons', 'warningReasons', 'deployment')}${field('firstWarning', 'firstWarning', 'deployment')}${field('replicaSets', 'deploymentReplicaSetCount', 'deployment', 'int')}${field('oldReplicaSets', 'oldDeploymentReplicaSets', 'deployment')}${field('rsOwner', 'replicaSetOwnerName', 'replicaset')}${field('endpoints', 'serviceEndpoints', 'service')}${field('endpointsReady', 'endpointsReady', 'service')}${field('backingPods', 'backingPodNames', 'service')}${field('zone', 'podNodeZone', 'pod')}${field('instanceType', 'podNodeInstanceType', 'pod')}${field('provisioner', 'pvcProvisioner', 'pvc')}${field('volumeMode', 'pvcVolumeMode', 'pvc')}${field('reclaimPolicy', 'pvcStorageClassReclaimPolicy', 'pvc')}${field('claims', 'statefulSetPVCCount', 'statefulSet', 'int')}${field('lastJob', 'cronJobLastJobName', 'cronJob')}${field('lastSuccessfulJob', 'cronJobLastSuccessfulJobName', 'cronJob')}${field('scaleTarget', 'hpaScaleTargetName', 'hpa')}${field('tlsSecrets', 'ingressTLSSecretCount', 'ingress', 'int')}`;

describe('Orkestra enrich targets beside pods, run', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer({ simulateWorkloads: false });
    server.create(crdManifest({ group: GROUP, kind: 'Site', plural: 'sites', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });
  const site = (): Obj | undefined => server.get(API, 'Site', 'site', 'default') as Obj | undefined;
  const child = (apiVersion: string, kind: string, name: string): Promise<Obj> => waitFor(`${kind} ${name}`, () => server.get(apiVersion, kind, name, 'default') as Obj | undefined, 30_000);
  const ownerRef = (owner: Obj, kind: string, controller = true): Record<string, unknown> => ({ apiVersion: 'apps/v1', kind, name: String(owner.metadata?.['name']), uid: String(owner.metadata?.['uid']), controller });
  const event = (name: string, kind: string, object: string, type: string, reason: string, message: string): void => {
    server.create({ apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'default' }, involvedObject: { kind, name: object, namespace: 'default' }, type, reason, message, count: 1 });
  };

  test('status fields read what each target fetches; before the cluster writes it they read the zero values', async () => {
    server.create({ apiVersion: API, kind: 'Site', metadata: { name: 'site', namespace: 'default' }, spec: { round: 1 } });
    const first = await waitFor('the first status', () => (site()?.status?.['round'] === 1 ? site()?.status : undefined), 30_000);
    assert.equal(first['warnings'], 0);
    assert.equal(first['endpoints'], '');
    assert.equal(first['claims'], 0);
    assert.equal(first['lastJob'], '');

    const deployment = await child('apps/v1', 'Deployment', 'site');
    await child('apps/v1', 'StatefulSet', 'site-db');
    const cronJob = await child('batch/v1', 'CronJob', 'site-backup');
    const service = await child('v1', 'Service', 'site');
    const selector = (service.spec?.['selector'] ?? {}) as Record<string, string>;
    assert.ok(Object.keys(selector).length > 0, 'the Service selects pods by labels');

    // Events: two on the Deployment (one Normal, left out), one on a pod it selects, one on another object.
    const podLabels = ((deployment.spec?.['selector'] as { matchLabels?: Record<string, string> }).matchLabels ?? {});
    server.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'site-abc', namespace: 'default', labels: { ...podLabels, ...selector } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } });
    event('e1', 'Deployment', 'site', 'Warning', 'ProgressDeadlineExceeded', 'ReplicaSet "site-2" has timed out progressing.');
    event('e2', 'Deployment', 'site', 'Normal', 'ScalingReplicaSet', 'Scaled up');
    event('e3', 'Pod', 'site-abc', 'Warning', 'BackOff', 'Back-off restarting failed container');
    event('e4', 'Pod', 'someone-else', 'Warning', 'Failed', 'not ours');
    // ReplicaSets: two owned by the Deployment (revision 2 is current), one of another Deployment.
    const rs = (name: string, revision: string, replicas: number, owner: Record<string, unknown>): void => {
      server.create({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: 'default', annotations: { 'deployment.kubernetes.io/revision': revision }, ownerReferences: [owner] }, spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    };
    server.patch('apps/v1', 'Deployment', 'site', { metadata: { annotations: { 'deployment.kubernetes.io/revision': '2' } } }, { namespace: 'default' });
    rs('site-1', '1', 0, ownerRef(deployment, 'Deployment'));
    rs('site-2', '2', 1, ownerRef(deployment, 'Deployment'));
    rs('other-1', '1', 1, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'other', uid: 'other-uid', controller: true });
    server.create({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'site-x1', namespace: 'default', labels: { 'kubernetes.io/service-name': 'site' } },
      addressType: 'IPv4',
      ports: [{ port: 8080 }],
      endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true } }, { addresses: ['10.0.0.2'], conditions: { ready: false } }],
    });
    server.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-a', labels: { 'topology.kubernetes.io/zone': 'eu-west-1a', 'node.kubernetes.io/instance-type': 'm5.large' } } });
    server.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com', reclaimPolicy: 'Retain' });
    server.create({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-site', annotations: { 'pv.kubernetes.io/provisioned-by': 'ebs.csi.aws.com' } }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem', hostPath: { path: '/data' } } });
    // The StatefulSet's claims: data-site-db-0 exists, data-site-db-1 does not yet.
    server.create({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-site-db-0', namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    const job = (name: string, created: string, succeeded: number): void => {
      server.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: 'default', creationTimestamp: created, ownerReferences: [{ ...ownerRef(cronJob, 'CronJob'), apiVersion: 'batch/v1' }] }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });
      // As the Job controller writes it, through the status subresource.
      server.patch('batch/v1', 'Job', name, { status: { succeeded } }, { namespace: 'default', subresource: 'status' });
    };
    job('site-backup-100', '2026-11-25T01:00:00Z', 1);
    job('site-backup-200', '2026-11-25T02:00:00Z', 0);
    server.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'site-tls', namespace: 'default' }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } });

    server.patch(API, 'Site', 'site', { spec: { round: 2 } }, { namespace: 'default' });
    const status = await waitFor('the enriched status', () => (site()?.status?.['round'] === 2 ? site()?.status : undefined), 30_000);
    assert.deepEqual(
      { warnings: status['warnings'], warningReasons: status['warningReasons'], firstWarning: status['firstWarning'] },
      { warnings: 2, warningReasons: 'ProgressDeadlineExceeded, BackOff', firstWarning: 'ReplicaSet "site-2" has timed out progressing.' },
    );
    assert.deepEqual({ replicaSets: status['replicaSets'], oldReplicaSets: status['oldReplicaSets'], rsOwner: status['rsOwner'] }, { replicaSets: 2, oldReplicaSets: '["site-1"]', rsOwner: 'site' });
    assert.deepEqual({ endpoints: status['endpoints'], ready: status['endpointsReady'] }, { endpoints: '10.0.0.1:8080, 10.0.0.2:8080', ready: 'true' });
    assert.equal(status['backingPods'], 'site-abc, site-probe');
    assert.deepEqual({ zone: status['zone'], instanceType: status['instanceType'] }, { zone: 'eu-west-1a', instanceType: 'm5.large' });
    assert.deepEqual(
      { provisioner: status['provisioner'], volumeMode: status['volumeMode'], reclaimPolicy: status['reclaimPolicy'] },
      { provisioner: 'ebs.csi.aws.com', volumeMode: 'Filesystem', reclaimPolicy: 'Retain' },
    );
    assert.equal(status['claims'], 1);
    assert.deepEqual({ lastJob: status['lastJob'], lastSuccessfulJob: status['lastSuccessfulJob'] }, { lastJob: 'site-backup-200', lastSuccessfulJob: 'site-backup-100' });
    assert.equal(status['scaleTarget'], 'site');
    assert.equal(status['tlsSecrets'], 1);
  });
});
