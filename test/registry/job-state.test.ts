import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jobState } from '../../src/registry/job-state.js';

test('jobState reads success, failure and progress', () => {
  assert.deepEqual(jobState({ spec: {}, status: {} }), { state: 'running' });
  assert.deepEqual(jobState({ status: { active: 1 } }), { state: 'running' });
  assert.deepEqual(jobState({ status: { succeeded: 1 } }), { state: 'succeeded' });
  assert.deepEqual(jobState({ status: { conditions: [{ type: 'Complete', status: 'True' }] } }), { state: 'succeeded' });
  assert.deepEqual(jobState({ status: { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'too many' }] } }), {
    state: 'failed',
    reason: 'BackoffLimitExceeded: too many',
  });
  assert.deepEqual(jobState({ status: { conditions: [{ type: 'Failed', status: 'False' }] } }), { state: 'running' });
  assert.equal(jobState({ spec: { backoffLimit: 2 }, status: { failed: 2 } }).state, 'running');
  assert.equal(jobState({ spec: { backoffLimit: 2 }, status: { failed: 3 } }).state, 'failed');
  assert.equal(jobState({ status: { failed: 7 } }).state, 'failed', 'default backoffLimit 6');
});
