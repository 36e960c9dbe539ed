// Orkestra fields katalog refuses by name with Orkestra's own evidence (docs/orkestra-compatibility.md#rollback,
// #observe-keys): `rollBackOnError: true` and the `rollback:` block, both marked "IN DEVELOPMENT" in orkspace/orkestra
// pkg/types/types_operatorbox.go @ 21ac6793; a key of `observe` that Orkestra's Observe type
// (pkg/types/types_observe.go @ 03fdefe: watch, events, include) does not have. Each problem is placed at its
// file:line:column and the document is not half-loaded.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { loadProblems } from '../support/definition-problems.js';

function orkestra(box: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: k }
spec:
  crds:
    widget:
      apiTypes: { group: demo.io, version: v1, kind: Widget, plural: widgets }
      operatorBox:
${box}`;
}

const problemsOf = loadProblems;

describe('rollback: refused with the evidence that Orkestra has not finished it', () => {
  test('rollBackOnError: true names the feature, Orkestra\'s file and the docs anchor, at its line and column', () => {
    const [problem, ...rest] = problemsOf(orkestra('        rollBackOnError: true\n'));
    assert.deepEqual(rest, []);
    assert.equal(problem?.file, 'k.yaml');
    assert.equal(problem?.line, 9);
    assert.equal(problem?.column, 9);
    assert.match(problem?.message ?? '', /^rollBackOnError: true \("rollBackOnError"\) is not supported by katalog: Orkestra marks rollback "IN DEVELOPMENT".*pkg\/types\/types_operatorbox\.go.*#rollback$/);
  });

  test('the rollback: block is refused by name, not as an unknown field', () => {
    const problems = problemsOf(orkestra('        rollback:\n          trigger: { consecutiveFailures: 5 }\n'));
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? '', /^rollback \(failure-recovery block\) \("rollback"\) is not supported by katalog: .*IN DEVELOPMENT.*#rollback$/);
    assert.doesNotMatch(problems[0]?.message ?? '', /unknown/i);
  });

  test('rollBackOnError: false is accepted and changes nothing', () => {
    const withIt = parseDefinition(orkestra('        rollBackOnError: false\n        onCreate:\n          configMaps:\n            - name: "{{ .metadata.name }}"\n              data: { a: b }\n'));
    const without = parseDefinition(orkestra('        onCreate:\n          configMaps:\n            - name: "{{ .metadata.name }}"\n              data: { a: b }\n'));
    assert.deepEqual(withIt.crds.get('widget')?.operatorBox, without.crds.get('widget')?.operatorBox);
  });
});

describe('observe keys: watch, events and include; any other refused with that list', () => {
  test('a watch entry key written one level too high is refused at its position, naming Orkestra\'s keys', () => {
    const problems = problemsOf(orkestra('        observe:\n          watch:\n            - { apiVersion: v1, kind: ConfigMap }\n          index:\n            - { name: owner, field: .spec.owner }\n'));
    assert.equal(problems.length, 1);
    const [problem] = problems;
    assert.equal(problem?.line, 12);
    assert.equal(problem?.column, 11);
    assert.match(problem?.message ?? '', /^observe\.index \("index"\) is not supported by katalog: Orkestra's observe block has only watch, events, include \(orkspace\/orkestra pkg\/types\/types_observe\.go, type Observe\).*#observe-keys$/);
  });

  test('watch, events and include together load', () => {
    const definition = parseDefinition(
      orkestra('        observe:\n          watch:\n            - { apiVersion: v1, kind: ConfigMap }\n          events:\n            ready: { reason: Ready }\n'),
    );
    assert.equal(definition.crds.get('widget')?.operatorBox.watch?.length, 1);
  });
});
