import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonClone } from '../../src/util/json-clone.js';

const widget = JSON.parse(
  '{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"b"},"finalizers":["x"]},"spec":{"n":1.5,"on":true,"none":null,"list":[1,[2,{"deep":"y"}]]},"status":{"conditions":[{"type":"Ready","status":"True"}]}}',
) as Record<string, unknown>;

test('copies JSON data deeply: equal to structuredClone, nothing shared with the original', () => {
  const copy = jsonClone(widget);
  assert.deepEqual(copy, structuredClone(widget));
  ((copy['metadata'] as { labels: Record<string, string> }).labels)['a'] = 'changed';
  ((copy['spec'] as { list: unknown[] }).list[1] as unknown[]).push('more');
  assert.equal((widget['metadata'] as { labels: Record<string, string> }).labels['a'], 'b');
  assert.equal(((widget['spec'] as { list: unknown[] }).list[1] as unknown[]).length, 2);
});

test('keeps undefined values, and copies what is not JSON data as structuredClone does', () => {
  const when = new Date(0);
  const copy = jsonClone({ gone: undefined, when, tags: new Map([['k', 'v']]) });
  assert.ok('gone' in copy);
  assert.ok(copy.when instanceof Date && copy.when !== when && copy.when.getTime() === 0);
  assert.equal(copy.tags.get('k'), 'v');
});

test('a "__proto__" key stays a key of the copy (not its prototype)', () => {
  const parsed = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
  const copy = jsonClone(parsed);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.equal((copy as { polluted?: unknown }).polluted, undefined);
  assert.deepEqual(Object.keys(copy), ['__proto__', 'a']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value, { polluted: true });
});
