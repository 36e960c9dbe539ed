// An Indexed Job's indexes as kube's Job controller writes and reads them (pkg/controller/job, orderedIntervals):
// `completedIndexes` text, its parsing, and which index the next Pods take. Pure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexesText, nextIndexes, parsedIndexes } from '../../src/testing/controllers/workloads/job-spec.js';

const job = (completions: number) => ({ spec: { completions, completionMode: 'Indexed' } });

test('completedIndexes: runs of three or more as ranges, a pair as two numbers, ascending, without repeats', () => {
  assert.equal(indexesText([]), '');
  assert.equal(indexesText([0, 1]), '0,1');
  assert.equal(indexesText([2, 0, 1]), '0-2');
  assert.equal(indexesText([7, 0, 1, 2, 4, 6, 4]), '0-2,4,6,7');
  for (const text of ['0-2,4,6,7', '0,1', '5']) assert.equal(indexesText(parsedIndexes(text)), text);
  assert.deepEqual(parsedIndexes(undefined), []);
});

test('the next Pods take the lowest indexes no Pod holds and none completed; a failing Job retries the held ones', () => {
  assert.deepEqual(nextIndexes(job(5), [0, 1], [], 3), [2, 3, 4]);
  assert.deepEqual(nextIndexes(job(5), [3], [0, 1], 2), [2, 4]);
  assert.deepEqual(nextIndexes(job(2), [0, 1], [], 3), [0, 1, 0]);
});
