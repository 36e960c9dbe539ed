// A reconcile that ignores its signal cannot take its worker with it (docs/reliability.md): after its time-out (and
// a second of grace) the worker moves on to other keys; the hung key is retried once the call settles, never twice
// at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor } from '../support/cluster.js';

const JOB = { kind: 'Chore', plural: 'chores' };
let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
  server.applyCrd(crdManifest(JOB));
  await server.settled();
});
after(async () => {
  await server.stop();
});

test('a hook that hangs past its time-out frees its worker; its key runs again after it settles, never concurrently', async () => {
  const calls: string[] = [];
  const inFlight = new Set<string>();
  let overlap = false;
  let release: () => void = () => undefined;
  const hung = new Promise<void>((resolve) => (release = resolve));
  const runtime = createRuntime(katalog({ chore: katalogEntry(JOB, { workers: 1, operatorBox: { default: false, constructor: { function: 'NewChore' } } }) }), {
    kubeConfig: server.kubeConfig,
    watch: FAST_WATCH,
    reconcileTimeout: 100,
    rateLimiter: { baseDelay: 5, maxDelay: 50 },
    constructors: {
      NewChore: () => ({
        async reconcile(request) {
          if (inFlight.has(request.key)) overlap = true;
          inFlight.add(request.key);
          calls.push(request.name);
          try {
            // The first call of "stuck" ignores its signal and hangs until released.
            if (request.name === 'stuck' && calls.filter((name) => name === 'stuck').length === 1) await hung;
          } finally {
            inFlight.delete(request.key);
          }
        },
      }),
    },
  });
  await runtime.start();
  try {
    server.create(customResource(JOB, 'stuck'));
    await waitFor('the hung call', () => calls.includes('stuck'));
    server.create(customResource(JOB, 'other'));
    await waitFor('the only worker took another key while stuck hangs', () => calls.includes('other'), 5000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(calls.filter((name) => name === 'stuck').length, 1, 'not retried while the first call still runs');
    release();
    await waitFor('stuck retried after its call settled', () => calls.filter((name) => name === 'stuck').length >= 2, 5000);
    assert.equal(overlap, false, 'never two reconciles of one key at once');
    const metrics = await runtime.registry.metrics();
    assert.match(metrics, /controller_reconcile_total\{crd="chore",result="error"\} [1-9]/, 'the abandoned reconcile counts as a failure');
  } finally {
    release();
    await runtime.stop();
  }
});
