// The simulated controllers meet PodSecurity as kube-controller-manager's do: a workload whose Pods the namespace's
// enforce level refuses is created (with a warning), but its Pods are not; its controller records FailedCreate with
// the API server's refusal at each try, and tries again after its backoff, so relaxing the level lets the Pods in.
// A compliant template in the same namespace gets its Pods.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, BatchV1Api, CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { waitFor } from '../support/cluster.js';

let server: TestApiServer;
let apps: AppsV1Api;
let core: CoreV1Api;
let batch: BatchV1Api;
const namespace = 'locked';

before(async () => {
  server = await startTestApiServer({ simulateWorkloads: { readyAfterMs: 10, jobDurationMs: 10 } });
  apps = server.kubeConfig.makeApiClient(AppsV1Api);
  core = server.kubeConfig.makeApiClient(CoreV1Api);
  batch = server.kubeConfig.makeApiClient(BatchV1Api);
  await core.createNamespace({ body: { metadata: { name: namespace, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } } });
});
after(() => server.stop());

const statefulSet = (name: string, spec: object): object => ({ metadata: { name }, spec: { replicas: 1, serviceName: name, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } } });

test("a workload's Pods the enforce level refuses are not created; its controller records FailedCreate with the refusal", async () => {
  await apps.createNamespacedStatefulSet({ namespace, body: statefulSet('host', { hostNetwork: true, containers: [{ name: 'c', image: 'i' }] }) });
  await apps.createNamespacedReplicaSet({ namespace, body: { metadata: { name: 'priv' }, spec: { replicas: 1, selector: { matchLabels: { app: 'priv' } }, template: { metadata: { labels: { app: 'priv' } }, spec: { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] } } } } });
  await apps.createNamespacedStatefulSet({ namespace, body: statefulSet('fine', { containers: [{ name: 'c', image: 'i' }] }) });
  await server.settled();
  const pods = (await core.listNamespacedPod({ namespace })).items.map((pod) => pod.metadata?.name);
  assert.deepEqual(pods, ['fine-0']);
  const events = (await core.listNamespacedEvent({ namespace })).items.filter((event) => event.reason === 'FailedCreate').map((event) => `${event.involvedObject.name} ${event.type}: ${event.message}`);
  // The StatefulSet tries the same Pod each time (one Event, counted); the ReplicaSet names a new one each time.
  const host = events.filter((event) => event.startsWith('host '));
  const priv = events.filter((event) => event.startsWith('priv '));
  assert.equal(events.length, host.length + priv.length);
  assert.deepEqual(host, ['host Warning: Create Pod host-0 in StatefulSet host failed error: pods "host-0" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)']);
  assert.ok(priv.length > 0);
  for (const event of priv) assert.match(event, /^priv Warning: Error creating: pods "priv-[a-z0-9]{5}" is forbidden: violates PodSecurity "baseline:latest": privileged \(container "c" must not set securityContext\.privileged=true\)$/);
});

test("a refused create sets the ReplicaSet's ReplicaFailure, which its Deployment takes; relaxing the namespace's level makes the Pods and clears it", async () => {
  const ns = 'tightened';
  await core.createNamespace({ body: { metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } } });
  const labels = { app: 'web' };
  await apps.createNamespacedDeployment({ namespace: ns, body: { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { hostPID: true, containers: [{ name: 'c', image: 'i' }] } } } } });
  await server.settled();
  const [rs] = (await apps.listNamespacedReplicaSet({ namespace: ns })).items;
  const failure = rs?.status?.conditions?.find((condition) => condition.type === 'ReplicaFailure');
  assert.deepEqual([failure?.status, failure?.reason], ['True', 'FailedCreate']);
  assert.match(failure?.message ?? '', /^pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: violates PodSecurity "baseline:latest": host namespaces \(hostPID=true\)$/);
  assert.equal(rs?.status?.replicas, 0);
  const deployment = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
  const copied = deployment.status?.conditions?.find((condition) => condition.type === 'ReplicaFailure');
  assert.deepEqual([copied?.status, copied?.reason, copied?.message, copied?.lastUpdateTime], ['True', 'FailedCreate', failure?.message, failure?.lastTransitionTime]);

  await core.patchNamespace({ name: ns, body: { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  // The ReplicaSet's next try (its backoff doubles from 5 ms) makes them.
  await waitFor('the Pods to be made', async () => ((await core.listNamespacedPod({ namespace: ns })).items.length === 2 ? true : undefined));
  await server.settled();
  const [after] = (await apps.listNamespacedReplicaSet({ namespace: ns })).items;
  assert.deepEqual(after?.status?.conditions ?? [], [], 'a sync that made its Pods removes ReplicaFailure');
  // The Pods become ready after readyAfterMs, and the Deployment available.
  const ready = await waitFor('web to be available', async () => {
    const deployment = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
    return deployment.status?.availableReplicas === 2 ? deployment : undefined;
  });
  assert.deepEqual(ready.status?.conditions?.map((condition) => [condition.type, condition.status, condition.reason]), [['Available', 'True', 'MinimumReplicasAvailable'], ['Progressing', 'True', 'NewReplicaSetAvailable']]);
});

test('a Job whose Pod is refused starts and waits, with nothing active and FailedCreate; relaxing the level runs it', async () => {
  const ns = 'batch-locked';
  await core.createNamespace({ body: { metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } } });
  await batch.createNamespacedJob({ namespace: ns, body: { metadata: { name: 'once' }, spec: { template: { spec: { hostPID: true, restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } } } });
  await server.settled();
  const waiting = await batch.readNamespacedJob({ name: 'once', namespace: ns });
  assert.ok(waiting.status?.startTime !== undefined, 'the Job controller sets startTime before it makes Pods');
  assert.deepEqual([waiting.status?.active, waiting.status?.ready, waiting.status?.terminating, waiting.status?.conditions], [undefined, 0, 0, undefined]);
  const events = (await core.listNamespacedEvent({ namespace: ns })).items.map((event) => `${event.source?.component} ${event.reason}: ${event.message}`);
  assert.equal(events.length, 1);
  assert.match(events[0] ?? '', /^job-controller FailedCreate: Error creating: pods "once-[a-z0-9]{5}" is forbidden: violates PodSecurity "baseline:latest": host namespaces \(hostPID=true\)$/);

  await core.patchNamespace({ name: ns, body: { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  const done = await waitFor('the Job to complete', async () => {
    const job = await batch.readNamespacedJob({ name: 'once', namespace: ns });
    return job.status?.succeeded === 1 ? job : undefined;
  });
  assert.equal(done.status?.startTime?.toISOString(), waiting.status?.startTime?.toISOString(), 'it keeps the time it started');
});
