// Workload kinds (AppsV1Api): generation moves on spec changes only, and the status subresource splits writes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, BatchV1Api, PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';

function deployment(name: string, replicas = 1): V1Deployment {
  return {
    metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'nginx:1', env: [{ name: 'A', value: '1' }] }] },
      },
    },
    status: { replicas: 99 },
  };
}

describe('workloads', () => {
  let server: TestApiServer;
  let apps: AppsV1Api;

  before(async () => {
    server = await startTestApiServer({ simulateWorkloads: false });
    apps = server.kubeConfig.makeApiClient(AppsV1Api);
  });
  after(() => server.stop());

  test('create starts at generation 1 and drops the status sent (it is a subresource): the empty one kube-apiserver starts with', async () => {
    const created = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    assert.equal(created.metadata?.generation, 1);
    assert.deepEqual({ ...created.status }, {});
  });

  test('generation moves on spec changes, not on metadata changes; the main resource ignores status', async () => {
    const current = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    const labelled = await apps.replaceNamespacedDeployment({
      namespace: 'default',
      name: 'web',
      body: { ...current, metadata: { ...current.metadata, labels: { app: 'web', tier: 'front' } }, status: { replicas: 5 } },
    });
    assert.equal(labelled.metadata?.generation, 1, 'metadata change');
    assert.deepEqual({ ...labelled.status }, {}, 'status ignored on the main resource');
    assert.ok(labelled.spec);
    const scaled = await apps.replaceNamespacedDeployment({ namespace: 'default', name: 'web', body: { ...labelled, spec: { ...labelled.spec, replicas: 3 } } });
    assert.equal(scaled.metadata?.generation, 2);
    assert.equal(scaled.spec?.replicas, 3);
  });

  test('/status writes change only the status and never the generation', async () => {
    const current = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    assert.ok(current.spec);
    const withStatus = await apps.replaceNamespacedDeploymentStatus({
      namespace: 'default',
      name: 'web',
      body: { ...current, spec: { ...current.spec, replicas: 42 }, status: { replicas: 3, readyReplicas: 3, observedGeneration: 2 } },
    });
    assert.equal(withStatus.status?.readyReplicas, 3);
    assert.equal(withStatus.spec?.replicas, 3, 'spec change ignored on /status');
    assert.equal(withStatus.metadata?.generation, current.metadata?.generation);
    const read = await apps.readNamespacedDeploymentStatus({ namespace: 'default', name: 'web' });
    assert.equal(read.status?.observedGeneration, 2);
    const patched = await apps.patchNamespacedDeploymentStatus(
      { namespace: 'default', name: 'web', body: { status: { availableReplicas: 3 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.equal(patched.status?.availableReplicas, 3);
    assert.equal(patched.status?.readyReplicas, 3);
  });

  test('strategic merge patch merges containers and env by name', async () => {
    const patched = await apps.patchNamespacedDeployment(
      {
        namespace: 'default',
        name: 'web',
        body: { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }] }, { name: 'sidecar', image: 'busybox' }] } } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    const containers = patched.spec?.template.spec?.containers ?? [];
    assert.deepEqual(
      containers.map((c) => c.name),
      ['web', 'sidecar'],
    );
    assert.equal(containers[0]?.image, 'nginx:1');
    // kube-apiserver's order: a new item goes before the server-only items after it (strategic-order.ts).
    assert.deepEqual(
      containers[0]?.env?.map((e) => e.name),
      ['B', 'A'],
    );
    assert.equal(patched.metadata?.generation, 3);
  });

  test('Jobs and CronJobs keep a generation; StatefulSets too', async () => {
    const batch = server.kubeConfig.makeApiClient(BatchV1Api);
    const job = await batch.createNamespacedJob({
      namespace: 'default',
      body: { metadata: { name: 'once' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
    });
    assert.equal(job.metadata?.generation, 1);
    const sts = await apps.createNamespacedStatefulSet({
      namespace: 'default',
      body: {
        metadata: { name: 'db' },
        spec: { serviceName: 'db', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
      },
    });
    assert.equal(sts.metadata?.generation, 1);
  });
});
