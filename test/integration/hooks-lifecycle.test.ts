// Which hook runs when (SPEC §4.5, docs/hooks-and-constructors.md): onCreate on the first reconcile, onUpdate when
// the generation moved, onReconcile every time, onDelete before the finalizers go, onNotFound once the object is gone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { CLEANUP_FINALIZER } from '../../src/operatorbox/generic-box.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor } from '../support/cluster.js';

const NOTE = { kind: 'Note', plural: 'notes' };
let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
  server.applyCrd(crdManifest(NOTE));
  await server.settled();
});
after(async () => {
  await server.stop();
});

test('onCreate, onUpdate, onReconcile, onDelete and onNotFound each run when they should, and only then', async () => {
  const calls: string[] = [];
  const record = (hook: string) => (ctx: { object?: { metadata?: { generation?: number; finalizers?: string[] } }; key?: string }) => {
    const generation = ctx.object?.metadata?.generation;
    calls.push(generation === undefined ? `${hook} ${ctx.key ?? ''}` : `${hook} g${generation}`);
  };
  const runtime = createRuntime(katalog({ note: katalogEntry(NOTE, { operatorBox: { hooks: { function: 'NoteHooks' } } }) }), {
    kubeConfig: server.kubeConfig,
    watch: FAST_WATCH,
    hooks: {
      NoteHooks: {
        onCreate: record('onCreate'),
        onUpdate: record('onUpdate'),
        onReconcile: record('onReconcile'),
        onDelete: (ctx) => {
          assert.ok(ctx.object.metadata?.finalizers?.includes(CLEANUP_FINALIZER), 'onDelete runs while the finalizer still holds the object');
          record('onDelete')(ctx);
        },
        onNotFound: record('onNotFound'),
      },
    },
  });
  await runtime.start();
  try {
    server.create(customResource(NOTE, 'n1', { text: 'a' }));
    // Adding the finalizer is a metadata write, so its echo reconciles once more: level-based, and no onCreate again.
    await waitFor('first reconcile and the finalizer echo', () => calls.length >= 3);
    assert.deepEqual(calls, ['onCreate g1', 'onReconcile g1', 'onReconcile g1']);

    // A label change: not a spec change, so a plain reconcile (no onCreate, no onUpdate).
    calls.length = 0;
    server.patch('example.io/v1', 'Note', 'n1', { metadata: { labels: { seen: 'yes' } } }, { namespace: 'default' });
    await waitFor('label reconcile', () => calls.length >= 1);
    assert.deepEqual(calls, ['onReconcile g1']);

    calls.length = 0;
    server.patch('example.io/v1', 'Note', 'n1', { spec: { text: 'b' } }, { namespace: 'default' });
    await waitFor('update reconcile', () => calls.includes('onReconcile g2'));
    assert.deepEqual(calls, ['onUpdate g2', 'onReconcile g2']);

    calls.length = 0;
    server.delete('example.io/v1', 'Note', 'n1', 'default');
    await waitFor('object gone and onNotFound', () => calls.some((call) => call.startsWith('onNotFound')));
    // Marking an object for deletion bumps its generation, as a real API server does.
    assert.equal(calls[0], 'onDelete g3');
    assert.equal(calls.at(-1), 'onNotFound default/n1');
    assert.ok(!calls.some((call) => call.startsWith('onCreate') || call.startsWith('onUpdate')), calls.join(', '));
    assert.equal(server.get('example.io/v1', 'Note', 'n1', 'default'), undefined);
  } finally {
    await runtime.stop();
  }
});
