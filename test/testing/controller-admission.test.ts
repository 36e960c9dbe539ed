// The simulated controllers' Pods go through admission, as kube-controller-manager's go through kube-apiserver's
// (checked against kube-controller-manager 1.37.2 with the same policy and times): a policy that refuses them leaves
// a ReplicaSet, a StatefulSet and a Job with FailedCreate Events in their controllers' words, each retrying after its
// backoff until the policy is lifted; a webhook is sent them as made by the controller's service account, and what it
// adds is stored. Through client-node over HTTP, on a fake clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionregistrationV1Api, AppsV1Api, BatchV1Api, CoreV1Api, type CoreV1Event } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { FakeClock } from '../support/fake-clock.js';
import { configuration, webhookServer, type FakeWebhook } from '../support/fake-webhook.js';

const START = Date.parse('2026-12-07T12:00:00Z');
const podsRule = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }];
const template = (labels: Record<string, string>, extra: object = {}) => ({ metadata: { labels }, spec: { ...extra, containers: [{ name: 'c', image: 'i' }] } });

function setup(): { server: () => TestApiServer; at: (seconds: number) => Promise<void> } {
  const clock = new FakeClock(START);
  let server: TestApiServer | undefined;
  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: 3_600_000, jobDurationMs: 3_600_000 } });
  });
  after(() => server?.stop());
  const running = (): TestApiServer => {
    if (server === undefined) throw new Error('the server did not start');
    return server;
  };
  return {
    server: running,
    // Moves the clock to `seconds` after the start, a second at a time (timers firing on the way), settling each.
    at: async (seconds) => {
      while (clock.now() < START + seconds * 1000) {
        await clock.advance(Math.min(1000, START + seconds * 1000 - clock.now()));
        await running().settled();
      }
    },
  };
}

