// Orkestra profiles (pkg/types/types_profiles.go: named presets, reconciler.profile, resources.profile) are not built
// yet: each reference is refused by name at its line, never "unknown field" and never silently ignored.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { DefinitionError, type DefinitionProblem } from '../../src/errors.js';

function problems(box: string): DefinitionProblem[] {
  const text = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
${box}`;
  try {
    parseDefinition(text, { source: 'k.yaml' });
  } catch (error) {
    assert.ok(error instanceof DefinitionError);
    return [...error.problems];
  }
  assert.fail('the definition loaded');
}

describe('profiles stay refused by name', () => {
  test('reconciler.profile and a container resources.profile', () => {
    const found = problems('        reconcile:\n          profile: high-throughput\n        onCreate:\n          deployments:\n            - image: nginx\n              resources: { profile: small }\n');
    assert.deepEqual(found.map((p) => [p.code, p.line]), [['orkestra-unsupported', 10], ['orkestra-unsupported', 14]]);
    assert.match(found[0]?.message ?? '', /reconciler profiles .*#not-yet-implemented$/);
    assert.match(found[1]?.message ?? '', /resource profiles \(resources\.profile\)/);
  });
});
