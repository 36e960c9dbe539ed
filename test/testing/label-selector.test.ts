// Label selector parsing and matching (pure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLabelSelector } from '../../src/testing/selectors/label-selector.js';
import { StatusError } from '../../src/testing/status-errors.js';

const labels = { app: 'web', tier: 'front', 'example.com/rank': '3' };

test('requirements and their combinations', () => {
  const cases: [string, boolean][] = [
    ['', true],
    ['app=web', true],
    ['app = web', true],
    ['app==db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['tier in (front,back)', true],
    ['tier in (back)', false],
    ['tier notin (back)', true],
    ['missing notin (x)', true],
    ['missing in (x)', false],
    ['example.com/rank', true],
    ['!example.com/rank', false],
    ['!missing', true],
    ['example.com/rank>2', true],
    ['example.com/rank<3', false],
    ['app=web,tier in (front),!missing', true],
    ['app=web,tier=back', false],
    ['app=', false],
  ];
  for (const [selector, expected] of cases) assert.equal(parseLabelSelector(selector).matches(labels), expected, selector);
  assert.equal(parseLabelSelector('app=').matches({ app: '' }), true);
});

test('bad syntax is a 400 StatusError', () => {
  for (const bad of ['a in (', 'a b', '=x', 'a=b=c', 'Bad Key=1', 'a=$$$']) {
    assert.throws(() => parseLabelSelector(bad), (e: unknown) => e instanceof StatusError && e.status === 400, bad);
  }
});
