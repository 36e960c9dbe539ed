// A change of status alone does not re-enqueue the primary object (the echo of a status write); anything else does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onlyStatusChanged } from '../../src/controller/controller.js';
import type { KubeObject } from '../../src/kube/resource.js';

const base: KubeObject = {
  apiVersion: 'example.io/v1',
  kind: 'Note',
  metadata: { name: 'n', namespace: 'default', resourceVersion: '1', generation: 1, labels: { a: 'b' }, finalizers: ['x'] },
  spec: { text: 'a', list: [1, 2] },
  status: { phase: 'Ready' },
};

function meta(object: KubeObject): NonNullable<KubeObject['metadata']> {
  object.metadata ??= {};
  return object.metadata;
}

function changed(change: (object: KubeObject) => void): KubeObject {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}

test('status, resourceVersion and managedFields alone do not count as a change', () => {
  const next = changed((o) => {
    o['status'] = { phase: 'Failing', conditions: [{ type: 'Ready', status: 'False' }] };
    if (o.metadata !== undefined) {
      o.metadata.resourceVersion = '2';
      o.metadata.managedFields = [{ manager: 'katalog' }];
    }
  });
  assert.equal(onlyStatusChanged(base, next), true);
});

test('key order does not matter', () => {
  const reordered: KubeObject = { status: { phase: 'Other' }, spec: { list: [1, 2], text: 'a' }, metadata: { ...base.metadata }, kind: 'Note', apiVersion: 'example.io/v1' };
  assert.equal(onlyStatusChanged(base, reordered), true);
});

test('spec, labels, annotations, finalizers, generation and deletionTimestamp are changes', () => {
  const cases: Array<[string, (object: KubeObject) => void]> = [
    ['spec', (o) => void ((o['spec'] as { text: string }).text = 'b')],
    ['list order', (o) => void ((o['spec'] as { list: number[] }).list = [2, 1])],
    ['labels', (o) => void (meta(o).labels = { a: 'c' })],
    ['annotations', (o) => void (meta(o).annotations = { note: 'x' })],
    ['finalizers', (o) => void (meta(o).finalizers = [])],
    ['generation', (o) => void (meta(o).generation = 2)],
    ['deletionTimestamp', (o) => void (meta(o).deletionTimestamp = '2026-01-01T00:00:00Z')],
  ];
  for (const [what, change] of cases) assert.equal(onlyStatusChanged(base, changed(change)), false, what);
});

test('compared as JSON: a key holding undefined is no key; null, missing and nested values still count', () => {
  const withUndefined = changed((o) => void ((o['spec'] as Record<string, unknown>)['extra'] = undefined));
  assert.equal(onlyStatusChanged(base, withUndefined), true, 'undefined key');
  const cases: Array<[string, (object: KubeObject) => void]> = [
    ['null instead of a value', (o) => void ((o['spec'] as Record<string, unknown>)['text'] = null)],
    ['a key added', (o) => void ((o['spec'] as Record<string, unknown>)['extra'] = 0)],
    ['a key removed', (o) => void delete (o['spec'] as Record<string, unknown>)['text']],
    ['an array for an object', (o) => void ((o['spec'] as Record<string, unknown>)['list'] = { 0: 1, 1: 2 })],
    ['a longer array', (o) => void ((o['spec'] as { list: number[] }).list = [1, 2, 3])],
    ['a string for a number', (o) => void ((o['spec'] as { list: unknown[] }).list = ['1', 2])],
    ['a nested object', (o) => void ((o['spec'] as Record<string, unknown>)['deep'] = { a: [{ b: 1 }] })],
    ['a top-level field beside spec', (o) => void (o['data'] = { x: '1' })],
  ];
  for (const [what, change] of cases) assert.equal(onlyStatusChanged(base, changed(change)), false, what);
  const deep = changed((o) => void ((o['spec'] as Record<string, unknown>)['deep'] = { a: [{ b: 1, c: 2 }] }));
  const deepReordered = changed((o) => void ((o['spec'] as Record<string, unknown>)['deep'] = { a: [{ c: 2, b: 1 }] }));
  assert.equal(onlyStatusChanged(deep, deepReordered), true, 'nested key order');
});
