// The simulated Job controller's Pods, as kube-controller-manager's Job controller makes and counts them (checked
// against it with the probe acting as the kubelet): the Pod made, the statuses a watch sees while it is Pending,
// Ready and Succeeded, a failing Job's Pods up to backoffLimit + 1, completions beyond parallelism, a Job suspended and
// resumed, and the tracking finalizer released when a Pod or its Job is deleted. All through client-node over HTTP, on a fake clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, Watch, type V1Job, type V1Pod } from '@kubernetes/client-node';
import { SIMULATE_ANNOTATION, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';
import { waitFor } from './wait-for.js';

const TRACKING = 'batch.kubernetes.io/job-tracking';

function job(name: string, spec: Partial<NonNullable<V1Job['spec']>> = {}, annotations?: Record<string, string>): V1Job {
  return {
    metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
    spec: { template: { metadata: { labels: { app: name } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } }, ...spec },
  };
}

describe('simulated Jobs run Pods (fake clock)', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  let batch: BatchV1Api;
  let core: CoreV1Api;
  const podsOf = async (name: string): Promise<V1Pod[]> => (await core.listNamespacedPod({ namespace: 'default', labelSelector: `job-name=${name}` })).items;
  const statusOf = async (name: string): Promise<Record<string, unknown>> => JSON.parse(JSON.stringify((await batch.readNamespacedJob({ namespace: 'default', name })).status)) as Record<string, unknown>;
  const advance = async (ms: number): Promise<void> => {
    await clock.advance(ms);
    await server.settled();
  };

  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: 1000, jobDurationMs: 3000 } });
    batch = server.kubeConfig.makeApiClient(BatchV1Api);
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  // Every watch a test opened, aborted even when the test failed first.
  const watches: AbortController[] = [];
  after(async () => {
    for (const watch of watches) watch.abort();
    await server.stop();
  });

  /** The statuses of Job `name` a watch sees (conditions by type, uncountedTerminatedPods by key, times as T), until `count` are seen. */
  const watchStatuses = async (name: string): Promise<(count: number) => Promise<string[]>> => {
    const seen: string[] = [];
    const watch = await new Watch(server.kubeConfig).watch('/apis/batch/v1/namespaces/default/jobs', { fieldSelector: `metadata.name=${name}` }, (type, object: V1Job) => {
      const status = { ...object.status, conditions: object.status?.conditions?.map((c) => c.type), uncountedTerminatedPods: Object.keys(object.status?.uncountedTerminatedPods ?? {}) };
      seen.push(`${type} ${JSON.stringify(status).replace(/"\d{4}-[\d-]+T[\d:]+Z"/g, 'T')}`);
    }, () => undefined);
    watches.push(watch);
    return async (count) => {
      await waitFor(() => seen.length >= count, `${count} watch events of ${name}`);
      watch.abort();
      return seen;
    };
  };

  test('a Job makes its Pod, counts it active, then ready, then lists it uncounted, releases it and completes', async () => {
    const seen = await watchStatuses('work');
    const created = await batch.createNamespacedJob({ namespace: 'default', body: job('work') });
    await server.settled();
    const [pod] = await podsOf('work');
    assert.ok(pod !== undefined, 'the Job made its Pod');
    const uid = String(created.metadata?.uid);
    assert.match(String(pod.metadata?.name), /^work-[a-z0-9]{5}$/);
    assert.equal(pod.metadata?.generateName, 'work-');
    assert.deepEqual(pod.metadata?.labels, { app: 'work', 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'work', 'controller-uid': uid, 'job-name': 'work' });
    assert.deepEqual(pod.metadata?.ownerReferences?.map((ref) => [ref.kind, ref.name, ref.uid, ref.controller, ref.blockOwnerDeletion]), [['Job', 'work', uid, true, true]]);
    assert.deepEqual(pod.metadata?.finalizers, [TRACKING]);
    assert.equal(pod.status?.phase, 'Pending');
    assert.deepEqual(pick(await statusOf('work'), ['active', 'ready']), { active: 1, ready: 0 });

    await advance(1000);
    assert.equal((await podsOf('work'))[0]?.status?.phase, 'Running');
    assert.deepEqual(pick(await statusOf('work'), ['active', 'ready']), { active: 1, ready: 1 });

    await advance(2000);
    const [ended] = await podsOf('work');
    assert.deepEqual([ended?.status?.phase, ended?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, ended?.metadata?.finalizers], ['Succeeded', 0, undefined]);
    const done = await statusOf('work');
    assert.deepEqual(pick(done, ['active', 'succeeded', 'ready', 'uncountedTerminatedPods']), { succeeded: 1, ready: 0, uncountedTerminatedPods: {} });
    // kube-controller-manager's entry, as its probe showed it: emptied again, uncountedTerminatedPods stays its own.
    const entries = (await batch.readNamespacedJob({ namespace: 'default', name: 'work' })).metadata?.managedFields ?? [];
    const fields = { 'f:completionTime': {}, 'f:conditions': {}, 'f:ready': {}, 'f:startTime': {}, 'f:succeeded': {}, 'f:terminating': {}, 'f:uncountedTerminatedPods': {} };
    assert.deepEqual(entries.find((entry) => entry.subresource === 'status')?.fieldsV1, { 'f:status': fields });
    // As kube's Job controller writes them: started, ready, the Pod listed uncounted with the first condition, counted.
    assert.deepEqual(await seen(5), [
      'ADDED {"uncountedTerminatedPods":[]}',
      'MODIFIED {"startTime":T,"active":1,"terminating":0,"uncountedTerminatedPods":[],"ready":0}',
      'MODIFIED {"startTime":T,"active":1,"terminating":0,"uncountedTerminatedPods":[],"ready":1}',
      'MODIFIED {"conditions":["SuccessCriteriaMet"],"startTime":T,"terminating":0,"uncountedTerminatedPods":["succeeded"],"ready":0}',
      'MODIFIED {"conditions":["SuccessCriteriaMet","Complete"],"startTime":T,"completionTime":T,"succeeded":1,"terminating":0,"uncountedTerminatedPods":[],"ready":0}',
    ]);
  });

  test('a failing Job fails its Pod and its retries, up to backoffLimit + 1 Pods, then fails', async () => {
    await batch.createNamespacedJob({ namespace: 'default', body: job('bad', { backoffLimit: 1 }, { [SIMULATE_ANNOTATION]: 'fail' }) });
    await server.settled();
    assert.equal((await podsOf('bad')).length, 1);
    await advance(3000);
    const pods = await podsOf('bad');
    assert.deepEqual(pods.map((pod) => [pod.status?.phase, pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, pod.metadata?.finalizers]), [
      ['Failed', 1, undefined],
      ['Failed', 1, undefined],
    ]);
    const status = await statusOf('bad');
    assert.deepEqual(pick(status, ['failed', 'active', 'uncountedTerminatedPods']), { failed: 2, uncountedTerminatedPods: {} });
    assert.deepEqual((status['conditions'] as { type: string; reason: string }[]).map((c) => [c.type, c.reason]), [
      ['FailureTarget', 'BackoffLimitExceeded'],
      ['Failed', 'BackoffLimitExceeded'],
    ]);
  });

  test('completions beyond parallelism: two Pods at once, the third made when they end; parallelism 0 runs nothing', async () => {
    await batch.createNamespacedJob({ namespace: 'default', body: job('three', { completions: 3, parallelism: 2 }) });
    await batch.createNamespacedJob({ namespace: 'default', body: job('idle', { parallelism: 0 }) });
    await server.settled();
    assert.equal((await podsOf('three')).length, 2);
    assert.equal((await statusOf('three'))['active'], 2);
    await advance(3000);
    assert.deepEqual((await podsOf('three')).map((pod) => pod.status?.phase), ['Succeeded', 'Succeeded', 'Succeeded']);
    assert.equal((await statusOf('three'))['succeeded'], 3);
    assert.equal((await podsOf('idle')).length, 0);
    assert.deepEqual(pick(await statusOf('idle'), ['active', 'succeeded', 'conditions']), {});
  });

  test('suspended, a Job deletes its Pods and says so; resumed, it starts again; created suspended, it waits', async () => {
    const suspend = (name: string, value: boolean): Promise<V1Job> => batch.patchNamespacedJob({ namespace: 'default', name, body: { spec: { suspend: value } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    await batch.createNamespacedJob({ namespace: 'default', body: job('paused') });
    await batch.createNamespacedJob({ namespace: 'default', body: job('held', { suspend: true }) });
    await server.settled();
    const [first] = await podsOf('paused');
    await suspend('paused', true);
    await server.settled();
    const [going] = await podsOf('paused');
    assert.deepEqual([going?.metadata?.name, going?.metadata?.deletionTimestamp !== undefined, going?.metadata?.finalizers], [first?.metadata?.name, true, undefined]);
    const suspended = await statusOf('paused');
    assert.deepEqual(pick(suspended, ['startTime', 'active', 'terminating', 'ready']), { terminating: 1, ready: 0 });
    assert.deepEqual(conditions(suspended), [['Suspended', 'True', 'JobSuspended']]);
    await advance(100);
    assert.deepEqual(await podsOf('paused'), []);
    assert.equal((await statusOf('paused'))['terminating'], 0);

    await suspend('paused', false);
    await server.settled();
    const [again] = await podsOf('paused');
    assert.ok(again !== undefined && again.metadata?.name !== first?.metadata?.name, 'a new Pod');
    const resumed = await statusOf('paused');
    assert.deepEqual([resumed['active'], resumed['startTime'] !== undefined, conditions(resumed)], [1, true, [['Suspended', 'False', 'JobResumed']]]);
    await advance(3000);
    assert.deepEqual(conditions(await statusOf('paused')), [
      ['Suspended', 'False', 'JobResumed'],
      ['SuccessCriteriaMet', 'True', 'CompletionsReached'],
      ['Complete', 'True', 'CompletionsReached'],
    ]);
    const events = (await core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=paused' })).items.map((e) => e.reason).sort();
    assert.deepEqual(events, ['Completed', 'Resumed', 'SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulDelete', 'Suspended']);

    assert.deepEqual(await podsOf('held'), []);
    assert.deepEqual(conditions(await statusOf('held')), [['Suspended', 'True', 'JobSuspended']]);
    assert.equal((await statusOf('held'))['startTime'], undefined);
  });

  test("a running Job's deleted Pod is listed, counted failed and replaced at once; terminating until it is gone", async () => {
    const seen = await watchStatuses('gone');
    await batch.createNamespacedJob({ namespace: 'default', body: job('gone') });
    await server.settled();
    await advance(1000);
    const [pod] = await podsOf('gone');
    await core.deleteNamespacedPod({ namespace: 'default', name: String(pod?.metadata?.name) });
    await server.settled();
    const pods = (await podsOf('gone')).map((p) => [p.metadata?.name === pod?.metadata?.name, p.status?.phase, p.metadata?.finalizers, p.metadata?.deletionTimestamp !== undefined]);
    assert.deepEqual(pods.sort().reverse(), [
      [true, 'Running', undefined, true],
      [false, 'Pending', [TRACKING], false],
    ]);
    // The deleted Pod stops (podTerminationMs), the replacement runs its course and the Job completes.
    await advance(100);
    await advance(1000);
    await advance(2000);
    const done = await statusOf('gone');
    assert.deepEqual(pick(done, ['active', 'succeeded', 'failed', 'terminating']), { succeeded: 1, failed: 1, terminating: 0 });
    // As kube's Job controller writes them (checked with its probe; kube makes the replacement after a 10 s backoff).
    assert.deepEqual((await seen(8)).slice(3, 8), [
      'MODIFIED {"startTime":T,"terminating":1,"uncountedTerminatedPods":["failed"],"ready":0}',
      'MODIFIED {"startTime":T,"failed":1,"terminating":1,"uncountedTerminatedPods":[],"ready":0}',
      'MODIFIED {"startTime":T,"active":1,"failed":1,"terminating":1,"uncountedTerminatedPods":[],"ready":0}',
      'MODIFIED {"startTime":T,"active":1,"failed":1,"terminating":0,"uncountedTerminatedPods":[],"ready":0}',
      'MODIFIED {"startTime":T,"active":1,"failed":1,"terminating":0,"uncountedTerminatedPods":[],"ready":1}',
    ]);
  });

  test('podReplacementPolicy Failed: a deleted Pod is terminating until the kubelet has stopped it (Failed, exit 143), then counted and replaced', async () => {
    await batch.createNamespacedJob({ namespace: 'default', body: job('failed-only', { podReplacementPolicy: 'Failed' }) });
    await server.settled();
    await advance(1000);
    const [pod] = await podsOf('failed-only');
    await core.deleteNamespacedPod({ namespace: 'default', name: String(pod?.metadata?.name) });
    await server.settled();
    assert.deepEqual(pick(await statusOf('failed-only'), ['active', 'failed', 'terminating', 'ready']), { terminating: 1, ready: 0 });
    assert.deepEqual((await podsOf('failed-only')).map((p) => [p.status?.phase, p.metadata?.finalizers]), [['Running', [TRACKING]]], 'not replaced, still tracked');
    let stopped: V1Pod | undefined;
    const watch = await new Watch(server.kubeConfig).watch('/api/v1/namespaces/default/pods', { fieldSelector: `metadata.name=${String(pod?.metadata?.name)}` }, (_type, object: V1Pod) => {
      if (object.status?.phase === 'Failed') stopped = object;
    }, () => undefined);
    watches.push(watch);
    await advance(100);
    await waitFor(() => stopped !== undefined, 'the kubelet says Failed');
    assert.equal(stopped?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 143);
    assert.deepEqual(pick(await statusOf('failed-only'), ['active', 'failed', 'terminating', 'ready']), { active: 1, failed: 1, terminating: 0, ready: 0 });
    assert.deepEqual((await podsOf('failed-only')).map((p) => [p.metadata?.name === pod?.metadata?.name, p.status?.phase]), [[false, 'Pending']], 'the stopped Pod gone, its replacement made');
  });

  test('deleted Pods past backoffLimit: the Job deletes its other Pods, lists them failed with FailureTarget, and fails once they are gone', async () => {
    await batch.createNamespacedJob({ namespace: 'default', body: job('once', { backoffLimit: 0, parallelism: 2, completions: 2 }) });
    await server.settled();
    await advance(1000);
    const [first] = await podsOf('once');
    await core.deleteNamespacedPod({ namespace: 'default', name: String(first?.metadata?.name) });
    await server.settled();
    const failing = await statusOf('once');
    assert.deepEqual(conditions(failing), [['FailureTarget', 'True', 'BackoffLimitExceeded']]);
    assert.deepEqual(pick(failing, ['active', 'failed', 'terminating', 'ready']), { failed: 2, terminating: 2, ready: 0 });
    assert.deepEqual((await podsOf('once')).map((p) => [p.metadata?.finalizers, p.metadata?.deletionTimestamp !== undefined]), [[undefined, true], [undefined, true]]);
    await advance(100);
    assert.deepEqual(await podsOf('once'), []);
    const failed = await statusOf('once');
    assert.deepEqual(conditions(failed), [['FailureTarget', 'True', 'BackoffLimitExceeded'], ['Failed', 'True', 'BackoffLimitExceeded']]);
    assert.deepEqual(pick(failed, ['active', 'failed', 'terminating']), { failed: 2, terminating: 0 });
    const events = (await core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=once' })).items.map((e) => e.reason).sort();
    assert.deepEqual(events, ['BackoffLimitExceeded', 'SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulDelete']);
    // Its end is final: the timers of its run do not bring it back.
    await advance(3000);
    assert.deepEqual(conditions(await statusOf('once')), conditions(failed));
  });

  test('the Pods of a deleted Job lose the tracking finalizer and go', async () => {
    await batch.createNamespacedJob({ namespace: 'default', body: job('dropped') });
    await server.settled();
    await batch.deleteNamespacedJob({ namespace: 'default', name: 'dropped', propagationPolicy: 'Foreground' });
    await server.settled();
    // Deleted gracefully, its Pod stops (podTerminationMs), and nothing holds it then.
    await advance(100);
    assert.deepEqual(await podsOf('dropped'), []);
    await assert.rejects(batch.readNamespacedJob({ namespace: 'default', name: 'dropped' }), /404|not found/i);
  });
});

describe('a simulated Job waits for its deleted Pods to be gone before it ends (fake clock)', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: 1000, jobDurationMs: 3000, podTerminationMs: 10_000 } });
  });
  after(() => server.stop());

  test('its replacement done while the deleted Pod still stops: SuccessCriteriaMet, counted, terminating; Complete once it is gone', async () => {
    const batch = server.kubeConfig.makeApiClient(BatchV1Api);
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    const advance = async (ms: number): Promise<void> => {
      await clock.advance(ms);
      await server.settled();
    };
    const statusOf = async (): Promise<Record<string, unknown>> => JSON.parse(JSON.stringify((await batch.readNamespacedJob({ namespace: 'default', name: 'slow' })).status)) as Record<string, unknown>;
    await batch.createNamespacedJob({ namespace: 'default', body: job('slow') });
    await server.settled();
    await advance(1000);
    const [pod] = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'job-name=slow' })).items;
    await core.deleteNamespacedPod({ namespace: 'default', name: String(pod?.metadata?.name) });
    await server.settled();
    await advance(3000);
    const ending = await statusOf();
    assert.deepEqual(conditions(ending), [['SuccessCriteriaMet', 'True', 'CompletionsReached']]);
    assert.deepEqual(pick(ending, ['active', 'succeeded', 'failed', 'terminating', 'completionTime']), { succeeded: 1, failed: 1, terminating: 1 });
    await advance(7000);
    const done = await statusOf();
    assert.deepEqual(conditions(done), [['SuccessCriteriaMet', 'True', 'CompletionsReached'], ['Complete', 'True', 'CompletionsReached']]);
    assert.deepEqual(pick(done, ['active', 'succeeded', 'failed', 'terminating']), { succeeded: 1, failed: 1, terminating: 0 });
    assert.equal(done['completionTime'], new Date(clock.now()).toISOString(), 'completed when the deleted Pod was gone');
  });
});