describe("the simulated controllers' Pods under admission (fake clock)", () => {
  describe('a policy refusing Pods, then lifted', () => {
    const { server, at } = setup();
    const api = <T>(kind: new (...args: never[]) => T): T => server().kubeConfig.makeApiClient(kind as never) as T;
    const events = async (name: string): Promise<CoreV1Event[]> =>
      (await api(CoreV1Api).listNamespacedEvent({ namespace: 'default' })).items.filter((e) => e.involvedObject.name === name || e.involvedObject.name?.startsWith(`${name}-`)).sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
    const seconds = (time: Date | undefined): number => ((time?.getTime() ?? Number.NaN) - START) / 1000;

    before(async () => {
      const admission = api(AdmissionregistrationV1Api);
      await admission.createValidatingAdmissionPolicy({ body: { metadata: { name: 'no-blocked' }, spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: podsRule }, validations: [{ expression: "!has(object.metadata.labels) || !('blocked' in object.metadata.labels)", message: 'blocked' }] } } });
      await admission.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: 'no-blocked' }, spec: { policyName: 'no-blocked', validationActions: ['Deny'] } } });
      await api(AppsV1Api).createNamespacedDeployment({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web', blocked: 'yes' }) } } });
      await api(AppsV1Api).createNamespacedStatefulSet({ namespace: 'default', body: { metadata: { name: 'db' }, spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template({ app: 'db', blocked: 'yes' }) } } });
      await api(BatchV1Api).createNamespacedJob({ namespace: 'default', body: { metadata: { name: 'once' }, spec: { template: template({ blocked: 'yes' }, { restartPolicy: 'Never' }) } } });
      await at(5);
    });

    test('refused: no Pods; FailedCreate in each controller\'s words; the ReplicaSet says ReplicaFailure and the Job waits', async () => {
      assert.deepEqual((await api(CoreV1Api).listNamespacedPod({ namespace: 'default' })).items, []);
      const refusal = "is forbidden: ValidatingAdmissionPolicy 'no-blocked' with binding 'no-blocked' denied request: blocked";
      const [rs] = (await api(AppsV1Api).listNamespacedReplicaSet({ namespace: 'default' })).items;
      const failure = rs?.status?.conditions?.find((condition) => condition.type === 'ReplicaFailure');
      assert.deepEqual([failure?.status, failure?.reason], ['True', 'FailedCreate']);
      assert.match(failure?.message ?? '', new RegExp(`^pods "web-[a-z0-9]+-[a-z0-9]{5}" ${refusal}$`));
      // The ReplicaSet names a new Pod at each try (5 ms, 10 ms... apart): from the tenth, its Events are combined.
      const rsEvents = (await events(String(rs?.metadata?.name))).filter((e) => e.involvedObject.kind === 'ReplicaSet');
      assert.ok(rsEvents.length >= 10, `${rsEvents.length} Events`);
      for (const e of rsEvents) assert.match(String(e.message), new RegExp(`^(\\(combined from similar events\\): )?Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" ${refusal}$`));
      assert.ok(rsEvents.some((e) => String(e.message).startsWith('(combined from similar events)')));
      // The StatefulSet tries db-0 each time: one Event, counted.
      const [db, ...more] = (await events('db')).filter((e) => e.involvedObject.kind === 'StatefulSet');
      assert.deepEqual(more, []);
      assert.equal(db?.message, `Create Pod db-0 in StatefulSet db failed error: pods "db-0" ${refusal}`);
      assert.ok((db?.count ?? 0) > 5);
      // The Job tries at 0, 1 and 3 s (its own backoff, 1 s doubling), started with nothing active.
      const job = await api(BatchV1Api).readNamespacedJob({ namespace: 'default', name: 'once' });
      assert.deepEqual([seconds(job.status?.startTime), job.status?.active, job.status?.ready], [0, undefined, 0]);
      const tries = (await events('once')).filter((e) => e.involvedObject.kind === 'Job');
      assert.deepEqual(tries.map((e) => [e.reason, seconds(e.firstTimestamp)]), [['FailedCreate', 0], ['FailedCreate', 1], ['FailedCreate', 3]]);
      for (const e of tries) assert.match(String(e.message), new RegExp(`^Error creating: pods "once-[a-z0-9]{5}" ${refusal}$`));
    });

    test('lifted: each controller\'s next try makes its Pods (the Job\'s at 15 s, after tries at 7 s), and the ReplicaFailure goes', async () => {
      await at(10);
      await api(AdmissionregistrationV1Api).deleteValidatingAdmissionPolicyBinding({ name: 'no-blocked' });
      await at(14);
      const named = async (): Promise<string[]> => (await api(CoreV1Api).listNamespacedPod({ namespace: 'default' })).items.map((pod) => String(pod.metadata?.name).replace(/^(web)-[a-z0-9]+-[a-z0-9]{5}$/, '$1-*').replace(/^(once)-[a-z0-9]{5}$/, '$1-*')).sort();
      assert.deepEqual(await named(), ['db-0', 'web-*', 'web-*'], 'the ReplicaSet and the StatefulSet retried at 10.2 s (5 ms doubling); the Job waits for its 15 s try');
      await at(16);
      assert.deepEqual(await named(), ['db-0', 'once-*', 'web-*', 'web-*']);
      const tries = (await events('once')).filter((e) => e.involvedObject.kind === 'Job');
      assert.deepEqual(tries.map((e) => [e.reason, seconds(e.firstTimestamp)]), [['FailedCreate', 0], ['FailedCreate', 1], ['FailedCreate', 3], ['FailedCreate', 7], ['SuccessfulCreate', 15]]);
      assert.equal((await api(BatchV1Api).readNamespacedJob({ namespace: 'default', name: 'once' })).status?.active, 1);
      const [rs] = (await api(AppsV1Api).listNamespacedReplicaSet({ namespace: 'default' })).items;
      assert.equal(rs?.status?.conditions?.find((condition) => condition.type === 'ReplicaFailure'), undefined);
      assert.equal(rs?.status?.replicas, 2);
    });
  });

  describe('a mutating webhook on Pods', () => {
    const { server, at } = setup();
    let webhook: FakeWebhook | undefined;
    before(async () => {
      const tls = await selfSignedCertificate();
      webhook = await webhookServer(tls);
      webhook.answer = () => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels/injected', value: 'yes' }])).toString('base64') });
      await server().kubeConfig.makeApiClient(AdmissionregistrationV1Api).createMutatingWebhookConfiguration({ body: configuration('mutating', webhook.url, tls.cert, { rules: podsRule }) });
    });
    after(() => webhook?.close());

    test("is sent each controller's Pod as made by its service account, and what it adds is stored", async () => {
      const apps = server().kubeConfig.makeApiClient(AppsV1Api);
      await apps.createNamespacedReplicaSet({ namespace: 'default', body: { metadata: { name: 'rs' }, spec: { replicas: 2, selector: { matchLabels: { app: 'rs' } }, template: template({ app: 'rs' }) } } });
      await apps.createNamespacedStatefulSet({ namespace: 'default', body: { metadata: { name: 'ss' }, spec: { replicas: 1, serviceName: 'ss', selector: { matchLabels: { app: 'ss' } }, template: template({ app: 'ss' }) } } });
      await server().kubeConfig.makeApiClient(BatchV1Api).createNamespacedJob({ namespace: 'default', body: { metadata: { name: 'job' }, spec: { template: template({ app: 'job' }, { restartPolicy: 'Never' }) } } });
      await at(1);
      const pods = (await server().kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'default' })).items;
      assert.equal(pods.length, 4);
      for (const pod of pods) assert.equal(pod.metadata?.labels?.['injected'], 'yes', String(pod.metadata?.name));
      const users = new Map((webhook?.seen ?? []).map((request) => [String(request['name']).replace(/-[a-z0-9]{5}$/, ''), (request['userInfo'] as { username?: string }).username]));
      assert.deepEqual(Object.fromEntries(users), {
        rs: 'system:serviceaccount:kube-system:replicaset-controller',
        'ss-0': 'system:serviceaccount:kube-system:statefulset-controller',
        job: 'system:serviceaccount:kube-system:job-controller',
      });
    });
  });
});
