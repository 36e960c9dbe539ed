// JSON patches as kube-apiserver 1.37.2 applies them, with gopkg.in/evanphx/json-patch.v4: what that library does
// where RFC 6902 says otherwise (a missing member replaced, negative indices, no `value`, `test` of a missing member,
// scalars compared by their text), and the handler's answers: 400 for a patch it cannot decode (in the words of the
// decoder that refused it), 413 past 10000 operations, the bare 422 of `NewGenericServerResponse` for one that does
// not apply (the library's words are dropped), no answer where the library panics, and the patch's own unknown or
// repeated fields warned about or refused. Before, the test server answered a strict RFC 6902 in words of its own.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';

const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const JSON_PATCH = 'application/json-patch+json';

/** A ConfigMap to patch: `data` {a: "1", h: "<"} (stored as Go writes it, `"\u003c"`), two finalizers. */
async function configMap(backend: Backend, extra: Json = {}): Promise<{ name: string; body: Json }> {
  const name = unique('jp');
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, finalizers: ['example.com/a', 'example.com/b'] }, data: { a: '1', h: '<' }, ...extra };
  const created = await raw(backend.kubeConfig, 'POST', CONFIG_MAPS, JSON.stringify(object));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { name, body: created.body as Json };
}

function patch(backend: Backend, name: string, text: string, query = ''): Promise<RawAnswer> {
  return raw(backend.kubeConfig, 'PATCH', `${CONFIG_MAPS}/${name}${query}`, text, JSON_PATCH);
}

function failure(code: number, reason: string, message: string, details?: Json): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details === undefined ? {} : { details }), code };
}

/** The 422 kube-apiserver answers for any patch its library does not apply. */
const NOT_APPLIED = failure(422, 'Invalid', 'the server rejected our request due to an error in our request', {});

