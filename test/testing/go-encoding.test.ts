// Go's encoding of a stored built-in object (go/go-encoding.ts), rule by rule on the generated types, and the sorted
// keys of a custom resource. The conformance suite (test/conformance/stored-form.ts) holds whole objects against
// kube-apiserver; these pin each rule and that encoding twice changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goEncoded, goEncodedUnstructured } from '../../src/testing/go/go-encoding.js';

const text = (value: unknown): string => JSON.stringify(value);

test("a struct's fields in Go's order, unknown ones dropped, maps sorted; apiVersion and kind first for the record", () => {
  const encoded = goEncoded('core.v1.ConfigMap', { data: { b: '1', a: '2' }, metadata: { namespace: 'n', name: 'x', bogus: 1 }, kind: 'ConfigMap', apiVersion: 'v1', extra: true });
  assert.equal(text(encoded), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"n"},"data":{"a":"2","b":"1"}}');
});

test('omitempty drops empty values, a pointer only null; omitzero drops the zero time; fields without either are written', () => {
  const pod = goEncoded('core.v1.Pod', {
    spec: { hostNetwork: false, nodeSelector: {}, priority: 0, enableServiceLinks: false, containers: [{ name: '', image: '', args: [], stdin: false }] },
    metadata: { name: 'p', creationTimestamp: '0001-01-01T00:00:00Z', labels: {} },
  });
  // enableServiceLinks and priority are pointers: false and 0 stay. A container's name has no omitempty.
  assert.equal(text(pod['spec']), '{"containers":[{"name":"","resources":{}}],"priority":0,"enableServiceLinks":false}');
  assert.equal(text(pod['metadata']), '{"name":"p"}');
  assert.equal(text(pod['status']), '{}');
  const condition = goEncoded('apps.v1.Deployment', { status: { conditions: [{ type: 'Available', status: 'True', reason: '' }] } });
  assert.equal(text((condition['status'] as { conditions: unknown[] }).conditions), '[{"type":"Available","status":"True","lastUpdateTime":null,"lastTransitionTime":null}]');
});

test('a list or map Go always writes is null when empty or absent; a null list item is a zero struct', () => {
  assert.equal(text(goEncoded('rbac.v1.Role', { rules: [] })['rules']), 'null');
  assert.equal(text(goEncoded('rbac.v1.Role', {})['rules']), 'null');
  assert.equal(text(goEncoded('rbac.v1.Role', { rules: [null] })['rules']), '[{"verbs":null}]');
});

test("times are written as Go writes them; a CRD schema's items, additionalProperties and dependencies are schemas too", () => {
  const event = goEncoded('core.v1.Event', { firstTimestamp: '2024-01-01T01:00:00.9+01:00', eventTime: '2024-01-01T00:00:00.000001-00:30' });
  assert.deepEqual([event['firstTimestamp'], event['eventTime']], ['2024-01-01T00:00:00Z', '2024-01-01T00:30:00.000001Z']);
  const schema = { properties: { b: { type: 'string' }, a: { items: { type: 'string', format: 'x' }, type: 'array' } }, additionalProperties: { type: 'integer', description: 'd' }, dependencies: { z: ['a'], y: { required: ['b'], type: 'object' } }, type: 'object' };
  const crd = goEncoded('apiextensions.v1.CustomResourceDefinition', { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] } });
  const stored = (crd['spec'] as { versions: { schema: { openAPIV3Schema: unknown } }[] }).versions[0]?.schema.openAPIV3Schema;
  assert.equal(
    text(stored),
    '{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","format":"x"}},"b":{"type":"string"}},"additionalProperties":{"description":"d","type":"integer"},"dependencies":{"y":{"type":"object","required":["b"]},"z":["a"]}}',
  );
});

test('encoding what was encoded changes nothing; a custom resource has its keys sorted at every level', () => {
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { b: '1', a: '2' } }, spec: { paused: false, template: { spec: { containers: [{ name: 'c', image: 'i', env: [{ name: 'E', value: '' }] }] } } } };
  const once = goEncoded('apps.v1.Deployment', deployment);
  assert.equal(text(goEncoded('apps.v1.Deployment', once)), text(once));
  assert.equal(text(goEncodedUnstructured({ spec: { z: [{ y: 1, b: null }], a: 'x' }, apiVersion: 'v', kind: 'K' })), '{"apiVersion":"v","kind":"K","spec":{"a":"x","z":[{"b":null,"y":1}]}}');
});

test('what is already as Go writes it stays the same object; what a write shares with the stored object is not walked again', () => {
  const stored = goEncoded('apps.v1.Deployment', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } });
  const again = goEncoded('apps.v1.Deployment', stored);
  assert.equal(again['spec'], stored['spec']);
  assert.equal(again['metadata'], stored['metadata']);
  // A patch that changed the labels: the rest is the stored object's, taken as it is (even a shape the encoder
  // would have rewritten, which proves it was not walked).
  const shared = { ...stored, spec: { ...(stored['spec'] as object), paused: false } };
  const next = { ...shared, metadata: { name: 'd', labels: { b: '1', a: '2' } } };
  const written = goEncoded('apps.v1.Deployment', next, shared);
  assert.equal(written['spec'], shared['spec']);
  assert.equal(text(written['metadata']), '{"name":"d","labels":{"a":"2","b":"1"}}');
});
