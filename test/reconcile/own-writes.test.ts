// OwnWrites (reconcile/own-writes.ts): what the runtime's own writes returned is kept only until the informer cache shows them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../src/kube/resource.js';
import { OwnWrites } from '../../src/reconcile/own-writes.js';

const at = (resourceVersion: string, status?: unknown): KubeObject => ({
  apiVersion: 'example.io/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default', resourceVersion },
  ...(status === undefined ? {} : { status }),
});

test('a status write of ours is kept only until the cache shows it: its echo drops the copy at once', () => {
  const writes = new OwnWrites();
  writes.record('default/w', at('5'), at('6', { ready: true }), 'status');
  assert.equal(writes.size, 1);
  // The cache still at the version our write replaced: the write's answer is what a reconcile starts from.
  writes.cached('default/w', at('5'));
  assert.equal(writes.size, 1);
  assert.deepEqual(writes.resolve('default/w', at('5'))?.status, { ready: true });
  // The echo arrives: nothing of the write is kept any longer, and the cache wins.
  writes.cached('default/w', at('6', { ready: true }));
  assert.equal(writes.size, 0);
  assert.equal(writes.resolve('default/w', at('5'))?.status, undefined);
});

test('an entry is dropped when someone else wrote the object or it was deleted; other keys are kept', () => {
  const writes = new OwnWrites();
  writes.record('default/a', at('5'), at('6', { n: 1 }), 'status');
  writes.record('default/b', at('7'), at('8', { n: 2 }), 'status');
  writes.cached('default/a', at('9'));
  assert.equal(writes.size, 1);
  writes.cached('default/c', undefined);
  assert.equal(writes.size, 1);
  writes.cached('default/b', undefined);
  assert.equal(writes.size, 0);
});

test("a write whose echo reached the cache before its answer is not kept: the cache already shows it", () => {
  const writes = new OwnWrites();
  // The API server sent the watch event first: the cache is at the answer's version when the answer is recorded.
  writes.cached('default/w', at('6', { ready: true }));
  writes.record('default/w', at('5'), at('6', { ready: true }), 'status', '6');
  assert.equal(writes.size, 0);
  assert.deepEqual(writes.resolve('default/w', at('6', { ready: true }))?.status, { ready: true });
  // Or a later write of someone else's is already cached: the cache wins, as resolve() would decide.
  writes.record('default/w', at('6'), at('7', { ready: false }), 'status', '8');
  assert.equal(writes.size, 0);
  // The object left the cache (deleted) before the answer came: nothing is kept for it either.
  writes.record('default/w', at('8'), at('9', { ready: false }), 'status', null);
  assert.equal(writes.size, 0);
});

test('a write answered while the cache still lags behind it is kept, across a chain of our own writes', () => {
  const writes = new OwnWrites();
  // The finalizer (metadata) write: the cache is still at 5.
  writes.record('default/w', at('5'), at('6'), 'metadata', '5');
  // The status write based on its answer, the cache still at 5: both replaced versions stand.
  writes.record('default/w', at('6'), at('7', { ready: true }), 'status', '5');
  assert.equal(writes.size, 1);
  const resolved = writes.resolve('default/w', at('5'));
  assert.equal(resolved?.metadata?.resourceVersion, '7');
  assert.deepEqual(resolved?.status, { ready: true });
});