describe('simulated Indexed Jobs (fake clock)', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  let batch: BatchV1Api;
  let core: CoreV1Api;
  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: 1000, jobDurationMs: 3000, podTerminationMs: 500 } });
    batch = server.kubeConfig.makeApiClient(BatchV1Api);
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => server.stop());
  const advance = async (ms: number): Promise<void> => {
    await clock.advance(ms);
    await server.settled();
  };
  const indexed = (name: string, annotations?: Record<string, string>): V1Job => job(name, { completions: 3, parallelism: 2, completionMode: 'Indexed' }, annotations);
  /** Each Pod as `<index> <name prefix> <hostname>`, by index. */
  const podsOf = async (name: string): Promise<string[]> =>
    (await core.listNamespacedPod({ namespace: 'default', labelSelector: `job-name=${name}` })).items
      .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
      .map((pod) => `${pod.metadata?.annotations?.['batch.kubernetes.io/job-completion-index']} ${pod.metadata?.generateName} ${pod.spec?.hostname}`)
      .sort();
  const statusOf = async (name: string): Promise<Record<string, unknown>> => JSON.parse(JSON.stringify((await batch.readNamespacedJob({ namespace: 'default', name })).status)) as Record<string, unknown>;

  test("each Pod has its completion index (annotation, label, hostname, name, JOB_COMPLETION_INDEX); the Job completes them all and says which", async () => {
    // Every status a watch sees: an Indexed Job counts its succeeded Pods by index at once, never listing them uncounted.
    const seen: string[] = [];
    const watch = await new Watch(server.kubeConfig).watch('/apis/batch/v1/namespaces/default/jobs', { fieldSelector: 'metadata.name=work' }, (_type, object: V1Job) => {
      seen.push(`${object.status?.conditions?.map((c) => c.type).join('+') ?? '-'} succeeded=${object.status?.succeeded ?? 0} indexes=${object.status?.completedIndexes ?? ''} uncounted=${JSON.stringify(object.status?.uncountedTerminatedPods ?? {})}`);
    }, () => undefined);
    await batch.createNamespacedJob({ namespace: 'default', body: indexed('work') });
    await server.settled();
    assert.deepEqual(await podsOf('work'), ['0 work-0- work-0', '1 work-1- work-1']);
    const [pod] = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'batch.kubernetes.io/job-completion-index=0' })).items;
    assert.match(String(pod?.metadata?.name), /^work-0-[a-z0-9]{5}$/);
    assert.deepEqual(JSON.parse(JSON.stringify(pod?.spec?.containers[0]?.env)), [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } }]);
    await advance(3000);
    assert.deepEqual(await podsOf('work'), ['0 work-0- work-0', '1 work-1- work-1', '2 work-2- work-2'], 'index 2 made when the first end (and ended with them)');
    const done = await statusOf('work');
    assert.deepEqual(pick(done, ['succeeded', 'completedIndexes']), { succeeded: 3, completedIndexes: '0-2' });
    assert.deepEqual(conditions(done), [['SuccessCriteriaMet', 'True', 'CompletionsReached'], ['Complete', 'True', 'CompletionsReached']]);
    await waitFor(() => seen.some((line) => line.startsWith('SuccessCriteriaMet+Complete')), 'the Job to be seen complete');
    watch.abort();
    assert.deepEqual(seen.slice(-2), ['SuccessCriteriaMet succeeded=3 indexes=0-2 uncounted={}', 'SuccessCriteriaMet+Complete succeeded=3 indexes=0-2 uncounted={}']);
    const stored = server.get('batch/v1', 'Job', 'work', 'default')?.['status'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(stored), ['conditions', 'startTime', 'completionTime', 'succeeded', 'terminating', 'completedIndexes', 'uncountedTerminatedPods', 'ready'], "Go's field order");
  });

  test('a deleted Pod is replaced with its index; a failing Indexed Job completes no index', async () => {
    await batch.createNamespacedJob({ namespace: 'default', body: indexed('lossy') });
    await server.settled();
    await advance(1000);
    const [first] = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'job-name=lossy,batch.kubernetes.io/job-completion-index=1' })).items;
    await core.deleteNamespacedPod({ namespace: 'default', name: String(first?.metadata?.name) });
    await server.settled();
    assert.deepEqual(await podsOf('lossy'), ['0 lossy-0- lossy-0', '1 lossy-1- lossy-1']);
    const [replacement] = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'job-name=lossy,batch.kubernetes.io/job-completion-index=1' })).items.filter((pod) => pod.metadata?.deletionTimestamp === undefined);
    assert.notEqual(replacement?.metadata?.name, first?.metadata?.name);
    await advance(4000);
    assert.deepEqual(pick(await statusOf('lossy'), ['succeeded', 'failed', 'completedIndexes']), { succeeded: 3, failed: 1, completedIndexes: '0-2' });

    await batch.createNamespacedJob({ namespace: 'default', body: { ...indexed('doomed', { [SIMULATE_ANNOTATION]: 'fail' }), spec: { ...indexed('doomed').spec, backoffLimit: 2 } as NonNullable<V1Job['spec']> } });
    await server.settled();
    await advance(4000);
    const failed = await statusOf('doomed');
    assert.deepEqual(pick(failed, ['succeeded', 'failed', 'completedIndexes']), { failed: 3 });
    assert.deepEqual(conditions(failed).at(-1), ['Failed', 'True', 'BackoffLimitExceeded']);
  });
});

function conditions(status: Record<string, unknown>): unknown[] {
  return ((status['conditions'] ?? []) as { type: string; status: string; reason: string }[]).map((c) => [c.type, c.status, c.reason]);
}

function pick(object: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));
}
