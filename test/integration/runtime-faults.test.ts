// Reliability: with watches closed and dropped, resourceVersions expired, and lists and watches failing with 500
// and 429, every custom resource is still reconciled at its latest generation, and never twice at once; with the
// caches filled by paged lists (the default) and by streaming lists (`watch.streamingLists`).
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor } from '../support/cluster.js';

const WIDGET = { kind: 'Widget', plural: 'widgets' };
const COUNT = 30;

let server: TestApiServer;
beforeEach(async () => {
  server = await startTestApiServer();
});
afterEach(async () => {
  await server.stop();
});

for (const streamingLists of [false, true]) {
  test(`every object reaches its latest generation through faults, and no key is reconciled concurrently with itself (${streamingLists ? 'streaming' : 'paged'} lists)`, async () => {
    server.applyCrd(crdManifest(WIDGET));
    await server.settled();
    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    const seenGeneration = new Map<string, number>();
    const runtime = createRuntime(katalog({ widget: katalogEntry(WIDGET, { workers: 4, operatorBox: { default: false, constructor: { function: 'NewWidget' } } }) }), {
      kubeConfig: server.kubeConfig,
      watch: { ...FAST_WATCH, streamingLists },
      rateLimiter: { baseDelay: 1, maxDelay: 50 },
      constructors: {
        NewWidget: () => ({
          async reconcile(request, ctx) {
            if (inFlight.has(request.key)) overlaps.push(request.key);
            inFlight.add(request.key);
            try {
              await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
              const generation = ctx.object?.metadata?.generation;
              if (generation !== undefined) seenGeneration.set(request.key, Math.max(seenGeneration.get(request.key) ?? 0, generation));
            } finally {
              inFlight.delete(request.key);
            }
          },
        }),
      },
    });
    await runtime.start();
    try {
      for (let i = 0; i < COUNT; i++) server.create(customResource(WIDGET, `w${i}`, { size: 0 }));
      const faults: Array<() => void> = [
        () => server.faults.closeWatches(),
        () => server.faults.dropWatches(),
        () => server.faults.expireResourceVersions(),
        () => void server.faults.failRequests({ verb: 'watch', resource: 'widgets', status: 500, times: 3 }),
        () => void server.faults.failRequests({ verb: 'list', resource: 'widgets', status: 429, times: 2, retryAfterSeconds: 0 }),
        () => void server.faults.failRequests({ verb: 'watch', resource: 'widgets', status: 503, times: 2 }),
      ];
      for (let round = 0; round < 12; round++) {
        for (let j = 0; j < 5; j++) {
          const name = `w${Math.floor(Math.random() * COUNT)}`;
          server.patch('example.io/v1', 'Widget', name, { spec: { size: round * 10 + j } }, { namespace: 'default' });
        }
        faults[round % faults.length]?.();
        // Writes while the watch is down must be recovered by the relist or the re-watch.
        server.patch('example.io/v1', 'Widget', `w${round}`, { spec: { size: 1000 + round } }, { namespace: 'default' });
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      server.faults.clear();
      await waitFor(
        'every widget reconciled at its latest generation',
        () =>
          server.objects({ kind: 'Widget' }).every((object) => {
            const meta = object['metadata'] as { name: string; generation: number };
            return seenGeneration.get(`default/${meta.name}`) === meta.generation;
          }),
        15_000,
      );
      assert.deepEqual(overlaps, [], 'a key was reconciled by two workers at once');
      const restarts = /controller_watch_restarts_total\{crd="widget"\} (\d+)/.exec(await runtime.registry.metrics());
      assert.ok(Number(restarts?.[1]) > 0, 'the faults did restart the watch');
      const streamed = server.requests.log().filter((r) => r.resource === 'widgets' && r.path.includes('sendInitialEvents=true')).length;
      if (streamingLists) assert.ok(streamed > 1, `the caches were streamed again after the faults (${streamed} streaming lists)`);
      else assert.equal(streamed, 0);
    } finally {
      await runtime.stop();
    }
  });
}
