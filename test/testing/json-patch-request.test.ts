// A JSON patch request as kube-apiserver's PATCH handler decodes and answers it (http/json-patch-body.ts,
// operations/json-patch-answers.ts): its strict decoding into []jsonPatchOp, and the 400, 413, 422 and no answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPatchDecoder, strictJsonPatch } from '../../src/testing/http/json-patch-body.js';
import { decodedJsonPatch, jsonPatched } from '../../src/testing/operations/json-patch-answers.js';
import { NoAnswer, StatusError } from '../../src/testing/status-errors.js';

function statusOf(run: () => unknown): { code: number; reason: string | undefined; message: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof StatusError) return { code: error.body.code, reason: error.body.reason, message: error.body.message };
    throw error;
  }
  assert.fail('no error');
}

test('strict decoding: the first value of the wrong type is the error; unknown and repeated fields are problems', () => {
  assert.deepEqual(strictJsonPatch('null'), { problems: [], repeatsInValues: false });
  assert.equal(strictJsonPatch(' "x"').error, 'json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp');
  assert.equal(strictJsonPatch('[null, true]').error, 'json: cannot unmarshal bool into Go value of type handlers.jsonPatchOp');
  assert.equal(strictJsonPatch('[{"op":"add","path":{}},{"op":1}]').error, 'json: cannot unmarshal object into Go struct field jsonPatchOp.path of type string');
  // Case matters; an unknown field's value is not looked into; each problem once, in the text's order.
  const text = '[{"Op":"add","op":"add","op":"add","x":{"a":1,"a":2},"x":1,"from":null,"value":[{"b":1,"b":2,"c":{"d":1,"d":1}}]}]';
  assert.deepEqual(strictJsonPatch(text), {
    problems: ['unknown field "[0].Op"', 'duplicate field "[0].op"', 'unknown field "[0].x"', 'duplicate field "[0].value[0].b"', 'duplicate field "[0].value[0].c.d"'],
    repeatsInValues: true,
  });
});

test('the decoder: strict first unless Ignore, then the library; 400 and 413 as kube-apiserver answers them', () => {
  const object = '{"op":"add"}';
  assert.deepEqual(statusOf(() => jsonPatchDecoder(object, 'Warn')(JSON.parse(object))), {
    code: 400,
    reason: 'BadRequest',
    message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
  });
  assert.deepEqual(statusOf(() => jsonPatchDecoder(object, 'Ignore')(JSON.parse(object))), {
    code: 400,
    reason: 'BadRequest',
    message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
  });
  const many = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/a' }));
  assert.deepEqual(statusOf(() => decodedJsonPatch(many)), {
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
  });
  // The body's text is kept for `test`: `1.0` is not the stored 1.
  const sent = '[{"op":"test","path":"/a","value":1.0}]';
  assert.equal(statusOf(() => jsonPatched({ a: 1 }, jsonPatchDecoder(sent, 'Strict')(JSON.parse(sent)))).code, 422);
});

test('a patch that does not apply is the bare 422; where the library panics, no answer', () => {
  assert.throws(
    () => jsonPatched({}, decodedJsonPatch([{ op: 'remove', path: '/x' }])),
    (error: unknown) =>
      error instanceof StatusError &&
      JSON.stringify(error.body) ===
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}',
  );
  assert.throws(() => jsonPatched({}, decodedJsonPatch([{ op: 'test', path: '' }])), NoAnswer);
  assert.deepEqual(jsonPatched({ a: 1 }, decodedJsonPatch([{ op: 'replace', path: '/b', value: 2 }])), { a: 1, b: 2 });
});
