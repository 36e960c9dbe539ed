import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApplyConflictError, recordUpdate, serverSideApply, type ManagedFieldsEntry } from '../../../src/testing/patch/server-side-apply.js';
import { listKeysFor } from '../../../src/testing/patch/strategic-keys.js';
import { PatchError } from '../../../src/testing/patch/patch-error.js';
import { deepFreeze, snapshot } from './frozen.js';

type Obj = Record<string, unknown>;
const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const T2 = '2026-01-01T00:02:00Z';
const listKeys = listKeysFor('apps/v1', 'Deployment');

function apply(live: Obj | undefined, applied: Obj, manager: string, extra: { force?: boolean; now?: string } = {}): { object: Obj; managedFields: ManagedFieldsEntry[] } {
  return serverSideApply(live === undefined ? undefined : deepFreeze(live), deepFreeze(applied), {
    manager,
    force: extra.force ?? false,
    apiVersion: 'apps/v1',
    now: extra.now ?? T0,
    listKeys,
  });
}

function deployment(spec: Obj, metadata: Obj = {}): Obj {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', ...metadata }, spec };
}

const spec = (o: Obj): Obj => o['spec'] as Obj;
const managers = (entries: readonly ManagedFieldsEntry[]): string[] => entries.map((e) => `${e.manager}/${e.operation}`);

function conflictOf(run: () => unknown): ApplyConflictError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApplyConflictError) return error;
    throw error;
  }
  assert.fail('expected an ApplyConflictError');
}