export function jsonPatchSuite(backend: () => Backend): void {
  describe('JSON patches as kube-apiserver applies them', () => {
    test('what the library does where RFC 6902 says otherwise', async () => {
      // [patch as sent, the ConfigMap's data and finalizers after]
      const cases: Array<[string, Json, string[]]> = [
        // A missing member is replaced as if added.
        ['[{"op":"replace","path":"/data/x","value":"2"}]', { a: '1', h: '<', x: '2' }, ['example.com/a', 'example.com/b']],
        // Negative indices count from the end (-1 is the end for `add`).
        ['[{"op":"add","path":"/metadata/finalizers/-1","value":"example.com/c"},{"op":"remove","path":"/metadata/finalizers/-3"}]', { a: '1', h: '<' }, ['example.com/b', 'example.com/c']],
        // No `value` writes null, which a string decodes as "".
        ['[{"op":"add","path":"/data/x"}]', { a: '1', h: '<', x: '' }, ['example.com/a', 'example.com/b']],
        // `test` of a missing member passes against null or no value.
        ['[{"op":"test","path":"/data/zz","value":null},{"op":"test","path":"/data/zz"},{"op":"add","path":"/data/t","value":"ok"}]', { a: '1', h: '<', t: 'ok' }, ['example.com/a', 'example.com/b']],
        // A scalar is compared by its text, white space aside: the stored "<" is "\u003c".
        ['[{"op":"test","path":"/data/h","value":"\\u003c"},{"op":"test","path":"/data", "value" : { "h" : "\\u003c", "a" : "1" } }]', { a: '1', h: '<' }, ['example.com/a', 'example.com/b']],
        // A path that does not start with "/" loses its first token.
        ['[{"op":"replace","path":"any/data","value":{"q":"1"}}]', { q: '1' }, ['example.com/a', 'example.com/b']],
        // A copy of a missing member is null.
        ['[{"op":"copy","from":"/data/zz","path":"/data/y"}]', { a: '1', h: '<', y: '' }, ['example.com/a', 'example.com/b']],
      ];
      for (const [text, data, finalizers] of cases) {
        const { name } = await configMap(backend());
        const answer = await patch(backend(), name, text);
        assert.equal(answer.status, 200, `${text}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual([answer.body['data'], (answer.body['metadata'] as Json)['finalizers']], [data, finalizers], text);
      }
    });

    test('a patch that does not apply is the bare 422, whatever the library said; nothing is written', async () => {
      const { name, body } = await configMap(backend());
      const version = (body.metadata ?? {})['resourceVersion'];
      const cases = [
        '[{"op":"test","path":"/data/a","value":"2"}]',
        '[{"op":"test","path":"/data/h","value":"<"}]',
        '[{"op":"test","path":"/metadata/generation","value":1.0}]',
        '[{"op":"test","path":"/data/zz","value":"1"}]',
        '[{"op":"test","path":"/data/a"}]',
        '[{"op":"remove","path":"/data/x"}]',
        '[{"op":"add","path":"/metadata/finalizers/5","value":"example.com/c"}]',
        '[{"op":"replace","path":"/metadata/finalizers/x","value":"example.com/c"}]',
        '[{"op":"frob","path":"/data/a"}]',
        '[{"path":"/data/a"}]',
        '[{"op":"add","path":"/data/x/y","value":"1"}]',
        '[{"op":"add","path":"/data/a/b","value":"1"}]',
        '[{"op":"move","from":"/data","path":"/data/x"}]',
        '[{"op":"add","path":"","value":{}}]',
        '[{"op":"add","path":"/data/t","value":"1"},{"op":"test","path":"/data/t","value":"2"}]',
        // Ignored, the strict decoding would have refused a number for `op` (400 below).
        ['[{"op":1,"path":"/data/a"}]', '?fieldValidation=Ignore'],
      ];
      for (const item of cases) {
        const [text, query] = typeof item === 'string' ? [item, ''] : item;
        const answer = await patch(backend(), name, text ?? '', query);
        assert.deepEqual([answer.status, answer.body], [422, NOT_APPLIED], text);
      }
      assert.equal(((await raw(backend().kubeConfig, 'GET', `${CONFIG_MAPS}/${name}`)).body as Json).metadata?.['resourceVersion'], version);
      // Copies may write 3 MiB in all, even of what the patch then removes.
      const big = await configMap(backend(), { data: { a: 'x'.repeat(900_000) } });
      const copies = (n: number): string =>
        JSON.stringify([...Array.from({ length: n }, (_, i) => ({ op: 'copy', from: '/data/a', path: `/data/c${i}` })), ...Array.from({ length: n }, (_, i) => ({ op: 'remove', path: `/data/c${i}` }))]);
      assert.equal((await patch(backend(), big.name, copies(3))).status, 200);
      assert.deepEqual((await patch(backend(), big.name, copies(4))).body, NOT_APPLIED);
    });

    test('a patch that does not decode is a 400 in the words of the decoder that refused it; past 10000 operations a 413', async () => {
      const { name } = await configMap(backend());
      // [patch as sent, query, message]: the handler's own strict decoding first, the library's with Ignore.
      const cases: Array<[string, string, string]> = [
        ['[{"op":', '', 'invalid JSON patch'],
        ['{"op":"add"}', '', 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
        ['{"op":"add"}', '?fieldValidation=Ignore', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
        ['[1]', '?fieldValidation=Strict', 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
        ['[1]', '?fieldValidation=Ignore', 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
        ['[{"op":1,"path":true}]', '', 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string'],
        ['[{"op":"add","path":1,"value":"1"}]', '', 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string'],
      ];
      for (const [text, query, message] of cases) {
        const answer = await patch(backend(), name, text, query);
        assert.deepEqual([answer.status, answer.body], [400, failure(400, 'BadRequest', message)], text);
      }
      const operations = (n: number): string => JSON.stringify(Array.from({ length: n }, () => ({ op: 'test', path: '/data/a', value: '1' })));
      assert.equal((await patch(backend(), name, operations(10000))).status, 200);
      const tooMany = await patch(backend(), name, operations(10001));
      assert.deepEqual(
        [tooMany.status, tooMany.body],
        [413, failure(413, 'RequestEntityTooLarge', 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001')],
      );
      // The object is looked up first: a missing one is a 404 whatever the patch.
      assert.equal((await patch(backend(), unique('missing'), '{"op":"add"}')).status, 404);
    });

    test('a Scale is patched by the same handler, with the same answers', async () => {
      const name = unique('jp-deploy');
      const labels = { app: name };
      const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
      assert.equal((await raw(backend().kubeConfig, 'POST', DEPLOYMENTS, JSON.stringify(deployment))).status, 201);
      const scale = (text: string): Promise<RawAnswer> => raw(backend().kubeConfig, 'PATCH', `${DEPLOYMENTS}/${name}/scale`, text, JSON_PATCH);
      const replaced = await scale('[{"op":"replace","path":"/spec/replicas","value":3,"x":1}]');
      assert.deepEqual([replaced.status, replaced.body['spec'], replaced.warnings], [200, { replicas: 3 }, ['json patch unknown field "[0].x"']]);
      assert.deepEqual((await scale('[{"op":"test","path":"/spec/replicas","value":2}]')).body, NOT_APPLIED);
      assert.deepEqual((await scale('{}')).body, failure(400, 'BadRequest', 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'));
    });

    test("the patch's own unknown and repeated fields are warned about, or refused with the patched object as the library wrote it", async () => {
      const { name } = await configMap(backend());
      const unknown = await patch(backend(), name, '[{"op":"add","path":"/data/x","value":"1","extra":1}]');
      assert.deepEqual([unknown.status, unknown.warnings], [200, ['json patch unknown field "[0].extra"']]);
      // A value is written as sent: its repeated key is the patched object's too, unless a later operation walked
      // into it (parsed, it is written as a map).
      const cases: Array<[string, string[]]> = [
        ['[{"op":"add","path":"/data","value":{"a":"1","a":"2"}}]', ['json patch duplicate field "[0].value.a"', 'duplicate field "data.a"']],
        ['[{"op":"add","path":"/data","value":{"a":"1","a":"2"}},{"op":"test","path":"/data/a","value":"2","path":"/data/a"}]', ['json patch duplicate field "[0].value.a"', 'json patch duplicate field "[1].path"']],
      ];
      for (const [text, warnings] of cases) {
        const repeated = await patch(backend(), name, text);
        assert.deepEqual([repeated.status, repeated.warnings, repeated.body['data']], [200, warnings, { a: '2' }], text);
      }

      const strict = await configMap(backend());
      const refused = await patch(backend(), strict.name, '[{"op":"add","path":"/data/x","value":"1","extra":1}]', '?fieldValidation=Strict');
      // The top level and what the patch walked through sorted, the rest (metadata) as stored.
      const patched = `{"apiVersion":"v1","data":{"a":"1","h":"\\u003c","x":"1"},"kind":"ConfigMap","metadata":${JSON.stringify(strict.body.metadata)}}`;
      const message = `Invalid value: ${JSON.stringify(patched)}: strict decoding error: json patch unknown field "[0].extra"`;
      assert.deepEqual(
        [refused.status, refused.body],
        [422, failure(422, 'Invalid', ` "" is invalid: patch: ${message}`, { causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] })],
      );
    });

    test('where the library panics (a `test` or a `replace` of the whole object without a value), there is no answer', async () => {
      const { name } = await configMap(backend());
      for (const text of ['[{"op":"test","path":""}]', '[{"op":"replace","path":""}]', '[{"op":"test","path":"/metadata/finalizers","value":[null,null]}]']) {
        await assert.rejects(patch(backend(), name, text), /socket hang up|ECONNRESET/, text);
      }
      assert.equal((await raw(backend().kubeConfig, 'GET', `${CONFIG_MAPS}/${name}`)).status, 200);
    });
  });
}
