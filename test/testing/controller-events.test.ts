// The Events the simulated controllers record, as kube-controller-manager's do (client-go's legacy recorder): their
// shape, the same event counted again, similar ones combined past ten, and more than 25 about one object dropped.
// The Deployment and ReplicaSet controllers' Events are also compared with a recording of the real ones
// (deployment-recorded.test.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, BatchV1Api, CoreV1Api, type CoreV1Event } from '@kubernetes/client-node';
import { SIMULATE_ANNOTATION, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';

const template = (app: string): object => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'i' }] } });

describe('Events of the simulated controllers', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  let apps: AppsV1Api;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: 1000, jobDurationMs: 1000, podTerminationMs: 100 } });
    apps = server.kubeConfig.makeApiClient(AppsV1Api);
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => server.stop());

  const about = async (name: string): Promise<CoreV1Event[]> => (await core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${name}` })).items;
  const said = (events: CoreV1Event[]): string[] => events.map((e) => `${e.source?.component} ${e.type} ${e.reason}: ${e.message} (${e.count})`).sort();

  test('a Deployment records ScalingReplicaSet, its ReplicaSet SuccessfulCreate per Pod, shaped as kube-controller-manager writes them', async () => {
    const deployment = await apps.createNamespacedDeployment({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('web') } } });
    await server.settled();
    const [rs] = (await apps.listNamespacedReplicaSet({ namespace: 'default', labelSelector: 'app=web' })).items;
    const rsName = rs?.metadata?.name ?? '';
    assert.deepEqual(said(await about('web')), [`deployment-controller Normal ScalingReplicaSet: Scaled up replica set ${rsName} from 0 to 2 (1)`]);
    const pods = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items.map((p) => p.metadata?.name).sort();
    assert.deepEqual(said(await about(rsName)), pods.map((pod) => `replicaset-controller Normal SuccessfulCreate: Created pod: ${pod} (1)`).sort());

    const [event] = await about('web');
    assert.match(event?.metadata.name ?? '', /^web\.[0-9a-f]+$/);
    assert.deepEqual({ ...event?.involvedObject }, { kind: 'Deployment', namespace: 'default', name: 'web', uid: deployment.metadata?.uid, apiVersion: 'apps/v1', resourceVersion: event?.involvedObject.resourceVersion });
    assert.deepEqual([{ ...event?.source }, event?.reportingComponent, event?.reportingInstance, event?.firstTimestamp, event?.count, event?.type], [{ component: 'deployment-controller' }, 'deployment-controller', '', event?.lastTimestamp, 1, 'Normal']);
    const raw = server.get('v1', 'Event', event?.metadata.name ?? '', 'default') as Record<string, unknown>;
    assert.equal(raw['eventTime'], null, 'eventTime is null, as the legacy recorder leaves it');
    assert.ok(raw['metadata'] !== undefined && JSON.stringify(raw['metadata']).includes('"manager":"kube-controller-manager"'), 'written as kube-controller-manager');

    await apps.patchNamespacedDeployment({ namespace: 'default', name: 'web', body: [{ op: 'replace', path: '/spec/replicas', value: 1 }] });
    await server.settled();
    assert.ok(said(await about('web')).includes(`deployment-controller Normal ScalingReplicaSet: Scaled down replica set ${rsName} from 2 to 1 (1)`));
    assert.equal(said(await about(rsName)).filter((e) => e.startsWith('replicaset-controller Normal SuccessfulDelete: Deleted pod: ')).length, 1);
  });

  test('from the tenth distinct message about one object on, Events are combined; past 25 in five minutes they are dropped', async () => {
    await apps.createNamespacedReplicaSet({ namespace: 'default', body: { metadata: { name: 'many' }, spec: { replicas: 30, selector: { matchLabels: { app: 'many' } }, template: template('many') } } });
    await server.settled();
    const events = await about('many');
    const separate = events.filter((e) => !(e.message ?? '').startsWith('(combined from similar events): '));
    const combined = events.filter((e) => (e.message ?? '').startsWith('(combined from similar events): Created pod: many-'));
    assert.equal(separate.length, 9);
    assert.equal(combined.length, 1);
    assert.deepEqual([combined[0]?.count, combined[0]?.reportingComponent, combined[0]?.source?.component], [16, '', 'replicaset-controller'], '25 written (9 + 16 combined), 5 dropped');
    assert.equal((await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=many' })).items.length, 30, 'the Pods are all made all the same');
    // Five minutes on, the filter lets one more through: the combined Event's count then counts the dropped ones too,
    // as client-go's correlator counts every event it saw (9 separate, then 21 combined before this one).
    await clock.advance(300_000);
    await apps.patchNamespacedReplicaSet({ namespace: 'default', name: 'many', body: [{ op: 'replace', path: '/spec/replicas', value: 31 }] });
    await server.settled();
    const later = (await about('many')).filter((e) => (e.message ?? '').startsWith('(combined from similar events): '));
    assert.deepEqual(later.map((e) => e.count), [22]);
  });

  test("a StatefulSet's, a DaemonSet's and a Job's Events in their controllers' words; the same Event again counts 2", async () => {
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: { metadata: { name: 'db' }, spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') } } });
    await apps.createNamespacedDaemonSet({ namespace: 'default', body: { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') } } });
    const batch = server.kubeConfig.makeApiClient(BatchV1Api);
    const job = (name: string, annotations: Record<string, string> = {}): Parameters<BatchV1Api['createNamespacedJob']>[0] => ({
      namespace: 'default',
      body: { metadata: { name, annotations }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } } },
    });
    await batch.createNamespacedJob(job('done'));
    await batch.createNamespacedJob(job('broken', { [SIMULATE_ANNOTATION]: 'fail' }));
    await server.settled();
    await clock.advance(1000);
    await server.settled();
    const [agentPod] = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=agent' })).items;
    assert.deepEqual(said(await about('db')), ['statefulset-controller Normal SuccessfulCreate: Create Pod db-0 in StatefulSet db successful (1)']);
    assert.deepEqual(said(await about('agent')), [`daemonset-controller Normal SuccessfulCreate: Created pod: ${agentPod?.metadata?.name} (1)`]);
    const podsOf = async (job: string): Promise<string[]> => (await core.listNamespacedPod({ namespace: 'default', labelSelector: `job-name=${job}` })).items.map((pod) => String(pod.metadata?.name));
    const [donePod] = await podsOf('done');
    assert.deepEqual(said(await about('done')), ['job-controller Normal Completed: Job completed (1)', `job-controller Normal SuccessfulCreate: Created pod: ${donePod} (1)`]);
    // A failing Job makes its Pod and, at once, its retries up to backoffLimit + 1 (the default 6: seven Pods).
    const brokenPods = await podsOf('broken');
    assert.equal(brokenPods.length, 7);
    assert.deepEqual(said(await about('broken')), [
      ...brokenPods.map((pod) => `job-controller Normal SuccessfulCreate: Created pod: ${pod} (1)`).sort(),
      'job-controller Warning BackoffLimitExceeded: Job has reached the specified backoff limit (1)',
    ]);

    // A StatefulSet makes its Pod again under the same name: the same Event, counted.
    await core.deleteNamespacedPod({ namespace: 'default', name: 'db-0', gracePeriodSeconds: 0 });
    await server.settled();
    assert.deepEqual(said(await about('db')), ['statefulset-controller Normal SuccessfulCreate: Create Pod db-0 in StatefulSet db successful (2)']);
  });
});
