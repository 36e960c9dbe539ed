// The admission router's external calls without a port (app.request) against a local HTTP service: the warning a
// failed call adds, externalFailure: 'deny' (fail closed, naming the call, never the URL or body), the budget shared
// by the calls of one request, Secret credentials (and the refusal to build a router that could not read them).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseDefinition } from '../../src/definition/index.js';
import { createAdmissionRouter } from '../../src/index.js';
import { localServer } from '../support/local-server.js';

const BODY_MARK = 'remote-body-payload';
const answers = new Map<string, { status: number; body: string; delayMs?: number }>();
const seen: Array<{ path: string; auth: string | undefined }> = [];
const remote = localServer((req: IncomingMessage, res: ServerResponse) => {
  seen.push({ path: req.url ?? '', auth: req.headers['x-api-key'] as string | undefined });
  const answer = answers.get(req.url ?? '') ?? { status: 404, body: 'none' };
  const send = (): void => {
    res.writeHead(answer.status);
    res.end(answer.body);
  };
  if (answer.delayMs === undefined) send();
  else setTimeout(send, answer.delayMs).unref();
});
let port = 0;
before(async () => {
  port = await remote.start();
});
after(() => remote.stop());

const doc = (calls: string) =>
  parseDefinition(`
apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: shop }
spec:
  crds:
    store:
      apiTypes: { group: shop.example.io, version: v1, kind: Store, plural: stores }
      validation:
        external:
${calls}
        rules:
          - { field: "{{ .external.first.body }}", notEquals: "blocked", message: "the store is blocked" }
`);

function review(name: string): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u-1', kind: { group: 'shop.example.io', version: 'v1', kind: 'Store' }, resource: { group: 'shop.example.io', version: 'v1', resource: 'stores' }, name, namespace: 'shop', operation: 'CREATE', object: { metadata: { name }, spec: {} } },
  });
}

async function validate(router: ReturnType<typeof createAdmissionRouter>, name: string) {
  const response = await router.request('/validate', { method: 'POST', body: review(name), headers: { 'content-type': 'application/json' } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { response: { allowed: boolean; warnings?: string[]; status?: { code: number; message: string } } }).response;
}

test("a failed call: Orkestra's policy lets the rules decide, with a warning naming the call; 'deny' refuses with 503", async () => {
  answers.set('/first/a', { status: 500, body: BODY_MARK });
  const calls = `          - { name: first, url: "http://127.0.0.1:${port}/first/{{ .metadata.name }}" }`;
  const open = await validate(createAdmissionRouter(doc(calls)), 'a');
  assert.equal(open.allowed, true, 'notEquals "blocked" holds for the failed call\'s body');
  assert.deepEqual(open.warnings, ['katalog: external call "first" failed: HTTP status 500 (expected 2xx)']);
  const closed = await validate(createAdmissionRouter(doc(calls), { externalFailure: 'deny' }), 'a');
  assert.equal(closed.allowed, false);
  assert.equal(closed.status?.code, 503);
  assert.equal(closed.status?.message, 'katalog: Store admission needs external call "first", which failed: HTTP status 500 (expected 2xx)');
  for (const leak of [BODY_MARK, '127.0.0.1', '/first/a']) assert.ok(!JSON.stringify(closed).includes(leak), `leaked ${leak}`);
});

test('one budget for all calls of a request: the second call gets what is left, a call after it is not made', async () => {
  answers.set('/first/b', { status: 200, body: 'ok', delayMs: 400 });
  answers.set('/second/b', { status: 200, body: 'ok', delayMs: 5000 });
  const calls = `          - { name: first, url: "http://127.0.0.1:${port}/first/{{ .metadata.name }}" }
          - { name: second, url: "http://127.0.0.1:${port}/second/{{ .metadata.name }}", continueOnError: true }
          - { name: third, url: "http://127.0.0.1:${port}/third/{{ .metadata.name }}", continueOnError: true }`;
  const router = createAdmissionRouter(doc(calls), { externalBudgetMs: 800 });
  const started = Date.now();
  const answer = await validate(router, 'b');
  assert.ok(Date.now() - started < 4000, 'answered near the budget, not after the slow call');
  assert.equal(answer.allowed, true);
  assert.equal(answer.warnings?.length, 2, JSON.stringify(answer.warnings));
  assert.match(answer.warnings?.[0] ?? '', /^katalog: external call "second" failed: no complete response within \d+ ms$/);
  assert.equal(answer.warnings?.[1], 'katalog: external call "third" failed: the admission budget of 800 ms was spent before this call');
  assert.ok(!seen.some((call) => call.path === '/third/b'), 'the third call was not made');
});

test('auth.secretRef needs readSecret: the router is not built without it; with it, the credential is sent', async () => {
  const calls = `          - { name: first, url: "http://127.0.0.1:${port}/first/{{ .metadata.name }}", auth: { secretRef: { name: api, key: token }, header: X-Api-Key } }`;
  assert.throws(() => createAdmissionRouter(doc(calls)), /spec\.crds\.store\.validation\.external: call "first" reads auth\.secretRef: pass readSecret/);
  answers.set('/first/c', { status: 200, body: 'blocked' });
  const read: Array<[string, string, string]> = [];
  const router = createAdmissionRouter(doc(calls), { readSecret: async (name, namespace, key) => (read.push([name, namespace, key]), 'k3y') });
  const answer = await validate(router, 'c');
  assert.equal(answer.allowed, false);
  assert.deepEqual(read, [['api', 'shop', 'token']]);
  assert.equal(seen.find((call) => call.path === '/first/c')?.auth, 'k3y');
});
