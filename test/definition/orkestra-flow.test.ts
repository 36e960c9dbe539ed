// Control-flow blocks of an operatorBox (preReconcile gates and sentinels, watch / observe.watch): both Orkestra's
// spellings and katalog's normalise into the same model; what katalog does not run is refused by name; the RBAC
// rules cover the watched kinds.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { rbacRequirements } from '../../src/cli/rbac-rules.js';
import { loadProblems } from '../support/definition-problems.js';

const problems = loadProblems;

const TYPES = 'apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Website, plural: websites }';

function orkestra(box: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      operatorBox:
${box}`;
}

describe('preReconcile and watch', () => {
  test('Orkestra gates: or → anyOf, condition shorthand, eventAware dropped, failPolicy and sentinels kept', () => {
    const definition = parseDefinition(
      orkestra(`        preReconcile:
          sentinels: [generationChanged, labelsChanged]
          enqueueGate:
            sentinels: [generationChanged]
          reconcileGate:
            eventAware: true
            failPolicy: closed
            when:
              - field: "{{ .spec.enabled }}"
                equals: "true"
            or:
              - field: spec.tier
                notEquals: free
`),
    );
    const pre = definition.crds.get('website')?.operatorBox.preReconcile;
    assert.deepEqual(pre, {
      sentinels: ['generationChanged', 'labelsChanged'],
      enqueueGate: { when: [], anyOf: [], sentinels: ['generationChanged'] },
      reconcileGate: {
        when: [{ field: '{{ .spec.enabled }}', operator: 'eq', value: 'true' }],
        anyOf: [{ field: 'spec.tier', operator: 'neq', value: 'free' }],
        sentinels: [],
        failPolicy: 'closed',
      },
    });
  });

  test('observe.watch is the same as watch; on defaults to every event; index is dropped', () => {
    const definition = parseDefinition(
      orkestra(`        observe:
          watch:
            - apiVersion: v1
              kind: ConfigMap
              name: shared
              namespace: ops
              keyFrom: { name: main, namespace: ops }
              index: [{ name: app, field: metadata.labels.app }]
            - apiVersion: apps/v1
              kind: Deployment
              on: [update, update]
              keyFrom: { label: example.com/owner }
`),
    );
    assert.deepEqual(definition.crds.get('website')?.operatorBox.watch, [
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ops', name: 'shared', on: ['create', 'update', 'delete'], keyFrom: { name: 'main', namespace: 'ops' }, path: 'spec.crds.website.operatorBox.watch[0]' },
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: undefined, name: undefined, on: ['update'], keyFrom: { label: 'example.com/owner' }, path: 'spec.crds.website.operatorBox.watch[1]' },
    ]);
  });

  test('a katalog.dev/v1 document writes the same blocks, and they survive definitionToInput', () => {
    const text = `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      operatorBox:
        preReconcile:
          sentinels: [generationChanged]
          reconcileGate: { sentinels: [generationChanged] }
        watch:
          - { apiVersion: v1, kind: Secret, on: [create, delete] }
`;
    const definition = parseDefinition(text);
    const box = definition.crds.get('website')?.operatorBox;
    assert.deepEqual(box?.preReconcile?.reconcileGate?.sentinels, ['generationChanged']);
    assert.deepEqual(box?.watch?.[0]?.on, ['create', 'delete']);
    const again = parseDefinition(JSON.stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('website')?.operatorBox.preReconcile, box?.preReconcile);
    assert.deepEqual(again.crds.get('website')?.operatorBox.watch, box?.watch);
  });

  test('bad blocks are placed errors: undeclared gate sentinel, keyFrom with both forms, a templated kind, an unknown sentinel', () => {
    const found = problems(`apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      operatorBox:
        preReconcile:
          reconcileGate: { sentinels: [labelsChanged] }
          enqueueGate: { sentinels: [noSuchThing] }
        watch:
          - { apiVersion: v1, kind: ConfigMap, keyFrom: { label: a, name: b } }
          - { apiVersion: v1, kind: "{{ .spec.kind }}" }
`);
    const messages = found.map((p) => `${p.line}:${p.message}`);
    assert.ok(messages.some((m) => m.startsWith('10:') && m.includes('sentinel "labelsChanged" is not declared under preReconcile.sentinels')), messages.join('\n'));
    assert.ok(found.some((p) => p.line === 11 && p.message.includes('generationChanged')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('13:') && m.includes('keyFrom needs exactly one of label and name')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('14:') && m.includes('watch kind must be literal')), messages.join('\n'));
  });

  test('managedFieldsChanged loads as a sentinel of preReconcile and of a watch enqueueGate', () => {
    const definition = parseDefinition(
      orkestra(`        preReconcile:
          sentinels: [managedFieldsChanged]
          reconcileGate: { sentinels: [managedFieldsChanged] }
`),
    );
    const [crd] = definition.crds.values();
    assert.deepEqual(crd?.operatorBox.preReconcile?.sentinels, ['managedFieldsChanged']);
  });

  test('reconciler.requeue moves into the box (or → anyOf); a literal after must be a duration', () => {
    const definition = parseDefinition(
      orkestra(`        reconciler:
          requeue:
            after: 30s
            or: [{ field: status.phase, equals: Pending }]
`),
    );
    assert.deepEqual(definition.crds.get('website')?.operatorBox.requeue, { after: '30s', when: [], anyOf: [{ field: 'status.phase', operator: 'eq', value: 'Pending' }] });
    const found = problems(orkestra(`        requeue: { after: soon }
`));
    assert.ok(found.some((p) => p.line === 9 && p.message.includes('requeue.after "soon" is not a duration')), JSON.stringify(found));
  });

  test('katalog rbac grants get, list and watch on every watched kind', () => {
    const definition = parseDefinition(
      orkestra(`        watch:
          - { apiVersion: v1, kind: ConfigMap }
          - { apiVersion: apps/v1, kind: Deployment }
`),
    );
    const rules = rbacRequirements(definition).cluster;
    const verbsOf = (group: string, resource: string): readonly string[] | undefined => rules.find((r) => r.apiGroups.includes(group) && r.resources.includes(resource))?.verbs;
    assert.deepEqual(verbsOf('', 'configmaps'), ['get', 'list', 'watch']);
    assert.deepEqual(verbsOf('apps', 'deployments'), ['get', 'list', 'watch']);
  });
});
