// Simulated workload controllers: Deployments and their kin get Pods and ready replicas after a delay on the
// injected clock, Jobs complete or fail; all through client-node over HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, BatchV1Api, CoreV1Api, type V1Deployment, type V1Job, type V1StatefulSet } from '@kubernetes/client-node';
import { SIMULATE_ANNOTATION, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';

function deployment(name: string, replicas: number, annotations?: Record<string, string>): V1Deployment {
  return {
    metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1' }] } },
    },
  };
}

function job(name: string, annotations?: Record<string, string>): V1Job {
  return {
    metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
    spec: { backoffLimit: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'run', image: 'busybox' }] } } },
  };
}

describe('simulated workload controllers (fake clock)', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  let apps: AppsV1Api;
  let batch: BatchV1Api;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: 5000, jobDurationMs: 3000, podTerminationMs: 2000 } });
    apps = server.kubeConfig.makeApiClient(AppsV1Api);
    batch = server.kubeConfig.makeApiClient(BatchV1Api);
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => server.stop());

  test('a Deployment has Pending Pods and no ready replica until readyAfterMs, then all are ready', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 3) });
    await server.settled();
    const early = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    assert.equal(early.status?.observedGeneration, 1);
    assert.equal(early.status?.replicas, 3);
    assert.equal(early.status?.readyReplicas, undefined, 'a count of 0 is left out, as Go writes it');
    assert.equal(early.status?.unavailableReplicas, 3);
    assert.equal(early.status?.conditions?.find((c) => c.type === 'Available')?.status, 'False');
    const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' });
    assert.equal(pods.items.length, 3);
    assert.ok(pods.items.every((p) => p.status?.phase === 'Pending'));
    const [replicaSet] = (await apps.listNamespacedReplicaSet({ namespace: 'default', labelSelector: 'app=web' })).items;
    const hash = replicaSet?.metadata?.labels?.['pod-template-hash'] ?? '';
    assert.match(hash, /^[bcdf4-9]{6,10}$/, 'a pod-template-hash of the form a cluster gives');
    assert.equal(replicaSet?.metadata?.name, `web-${hash}`);
    assert.ok(pods.items.every((p) => p.metadata?.ownerReferences?.[0]?.kind === 'ReplicaSet' && p.metadata.ownerReferences[0].name === `web-${hash}`));
    assert.ok(pods.items.every((p) => p.metadata?.name?.startsWith(`web-${hash}-`) && p.metadata.labels?.['pod-template-hash'] === hash));

    await clock.advance(4999);
    await server.settled();
    assert.equal((await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' })).status?.readyReplicas, undefined, 'not before the delay');
    await clock.advance(1);
    await server.settled();
    const ready = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    assert.equal(ready.status?.readyReplicas, 3);
    assert.equal(ready.status?.availableReplicas, 3);
    assert.equal(ready.status?.unavailableReplicas, undefined);
    assert.deepEqual(
      ready.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
      [
        ['Available', 'True', 'MinimumReplicasAvailable'],
        ['Progressing', 'True', 'NewReplicaSetAvailable'],
      ],
    );
    const running = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web', fieldSelector: 'status.phase=Running' });
    assert.equal(running.items.length, 3);
    assert.ok(running.items.every((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')));
  });

  test('scaling adds Pods that become ready later, while the ready ones stay ready; scaling down removes Pods', async () => {
    await apps.patchNamespacedDeployment({ namespace: 'default', name: 'web', body: [{ op: 'replace', path: '/spec/replicas', value: 5 }] });
    await server.settled();
    const scaling = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    assert.equal(scaling.status?.observedGeneration, 2);
    assert.equal(scaling.status?.replicas, 5);
    assert.equal(scaling.status?.readyReplicas, 3);
    await clock.advance(5000);
    await server.settled();
    assert.equal((await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' })).status?.readyReplicas, 5);
    await apps.patchNamespacedDeployment({ namespace: 'default', name: 'web', body: [{ op: 'replace', path: '/spec/replicas', value: 1 }] });
    await server.settled();
    // The four Pods scaled away stop first (podTerminationMs), counted as terminating meanwhile.
    const stopping = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items;
    assert.deepEqual(stopping.map((p) => p.metadata?.deletionTimestamp !== undefined).sort(), [false, true, true, true, true]);
    const scaledDown = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    assert.deepEqual([scaledDown.status?.readyReplicas, scaledDown.status?.terminatingReplicas], [1, 4]);
    await clock.advance(2000);
    await server.settled();
    assert.equal((await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items.length, 1);
    assert.equal((await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' })).status?.terminatingReplicas, 0);
  });

  test('a deleted Pod is replaced; deleting the Deployment collects its Pods', async () => {
    const pods = async (): Promise<string[]> =>
      (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items.map((p) => `${p.metadata?.name} ${p.status?.phase}${p.metadata?.deletionTimestamp === undefined ? '' : ' terminating'}`).sort();
    const [pod] = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items;
    const name = pod?.metadata?.name ?? '';
    // A bound Pod is deleted gracefully: the answer is the Pod, marked with its grace period (30 s by default).
    const marked = await core.deleteNamespacedPod({ namespace: 'default', name });
    assert.deepEqual([marked.metadata?.name, marked.metadata?.deletionGracePeriodSeconds], [name, 30]);
    await server.settled();
    // The ReplicaSet replaces it at once, under another name; the kubelet removes it once it has stopped.
    const replaced = await pods();
    assert.equal(replaced.length, 2);
    assert.ok(replaced.includes(`${name} Running terminating`), replaced.join());
    const [fresh] = replaced.filter((p) => !p.startsWith(`${name} `));
    assert.match(fresh ?? '', / Pending$/);
    await clock.advance(2000);
    await server.settled();
    assert.deepEqual(await pods(), [fresh]);
    await apps.deleteNamespacedDeployment({ namespace: 'default', name: 'web' });
    await server.settled();
    assert.deepEqual(await pods(), [`${fresh} terminating`], 'collected: deleted gracefully too');
    await clock.advance(2000);
    await server.settled();
    assert.deepEqual(await pods(), []);
  });

  test('the fail annotation: Pods crash, readyReplicas stays 0, Progressing turns False', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('broken', 2, { [SIMULATE_ANNOTATION]: 'fail' }) });
    await server.settled();
    await clock.advance(5000);
    await server.settled();
    const broken = await apps.readNamespacedDeployment({ namespace: 'default', name: 'broken' });
    assert.equal(broken.status?.readyReplicas, undefined);
    assert.equal(broken.status?.unavailableReplicas, 2);
    assert.equal(broken.status?.conditions?.find((c) => c.type === 'Progressing')?.reason, 'ProgressDeadlineExceeded');
    const pods = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=broken' })).items;
    assert.equal(pods[0]?.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'CrashLoopBackOff');
  });

  test("a ReplicaSet's Pod that ends (Failed) is replaced at once and left there; the status counts the active Pods", async () => {
    const labels = { app: 'flaky' };
    await apps.createNamespacedReplicaSet({ namespace: 'default', body: { metadata: { name: 'flaky' }, spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } });
    await server.settled();
    await clock.advance(5000);
    await server.settled();
    const [victim] = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=flaky' })).items;
    await core.replaceNamespacedPodStatus({ namespace: 'default', name: String(victim?.metadata?.name), body: { ...victim, status: { ...victim?.status, phase: 'Failed' } } });
    await server.settled();
    const pods = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=flaky' })).items;
    assert.deepEqual(pods.map((pod) => pod.status?.phase).sort(), ['Failed', 'Pending', 'Running'], 'a replacement made; the failed Pod stays (kube leaves it to the Pod garbage collector)');
    const status = (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'flaky' })).status;
    assert.deepEqual([status?.replicas, status?.readyReplicas], [2, 1]);
    await clock.advance(5000);
    await server.settled();
    assert.equal((await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'flaky' })).status?.readyReplicas, 2);
  });

  test('a StatefulSet gets ordinal Pods one at a time, each once the one before is Ready (OrderedReady)', async () => {
    const body: V1StatefulSet = {
      metadata: { name: 'db' },
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres' }] } } },
    };
    await apps.createNamespacedStatefulSet({ namespace: 'default', body });
    await server.settled();
    const names = async (): Promise<(string | undefined)[]> => (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=db' })).items.map((p) => p.metadata?.name);
    const ready = async (): Promise<number | undefined> => (await apps.readNamespacedStatefulSet({ namespace: 'default', name: 'db' })).status?.readyReplicas;
    assert.deepEqual(await names(), ['db-0']);
    await clock.advance(5000);
    await server.settled();
    assert.deepEqual([await names(), await ready()], [['db-0', 'db-1'], 1]);
    await clock.advance(5000);
    await server.settled();
    assert.equal(await ready(), 2);
  });

  test('a Job starts, then completes after jobDurationMs; the fail annotation makes one fail', async () => {
    await batch.createNamespacedJob({ namespace: 'default', body: job('once') });
    await batch.createNamespacedJob({ namespace: 'default', body: job('doomed', { [SIMULATE_ANNOTATION]: 'fail' }) });
    await server.settled();
    const started = await batch.readNamespacedJob({ namespace: 'default', name: 'once' });
    assert.equal(started.status?.active, 1);
    assert.equal(started.status?.conditions, undefined);
    await clock.advance(3000);
    await server.settled();
    const done = await batch.readNamespacedJob({ namespace: 'default', name: 'once' });
    assert.equal(done.status?.succeeded, 1);
    assert.ok(done.status?.completionTime !== undefined);
    assert.equal(done.status?.conditions?.find((c) => c.type === 'Complete')?.status, 'True');
    const failed = await batch.readNamespacedJob({ namespace: 'default', name: 'doomed' });
    assert.equal(failed.status?.failed, 3);
    assert.equal(failed.status?.conditions?.find((c) => c.type === 'Failed')?.reason, 'BackoffLimitExceeded');
  });
});

describe('simulated workload controllers: options', () => {
  test('simulateWorkloads: false leaves workloads with the empty status they were created with, and no Pods', async () => {
    const server = await startTestApiServer({ simulateWorkloads: false });
    try {
      const apps = server.kubeConfig.makeApiClient(AppsV1Api);
      await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 2) });
      server.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: job('j').spec });
      await server.settled();
      await new Promise((resolve) => setTimeout(resolve, 150));
      await server.settled();
      assert.deepEqual({ ...(await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' })).status }, {});
      assert.deepEqual(server.get('batch/v1', 'Job', 'j')?.['status'], {});
      assert.equal(server.objects({ kind: 'Pod' }).length, 0);
    } finally {
      await server.stop();
    }
  });

  test('fail: true fails every Job and workload; the succeed annotation exempts one', async () => {
    const clock = new FakeClock();
    const server = await startTestApiServer({ clock, simulateWorkloads: { fail: true, jobDurationMs: 10 } });
    try {
      server.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'a' }, spec: job('a').spec });
      server.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'b', annotations: { [SIMULATE_ANNOTATION]: 'succeed' } }, spec: job('b').spec });
      await server.settled();
      await clock.advance(10);
      await server.settled();
      const conditionOf = (name: string): unknown => (server.get('batch/v1', 'Job', name)?.['status'] as { conditions: { type: string }[] }).conditions.at(-1)?.type;
      assert.equal(conditionOf('a'), 'Failed');
      assert.equal(conditionOf('b'), 'Complete');
    } finally {
      await server.stop();
    }
  });

  test('a bad delay is refused with the option name', async () => {
    await assert.rejects(startTestApiServer({ simulateWorkloads: { readyAfterMs: -1 } }), /simulateWorkloads.readyAfterMs must be a number >= 0/);
  });
});
