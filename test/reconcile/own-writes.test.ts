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
