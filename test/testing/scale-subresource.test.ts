// The /scale subresource through client-node's typed clients (AppsV1Api's and CustomObjectsApi's scale methods) over
// HTTP: what an autoscaler or an operator that resizes its children does. A Deployment scaled through it rolls to the
// new size in the simulated controllers, and its Scale's status follows; a custom resource's replicas path is written.
// (What each server answers exactly, errors and managed fields included, is in test/conformance/scale.ts.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, CustomObjectsApi, PatchStrategy, Watch, setHeaderOptions, type V1Deployment, type V1Scale } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FakeClock } from '../support/fake-clock.js';
import { waitFor } from './wait-for.js';

const READY_AFTER = 1000;
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

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
        subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.ready', labelSelectorPath: '.status.selector' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { size: { type: 'integer', maximum: 10 } } },
              status: { type: 'object', properties: { ready: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

describe('the scale subresource through client-node', () => {
  const clock = new FakeClock();
  let server: TestApiServer;
  let apps: AppsV1Api;
  let custom: CustomObjectsApi;

  before(async () => {
    server = await startTestApiServer({ clock, simulateWorkloads: { readyAfterMs: READY_AFTER } });
    apps = server.kubeConfig.makeApiClient(AppsV1Api);
    custom = server.kubeConfig.makeApiClient(CustomObjectsApi);
    server.applyCrd(POOL_CRD);
  });
  after(() => server.stop());

  test('a Deployment scaled through /scale rolls to the new size, and its Scale reports the running replicas', async () => {
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1' }] } } },
      },
    });
    await server.settled();
    const first = await apps.readNamespacedDeploymentScale({ namespace: 'default', name: 'web' });
    assert.deepEqual([first.spec?.replicas, first.status?.replicas, first.status?.selector], [1, 1, 'app=web']);

    const seen: string[] = [];
    const watch = await new Watch(server.kubeConfig).watch(
      '/apis/apps/v1/namespaces/default/deployments',
      { fieldSelector: 'metadata.name=web', resourceVersion: first.metadata?.resourceVersion ?? '' },
      (type, object: V1Deployment) => seen.push(`${type} ${object.metadata?.generation ?? ''} ${object.spec?.replicas ?? ''}`),
      () => undefined,
    );
    const patched = await apps.patchNamespacedDeploymentScale({ namespace: 'default', name: 'web', body: { spec: { replicas: 3 } }, fieldManager: 'autoscaler' }, merge);
    assert.equal(patched.spec?.replicas, 3);
    await waitFor(() => seen.length > 0, "the watch to see the Deployment's change");
    assert.equal(seen[0], 'MODIFIED 2 3', 'a watch of Deployments sees the write through /scale');
    watch.abort();
    await server.settled();
    await clock.advance(READY_AFTER);
    await server.settled();
    const [replicaSet] = (await apps.listNamespacedReplicaSet({ namespace: 'default', labelSelector: 'app=web' })).items;
    assert.equal(replicaSet?.spec?.replicas, 3, 'the ReplicaSet was scaled, not replaced');
    const deployment = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    assert.deepEqual([deployment.spec?.replicas, deployment.status?.readyReplicas, deployment.metadata?.generation], [3, 3, 2]);
    const autoscaler = deployment.metadata?.managedFields?.find((m) => m.manager === 'autoscaler');
    assert.deepEqual([autoscaler?.subresource, autoscaler?.fieldsV1], ['scale', { 'f:spec': { 'f:replicas': {} } }]);
    const scale = await apps.readNamespacedDeploymentScale({ namespace: 'default', name: 'web' });
    assert.deepEqual([scale.spec?.replicas, scale.status?.replicas], [3, 3]);

    // A PUT carries the Scale's resourceVersion as a precondition: an old one is a 409.
    const stale: V1Scale = { ...first, spec: { replicas: 2 } };
    await assert.rejects(apps.replaceNamespacedDeploymentScale({ namespace: 'default', name: 'web', body: stale }), (error: { code?: number }) => error.code === 409);
    const replaced = await apps.replaceNamespacedDeploymentScale({ namespace: 'default', name: 'web', body: { ...scale, spec: { replicas: 2 } } });
    assert.equal(replaced.spec?.replicas, 2);
  });

  test("a custom resource's Scale reads and writes the paths its CRD names", async () => {
    await custom.createNamespacedCustomObject({ group: 'example.net', version: 'v1', namespace: 'default', plural: 'pools', body: { apiVersion: 'example.net/v1', kind: 'Pool', metadata: { name: 'p' }, spec: { size: 2 } } });
    await custom.patchNamespacedCustomObjectStatus({ group: 'example.net', version: 'v1', namespace: 'default', plural: 'pools', name: 'p', body: { status: { ready: 2, selector: 'pool=p' } } }, merge);
    const scale = (await custom.getNamespacedCustomObjectScale({ group: 'example.net', version: 'v1', namespace: 'default', plural: 'pools', name: 'p' })) as V1Scale;
    assert.deepEqual([scale.kind, scale.spec?.replicas, scale.status?.replicas, scale.status?.selector], ['Scale', 2, 2, 'pool=p']);

    await custom.replaceNamespacedCustomObjectScale({ group: 'example.net', version: 'v1', namespace: 'default', plural: 'pools', name: 'p', body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'p' }, spec: { replicas: 5 } } });
    const pool = (await custom.getNamespacedCustomObject({ group: 'example.net', version: 'v1', namespace: 'default', plural: 'pools', name: 'p' })) as { spec: { size: number }; metadata: { generation: number } };
    assert.deepEqual([pool.spec.size, pool.metadata.generation], [5, 2]);

    // The Pool's own schema still holds: its maximum refuses 11, through /scale as anywhere.
    await assert.rejects(
      custom.patchNamespacedCustomObjectScale({ group: 'example.net', version: 'v1', namespace: 'default', plural: 'pools', name: 'p', body: { spec: { replicas: 11 } } }, merge),
      (error: { code?: number; body?: string }) => error.code === 422 && /spec\.size in body should be less than or equal to 10/.test(String(error.body)),
    );
  });
});
