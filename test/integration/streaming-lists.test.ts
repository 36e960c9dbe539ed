// `watch.streamingLists`: every cache of the runtime (the CRDs, the custom resources, their children) is filled by a
// streaming list and none by a paged list; a child created, edited and corrected as usual; the option checked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { resolveOptions } from '../../src/options.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

const GADGET: CrdSpec = { kind: 'Gadget', plural: 'gadgets' };
const operatorBox = { onCreate: { configMaps: [{ name: '{{ .metadata.name }}-config', reconcile: true, data: { size: '{{ .spec.size }}' } }] } };

type Status = { status?: { observedGeneration?: number } };

describe('watch.streamingLists', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer();
  });
  after(async () => {
    await server.stop();
  });

  test('the runtime fills its caches from streaming lists, without a list request, and reconciles as usual', async () => {
    server.applyCrd(crdManifest(GADGET));
    server.create(customResource(GADGET, 'before', { size: 1 }));
    await server.settled();
    server.requests.reset();
    const runtime = createRuntime(katalog({ gadget: katalogEntry(GADGET, { operatorBox }) }), {
      kubeConfig: server.kubeConfig,
      watch: { ...FAST_WATCH, streamingLists: true },
    });
    await runtime.start();
    try {
      await waitFor('the child of the resource there before start', () => server.get('v1', 'ConfigMap', 'before-config', 'default') !== undefined);
      server.create(customResource(GADGET, 'after', { size: 2 }));
      await waitFor('the child and status of a new resource', () => server.get('v1', 'ConfigMap', 'after-config', 'default') !== undefined && (server.get('example.io/v1', 'Gadget', 'after', 'default') as Status | undefined)?.status?.observedGeneration === 1);
      server.patch('v1', 'ConfigMap', 'after-config', { data: { size: 'edited' } });
      await waitFor('the edit of the child corrected', () => (server.get('v1', 'ConfigMap', 'after-config', 'default') as { data?: { size?: string } } | undefined)?.data?.size === '2');

      const log = server.requests.log();
      for (const resource of ['customresourcedefinitions', 'gadgets', 'configmaps']) {
        assert.equal(server.requests.count({ verb: 'list', resource }), 0, `no list of ${resource}`);
        const streamed = log.filter((r) => r.verb === 'watch' && r.resource === resource && r.path.includes('sendInitialEvents=true'));
        assert.equal(streamed.length, 1, `one streaming list of ${resource}`);
        assert.equal(streamed[0]?.status, 200);
      }
      assert.doesNotMatch(await runtime.registry.metrics(), /controller_watch_restarts_total\{[^}]*\} [1-9]/, 'no stream fell back to a list');
    } finally {
      await runtime.stop();
    }
  });

  test('is off by default and must be a boolean', () => {
    assert.equal(resolveOptions({}).watch.streamingLists, undefined);
    assert.equal(resolveOptions({ watch: { streamingLists: true } }).watch.streamingLists, true);
    assert.throws(() => resolveOptions({ watch: { streamingLists: 'yes' as unknown as boolean } }), /watch\.streamingLists: must be true or false, got "yes"/);
  });
});
