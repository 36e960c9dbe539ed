// Raw JSON texts (patch/json-raw.ts): members and elements cut out as written, and Go's json.Compact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactJson, rawElements, rawMembers, valueEnd } from '../../../src/testing/patch/json-raw.js';

test('members and elements as written: keys decoded, repeats kept, white space around values left out', () => {
  assert.deepEqual(rawMembers('{ "a" : 1.0 , "b\\u0063":{"x": [1, "]"]}, "a":"\\u003c" }'), [
    ['a', '1.0'],
    ['bc', '{"x": [1, "]"]}'],
    ['a', '"\\u003c"'],
  ]);
  assert.deepEqual(rawMembers('{}'), []);
  assert.deepEqual(rawElements('[ null,{"a":"}"} , [ ] ,-1e3]'), ['null', '{"a":"}"}', '[ ]', '-1e3']);
  assert.deepEqual(rawElements('[ ]'), []);
  assert.equal(valueEnd('"a\\"b" ,', 0), 6);
});

test('compact: white space between tokens goes, strings are untouched', () => {
  assert.equal(compactJson('{ "a b" : [ 1 ,\n\t2 ] }'), '{"a b":[1,2]}');
  assert.equal(compactJson('"\\" x "'), '"\\" x "');
  assert.equal(compactJson('1.0'), '1.0');
});
