// Orkestra's operatorBox.emit (pkg/types/types_emit.go: EmitConfig {status, events}, EmitEventEntry {type, reason,
// message, on, when, or}) loads into the one model: emit.status is the operatorBox status, emit.events the
// operatorBox's events; katalog.dev/v1 writes `events` directly, and a write-back keeps them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { rbacRequirements } from '../../src/cli/rbac-rules.js';
import type { DefinitionProblem } from '../../src/errors.js';
import { loadProblems } from '../support/definition-problems.js';

function orkestra(box: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
${box}`;
}

const problems = loadProblems;

describe('emit', () => {
  test('emit.status and emit.events: declaration order, `or` read as anyOf, `on` as outcomes', () => {
    const definition = parseDefinition(
      orkestra(`        emit:
          status:
            fields: [{ path: size, value: "{{ .spec.size }}" }]
          events:
            zeta: { type: Warning, reason: Failed, message: "{{ .metadata.name }} failed", on: [failure] }
            alpha:
              type: Normal
              reason: Big
              message: big
              or: [{ field: spec.size, equals: xl }]
`),
      { source: 'k.yaml' },
    );
    const box = definition.crds.get('widget')?.operatorBox;
    assert.deepEqual(box?.status.fields.map((f) => f.path), ['size']);
    assert.deepEqual(box?.events?.map((e) => [e.name, e.type, e.on]), [
      ['zeta', 'Warning', ['failure']],
      ['alpha', 'Normal', ['success', 'failure']],
    ]);
    assert.deepEqual(box?.events?.[1]?.anyOf, [{ field: 'spec.size', operator: 'eq', value: 'xl' }]);
    assert.equal(box?.events?.[0]?.path, 'spec.crds.widget.operatorBox.events.zeta');
    // A repeat patches the count of the Event recorded before: `katalog rbac` grants patch on events then.
    const verbs = rbacRequirements(definition).cluster.find((r) => r.apiGroups.includes('') && r.resources.includes('events'))?.verbs;
    assert.deepEqual([...(verbs ?? [])].sort(), ['create', 'patch']);
  });

  test('katalog.dev/v1 writes operatorBox.events, and a write-back keeps them', () => {
    const text = `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.katalog.dev, version: v1, kind: Widget, plural: widgets }
      operatorBox:
        events:
          done: { type: Normal, reason: Done, message: "ok", on: [success] }
`;
    const input = definitionToInput(parseDefinition(text, { source: 'k.yaml' }));
    const again = parseDefinition(JSON.stringify(input), { source: 'again.yaml' });
    assert.deepEqual(again.crds.get('widget')?.operatorBox.events?.map((e) => [e.name, e.reason, e.on]), [['done', 'Done', ['success']]]);
  });

  test('errors at their line: a bad type, a broken message template, status in both places, an unknown emit key', () => {
    const found = problems(
      orkestra(`        status: { fields: [] }
        emit:
          status: { fields: [] }
          metrics: {}
          events:
            one: { type: Info, reason: R, message: m }
            two: { type: Normal, reason: R, message: "{{ .spec.size " }
`),
    );
    const at = (code: string): DefinitionProblem | undefined => found.find((p) => p.code === code);
    assert.equal(at('generation-conflict')?.line, 11);
    assert.equal(at('unknown-field')?.line, 12);
    assert.match(at('unknown-field')?.message ?? '', /Orkestra has status and events there/);
    assert.equal(at('invalid-value')?.line, 14);
    assert.equal(at('template-syntax')?.line, 15);
  });
});
