// The simulated kubelet's end of a graceful deletion: a bound Pod goes after podTerminationMs or its grace period,
// whichever is shorter; a DELETE that shortens the period brings the end forward; finalizers still hold the Pod;
// without the simulation nothing ends it. On the server's clock, through client-node.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';

const pod = (name: string, spec: object = {}, finalizers?: string[]): object => ({
  metadata: { name, ...(finalizers === undefined ? {} : { finalizers }) },
  spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'i' }], ...spec },
});

describe('the simulated kubelet ends graceful deletions', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { podTerminationMs: 60_000 } });
    core = server.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => server.stop());

  const present = (name: string): boolean => server.get('v1', 'Pod', name, 'default') !== undefined;
  const advance = async (ms: number): Promise<void> => {
    await clock.advance(ms);
    await server.settled();
  };

  test('after its grace period when that is shorter than podTerminationMs, and sooner when a DELETE shortens it', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('short', { terminationGracePeriodSeconds: 5 }) });
    await core.createNamespacedPod({ namespace: 'default', body: pod('shortened') });
    await core.deleteNamespacedPod({ namespace: 'default', name: 'short' });
    await core.deleteNamespacedPod({ namespace: 'default', name: 'shortened' });
    await server.settled();
    await advance(4_999);
    assert.deepEqual([present('short'), present('shortened')], [true, true], 'both still terminating');
    await advance(1);
    assert.equal(present('short'), false, 'gone at its 5 s grace period');
    const marked = await core.deleteNamespacedPod({ namespace: 'default', name: 'shortened', gracePeriodSeconds: 10 });
    assert.equal(marked.metadata?.deletionGracePeriodSeconds, 10);
    await server.settled();
    await advance(9_999);
    assert.equal(present('shortened'), true);
    await advance(1);
    assert.equal(present('shortened'), false, 'gone 10 s after the DELETE that shortened it, not at 30 s');
  });

  test('a Pod with finalizers is marked with grace 0 by the kubelet and goes once they are removed', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('held', { terminationGracePeriodSeconds: 1 }, ['example.com/hold']) });
    await core.deleteNamespacedPod({ namespace: 'default', name: 'held' });
    await server.settled();
    await advance(1_000);
    const left = await core.readNamespacedPod({ namespace: 'default', name: 'held' });
    assert.deepEqual([left.metadata?.deletionGracePeriodSeconds, left.metadata?.finalizers], [0, ['example.com/hold']]);
    server.patch('v1', 'Pod', 'held', { metadata: { finalizers: null } }, { namespace: 'default' });
    await server.settled();
    assert.equal(present('held'), false);
  });
});

describe('without the simulated workloads, nothing ends a graceful deletion', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: false });
  });
  after(() => server.stop());

  test('the bound Pod stays terminating past its grace period, until a DELETE with grace period 0', async () => {
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespacedPod({ namespace: 'default', body: pod('stuck', { terminationGracePeriodSeconds: 1 }) });
    await core.deleteNamespacedPod({ namespace: 'default', name: 'stuck' });
    await clock.advance(60_000);
    await server.settled();
    assert.ok(server.get('v1', 'Pod', 'stuck', 'default'), 'still there, marked');
    server.delete('v1', 'Pod', 'stuck', 'default', { gracePeriodSeconds: 0 });
    assert.equal(server.get('v1', 'Pod', 'stuck', 'default'), undefined, "the direct delete's gracePeriodSeconds ends it");
  });
});
