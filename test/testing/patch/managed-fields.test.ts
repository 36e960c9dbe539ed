import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ZERO_OBJECTS } from '../../../src/testing/kinds/builtin/zero-objects.js';
import { recordUpdate, type ManagedFieldsEntry } from '../../../src/testing/patch/managed-fields.js';
import { listKeysFor } from '../../../src/testing/patch/strategic-keys.js';
import { deepFreeze } from './frozen.js';

type Obj = Record<string, unknown>;
const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const listKeys = listKeysFor('v1', 'Pod');

function update(before: Obj | undefined, after: Obj, entries: ManagedFieldsEntry[], manager: string, extra: { now?: string; subresource?: string } = {}): ManagedFieldsEntry[] {
  const opts = { manager, apiVersion: 'v1', now: extra.now ?? T1, listKeys };
  return recordUpdate(
    before === undefined ? undefined : deepFreeze(before),
    deepFreeze(after),
    deepFreeze(entries),
    extra.subresource === undefined ? opts : { ...opts, subresource: extra.subresource },
  );
}

const pod = (spec: Obj, extra: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u', resourceVersion: '3' }, spec, ...extra });

describe('recordUpdate', () => {
  test("an Update entry per apiVersion: the same manager's write in another version takes what it changes from the first; a removal keeps the time", () => {
    const obj = (spec: Obj): Obj => ({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'k' }, spec });
    const entry = (apiVersion: string, time: string, spec: Obj): ManagedFieldsEntry => ({ manager: 'm', operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': spec } });
    const first = [entry('g/v1beta1', T0, { '.': {}, 'f:a': {}, 'f:b': {} })];
    const changed = recordUpdate(obj({ a: 1, b: 1 }), obj({ a: 2, b: 1 }), first, { manager: 'm', apiVersion: 'g/v1', now: T1 });
    assert.deepEqual(changed, [entry('g/v1beta1', T0, { '.': {}, 'f:b': {} }), entry('g/v1', T1, { 'f:a': {} })]);
    const removed = recordUpdate(obj({ a: 2, b: 1 }), obj({ b: 1 }), changed, { manager: 'm', apiVersion: 'g/v1beta1', now: '2026-01-01T00:02:00Z' });
    assert.deepEqual(removed, [entry('g/v1beta1', T0, { '.': {}, 'f:b': {} })], 'the v1 entry left empty goes; the v1beta1 one keeps its time');
  });

  test("create from nothing (a custom resource): every set field, and every map and list it adds ('.'), becomes the manager's; identity metadata is not tracked", () => {
    const entries = update(undefined, pod({ containers: [{ name: 'a', image: 'a:1' }], restartPolicy: 'Always' }, { metadata: { name: 'p', labels: { l: 'x' } } }), [], 'kubectl-create', { now: T0 });
    assert.deepEqual(entries, [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:l': {} } },
          'f:spec': { '.': {}, 'f:containers': { '.': {}, 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } }, 'f:restartPolicy': {} },
        },
      },
    ]);
  });

  test("create of a built-in kind, compared with its Go zero value: its non-pointer structs and null lists are there already (no '.'), an empty map is a leaf", () => {
    const entries = recordUpdate(ZERO_OBJECTS['v1/Pod'], pod({ containers: [{ name: 'a', image: 'a:1', resources: {} }], securityContext: {}, affinity: { nodeAffinity: {} } }), [], { manager: 'm', apiVersion: 'v1', now: T0, listKeys, create: true });
    assert.deepEqual(entries[0]?.fieldsV1, {
      'f:spec': { 'f:affinity': { '.': {}, 'f:nodeAffinity': {} }, 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:resources': {} } }, 'f:securityContext': {} },
    });
  });

  test('an update of an object that has no entries tracks nothing (kube skips it until an apply); a create does', () => {
    const before = pod({ restartPolicy: 'Always' });
    const after = pod({ restartPolicy: 'Never', hostname: 'h' });
    assert.deepEqual(update(before, after, [], 'm'), []);
    const created = recordUpdate(ZERO_OBJECTS['v1/Pod'], after, [], { manager: 'm', apiVersion: 'v1', now: T0, listKeys, create: true });
    assert.deepEqual(created.map((e) => e.fieldsV1), [{ 'f:spec': { 'f:hostname': {}, 'f:restartPolicy': {} } }]);
  });

  test('create of an object with only untracked fields records no entry', () => {
    assert.deepEqual(update(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }, [], 'm'), []);
  });

  test('a write that changes nothing returns the entries unchanged', () => {
    const object = pod({ restartPolicy: 'Always' });
    const entries = update(undefined, object, [], 'one', { now: T0 });
    assert.deepEqual(update(object, { ...object, metadata: { name: 'p', namespace: 'default', uid: 'u', resourceVersion: '4' } }, entries, 'two'), entries);
  });

  test('changed fields move to the writer; removed fields leave every manager; empty entries are dropped', () => {
    const v1 = pod({ restartPolicy: 'Always', hostname: 'h', containers: [{ name: 'a', image: 'a:1' }] });
    const created = update(undefined, v1, [], 'one', { now: T0 });
    const v2 = pod({ restartPolicy: 'Never', containers: [{ name: 'a', image: 'a:2' }] });
    const entries = update(v1, v2, created, 'two');
    assert.deepEqual(
      entries.map((e) => [e.manager, e.fieldsV1]),
      [
        ['one', { 'f:spec': { '.': {}, 'f:containers': { '.': {}, 'k:{"name":"a"}': { '.': {}, 'f:name': {} } } } }],
        ['two', { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { 'f:image': {} } }, 'f:restartPolicy': {} } }],
      ],
    );
    // Emptying spec removes its fields; the map itself is not changed, so it stays with the manager that added it.
    const v3 = pod({});
    assert.deepEqual(
      update(v2, v3, entries, 'three').map((e) => [e.manager, e.fieldsV1]),
      [['one', { 'f:spec': {} }]],
    );
  });

  test('a struct or map filled, then emptied, keeps the member its owner took when it was empty; only its entries come and go', () => {
    const empty = pod({ securityContext: {}, overhead: {} });
    const owner = update(pod({}), empty, [{ manager: 'owner', operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }], 'owner');
    assert.deepEqual(owner.map((e) => e.fieldsV1), [{ 'f:spec': { '.': {}, 'f:overhead': {}, 'f:securityContext': {} } }]);
    const full = pod({ securityContext: { runAsUser: 1 }, overhead: { cpu: '1' } });
    const filled = update(empty, full, owner, 'owner');
    assert.deepEqual(filled.map((e) => e.fieldsV1), [
      { 'f:spec': { '.': {}, 'f:overhead': { '.': {}, 'f:cpu': {} }, 'f:securityContext': { '.': {}, 'f:runAsUser': {} } } },
    ]);
    // Another manager empties them: the entries leave the owner, the members stay; the emptier takes nothing.
    const emptied = update(full, empty, filled, 'other');
    assert.deepEqual(emptied.map((e) => [e.manager, e.fieldsV1]), [['owner', { 'f:spec': { '.': {}, 'f:overhead': {}, 'f:securityContext': {} } }]]);
  });

  test('an Update and an Apply of the same manager are separate entries, sorted Apply first then by time', () => {
    const apply: ManagedFieldsEntry = { manager: 'katalog', operation: 'Apply', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:hostname': {} } } };
    const before = pod({ hostname: 'h' });
    const entries = update(before, pod({ hostname: 'h', subdomain: 's' }), [apply], 'katalog', { now: T0 });
    assert.deepEqual(entries.map((e) => `${e.manager}/${e.operation}`), ['katalog/Apply', 'katalog/Update']);
    assert.deepEqual(entries[1]?.fieldsV1, { 'f:spec': { 'f:subdomain': {} } });
  });

  test('the status subresource records .status only, in an entry of its own', () => {
    const before = pod({ restartPolicy: 'Always' });
    const main = update(undefined, before, [], 'katalog', { now: T0 });
    const entries = update(before, { ...before, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }, main, 'katalog', { subresource: 'status' });
    assert.deepEqual(entries[1], {
      manager: 'katalog',
      operation: 'Update',
      apiVersion: 'v1',
      time: T1,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { '.': {}, 'f:conditions': { '.': {}, 'k:{"type":"Ready"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:phase': {} } },
      subresource: 'status',
    });
    assert.deepEqual(entries[0], main[0]);
  });

  test('a stored list that cannot be keyed is tracked as one field instead of failing the write', () => {
    const entries = update(undefined, pod({ containers: [{ name: 'a' }, { name: 'a' }, { image: 'x' }] }), [], 'm');
    assert.deepEqual(entries[0]?.fieldsV1, { 'f:spec': { '.': {}, 'f:containers': {} } });
  });

  test('malformed stored entries are dropped rather than trusted', () => {
    const junk = [{ manager: 7 }, { manager: 'x', operation: 'Delete', fieldsV1: {} }] as unknown as ManagedFieldsEntry[];
    const entries = update(pod({ hostname: 'a' }), pod({ hostname: 'b' }), junk, 'm');
    assert.deepEqual(entries.map((e) => e.manager), ['m']);
  });

  test('property: recording a write from an object to itself never changes the entries', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), fc.jsonValue(), { maxKeys: 5 }), (spec) => {
        const object = deepFreeze(pod(spec));
        const entries = update(undefined, object, [], 'one', { now: T0 });
        assert.deepEqual(update(object, object, entries, 'two'), entries);
      }),
    );
  });
});
