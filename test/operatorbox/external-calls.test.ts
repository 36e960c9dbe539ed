// The external-call runner against a local HTTP server (127.0.0.1): calls in order, each seeing the results
// before it; skipped calls; continueOnError; cacheFor reuses a success (and never a failure); auth from a Secret
// in a header of the user's choice; a cancelled reconcile stops a call at once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseDefinition } from '../../src/definition/load.js';
import type { ExternalCall } from '../../src/definition/types.js';
import { ExternalCallError, ExternalCalls, type ExternalResult, type HttpResult } from '../../src/operatorbox/external-calls.js';
import { templateData } from '../../src/operatorbox/template-data.js';

let server: Server;
let base = '';
const hits: Array<{ path: string; key: string | undefined }> = [];
let failNext = 0;

before(async () => {
  server = createServer((req, res) => {
    hits.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
    if (req.url === '/slow') return; // never answers
    if (failNext > 0 && req.url?.startsWith('/count')) {
      failNext -= 1;
      res.writeHead(502).end('bad gateway');
      return;
    }
    res.writeHead(200, { 'x-answer': 'yes' }).end(req.url === '/first' ? 'second' : `echo:${req.url ?? ''}`);
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

/** The HTTP result (these calls are all http). */
function http(result: ExternalResult | undefined): HttpResult | undefined {
  if (result !== undefined && !('body' in result)) assert.fail('not an HTTP result');
  return result as HttpResult | undefined;
}

const object = { apiVersion: 'demo.io/v1', kind: 'Thing', metadata: { name: 'a', namespace: 'ns' }, spec: { on: 'yes' } };
let clock = 0;
const runner = (list: readonly ExternalCall[], secret?: string): ExternalCalls =>
  new ExternalCalls({ name: 'external', calls: list, readSecret: () => Promise.resolve(secret), now: () => clock });
const run = (r: ExternalCalls, signal = new AbortController().signal): ReturnType<ExternalCalls['run']> => r.run(object, templateData(object, {}), signal);

describe('external calls', () => {
  test('in order, each seeing the earlier results; a call whose conditions fail is skipped', async () => {
    const results = await run(
      runner(
        calls(`          - { name: one, url: "${base}/first" }
          - { name: two, url: "${base}/{{ .external.one.body }}/{{ .metadata.name }}" }
          - { name: three, url: "${base}/never", when: [{ field: spec.on, operator: eq, value: "no" }] }
`),
      ),
    );
    assert.equal(http(results['two'])?.body, 'echo:/second/a');
    assert.equal(http(results['two'])?.headers['x-answer'], 'yes');
    assert.deepEqual(results['three'], { status: '', body: '', headers: {}, error: '', called: 'false' });
    assert.ok(!hits.some((hit) => hit.path === '/never'));
  });

  test('continueOnError keeps the error in the result; without it the run throws an error naming the call only', async () => {
    failNext = 1;
    const soft: string[] = [];
    const r = runner(calls(`          - { name: c, url: "${base}/count/soft", continueOnError: true }
          - { name: d, url: "${base}/after" }
`));
    const results = await r.run(object, templateData(object, {}), new AbortController().signal, {}, (error) => soft.push(error.message));
    assert.equal(results['c']?.error, 'HTTP status 502 (expected 2xx)');
    assert.equal(http(results['c'])?.body, 'bad gateway', 'templates may read a failed answer');
    assert.equal(http(results['d'])?.status, '200', 'the run went on');
    assert.deepEqual(soft, ['external call "c" failed: HTTP status 502 (expected 2xx)']);
    failNext = 1;
    await assert.rejects(run(runner(calls(`          - { name: hard, url: "${base}/count/hard" }\n`))), (error: unknown) => {
      assert.ok(error instanceof ExternalCallError);
      assert.equal(error.message, 'external call "hard" failed: HTTP status 502 (expected 2xx)');
      assert.ok(!JSON.stringify(error).includes('bad gateway'), 'the error serialises without the body');
      return true;
    });
  });

  test('cacheFor reuses a success for its time, never a failure', async () => {
    const r = runner(calls(`          - { name: c, url: "${base}/count/cached", cacheFor: 10s }\n`));
    const count = (): number => hits.filter((hit) => hit.path === '/count/cached').length;
    failNext = 1;
    await assert.rejects(run(r));
    await run(r);
    await run(r);
    assert.equal(count(), 2, 'the failure was not cached; the success was');
    clock += 10_001;
    await run(r);
    assert.equal(count(), 3, 'expired');
  });

  test('auth: the Secret value goes in the header named; a missing key fails the call', async () => {
    await run(runner(calls(`          - { name: k, url: "${base}/auth", auth: { secretRef: { name: s, key: k }, header: X-Api-Key } }\n`), 'the-key'));
    assert.equal(hits.find((hit) => hit.path === '/auth')?.key, 'the-key');
    await assert.rejects(run(runner(calls(`          - { name: k, url: "${base}/auth2", auth: { secretRef: { name: s, key: k } } }\n`))), /Secret ns\/s has no key "k"/);
  });

  test('a cancelled reconcile ends a call at once; a deadline ends a silent one', async () => {
    const controller = new AbortController();
    const pending = run(runner(calls(`          - { name: slow, url: "${base}/slow", timeout: 60s }\n`)), controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending, /the reconcile was cancelled/);
    await assert.rejects(run(runner(calls(`          - { name: slow, url: "${base}/slow", timeout: 100ms }\n`))), /no complete response within 100 ms/);
  });
});
