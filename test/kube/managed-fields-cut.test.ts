// managedFields are cut out of an object's JSON text before it is parsed only where the cut is certain: the result
// always parses to the object without metadata.managedFields (when the cut was made) or is the text unchanged, never
// anything else, whatever the strings, escapes and nesting around the key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withoutManagedFields } from '../../src/kube/managed-fields-cut.js';

const MF = [{ manager: 'katalog', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} }, 'f:metadata': { 'f:labels': { 'k:{"uid":"1"}': {} } } } }];

/** The object as the cache wants it: parsed whole, then `metadata.managedFields` removed. */
function reference(text: string, path: 'object' | 'event'): unknown {
  const parsed = JSON.parse(text) as { object?: { metadata?: Record<string, unknown> }; metadata?: Record<string, unknown> };
  const metadata = path === 'event' ? parsed.object?.metadata : parsed.metadata;
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) delete metadata['managedFields'];
  return parsed;
}

function assertCut(text: string, path: 'object' | 'event'): void {
  const cut = withoutManagedFields(text, path);
  assert.ok(cut.length < text.length, `cut nothing from ${text}`);
  assert.deepEqual(JSON.parse(cut), reference(text, path), text);
}

test('the field is cut wherever it stands in metadata: first, middle, last, alone, null', () => {
  const cases = [
    { managedFields: MF, name: 'a', resourceVersion: '1' },
    { name: 'a', managedFields: MF, resourceVersion: '1' },
    { name: 'a', resourceVersion: '1', managedFields: MF },
    { managedFields: MF },
    { name: 'a', managedFields: null },
    { name: 'a', managedFields: [] },
  ];
  for (const metadata of cases) {
    assertCut(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { x: '1' } }), 'object');
    assertCut(JSON.stringify({ type: 'MODIFIED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { x: '1' } } }), 'event');
  }
  // Whitespace between tokens (a pretty-printed answer) where the key itself is written without it.
  assertCut(JSON.stringify({ apiVersion: 'v1', metadata: { name: 'a', managedFields: MF, uid: 'u' } }, null, 2).replace('"managedFields": ', '"managedFields":'), 'object');
});

test('the same key elsewhere, or inside a string, is never cut and the object parses as sent', () => {
  const kept = [
    // A ConfigMap data key, a spec field, a nested template's metadata: not the object's own metadata.
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { managedFields: '[]' } },
    { apiVersion: 'x/v1', kind: 'W', spec: { managedFields: [1, 2] }, metadata: { name: 'a' } },
    { apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { metadata: { managedFields: MF } } }, metadata: { name: 'a' } },
    { apiVersion: 'v1', kind: 'List', items: [{ metadata: { managedFields: MF } }] },
    // The key's text inside strings: values, keys, with escaped quotes and backslashes before it.
    { metadata: { name: 'a', annotations: { note: '"managedFields":[1]', b: '\\"managedFields":[', c: '\\\\"managedFields":[' } } },
    { metadata: { name: '"managedFields":[]' } },
    { metadata: { '"managedFields":': 1, name: 'a' } },
  ];
  for (const object of kept) {
    const text = JSON.stringify(object);
    assert.equal(withoutManagedFields(text, 'object'), text, text);
    const event = JSON.stringify({ type: 'ADDED', object });
    assert.equal(withoutManagedFields(event, 'event'), event, event);
  }
  // The field of a metadata that comes after a string holding the key's text is still found and cut.
  assertCut(JSON.stringify({ apiVersion: 'v1', data: { a: '"managedFields":[', b: '\\' }, metadata: { name: 'x', managedFields: MF } }), 'object');
  assertCut(JSON.stringify({ type: 'ADDED', object: { spec: { managedFields: [1] }, metadata: { managedFields: MF, name: 'x' } } }), 'event');
  // An event's path is object.metadata, an answer's is metadata: each leaves the other alone.
  const answer = JSON.stringify({ metadata: { managedFields: MF } });
  assert.equal(withoutManagedFields(answer, 'event'), answer);
  const event = JSON.stringify({ type: 'ADDED', object: { metadata: { managedFields: MF } } });
  assert.equal(withoutManagedFields(event, 'object'), event);
});

test('what the cut cannot be sure of is left to the parser: escaped key, space before the colon, other value types, broken text', () => {
  const unchanged = [
    '{"metadata":{"managed\\u0046ields":[{"a":1}],"name":"a"}}',
    '{"metadata":{"managedFields" :[{"a":1}],"name":"a"}}',
    '{"metadata":{"managedFields":"text","name":"a"}}',
    '{"metadata":{"managedFields":{"a":[]},"name":"a"}}',
    '{"metadata":{"managedFields":[{"a":"]"}',
    '{"metadata":{"name":"a\\"}, "managedFields":[]',
    '{"metadata":{"managedFields":[{"a":"unterminated}]}}',
  ];
  for (const text of unchanged) assert.equal(withoutManagedFields(text, 'object'), text, text);
  // Brackets and quotes inside the field's own strings do not end it early.
  assertCut('{"metadata":{"managedFields":[{"f":{"k:{\\"a\\":\\"]}\\\\\\"\\"}":{}}}],"name":"a"},"data":{"z":"]"}}', 'object');
  // A key given twice: the first is cut, JSON.parse keeps the second, as it would have.
  const twice = '{"metadata":{"managedFields":[1],"name":"a","managedFields":[2]}}';
  assert.deepEqual(JSON.parse(withoutManagedFields(twice, 'object')), { metadata: { name: 'a', managedFields: [2] } });
});

test('random objects with hostile strings: a cut text always parses to the reference object', () => {
  let seed = 7;
  // mulberry32: reproducible, and even in its low bits.
  const random = (n: number): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const pieces = ['"', '\\', '\\"', 'managedFields', '"managedFields":', '[', ']', '{', '}', ':', ',', 'ü', '😀', ' ', 'a'];
  const text = (): string => Array.from({ length: random(8) }, () => pieces[random(pieces.length)]).join('');
  const value = (depth: number): unknown => {
    const kind = random(depth > 2 ? 3 : 6);
    if (kind === 0) return text();
    if (kind === 1) return random(100);
    if (kind === 2) return null;
    if (kind === 3) return Array.from({ length: random(3) }, () => value(depth + 1));
    const object: Record<string, unknown> = {};
    for (let i = random(4); i > 0; i--) object[random(3) === 0 ? 'managedFields' : text()] = value(depth + 1);
    return object;
  };
  let cuts = 0;
  for (let round = 0; round < 3000; round++) {
    const metadata: Record<string, unknown> = {};
    for (let i = random(4); i > 0; i--) metadata[text()] = value(1);
    if (random(4) !== 0) metadata['managedFields'] = random(5) === 0 ? null : [value(1), value(1)];
    for (let i = random(3); i > 0; i--) metadata[text()] = value(1);
    const object: Record<string, unknown> = {};
    const order = random(2) === 0 ? ['spec', 'metadata'] : ['metadata', 'spec'];
    for (const key of order) object[key] = key === 'metadata' ? metadata : value(1);
    for (const [json, path] of [
      [JSON.stringify(object), 'object'],
      [JSON.stringify({ type: 'ADDED', object }), 'event'],
    ] as const) {
      const cut = withoutManagedFields(json, path);
      if (cut === json) continue; // left whole to the parser (a value that is not an array or null): always safe
      cuts++;
      assert.deepEqual(JSON.parse(cut), reference(json, path), json);
    }
  }
  assert.ok(cuts > 2000, `only ${cuts} cuts made`);
});
