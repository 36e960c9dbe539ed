// The API path grammar (pure): core and group paths, namespaces as a resource and as a scope, subresources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePath } from '../../src/testing/http/paths.js';

test('discovery and non-resource paths', () => {
  assert.deepEqual(parsePath('/api'), { kind: 'core-versions' });
  assert.deepEqual(parsePath('/apis/'), { kind: 'groups' });
  assert.deepEqual(parsePath('/apis/apps'), { kind: 'group', group: 'apps' });
  assert.deepEqual(parsePath('/api/v1'), { kind: 'resources', group: '', version: 'v1' });
  assert.deepEqual(parsePath('/apis/example.com/v1'), { kind: 'resources', group: 'example.com', version: 'v1' });
  assert.deepEqual(parsePath('/version'), { kind: 'version' });
  assert.deepEqual(parsePath('/readyz/etcd'), { kind: 'health' });
  assert.deepEqual(parsePath('/openapi/v2'), { kind: 'openapi' });
  assert.deepEqual(parsePath('/nothing'), { kind: 'unknown' });
});

test('resource paths, namespaced and cluster-scoped', () => {
  const r = (path: string): unknown => {
    const route = parsePath(path);
    return route.kind === 'resource' ? [route.group, route.version, route.namespace, route.plural, route.name, route.subresource, route.watchPrefix] : route.kind;
  };
  assert.deepEqual(r('/api/v1/configmaps'), ['', 'v1', undefined, 'configmaps', undefined, undefined, false]);
  assert.deepEqual(r('/api/v1/namespaces/default/configmaps/x'), ['', 'v1', 'default', 'configmaps', 'x', undefined, false]);
  assert.deepEqual(r('/api/v1/namespaces'), ['', 'v1', undefined, 'namespaces', undefined, undefined, false]);
  assert.deepEqual(r('/api/v1/namespaces/team'), ['', 'v1', undefined, 'namespaces', 'team', undefined, false]);
  assert.deepEqual(r('/api/v1/namespaces/team/status'), ['', 'v1', undefined, 'namespaces', 'team', 'status', false]);
  assert.deepEqual(r('/api/v1/namespaces/team/pods'), ['', 'v1', 'team', 'pods', undefined, undefined, false]);
  assert.deepEqual(r('/apis/apps/v1/namespaces/a/deployments/web/status'), ['apps', 'v1', 'a', 'deployments', 'web', 'status', false]);
  assert.deepEqual(r('/apis/example.com/v1/gadgets/g1'), ['example.com', 'v1', undefined, 'gadgets', 'g1', undefined, false]);
  assert.deepEqual(r('/api/v1/watch/namespaces/a/configmaps'), ['', 'v1', 'a', 'configmaps', undefined, undefined, true]);
  assert.deepEqual(r('/api/v1/namespaces/a/configmaps/x%3Ay'), ['', 'v1', 'a', 'configmaps', 'x:y', undefined, false]);
  assert.equal(r('/apis/apps/v1/namespaces/a/deployments/web/status/extra'), 'unknown');
  assert.equal(r('/api/v1/namespaces/a/configmaps/%E0%A4%A'), 'unknown');
});
