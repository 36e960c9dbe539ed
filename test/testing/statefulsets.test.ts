// The simulated StatefulSet controller, as kube-controller-manager's runs a set (checked against it, a probe acting as
// the kubelet): Pods one at a time under OrderedReady, each after its claims and with its identity; rolling updates
// from the highest ordinal down to the partition, the current revision moving once all are updated; scale down from
// the highest; Parallel; the claims' retention policy; OnDelete; a Pod that ended made again. Through client-node
// over HTTP, on a fake clock: Pods are Ready 1 s after they are made and gone 1 s after they are deleted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, CoreV1Api, type V1Pod, type V1StatefulSet } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';

const START = Date.parse('2026-12-07T12:00:00Z');

function statefulSet(name: string, replicas: number, spec: Partial<NonNullable<V1StatefulSet['spec']>> = {}): V1StatefulSet {
  return {
    metadata: { name },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'v1' }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'storage' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      ...spec,
    },
  };
}

describe('simulated StatefulSets (fake clock)', () => {
  const clock = new FakeClock(START);
  let server: TestApiServer;
  let apps: AppsV1Api;
  let core: CoreV1Api;
  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: 1000, podTerminationMs: 1000 } });
    apps = server.kubeConfig.makeApiClient(AppsV1Api);
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => server.stop());

  /** Moves the clock `ms` on, a tenth of a second at a time, letting the controllers settle each time. */
  const wait = async (ms: number): Promise<void> => {
    for (let moved = 0; moved < ms; moved += 100) {
      await clock.advance(100);
      await server.settled();
    }
  };
  const podsOf = async (set: string): Promise<V1Pod[]> => (await core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${set}` })).items.sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
  /** Each Pod: name, image, when it was made (whole seconds from the start, as creationTimestamp keeps them), and whether it is going. */
  const pods = async (set: string): Promise<string[]> =>
    (await podsOf(set)).map((pod) => `${pod.metadata?.name} ${pod.spec?.containers[0]?.image} @${(Date.parse(String(pod.metadata?.creationTimestamp?.toISOString())) - START) / 1000}${pod.metadata?.deletionTimestamp === undefined ? '' : ' going'}`);
  const claims = async (set: string): Promise<string[]> =>
    (await core.listNamespacedPersistentVolumeClaim({ namespace: 'default', labelSelector: `app=${set}` })).items
      .map((claim) => `${claim.metadata?.name}${(claim.metadata?.ownerReferences ?? []).map((ref) => ` owned by ${ref.kind}/${ref.name}`).join('')}${claim.metadata?.deletionTimestamp === undefined ? '' : ' going'}`)
      .sort();
  const status = async (set: string): Promise<NonNullable<V1StatefulSet['status']>> => (await apps.readNamespacedStatefulSet({ namespace: 'default', name: set })).status ?? { replicas: -1 };
  const events = async (set: string): Promise<string[]> =>
    (await core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${set}` })).items
      .sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)))
      .map((e) => `${e.reason}: ${e.message}`);

  test('OrderedReady: each Pod is made after its claim, once the one before is Ready, with its identity', async () => {
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('db', 3) });
    await wait(500);
    assert.deepEqual(await pods('db'), ['db-0 v1 @0'], 'db-1 waits for db-0 to be Ready');
    await wait(2600);
    assert.deepEqual(await pods('db'), ['db-0 v1 @0', 'db-1 v1 @1', 'db-2 v1 @2']);
    const [first] = await podsOf('db');
    assert.deepEqual(first?.metadata?.labels, { app: 'db', 'apps.kubernetes.io/pod-index': '0', 'controller-revision-hash': (await status('db')).updateRevision, 'statefulset.kubernetes.io/pod-name': 'db-0' });
    assert.deepEqual([first?.spec?.hostname, first?.spec?.subdomain, JSON.parse(JSON.stringify(first?.spec?.volumes))], ['db-0', 'db', [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }]]);
    const claim = await core.readNamespacedPersistentVolumeClaim({ namespace: 'default', name: 'data-db-0' });
    assert.deepEqual([claim.metadata?.labels, claim.metadata?.ownerReferences, claim.spec?.resources?.requests?.['storage'], claim.status?.phase], [{ app: 'db', tier: 'storage' }, undefined, '1Gi', 'Pending']);
    const ready = await status('db');
    assert.deepEqual([ready.replicas, ready.readyReplicas, ready.currentReplicas, ready.updatedReplicas, ready.availableReplicas], [3, 3, 3, 3, 3]);
    assert.deepEqual((await events('db')).slice(0, 4), ['SuccessfulCreate: Create Claim data-db-0 Pod db-0 in StatefulSet db success', 'SuccessfulCreate: Create Pod db-0 in StatefulSet db successful', 'SuccessfulCreate: Create Claim data-db-1 Pod db-1 in StatefulSet db success', 'SuccessfulCreate: Create Pod db-1 in StatefulSet db successful']);
  });

  test('a rolling update replaces the Pods from the highest ordinal down, each once the one after is Ready; then the current revision moves', async () => {
    const before = await status('db');
    await apps.patchNamespacedStatefulSet({ namespace: 'default', name: 'db', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'v2' }] });
    await wait(100);
    const rolling = await status('db');
    assert.notEqual(rolling.updateRevision, before.updateRevision);
    assert.equal(rolling.currentRevision, before.currentRevision);
    assert.deepEqual(await pods('db'), ['db-0 v1 @0', 'db-1 v1 @1', 'db-2 v1 @2 going']);
    await wait(2000);
    assert.deepEqual(await pods('db'), ['db-0 v1 @0', 'db-1 v1 @1 going', 'db-2 v2 @4'], 'db-2 made again at v2 once gone, and Ready before db-1 goes');
    await wait(4000);
    assert.deepEqual(await pods('db'), ['db-0 v2 @8', 'db-1 v2 @6', 'db-2 v2 @4']);
    const done = await status('db');
    assert.deepEqual([done.currentRevision, done.currentReplicas, done.updatedReplicas, done.readyReplicas], [rolling.updateRevision, 3, 3, 3]);
    assert.deepEqual(await claims('db'), ['data-db-0', 'data-db-1', 'data-db-2'], 'the claims stay');
  });

  test('a partition keeps the Pods below it at the current revision', async () => {
    await apps.patchNamespacedStatefulSet({ namespace: 'default', name: 'db', body: [{ op: 'add', path: '/spec/updateStrategy/rollingUpdate', value: { partition: 2 } }, { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'v3' }] });
    await wait(6000);
    assert.deepEqual((await pods('db')).map((pod) => pod.split(' @')[0]), ['db-0 v2', 'db-1 v2', 'db-2 v3'], 'db-2 replaced, the others left (and none going)');
    const partial = await status('db');
    assert.deepEqual([partial.currentReplicas, partial.updatedReplicas], [2, 1]);
    assert.notEqual(partial.currentRevision, partial.updateRevision);
  });

  test('scaled down, the highest ordinal goes first, one at a time; the claims are kept (whenScaled: Retain)', async () => {
    await apps.patchNamespacedStatefulSet({ namespace: 'default', name: 'db', body: [{ op: 'replace', path: '/spec/replicas', value: 1 }] });
    await wait(100);
    assert.deepEqual((await pods('db')).map((pod) => pod.split(' @')[0] + (pod.endsWith('going') ? ' going' : '')), ['db-0 v2', 'db-1 v2', 'db-2 v3 going']);
    await wait(1000);
    assert.deepEqual((await pods('db')).map((pod) => pod.split(' @')[0] + (pod.endsWith('going') ? ' going' : '')), ['db-0 v2', 'db-1 v2 going']);
    await wait(1000);
    assert.deepEqual((await pods('db')).map((pod) => pod.split(' @')[0]), ['db-0 v2']);
    assert.deepEqual(await claims('db'), ['data-db-0', 'data-db-1', 'data-db-2']);
  });

  test('Parallel makes its Pods together; claims retained for Delete are owned by the set, or by a Pod scaled away, and go with it', async () => {
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('par', 2, { podManagementPolicy: 'Parallel', persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } }) });
    await wait(100);
    assert.deepEqual(await pods('par'), ['par-0 v1 @17', 'par-1 v1 @17']);
    assert.deepEqual(await claims('par'), ['data-par-0 owned by StatefulSet/par', 'data-par-1 owned by StatefulSet/par']);
    await wait(1000);
    await apps.patchNamespacedStatefulSet({ namespace: 'default', name: 'par', body: [{ op: 'replace', path: '/spec/replicas', value: 1 }] });
    await wait(3000);
    assert.deepEqual(await pods('par'), ['par-0 v1 @17']);
    assert.deepEqual(await claims('par'), ['data-par-0 owned by StatefulSet/par'], "par-1's claim went with it");
    await apps.deleteNamespacedStatefulSet({ namespace: 'default', name: 'par', propagationPolicy: 'Background' });
    await wait(3000);
    assert.deepEqual([await pods('par'), await claims('par')], [[], []]);
  });

  test('OnDelete replaces nothing by itself; a Pod deleted, or one that ended, is made again at the update revision', async () => {
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('od', 2, { updateStrategy: { type: 'OnDelete' } }) });
    await wait(2500);
    await apps.patchNamespacedStatefulSet({ namespace: 'default', name: 'od', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'v2' }] });
    await wait(2000);
    assert.deepEqual((await pods('od')).map((pod) => pod.split(' @')[0]), ['od-0 v1', 'od-1 v1']);
    await core.deleteNamespacedPod({ namespace: 'default', name: 'od-1' });
    const [od0] = await podsOf('od');
    await core.replaceNamespacedPodStatus({ namespace: 'default', name: 'od-0', body: { ...od0, status: { ...od0?.status, phase: 'Failed' } } });
    await wait(3000);
    assert.deepEqual((await pods('od')).map((pod) => pod.split(' @')[0]), ['od-0 v2', 'od-1 v2']);
    assert.ok((await events('od')).includes('SuccessfulDelete: Delete Pod od-0 in StatefulSet od successful'), 'the Pod that ended was deleted by the controller');
  });
});
