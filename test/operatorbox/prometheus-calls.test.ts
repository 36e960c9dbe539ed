// The external-call runner with `protocol: prometheus` against a fake Prometheus on 127.0.0.1: the request (base
// URL with a path prefix, or the endpoint itself; the URL's own parameters kept; the credential in a header),
// the result's shape for scalar, vector, string and matrix answers, a skipped call, an answer that is not
// Prometheus JSON, and cacheFor keeping a success only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseDefinition } from '../../src/definition/load.js';
import type { ExternalCall } from '../../src/definition/types.js';
import { ExternalCalls } from '../../src/operatorbox/external-calls.js';
import { prometheusQueryUrl } from '../../src/operatorbox/prometheus-query.js';
import { templateData } from '../../src/operatorbox/template-data.js';

let server: Server;
let base = '';
const seen: Array<{ url: string; auth: string | undefined }> = [];
let bodies: Record<string, string> = {};

before(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization });
    const query = new URL(req.url ?? '/', 'http://x').searchParams.get('query') ?? '';
    const body = bodies[query];
    if (body === undefined) res.writeHead(503).end('{"status":"error","errorType":"unavailable","error":"down"}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function calls(yaml: string): readonly ExternalCall[] {
  const definition = parseDefinition(`apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: t }
spec:
  crds:
    thing:
      apiTypes: { group: demo.io, version: v1, kind: Thing, plural: things }
      operatorBox:
        external:
${yaml}`);
  return definition.crds.get('thing')?.operatorBox.external ?? [];
}

const object = { apiVersion: 'demo.io/v1', kind: 'Thing', metadata: { name: 'a', namespace: 'ns' }, spec: { on: 'yes' } };
let clock = 0;
const runner = (list: readonly ExternalCall[]): ExternalCalls =>
  new ExternalCalls({ name: 'external', calls: list, readSecret: () => Promise.resolve('tok'), now: () => clock });
const run = (r: ExternalCalls): ReturnType<ExternalCalls['run']> => r.run(object, templateData(object, {}), new AbortController().signal);

describe('prometheus calls', () => {
  test('the query URL: /api/v1/query appended to a base (prefix kept), not to the endpoint; own parameters kept', () => {
    assert.equal(prometheusQueryUrl('http://p:9090', 'up'), 'http://p:9090/api/v1/query?query=up');
    assert.equal(prometheusQueryUrl('http://p:9090/prom/', 'a b'), 'http://p:9090/prom/api/v1/query?query=a+b');
    assert.equal(prometheusQueryUrl('http://p:9090/api/v1/query?timeout=5s', 'x{a="b"}'), 'http://p:9090/api/v1/query?timeout=5s&query=x%7Ba%3D%22b%22%7D');
    assert.equal(prometheusQueryUrl('not a url', 'up'), undefined);
  });

  test('scalar, vector, string and matrix answers; a skipped call; the credential in Authorization', async () => {
    bodies = {
      's_a': '{"status":"success","data":{"resultType":"scalar","result":[1,"7"]}}',
      'v': '{"status":"success","data":{"resultType":"vector","result":[{"metric":{"pod":"x"},"value":[1,"3.5"]},{"metric":{},"value":[1,"9"]}]}}',
      'empty': '{"status":"success","data":{"resultType":"vector","result":[]}}',
      'str': '{"status":"success","data":{"resultType":"string","result":[1,"hello"]}}',
      'm': '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"1"]]}]}}',
    };
    const results = await run(
      runner(
        calls(`          - { name: s, protocol: prometheus, url: "${base}", query: "s_{{ .metadata.name }}", auth: { secretRef: { name: p, key: t } } }
          - { name: v, protocol: prometheus, url: "${base}", query: v }
          - { name: empty, protocol: prometheus, url: "${base}", query: empty }
          - { name: str, protocol: prometheus, url: "${base}", query: str }
          - { name: m, protocol: prometheus, url: "${base}", query: m }
          - { name: no, protocol: prometheus, url: "${base}", query: never, when: [{ field: spec.on, operator: eq, value: "no" }] }
`),
      ),
    );
    assert.deepEqual(results['s'], { result: '7', raw: { status: 'success', data: { resultType: 'scalar', result: [1, '7'] } }, error: '', called: 'true' });
    assert.equal(seen.find((hit) => hit.url.endsWith('query=s_a'))?.auth, 'Bearer tok');
    assert.equal((results['v'] as { result: string }).result, '3.5');
    assert.equal((results['empty'] as { result: string }).result, '');
    assert.equal((results['str'] as { result: string }).result, 'hello');
    assert.equal((results['m'] as { result: string }).result, '');
    assert.deepEqual(results['no'], { result: '', raw: {}, error: '', called: 'false' });
    assert.ok(!seen.some((hit) => hit.url.includes('never')));
  });

  test('an answer that is not Prometheus JSON, or a 503 with errorType, is the call\'s error (continueOnError keeps it)', async () => {
    bodies = { html: '<html>proxy login</html>' };
    const results = await run(
      runner(
        calls(`          - { name: html, protocol: prometheus, url: "${base}", query: html, continueOnError: true }
          - { name: down, protocol: prometheus, url: "${base}", query: down, continueOnError: true }
`),
      ),
    );
    assert.deepEqual(results['html'], { result: '', raw: {}, error: 'the answer is not Prometheus API JSON ({status, data})', called: 'true' });
    assert.equal(results['down']?.error, 'HTTP status 503 (expected 2xx) (errorType unavailable)');
    assert.equal((results['down'] as { raw: Record<string, unknown> }).raw['error'], 'down', 'templates may read the error text');
  });

  test('cacheFor reuses a success for the same rendered query, and never a failure', async () => {
    bodies = { c: '{"status":"success","data":{"resultType":"scalar","result":[1,"1"]}}' };
    const r = runner(calls(`          - { name: c, protocol: prometheus, url: "${base}", query: c, cacheFor: 10s }
          - { name: f, protocol: prometheus, url: "${base}", query: f, cacheFor: 10s, continueOnError: true }
`));
    const count = (query: string): number => seen.filter((hit) => hit.url.endsWith(`query=${query}`)).length;
    const before = [count('c'), count('f')];
    await run(r);
    clock += 1000;
    await run(r);
    assert.deepEqual([count('c') - (before[0] ?? 0), count('f') - (before[1] ?? 0)], [1, 2]);
    clock += 20_000;
    await run(r);
    assert.equal(count('c') - (before[0] ?? 0), 2, 'expired');
  });
});
