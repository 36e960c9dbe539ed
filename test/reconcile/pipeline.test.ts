// The pipeline's failure policy (SPEC §4.6, DESIGN "Failure policy"): a failed status write fails the reconcile, so
// the worker requeues it with backoff; a status write that changes nothing sends nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/kube/resource.js';
import type { OperatorBoxStage } from '../../src/operatorbox/stage.js';
import { decideRequeue } from '../../src/reconcile/outcome.js';
import { OwnWrites } from '../../src/reconcile/own-writes.js';
import { reconcileKey, type PipelineStages, type StatusStage } from '../../src/reconcile/pipeline.js';

const OBJECT: KubeObject = { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default', resourceVersion: '5', generation: 1 } };

const box: OperatorBoxStage = {
  reconcile: async () => ({ desired: [], writeStatus: true }),
  delete: async () => ({}),
  notFound: async () => ({}),
};

function stages(status: StatusStage, reported: Error[] = []): PipelineStages {
  return {
    fetch: () => OBJECT,
    convert: (object) => object,
    box,
    registry: { apply: async () => undefined },
    status,
    ownWrites: new OwnWrites(),
    onStatusError: (error) => void reported.push(error),
  };
}

test('a failed status write fails the reconcile, which the worker backs off and retries', async () => {
  const written: string[] = [];
  const outcome = await reconcileKey(
    stages({
      write: async (_object, outcome) => {
        written.push(outcome.ok ? 'ok' : 'failed');
        throw new Error('PATCH …/status: 503 ServiceUnavailable');
      },
    }),
    'default/w',
    new AbortController().signal,
  );
  assert.equal(outcome.result, 'error');
  assert.match(outcome.result === 'error' ? outcome.error.message : '', /failed to write status: .*503/);
  assert.deepEqual(decideRequeue(outcome), { action: 'backoff' });
  assert.deepEqual(written, ['ok'], 'no second status write for a status write that failed');
});

test('a reconcile that fails still writes Ready=False; if that write fails too, the outcome is the first error', async () => {
  const reported: Error[] = [];
  const failing: OperatorBoxStage = { ...box, reconcile: async () => Promise.reject(new Error('template exploded')) };
  const outcome = await reconcileKey(
    { ...stages({ write: async () => Promise.reject(new Error('503')) }, reported), box: failing },
    'default/w',
    new AbortController().signal,
  );
  assert.equal(outcome.result === 'error' ? outcome.error.message : '', 'template exploded');
  assert.equal(reported.length, 1);
});

test('the next reconcile starts from what the status write returned while the cache still shows the old object', async () => {
  const seen: Array<string | undefined> = [];
  const s = stages({
    write: async (object) => {
      seen.push(object.metadata?.resourceVersion);
      return { ...object, metadata: { ...object.metadata, resourceVersion: '6' }, status: { observedGeneration: 1 } };
    },
  });
  await reconcileKey(s, 'default/w', new AbortController().signal);
  await reconcileKey(s, 'default/w', new AbortController().signal);
  assert.deepEqual(seen, ['5', '6']);
});
