// createRuntime's first argument: YAML text is parsed, a file path is refused with the way to load it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { DefinitionError } from '../../src/errors.js';

const YAML = `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: shop }
spec:
  crds:
    website:
      apiTypes: { group: example.io, version: v1, kind: Website, plural: websites }
`;

for (const path of ['katalog.yaml', './deploy/katalog.yml', ' /etc/operator/Katalog.YAML\n']) {
  test(`a file path (${JSON.stringify(path)}) is refused with a DefinitionError that says to use loadDefinition`, () => {
    assert.throws(
      () => createRuntime(path),
      (error: unknown) =>
        error instanceof DefinitionError &&
        error.problems[0]?.code === 'file-path' &&
        error.message.includes(`createRuntime(await loadDefinition("${path.trim()}"), options)`),
    );
  });
}

test('YAML text is still parsed, even when a value in it ends in .yaml', () => {
  const runtime = createRuntime(`${YAML}      # from katalog.yaml\n`);
  assert.deepEqual(runtime.crds().map((crd) => crd.name), ['website']);
});
