// The echo of the runtime's own child write (its watch event) does not reconcile the parent again, and that is safe:
// a prune also sees the children written whose event has not reached the cache yet (docs/performance.md, "The echo
// of a child write").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, quietFor, waitFor, type CrdSpec } from '../support/cluster.js';

const GIZMO: CrdSpec = { kind: 'Gizmo', plural: 'gizmos' };
/** The child's name follows the spec: changing `spec.size` renames it, so the old one must be pruned. */
const operatorBox = { onCreate: { configMaps: [{ name: '{{ .metadata.name }}-{{ .spec.size }}', reconcile: true, data: { size: '{{ .spec.size }}' } }] } };
/** Child watches that are never reopened for silence during the test: a stalled watch stays stalled. */
const SLOW_IDLE_WATCH = { ...FAST_WATCH, idleTimeout: '120s' };

type Status = { status?: { observedGeneration?: number } };

describe("the echo of the runtime's own child write", () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test('a child renamed away before its own watch event arrived is pruned all the same', async () => {
    server.reset();
    server.applyCrd(crdManifest(GIZMO));
    const runtime = createRuntime(katalog({ gizmo: katalogEntry(GIZMO, { operatorBox, resync: '0s' }) }), { kubeConfig: server.kubeConfig, watch: SLOW_IDLE_WATCH });
    await runtime.start();
    try {
      // Hold back every ConfigMap event: the runtime's cache of children never sees the child it writes.
      // The watch opens just after start() resolves (on a connection of its own): stall it once it is open.
      await waitFor('the child watch open and stalled', () => server.faults.stallWatches({ resource: 'configmaps' }) === 1);
      server.create(customResource(GIZMO, 'g', { size: 1 }));
      await waitFor('the first child and the status of generation 1', () => server.get('v1', 'ConfigMap', 'g-1', 'default') !== undefined && (server.get('example.io/v1', 'Gizmo', 'g', 'default') as Status | undefined)?.status?.observedGeneration === 1);
      server.patch('example.io/v1', 'Gizmo', 'g', { spec: { size: 2 } });
      await waitFor('the status of generation 2', () => (server.get('example.io/v1', 'Gizmo', 'g', 'default') as Status | undefined)?.status?.observedGeneration === 2);
      assert.ok(server.get('v1', 'ConfigMap', 'g-2', 'default') !== undefined, 'the renamed child is created');
      // The reconcile of generation 2 prunes before it writes the status: g-1 is gone although its event never came.
      assert.equal(server.get('v1', 'ConfigMap', 'g-1', 'default'), undefined, 'the old child is pruned while its event is held back');
    } finally {
      server.faults.clear();
      await runtime.stop();
    }
  });

  test('reconciles a new resource once: its child event echoes the apply; an edit of the child still corrects it', async () => {
    server.reset();
    server.applyCrd(crdManifest(GIZMO));
    const runtime = createRuntime(katalog({ gizmo: katalogEntry(GIZMO, { operatorBox, resync: '0s' }) }), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    const reconciles: string[] = [];
    runtime.on('reconciled', ({ key }: { key: string }) => void reconciles.push(key));
    await runtime.start();
    try {
      server.create(customResource(GIZMO, 'e', { size: 3 }));
      await waitFor('the child and the status', () => server.get('v1', 'ConfigMap', 'e-3', 'default') !== undefined && (server.get('example.io/v1', 'Gizmo', 'e', 'default') as Status | undefined)?.status?.observedGeneration === 1);
      // The edit reaches the runtime on the child watch after the echo of its first apply (one stream, in order):
      // once the edit is corrected, the echo has been handled too, and it must not have reconciled the parent.
      server.patch('v1', 'ConfigMap', 'e-3', { data: { size: 'edited' } });
      await waitFor('the edit corrected', () => (server.get('v1', 'ConfigMap', 'e-3', 'default') as { data?: { size?: string } } | undefined)?.data?.size === '3' && reconciles.length >= 2);
      await quietFor(() => reconciles.length);
      assert.deepEqual(reconciles, ['default/e', 'default/e'], 'one reconcile for the create, one for the edit; none for the echoes of the two applies');
    } finally {
      await runtime.stop();
    }
  });
});
