// CRD-level labels (orkspace/orkestra pkg/runtime/informer/fixture/watch/katalog.yaml: `labels:
// {watchprobe-tester: "{{ .metadata.name }}"}` on the CRD entry): only labels whose rendered value differs are
// written; the custom resource's other labels are left alone; bad input is refused at its place.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crLabelsToWrite } from '../../src/operatorbox/cr-labels.js';
import { parseDefinition } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';

describe('crLabelsToWrite', () => {
  const object = { metadata: { name: 'a', labels: { team: 'x', tier: 'web' } } };
  test('nothing when every label already holds its value', () => assert.equal(crLabelsToWrite({ tier: 'web' }, object, 'labels'), undefined));
  test('the changed and missing ones, as texts', () => assert.deepEqual(crLabelsToWrite({ tier: 'api', replicas: 3, team: 'x' }, object, 'labels'), { tier: 'api', replicas: '3' }));
  test('a value that renders a map is an error naming the label', () => assert.throws(() => crLabelsToWrite({ tier: { a: 1 } }, object, 'spec.crds.w.labels'), /spec\.crds\.w\.labels\.tier: a label value must render a text/));
});

describe('CRD labels in the loader', () => {
  test('an invalid template in a label value is reported at file:line', () => {
    try {
      parseDefinition(
        `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: k }
spec:
  crds:
    w:
      labels:
        owner: "{{ .metadata.name "
      apiTypes: { group: demo.io, version: v1, kind: W, plural: ws }
`,
        { source: 'k.yaml' },
      );
      assert.fail('expected a problem');
    } catch (error) {
      assert.ok(error instanceof DefinitionError);
      const found = error.problems.find((p) => p.code === 'template-syntax');
      assert.equal(found?.line, 8);
      assert.equal(found?.file, 'k.yaml');
    }
  });
});
