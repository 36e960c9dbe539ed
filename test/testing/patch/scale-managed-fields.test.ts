// The conversion of managed fields between a parent and its Scale (the scale handler of k8s.io/apimachinery): which
// entries a Scale sees, and what a write of the Scale leaves on the parent, for a custom resource whose versions keep
// their replicas at different paths.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ManagedFieldsEntry } from '../../../src/testing/patch/index.js';
import { replicasFieldPath, toParentEntries, toScaleEntries, type ReplicasPaths } from '../../../src/testing/patch/scale-managed-fields.js';

const PATHS: ReplicasPaths = new Map([
  ['example.com/v2', replicasFieldPath('.spec.size')],
  ['example.com/v1', replicasFieldPath('.spec.replicas')],
  ['example.com/v0', undefined],
]);

const entry = (manager: string, apiVersion: string, fieldsV1: Record<string, unknown>, extra: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry => ({
  manager,
  operation: 'Update',
  apiVersion,
  time: '2026-12-06T10:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...extra,
});

const SIZE = { 'f:spec': { 'f:size': {}, 'f:image': {} } };
const REPLICAS = { 'f:spec': { 'f:replicas': {} } };

describe('scale subresource managed fields', () => {
  test("a Scale sees the entries that own the replicas path of their own version, as owners of spec.replicas", () => {
    const parent = [
      entry('v2-owner', 'example.com/v2', SIZE),
      entry('v1-owner', 'example.com/v1', REPLICAS, { operation: 'Apply' }),
      entry('other', 'example.com/v2', { 'f:spec': { 'f:image': {} } }),
      entry('old', 'example.com/v0', REPLICAS),
      entry('gone', 'example.com/v9', REPLICAS),
    ];
    assert.deepEqual(
      toScaleEntries(parent, PATHS).map((e) => [e.manager, e.operation, e.apiVersion, e.time, e.fieldsV1]),
      [
        ['v1-owner', 'Apply', 'autoscaling/v1', '2026-12-06T10:00:00Z', REPLICAS],
        ['v2-owner', 'Update', 'autoscaling/v1', '2026-12-06T10:00:00Z', REPLICAS],
      ],
    );
  });

  test('after a write, the losers give the replicas path up, a new owner gets an entry without a time, unknown versions are dropped', () => {
    const parent = [entry('v2-owner', 'example.com/v2', SIZE), entry('keeper', 'example.com/v1', REPLICAS, { operation: 'Apply' }), entry('gone', 'example.com/v9', REPLICAS)];
    const scale: ManagedFieldsEntry[] = [
      entry('keeper', 'autoscaling/v1', REPLICAS, { operation: 'Apply' }),
      entry('hpa', 'autoscaling/v1', { 'f:spec': { 'f:replicas': {} }, 'f:status': { 'f:replicas': {} } }, { subresource: 'scale' }),
      entry('status-only', 'autoscaling/v1', { 'f:status': { 'f:selector': {} } }, { subresource: 'scale' }),
    ];
    const after = toParentEntries(parent, scale, PATHS, 'example.com/v2');
    assert.deepEqual(
      after.map((e) => [e.manager, e.operation, e.apiVersion, e.time, e.subresource, e.fieldsV1]),
      [
        ['keeper', 'Apply', 'example.com/v1', '2026-12-06T10:00:00Z', undefined, REPLICAS],
        // A Scale entry owning spec.replicas, matched by nobody: the request version's path, no time, status left behind.
        ['hpa', 'Update', 'example.com/v2', undefined, 'scale', { 'f:spec': { 'f:size': {} } }],
        ['v2-owner', 'Update', 'example.com/v2', '2026-12-06T10:00:00Z', undefined, { 'f:spec': { 'f:image': {} } }],
      ],
    );
    assert.equal('time' in (after[1] ?? {}), false, 'no time at all, as kube-apiserver writes it');
  });
});
