import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { firstDifference, holdsDesired } from '../../src/registry/subset.js';
import { manifestHash } from '../../src/registry/manifest-hash.js';
import { canonicalJson } from '../../src/util/canonical-json.js';

describe('firstDifference (drift comparison on the fields the template sets)', () => {
  const cases: Array<{ name: string; desired: unknown; live: unknown; difference: string | undefined }> = [
    { name: 'equal scalars', desired: 3, live: 3, difference: undefined },
    { name: 'changed scalar', desired: { spec: { replicas: 2 } }, live: { spec: { replicas: 5 } }, difference: 'spec.replicas' },
    { name: 'number is not string', desired: { port: 80 }, live: { port: '80' }, difference: 'port' },
    { name: 'extra live keys are ignored', desired: { spec: { replicas: 2 } }, live: { spec: { replicas: 2, paused: false }, status: { ready: 1 } }, difference: undefined },
    { name: 'missing live key', desired: { metadata: { labels: { a: 'b' } } }, live: { metadata: {} }, difference: 'metadata.labels.a' },
    {
      name: 'server defaults inside list elements are ignored',
      desired: { containers: [{ name: 'app', image: 'nginx' }] },
      live: { containers: [{ name: 'app', image: 'nginx', imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log' }] },
      difference: undefined,
    },
    { name: 'element changed in a list', desired: { containers: [{ image: 'nginx:1' }] }, live: { containers: [{ image: 'nginx:2' }] }, difference: 'containers.0.image' },
    { name: 'element added to a list', desired: { env: [{ name: 'A' }] }, live: { env: [{ name: 'A' }, { name: 'B' }] }, difference: 'env' },
    { name: 'element removed from a list', desired: { args: ['a', 'b'] }, live: { args: ['a'] }, difference: 'args' },
    { name: 'list order matters', desired: { args: ['a', 'b'] }, live: { args: ['b', 'a'] }, difference: 'args.0' },
    {
      name: 'quantities of a resource list are equal by value, as the API server rewrites them',
      desired: { resources: { limits: { cpu: 0.5, memory: '1024Mi' }, requests: { cpu: '0.0001', 'ephemeral-storage': '1.5Gi' } } },
      live: { resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '1m', 'ephemeral-storage': '1536Mi' } } },
      difference: undefined,
    },
    { name: 'a different quantity is a difference', desired: { resources: { limits: { cpu: '1' } } }, live: { resources: { limits: { cpu: '1100m' } } }, difference: 'resources.limits.cpu' },
    { name: 'an emptyDir size limit is a quantity', desired: { emptyDir: { sizeLimit: '1024Mi' } }, live: { emptyDir: { sizeLimit: '1Gi' } }, difference: undefined },
    { name: 'a number elsewhere is still not its text', desired: { spec: { limit: 0.5 } }, live: { spec: { limit: '500m' } }, difference: 'spec.limit' },
    { name: 'empty string matches a missing field', desired: { a: '' }, live: {}, difference: undefined },
    { name: 'false matches a missing field', desired: { spec: { hostNetwork: false } }, live: { spec: {} }, difference: undefined },
    { name: 'empty list matches a missing field', desired: { env: [] }, live: {}, difference: undefined },
    { name: 'map of empties matches a missing map', desired: { spec: { a: '', b: [] } }, live: {}, difference: undefined },
    { name: 'zero does not match another value', desired: { replicas: 0 }, live: { replicas: 1 }, difference: 'replicas' },
    { name: 'null matches missing', desired: { a: null }, live: {}, difference: undefined },
    { name: 'null does not match a value', desired: { a: null }, live: { a: 1 }, difference: 'a' },
    { name: 'map where live has a list', desired: { a: { b: 1 } }, live: { a: [1] }, difference: 'a' },
    {
      name: 'owner references: others may add theirs',
      desired: { metadata: { ownerReferences: [{ uid: 'u1', controller: true }] } },
      live: { metadata: { ownerReferences: [{ uid: 'u0' }, { uid: 'u1', controller: true, kind: 'Website' }] } },
      difference: undefined,
    },
    {
      name: 'owner references: ours must be there',
      desired: { metadata: { ownerReferences: [{ uid: 'u1' }] } },
      live: { metadata: { ownerReferences: [{ uid: 'u0' }] } },
      difference: 'metadata.ownerReferences.0',
    },
    { name: 'finalizers are set-like too', desired: { metadata: { finalizers: ['a'] } }, live: { metadata: { finalizers: ['x', 'a'] } }, difference: undefined },
    { name: 'undefined desired is nothing to check', desired: undefined, live: { a: 1 }, difference: undefined },
  ];
  for (const { name, desired, live, difference } of cases) {
    test(name, () => {
      assert.equal(firstDifference(desired, live), difference);
      assert.equal(holdsDesired(desired, live), difference === undefined);
    });
  }
});

describe('manifestHash', () => {
  test('does not depend on key order', () => {
    assert.equal(manifestHash({ a: 1, b: { c: 2, d: 3 } }), manifestHash({ b: { d: 3, c: 2 }, a: 1 }));
    assert.equal(canonicalJson({ b: 1, a: [1, { y: 1, x: 2 }] }), '{"a":[1,{"x":2,"y":1}],"b":1}');
  });

  test('changes when a value changes', () => {
    assert.notEqual(manifestHash({ spec: { replicas: 2 } }), manifestHash({ spec: { replicas: 3 } }));
    assert.match(manifestHash({}), /^[0-9a-f]{16}$/);
  });

  // The annotation of every child already applied holds these: a different text or hash for the same manifest would
  // make every child look changed (one re-apply each) after an upgrade of katalog.
  test('gives the same text and hash as every earlier version', () => {
    const configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w1', namespace: 'default', labels: { 'katalog.dev/owner': 'x' }, ownerReferences: [{ apiVersion: 'example.io/v1', kind: 'Widget', name: 'w1', uid: 'abc', controller: true, blockOwnerDeletion: true }] },
      data: { image: 'nginx', replicas: '3' },
    };
    assert.equal(manifestHash(configMap), 'c1d73b1514241eaf');
    const odd = { b: [undefined, null, 1.5, 'q"\\n'], a: { u: undefined, '10': true, '9': false, B: {}, é: [] } };
    assert.equal(canonicalJson(odd), '{"a":{"10":true,"9":false,"B":{},"é":[]},"b":[null,null,1.5,"q\\"\\\\n"]}');
    assert.equal(manifestHash(odd), 'c2a9287c0fc09389');
  });
});