describe('serverSideApply', () => {
  test('create via apply: the object is the applied config; managedFields encoding is exact', () => {
    const applied = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, finalizers: ['example.com/f'] },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'app:1', ports: [{ containerPort: 80 }] }], tolerations: [{ operator: 'Exists' }] } } },
    };
    const { object, managedFields } = apply(undefined, applied, 'katalog');
    const expected: ManagedFieldsEntry[] = [
      {
        manager: 'katalog',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:finalizers': { 'v:"example.com/f"': {} }, 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:template': {
              'f:spec': {
                'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } },
                'f:tolerations': {},
              },
            },
          },
        },
      },
    ];
    assert.deepEqual(managedFields, expected);
    assert.equal(
      JSON.stringify(managedFields[0]?.fieldsV1),
      '{"f:metadata":{"f:finalizers":{"v:\\"example.com/f\\"":{}},"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}},"f:tolerations":{}}}}}',
    );
    assert.deepEqual(object, { ...applied, metadata: { ...applied.metadata, managedFields: expected } });
  });

  test('server-owned metadata in the applied config is ignored; the live values stay', () => {
    const live = apply(undefined, deployment({ replicas: 1 }), 'katalog').object;
    const withUid = { ...(live['metadata'] as Obj), uid: 'u-1', resourceVersion: '7' };
    const { object } = apply({ ...live, metadata: withUid }, deployment({ replicas: 1 }, { uid: 'forged', resourceVersion: '1', managedFields: [] }), 'katalog');
    assert.equal((object['metadata'] as Obj)['uid'], 'u-1');
    assert.equal((object['metadata'] as Obj)['resourceVersion'], '7');
  });

  test('re-applying without a field removes it from the object; a no-op apply keeps object and time', () => {
    const first = apply(undefined, deployment({ replicas: 2, paused: false }, { labels: { a: '1', b: '2' } }), 'katalog');
    const second = apply(first.object, deployment({ replicas: 2 }, { labels: { a: '1' } }), 'katalog', { now: T1 });
    assert.deepEqual(spec(second.object), { replicas: 2 });
    assert.deepEqual((second.object['metadata'] as Obj)['labels'], { a: '1' });
    assert.equal(second.managedFields[0]?.time, T1);
    const third = apply(second.object, deployment({ replicas: 2 }, { labels: { a: '1' } }), 'katalog', { now: T2 });
    assert.deepEqual(third.object, second.object);
  });

  test('dropping the last label removes the emptied labels map', () => {
    const first = apply(undefined, deployment({ replicas: 1 }, { labels: { a: '1' } }), 'katalog');
    const second = apply(first.object, deployment({ replicas: 1 }), 'katalog');
    assert.equal(Object.hasOwn(second.object['metadata'] as Obj, 'labels'), false);
  });

  test('an associative list item one manager drops is removed; another manager\'s item stays', () => {
    const withA = apply(undefined, deployment({ template: { spec: { containers: [{ name: 'a', image: 'a:1' }] } } }), 'one');
    const withB = apply(withA.object, deployment({ template: { spec: { containers: [{ name: 'b', image: 'b:1' }] } } }), 'two');
    assert.deepEqual((spec(withB.object)['template'] as { spec: { containers: unknown } }).spec.containers, [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }]);
    const dropped = apply(withB.object, deployment({ replicas: 1 }), 'one');
    assert.deepEqual(spec(dropped.object), { replicas: 1, template: { spec: { containers: [{ name: 'b', image: 'b:1' }] } } });
  });

  test('two managers applying the same value share the field; one dropping it keeps it', () => {
    const first = apply(undefined, deployment({ replicas: 3 }), 'one');
    const shared = apply(first.object, deployment({ replicas: 3 }), 'two', { now: T1 });
    assert.deepEqual(managers(shared.managedFields), ['one/Apply', 'two/Apply']);
    assert.ok(shared.managedFields.every((e) => JSON.stringify(e.fieldsV1) === '{"f:spec":{"f:replicas":{}}}'));
    const oneLeaves = apply(shared.object, deployment({ paused: true }), 'one', { now: T2 });
    assert.deepEqual(spec(oneLeaves.object), { replicas: 3, paused: true });
  });

  test('a different value conflicts; force takes the field over', () => {
    const first = apply(undefined, deployment({ replicas: 3 }, { labels: { team: 'x' } }), 'one');
    const error = conflictOf(() => apply(first.object, deployment({ replicas: 5 }), 'two'));
    assert.equal(error.message, 'Apply failed with 1 conflict: conflict with "one": .spec.replicas');
    assert.deepEqual(error.conflicts, [{ manager: 'one', path: '.spec.replicas', message: 'conflict with "one"' }]);
    assert.deepEqual(error.causes, [{ type: 'FieldManagerConflict', message: 'conflict with "one"', field: '.spec.replicas' }]);

    const forced = apply(first.object, deployment({ replicas: 5 }), 'two', { force: true, now: T1 });
    assert.equal(spec(forced.object)['replicas'], 5);
    const one = forced.managedFields.find((e) => e.manager === 'one');
    assert.deepEqual(one?.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:team': {} } } });
    assert.equal(one?.time, T0);
  });

  test('conflicts inside associative lists name the item, several conflicts are grouped', () => {
    const first = apply(undefined, deployment({ replicas: 1, template: { spec: { containers: [{ name: 'app', image: 'a:1' }] } } }), 'one');
    const error = conflictOf(() => apply(first.object, deployment({ replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'a:2' }] } } }), 'two'));
    assert.deepEqual(error.conflicts.map((c) => c.path).sort(), ['.spec.replicas', '.spec.template.spec.containers[name="app"].image']);
    assert.match(error.message, /^Apply failed with 2 conflicts: conflicts with "one":\n- /);
  });

  test('kubectl-edit changes spec.replicas: katalog apply conflicts without force, wins with force', () => {
    const created = apply(undefined, deployment({ replicas: 2, paused: false }), 'katalog');
    const edited: Obj = { ...created.object, spec: { replicas: 4, paused: false } };
    const managedFields = recordUpdate(deepFreeze(created.object), deepFreeze(edited), deepFreeze(created.managedFields), {
      manager: 'kubectl-edit',
      apiVersion: 'apps/v1',
      now: T1,
      listKeys,
    });
    assert.deepEqual(managers(managedFields), ['katalog/Apply', 'kubectl-edit/Update']);
    assert.deepEqual(managedFields[0]?.fieldsV1, { 'f:spec': { 'f:paused': {} } });
    assert.deepEqual(managedFields[1], { manager: 'kubectl-edit', operation: 'Update', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    const live = { ...edited, metadata: { ...(edited['metadata'] as Obj), managedFields } };

    const error = conflictOf(() => apply(live, deployment({ replicas: 2, paused: false }), 'katalog'));
    assert.equal(error.message, 'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas');
    assert.deepEqual(error.causes, [{ type: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using apps/v1', field: '.spec.replicas' }]);

    const forced = apply(live, deployment({ replicas: 2, paused: false }), 'katalog', { force: true, now: T2 });
    assert.equal(spec(forced.object)['replicas'], 2);
    assert.deepEqual(managers(forced.managedFields), ['katalog/Apply']);
  });

  test('kubectl-edit setting the same value as katalog applies is no conflict', () => {
    const created = apply(undefined, deployment({ replicas: 2 }, { labels: { a: '1' } }), 'katalog');
    const edited = { ...created.object, metadata: { ...(created.object['metadata'] as Obj), labels: { a: '1', b: '2' } } };
    const managedFields = recordUpdate(created.object, edited, created.managedFields, { manager: 'kubectl-edit', apiVersion: 'apps/v1', now: T1, listKeys });
    const live = { ...edited, metadata: { ...(edited['metadata'] as Obj), managedFields } };
    const again = apply(live, deployment({ replicas: 2 }, { labels: { a: '1', b: '2' } }), 'katalog');
    assert.deepEqual((again.object['metadata'] as Obj)['labels'], { a: '1', b: '2' });
  });

  test('an object that never had managedFields is owned by before-first-apply', () => {
    const error = conflictOf(() => apply(deployment({ replicas: 1 }), deployment({ replicas: 2 }), 'katalog'));
    assert.equal(error.message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
  });

  test('the status subresource merges and tracks .status only, in its own entry', () => {
    const created = apply(undefined, deployment({ replicas: 1 }), 'katalog');
    const result = serverSideApply(deepFreeze(created.object), deepFreeze({ ...deployment({ replicas: 9 }), status: { readyReplicas: 1 } }), {
      manager: 'katalog',
      force: false,
      apiVersion: 'apps/v1',
      now: T1,
      listKeys,
      subresource: 'status',
    });
    assert.deepEqual(spec(result.object), { replicas: 1 });
    assert.deepEqual(result.object['status'], { readyReplicas: 1 });
    assert.deepEqual(
      result.managedFields.map((e) => [e.manager, e.operation, e.subresource, e.fieldsV1]),
      [
        ['katalog', 'Apply', undefined, { 'f:spec': { 'f:replicas': {} } }],
        ['katalog', 'Apply', 'status', { 'f:status': { 'f:readyReplicas': {} } }],
      ],
    );
  });

  test('finalizers are a set: each manager adds and removes only its own', () => {
    const one = apply(undefined, deployment({}, { finalizers: ['example.com/one'] }), 'one');
    const both = apply(one.object, deployment({}, { finalizers: ['example.com/two'] }), 'two');
    assert.deepEqual((both.object['metadata'] as Obj)['finalizers'], ['example.com/one', 'example.com/two']);
    const oneDone = apply(both.object, deployment({}, { finalizers: [] }), 'one');
    assert.deepEqual((oneDone.object['metadata'] as Obj)['finalizers'], ['example.com/two']);
  });

  test('null in the applied config removes the field, and conflicts with its other owner', () => {
    const first = apply(undefined, deployment({ replicas: 1, paused: true }), 'one');
    assert.throws(() => apply(first.object, deployment({ paused: null }), 'two'), ApplyConflictError);
    const own = apply(first.object, deployment({ replicas: 1, paused: null }), 'one');
    assert.deepEqual(spec(own.object), { replicas: 1 });
  });

  test('malformed associative lists in the applied config are rejected; an item without its key is keyed by the key\'s default', () => {
    // kube-apiserver's schema gives a container's name the default "": the item is keyed by it, and validation refuses it.
    const nameless = apply(undefined, deployment({ template: { spec: { containers: [{ image: 'x' }] } } }), 'k');
    const fields = JSON.stringify(nameless.managedFields[0]?.fieldsV1);
    assert.ok(fields.includes('"k:{\\"name\\":\\"\\"}"'), fields);
    // A ServiceAccount's secrets are keyed by name without a default: an item without it cannot be keyed.
    const account = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'default' }, secrets: [{ namespace: 'x' }] };
    const options = { manager: 'k', force: false, apiVersion: 'v1', now: T0, listKeys: listKeysFor('v1', 'ServiceAccount') };
    assert.throws(() => serverSideApply(undefined, deepFreeze(account), options), PatchError);
    assert.throws(() => apply(undefined, deployment({ template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } }), 'k'), /duplicate entries/);
  });

  test('__proto__ keys in the applied config are data', () => {
    const applied = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"__proto__":"x"}},"data":{"__proto__":{"polluted":true}}}') as Obj;
    const { object, managedFields } = serverSideApply(undefined, deepFreeze(applied), { manager: 'k', force: false, apiVersion: 'v1', now: T0 });
    assert.equal(({} as Obj)['polluted'], undefined);
    assert.equal(JSON.stringify(object['data']), '{"__proto__":{"polluted":true}}');
    assert.equal(JSON.stringify(managedFields[0]?.fieldsV1), '{"f:data":{"f:__proto__":{"f:polluted":{}}},"f:metadata":{"f:labels":{"f:__proto__":{}}}}');
  });

  test('the live managedFields are never changed, even by an entry that names them; the result carries the new entries', () => {
    // A hand-written entry whose FieldsV1 names metadata.managedFields itself: dropping it from the manager's next
    // apply must not reach into the stored entries, which the merge shares instead of copying.
    const handWritten: ManagedFieldsEntry = {
      manager: 'katalog',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      time: T0,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:managedFields': { 'i:0': { 'f:time': {} } } }, 'f:spec': { 'f:replicas': {} } },
    };
    const other: ManagedFieldsEntry = { manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:paused': {} } } };
    const live = deployment({ replicas: 1, paused: true }, { managedFields: [other, handWritten] });
    const before = snapshot(live);
    // Not frozen, as the server's stored objects are not: a change in place would show in the snapshot.
    const result = serverSideApply(live, deployment({ replicas: 2 }), { manager: 'katalog', force: false, apiVersion: 'apps/v1', now: T1, listKeys });
    assert.deepEqual(snapshot(live), before);
    assert.deepEqual(spec(result.object), { replicas: 2, paused: true });
    assert.equal((result.object['metadata'] as Obj)['managedFields'], result.managedFields);
    assert.deepEqual(managers(result.managedFields), ['katalog/Apply', 'kubectl/Update']);
    assert.deepEqual(result.managedFields[0]?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.equal(result.managedFields[0]?.time, T1);
  });

  test('property: re-applying the same configuration changes nothing', () => {
    const labels = fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.string(), { maxKeys: 4 });
    fc.assert(
      fc.property(labels, labels, fc.integer({ min: 0, max: 5 }), (first, second, replicas) => {
        const one = apply(undefined, deployment({ replicas }, { labels: first }), 'one');
        const two = apply(one.object, deployment({}, { labels: second }), 'two', { force: true, now: T1 });
        const again = apply(two.object, deployment({}, { labels: second }), 'two', { now: T2 });
        assert.deepEqual(snapshot(again.object), snapshot(two.object));
      }),
    );
  });
});
