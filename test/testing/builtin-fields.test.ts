// The generated Go fields of the built-in kinds (go/builtin-fields.ts) cover every kind the server serves:
// a kind added to the server without regenerating the table would otherwise keep every field it is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinResourceTypes } from '../../src/testing/resources/builtin-resources.js';
import { builtInRootStruct } from '../../src/testing/resources/builtin-typed-schema.js';
import { childOf, rootNode } from '../../src/testing/resources/known-fields.js';

test('every built-in kind the server serves has its Go type: an unknown field is unknown at the top and deep down', () => {
  for (const type of builtinResourceTypes()) {
    const view = { type, version: type.storageVersion } as Parameters<typeof rootNode>[0];
    const root = rootNode(view);
    assert.ok(builtInRootStruct(type, type.storageVersion) !== undefined, `${type.group}/${type.kind} has a generated Go type`);
    assert.equal(childOf(root, 'bogus').known, false, `${type.group}/${type.kind}: a top-level field its Go type lacks`);
    assert.equal(childOf(childOf(root, 'metadata').node, 'bogus').known, false, `${type.kind}: ObjectMeta is typed`);
  }
  const deployment = builtinResourceTypes().find((type) => type.kind === 'Deployment');
  assert.ok(deployment !== undefined);
  let node = rootNode({ type: deployment, version: 'v1' } as Parameters<typeof rootNode>[0]);
  for (const key of ['spec', 'template', 'spec', 'containers']) node = childOf(node, key).node;
  assert.equal(node?.['type'], 'array');
  const container = node?.['items'] as Parameters<typeof childOf>[0];
  assert.equal(childOf(container, 'imagePullPolicy').known, true);
  assert.equal(childOf(container, 'imagePullpolicy').known, false, 'names match case-sensitively');
  assert.equal(childOf(childOf(container, 'resources').node, 'limits').known, true);
});
