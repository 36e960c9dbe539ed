// The simulated Deployment controller: a Deployment rolls out through ReplicaSets as kube-controller-manager rolls it
// out (surge and unavailability allowances, revisions, rollback, Recreate, history limit, pause, a stuck rollout),
// seen through client-node over HTTP, each step on the injected clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, CoreV1Api, type V1Deployment, type V1ReplicaSet } from '@kubernetes/client-node';
import { SIMULATE_ANNOTATION, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';

const READY_AFTER = 1000;

function deployment(name: string, image: string, extra: Partial<NonNullable<V1Deployment['spec']>> = {}): V1Deployment {
  return {
    metadata: { name },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image }] } },
      ...extra,
    },
  };
}

const setImage = (image: string): object[] => [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }];

describe('simulated Deployment rollouts (fake clock)', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  let apps: AppsV1Api;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: READY_AFTER } });
    apps = server.kubeConfig.makeApiClient(AppsV1Api);
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => server.stop());

  const read = (name: string): Promise<V1Deployment> => apps.readNamespacedDeployment({ namespace: 'default', name });
  const replicaSets = async (name: string): Promise<V1ReplicaSet[]> =>
    (await apps.listNamespacedReplicaSet({ namespace: 'default', labelSelector: `app=${name}` })).items.sort((a, b) =>
      Number(a.metadata?.annotations?.['deployment.kubernetes.io/revision']) - Number(b.metadata?.annotations?.['deployment.kubernetes.io/revision']),
    );
  const step = async (ms = READY_AFTER): Promise<void> => {
    await clock.advance(ms);
    await server.settled();
  };
  const patch = async (name: string, body: object[]): Promise<void> => {
    await apps.patchNamespacedDeployment({ namespace: 'default', name, body });
    await server.settled();
  };
  const progressing = async (name: string): Promise<string | undefined> => (await read(name)).status?.conditions?.find((c) => c.type === 'Progressing')?.reason;

  test('a new Deployment gets one ReplicaSet, revision 1, that kube-controller-manager would make', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 'nginx:1', { minReadySeconds: 0 }) });
    await server.settled();
    const [rs, more] = await replicaSets('web');
    assert.equal(more, undefined);
    const hash = rs?.metadata?.labels?.['pod-template-hash'] ?? '';
    assert.equal(rs?.metadata?.name, `web-${hash}`);
    assert.deepEqual(rs?.metadata?.labels, { app: 'web', 'pod-template-hash': hash });
    assert.deepEqual(rs?.spec?.selector?.matchLabels, { app: 'web', 'pod-template-hash': hash });
    assert.deepEqual(rs?.spec?.template?.metadata?.labels, { app: 'web', 'pod-template-hash': hash });
    assert.equal(rs?.spec?.replicas, 3);
    assert.deepEqual(rs?.metadata?.annotations, {
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    const owner = rs?.metadata?.ownerReferences?.[0];
    assert.deepEqual([owner?.kind, owner?.name, owner?.controller, owner?.blockOwnerDeletion], ['Deployment', 'web', true, true]);
    assert.equal(owner?.uid, (await read('web')).metadata?.uid);
    assert.ok(rs?.metadata?.managedFields?.some((m) => m.manager === 'kube-controller-manager'), 'written through the API as the controller');
    const created = await read('web');
    assert.equal(created.metadata?.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(created.status?.updatedReplicas, 3);
    assert.equal(created.status?.terminatingReplicas, 0);
    await step();
    assert.equal(await progressing('web'), 'NewReplicaSetAvailable');
  });

  test('a template change rolls out within maxSurge (25%: 1) and maxUnavailable (25%: 0), one ready Pod at a time', async () => {
    await patch('web', setImage('nginx:2'));
    const sizes = async (): Promise<[number | undefined, number | undefined]> => {
      const [old, current] = await replicaSets('web');
      return [current?.spec?.replicas, old?.spec?.replicas];
    };
    const seen = [await sizes()];
    const available: (number | undefined)[] = [(await read('web')).status?.availableReplicas];
    assert.equal(await progressing('web'), 'ReplicaSetUpdated');
    for (let i = 0; i < 3; i++) {
      await step();
      seen.push(await sizes());
      available.push((await read('web')).status?.availableReplicas);
    }
    assert.deepEqual(seen, [[1, 3], [2, 2], [3, 1], [3, 0]], '[new, old] ReplicaSet sizes after each Pod became ready');
    assert.deepEqual(available, [3, 3, 3, 3], 'never fewer than 3 available');
    const done = await read('web');
    assert.equal(done.metadata?.annotations?.['deployment.kubernetes.io/revision'], '2');
    assert.deepEqual([done.status?.replicas, done.status?.updatedReplicas, done.status?.unavailableReplicas], [3, 3, undefined]);
    assert.equal(await progressing('web'), 'NewReplicaSetAvailable');
    // The last old Pod is still stopping: the simulated kubelet removes it after podTerminationMs (100 ms).
    const images = async (): Promise<string[][]> =>
      (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items.map((p) => [p.spec?.containers[0]?.image ?? '', p.metadata?.deletionTimestamp === undefined ? 'running' : 'terminating']);
    assert.deepEqual((await images()).filter(([, state]) => state === 'terminating'), [['nginx:1', 'terminating']]);
    assert.equal((await read('web')).status?.terminatingReplicas, 1);
    await step(100);
    assert.deepEqual([...new Set((await images()).map(([image, state]) => `${image} ${state}`))], ['nginx:2 running']);
    assert.equal((await read('web')).status?.terminatingReplicas, 0);
  });

  test('going back to an earlier template takes its ReplicaSet up again as the next revision', async () => {
    const [first] = await replicaSets('web');
    await patch('web', setImage('nginx:1'));
    for (let i = 0; i < 3; i++) await step();
    const all = await replicaSets('web');
    assert.equal(all.length, 2, 'no third ReplicaSet');
    const current = all.at(-1);
    assert.equal(current?.metadata?.name, first?.metadata?.name);
    assert.equal(current?.metadata?.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(current?.metadata?.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(current?.spec?.replicas, 3);
    assert.equal((await read('web')).metadata?.annotations?.['deployment.kubernetes.io/revision'], '3');
  });

  test('Recreate: the old Pods are gone before the new ReplicaSet is made', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('batch', 'worker:1', { strategy: { type: 'Recreate' } }) });
    await server.settled();
    await step();
    await patch('batch', setImage('worker:2'));
    const pods = async (): Promise<unknown[][]> =>
      (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=batch' })).items.map((p) => [p.spec?.containers[0]?.image, p.status?.phase, p.metadata?.deletionTimestamp !== undefined]);
    const [old, none] = await replicaSets('batch');
    assert.equal(old?.spec?.replicas, 0);
    assert.equal(none, undefined, 'no new ReplicaSet while the old Pods are stopping');
    assert.deepEqual(await pods(), [
      ['worker:1', 'Running', true],
      ['worker:1', 'Running', true],
      ['worker:1', 'Running', true],
    ]);
    const during = await read('batch');
    assert.equal(during.status?.terminatingReplicas, 3);
    assert.equal(during.status?.availableReplicas, undefined, 'nothing available meanwhile, unlike a rolling update');
    assert.equal(during.status?.conditions?.find((c) => c.type === 'Available')?.status, 'False');
    await step(100);
    const [, current] = await replicaSets('batch');
    assert.equal(current?.spec?.replicas, 3);
    assert.deepEqual(await pods(), [
      ['worker:2', 'Pending', false],
      ['worker:2', 'Pending', false],
      ['worker:2', 'Pending', false],
    ]);
    await step();
    assert.equal((await read('batch')).status?.availableReplicas, 3);
  });

  test('revisionHistoryLimit: old ReplicaSets scaled to 0 past the limit are deleted, oldest first', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('lean', 'app:1', { replicas: 1, revisionHistoryLimit: 1 }) });
    await step();
    for (const image of ['app:2', 'app:3']) {
      await patch('lean', setImage(image));
      await step();
      await step();
    }
    const left = await replicaSets('lean');
    assert.deepEqual(
      left.map((rs) => [rs.spec?.template?.spec?.containers[0]?.image, rs.spec?.replicas]),
      [
        ['app:2', 0],
        ['app:3', 1],
      ],
    );
  });

  test('a paused Deployment makes no ReplicaSet for a new template; resumed, it rolls out', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('held', 'app:1', { replicas: 1 }) });
    await step();
    await patch('held', [{ op: 'add', path: '/spec/paused', value: true }]);
    await patch('held', setImage('app:2'));
    assert.equal((await replicaSets('held')).length, 1);
    const paused = (await read('held')).status?.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([paused?.status, paused?.reason, paused?.message], ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
    assert.equal((await read('held')).status?.observedGeneration, 3, 'the change is observed all the same');
    await patch('held', [{ op: 'replace', path: '/spec/paused', value: false }]);
    assert.equal((await replicaSets('held')).length, 2);
    await step();
    await step();
    assert.equal(await progressing('held'), 'NewReplicaSetAvailable');
    assert.equal((await replicaSets('held')).at(-1)?.spec?.template?.spec?.containers[0]?.image, 'app:2');
  });

  test('a rollout whose new Pods crash stops: the old ReplicaSet keeps serving, Progressing turns False', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('risky', 'app:1') });
    await step();
    await patch('risky', [...setImage('app:2'), { op: 'add', path: '/metadata/annotations', value: { [SIMULATE_ANNOTATION]: 'fail' } }]);
    await step();
    const [old, current] = await replicaSets('risky');
    assert.deepEqual([old?.spec?.replicas, current?.spec?.replicas], [3, 1], 'maxUnavailable 0: nothing old goes while nothing new is available');
    assert.equal(current?.metadata?.annotations?.[SIMULATE_ANNOTATION], 'fail', "the Deployment's annotations are copied onto its new ReplicaSet");
    const stuck = await read('risky');
    const condition = stuck.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([condition?.status, condition?.reason], ['False', 'ProgressDeadlineExceeded']);
    assert.equal(condition?.message, `ReplicaSet "${current?.metadata?.name}" has timed out progressing.`);
    assert.equal(stuck.status?.conditions?.find((c) => c.type === 'Available')?.status, 'True');
    assert.equal(stuck.status?.availableReplicas, 3);
  });

  test('scaling during a rollout shares the new replicas among the ReplicaSets that run, by their size', async () => {
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: deployment('wide', 'app:1', { replicas: 4, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } } }),
    });
    await step();
    await patch('wide', setImage('app:2'));
    const [oldBefore, newBefore] = await replicaSets('wide');
    assert.deepEqual([oldBefore?.spec?.replicas, newBefore?.spec?.replicas], [2, 2], 'two old Pods gone, two new ones made');
    await patch('wide', [{ op: 'replace', path: '/spec/replicas', value: 8 }]);
    const [oldAfter, newAfter] = await replicaSets('wide');
    assert.deepEqual([oldAfter?.spec?.replicas, newAfter?.spec?.replicas], [4, 4], 'each doubled, as the Deployment did');
  });
});
