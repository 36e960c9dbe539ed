// The simulated disruption controller with the eviction subresource, through client-node: what `kubectl drain` and an
// operator that moves Pods meet. A budget's status follows its Pods (counted against the Deployment's or a custom
// resource's scale); an eviction takes its one disruption until the ReplicaSet's replacement is Ready; a budget that
// cannot count its Pods allows nothing; an eviction that did not delete its Pod is forgotten after two minutes. The
// real controller's answers to the same budgets are in the recording this follows (docs/testing.md, "Evictions").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, AppsV1Api, CoreV1Api, PolicyV1Api, type V1OwnerReference, type V1PodDisruptionBudget } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';

const READY_AFTER = 1000;

const POOL_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'pools.example.net' },
  spec: {
    group: 'example.net',
    scope: 'Namespaced',
    names: { plural: 'pools', singular: 'pool', kind: 'Pool' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.ready' } },
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } }, status: { type: 'object', properties: { ready: { type: 'integer' } } } } } },
      },
    ],
  },
};

describe('the simulated disruption controller and evictions', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  let policy: PolicyV1Api;

  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: READY_AFTER, podTerminationMs: 0 } });
    core = server.kubeConfig.makeApiClient(CoreV1Api);
    apps = server.kubeConfig.makeApiClient(AppsV1Api);
    policy = server.kubeConfig.makeApiClient(PolicyV1Api);
    server.applyCrd(POOL_CRD);
  });
  after(() => server.stop());

  const advance = async (ms: number): Promise<void> => {
    await clock.advance(ms);
    await server.settled();
  };
  const budgetNow = (name: string): Promise<V1PodDisruptionBudget> => policy.readNamespacedPodDisruptionBudget({ name, namespace: 'default' });
  const counts = (budget: V1PodDisruptionBudget): number[] => {
    const s = budget.status;
    return [s?.expectedPods ?? -1, s?.desiredHealthy ?? -1, s?.currentHealthy ?? -1, s?.disruptionsAllowed ?? -1];
  };
  const allowed = (budget: V1PodDisruptionBudget): string => {
    const condition = budget.status?.conditions?.find((c) => c.type === 'DisruptionAllowed');
    return `${condition?.status ?? '-'} ${condition?.reason ?? '-'}${condition?.message ? `: ${condition.message}` : ''}`;
  };
  /** A Pod Running and Ready, as a kubelet would report it (a status write sends the whole Pod: labels included). */
  const readyPod = async (name: string, app: string, ownerReferences?: V1OwnerReference[]): Promise<void> => {
    const created = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name, labels: { app }, ...(ownerReferences === undefined ? {} : { ownerReferences }) }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
    await core.replaceNamespacedPodStatus({ name, namespace: 'default', body: { ...created, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } } });
  };
  const evict = (name: string): Promise<unknown> => core.createNamespacedPodEviction({ name, namespace: 'default', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } } });
  const podsOf = async (app: string): Promise<string[]> => {
    const list = await core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${app}` });
    return list.items.filter((p) => p.metadata?.deletionTimestamp === undefined).map((p) => p.metadata?.name ?? '');
  };
  const eventsOf = async (name: string): Promise<string[]> => {
    const list = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${name}` });
    return list.items.map((e) => `${e.type ?? ''} ${e.reason ?? ''} ${e.source?.component ?? ''}`);
  };

  test('a drain: one eviction at a time, the next one waits (429) until the replacement Pod is Ready', async () => {
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: { metadata: { name: 'web' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } },
    });
    await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } } });
    await server.settled();
    assert.deepEqual(counts(await budgetNow('web')), [3, 2, 0, 0], 'the Pods are not Ready yet');
    await advance(READY_AFTER);
    const ready = await budgetNow('web');
    assert.deepEqual(counts(ready), [3, 2, 3, 1]);
    assert.equal(allowed(ready), 'True SufficientPods');
    assert.equal(ready.status?.observedGeneration, 1);
    assert.ok(ready.metadata?.managedFields?.some((f) => f.manager === 'kube-controller-manager' && f.subresource === 'status'));

    const [first, second] = await podsOf('web');
    await evict(String(first));
    await server.settled();
    assert.deepEqual(counts(await budgetNow('web')), [3, 2, 2, 0], 'the replacement is Pending');
    await assert.rejects(evict(String(second)), (error: unknown) => error instanceof ApiException && error.code === 429 && String(error.body).includes('needs 2 healthy pods and has 2 currently'));
    await advance(READY_AFTER);
    assert.deepEqual(counts(await budgetNow('web')), [3, 2, 3, 1]);
    await evict(String(second));
    await server.settled();
    assert.equal((await podsOf('web')).length, 3, 'the ReplicaSet replaced both');
  });

  test('percentages and maxUnavailable count against the controllers’ scale: a custom resource’s /scale, not a DaemonSet’s, nor Pods without one', async () => {
    const pool = server.create({ apiVersion: 'example.net/v1', kind: 'Pool', metadata: { name: 'p', namespace: 'default' }, spec: { size: 4 } });
    const owner = { apiVersion: 'example.net/v1', kind: 'Pool', name: 'p', uid: String((pool.metadata as { uid: string }).uid), controller: true };
    await readyPod('p-0', 'pool', [owner]);
    await readyPod('p-1', 'pool', [owner]);
    await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'pool' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'pool' } } } } });
    await server.settled();
    assert.deepEqual(counts(await budgetNow('pool')), [4, 2, 2, 0], 'four expected by the Pool’s scale, half of them wanted');

    await apps.createNamespacedDaemonSet({ namespace: 'default', body: { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } });
    await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'agent' }, spec: { maxUnavailable: '10%', selector: { matchLabels: { app: 'agent' } } } } });
    await advance(READY_AFTER);
    const agent = await budgetNow('agent');
    assert.equal(allowed(agent), 'False SyncFailed: daemonsets.apps does not implement the scale subresource');
    assert.equal(agent.status?.disruptionsAllowed, 0);
    assert.ok((await eventsOf('agent')).includes('Warning CalculateExpectedPodCountFailed controllermanager'));

    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'stray', labels: { app: 'stray' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
    await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'stray' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'stray' } } } } });
    await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'nothing' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'nothing' } } } } });
    await server.settled();
    assert.deepEqual(counts(await budgetNow('stray')), [0, 0, 0, 0], 'a Pod without a controller is not expected');
    assert.ok((await eventsOf('stray')).includes('Warning UnmanagedPods controllermanager'));
    assert.ok((await eventsOf('nothing')).includes('Normal NoPods controllermanager'));
  });

  test('an eviction whose Pod was not deleted is forgotten after two minutes: the budget counts it again, the Pod loses its mark', async () => {
    await readyPod('kept', 'kept');
    await readyPod('kept-2', 'kept');
    await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'kept' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'kept' } } } } });
    await server.settled();
    assert.deepEqual(counts(await budgetNow('kept')), [2, 1, 2, 1]);
    // The budget's disruption is taken, then the deletion is refused: kube-apiserver checks the options last.
    await assert.rejects(
      core.createNamespacedPodEviction({ name: 'kept', namespace: 'default', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'kept' }, deleteOptions: { propagationPolicy: 'Sideways' } } }),
      (error: unknown) => error instanceof ApiException && error.code === 422,
    );
    await server.settled();
    const taken = await budgetNow('kept');
    assert.deepEqual(counts(taken), [2, 1, 1, 0], 'the evicted Pod is not counted healthy meanwhile');
    assert.deepEqual(Object.keys(taken.status?.disruptedPods ?? {}), ['kept']);

    await advance(120_000);
    const forgotten = await budgetNow('kept');
    assert.deepEqual(counts(forgotten), [2, 1, 2, 1]);
    assert.equal(forgotten.status?.disruptedPods, undefined);
    assert.ok((await eventsOf('kept')).includes('Warning NotDeleted controllermanager'));
    const pod = await core.readNamespacedPod({ name: 'kept', namespace: 'default' });
    assert.deepEqual(
      pod.status?.conditions?.map((c) => `${c.type}=${c.status}`),
      ['Ready=True', 'DisruptionTarget=False'],
    );
  });
});
