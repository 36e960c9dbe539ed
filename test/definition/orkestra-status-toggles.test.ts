// Orkestra's CRD-level status switches (pkg/types CRDEntry.IgnoreStatusPatch / IgnoreObservedGeneration, read by
// the status patch of the generic reconciler): they load into operatorBox.status (write / observedGeneration false),
// katalog.dev/v1 writes the same switches there, and both survive a write-back.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { DefinitionError } from '../../src/errors.js';

function orkestra(fields: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
${fields}`;
}

describe('ignoreObservedGeneration and ignoreStatusPatch', () => {
  test('Orkestra true → the switch off in operatorBox.status; false and absent → both on', () => {
    const off = parseDefinition(orkestra('      ignoreObservedGeneration: true\n      ignoreStatusPatch: true\n      operatorBox: { status: { conditions: true } }\n'), { source: 'k.yaml' });
    const status = off.crds.get('widget')?.operatorBox.status;
    assert.equal(status?.observedGeneration, false);
    assert.equal(status?.write, false);
    assert.equal(status?.conditions, true);
    const on = parseDefinition(orkestra('      ignoreObservedGeneration: false\n      ignoreStatusPatch: false\n'), { source: 'k.yaml' });
    assert.equal(on.crds.get('widget')?.operatorBox.status.observedGeneration, undefined);
    assert.equal(on.crds.get('widget')?.operatorBox.status.write, undefined);
  });

  test('katalog.dev/v1 writes them in operatorBox.status, and a write-back keeps them', () => {
    const text = `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.katalog.dev, version: v1, kind: Widget, plural: widgets }
      operatorBox:
        status: { observedGeneration: false, write: false }
`;
    const definition = parseDefinition(text, { source: 'k.yaml' });
    const input = definitionToInput(definition) as { spec: { crds: Record<string, { operatorBox: { status: Record<string, unknown> } }> } };
    assert.equal(input.spec.crds['widget']?.operatorBox.status['observedGeneration'], false);
    assert.equal(input.spec.crds['widget']?.operatorBox.status['write'], false);
  });

  test('a value that is not a boolean is an error at its line; the Orkestra names are unknown in katalog.dev/v1', () => {
    try {
      parseDefinition(orkestra('      ignoreStatusPatch: "yes"\n'), { source: 'k.yaml' });
      assert.fail('expected problems');
    } catch (error) {
      assert.ok(error instanceof DefinitionError);
      assert.ok(error.problems.some((p) => p.line === 8 && p.message.includes('must be true or false')), JSON.stringify(error.problems));
    }
    assert.throws(() => parseDefinition(orkestra('      ignoreObservedGeneration: true\n').replace('orkestra.orkspace.io/v1', 'katalog.dev/v1'), { source: 'k.yaml' }), DefinitionError);
  });

  test('removeFinalizers stays refused by name, with the page that says why, at its line', () => {
    try {
      parseDefinition(orkestra('      removeFinalizers: true\n'), { source: 'k.yaml' });
      assert.fail('expected problems');
    } catch (error) {
      assert.ok(error instanceof DefinitionError);
      const refusal = error.problems.find((p) => p.code === 'orkestra-unsupported');
      assert.equal(refusal?.line, 8);
      assert.match(refusal?.message ?? '', /removeFinalizers .*testing switch.*docs\/orkestra-compatibility\.md#removefinalizers/);
    }
  });

  test('operatorBox.runtime (current Orkestra): the same switches, autoscale moved out, another key refused by name', () => {
    const viaRuntime = parseDefinition(
      orkestra(`      operatorBox:
        runtime:
          ignoreObservedGeneration: true
          ignoreStatusPatch: true
          autoscale:
            conditions: { when: [{ field: metrics.queueDepth, greaterThan: "10" }] }
            do: { workers: 4 }
`),
      { source: 'k.yaml' },
    ).crds.get('widget');
    const onEntry = parseDefinition(
      orkestra(`      ignoreObservedGeneration: true
      ignoreStatusPatch: true
      operatorBox:
        autoscale:
          conditions: { when: [{ field: metrics.queueDepth, greaterThan: "10" }] }
          do: { workers: 4 }
`),
      { source: 'k.yaml' },
    ).crds.get('widget');
    assert.deepEqual(viaRuntime?.operatorBox.status, onEntry?.operatorBox.status);
    assert.equal(viaRuntime?.operatorBox.status.write, false);
    assert.deepEqual(viaRuntime?.operatorBox.autoscale, onEntry?.operatorBox.autoscale);
    assert.equal(viaRuntime?.operatorBox.autoscale?.do.workers, 4);
    try {
      parseDefinition(orkestra('      operatorBox:\n        runtime:\n          shardBy: name\n'), { source: 'k.yaml' });
      assert.fail('expected a refusal');
    } catch (error) {
      assert.ok(error instanceof DefinitionError);
      const problem = error.problems.find((p) => p.path.endsWith('runtime.shardBy'));
      assert.match(problem?.message ?? '', /^operatorBox\.runtime\.shardBy \("shardBy"\) is not supported by katalog: .*docs\/orkestra-compatibility\.md#status-switches$/);
      assert.equal(problem?.line, 10);
    }
  });
});
