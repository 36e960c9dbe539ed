// The replicaSets and daemonSets template kinds through the real client-node against the test API server: the
// children are created as full apps/v1 objects, and the test server's simulated controllers run them (the
// ReplicaSet gets its pods), so the selector really matches the pod template.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

const SPEC: CrdSpec = { kind: 'Pool', plural: 'pools' };
type Obj = Record<string, unknown> & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

describe('template kinds replicaSets and daemonSets', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    server.applyCrd(crdManifest(SPEC));
    await server.settled();
    const onReconcile = {
      replicaSets: [{ name: '{{ .metadata.name }}-workers', image: '{{ .spec.image }}', replicas: '{{ .spec.workers }}' }],
      daemonSets: [{ image: 'fluent-bit:3', port: 2020 }],
    };
    runtime = createRuntime(katalog({ pools: katalogEntry(SPEC, { operatorBox: { onReconcile } }) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  test('a ReplicaSet with the rendered replicas whose pods come up, and a DaemonSet without replicas', async () => {
    server.create(customResource(SPEC, 'batch', { image: 'worker:2', workers: 2 }));
    const replicaSet = await waitFor('ReplicaSet', () => server.get('apps/v1', 'ReplicaSet', 'batch-workers', 'default') as Obj | undefined);
    assert.equal(replicaSet.spec?.['replicas'], 2);
    await waitFor('ready replicas', () => (server.get('apps/v1', 'ReplicaSet', 'batch-workers', 'default') as Obj | undefined)?.status?.['readyReplicas'] === 2);
    const daemonSet = await waitFor('DaemonSet', () => server.get('apps/v1', 'DaemonSet', 'batch-daemonset', 'default') as Obj | undefined);
    assert.equal(daemonSet.spec?.['replicas'], undefined);
    const container = ((daemonSet.spec?.['template'] as Obj).spec?.['containers'] as Array<{ image: string }>)[0];
    assert.equal(container?.image, 'fluent-bit:3');
  });
});
