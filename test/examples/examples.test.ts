// Every example runs as a user would run it, and says what it should.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function example(args: string[]): Promise<string> {
  // A child `node --test` inside a test file must not think it is a subtest of ours.
  const env = { ...process.env };
  delete env['NODE_TEST_CONTEXT'];
  const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', ...args], { timeout: 60_000, env });
  return `${stdout}${stderr}`;
}

test('examples/hooks-and-constructor: hooks and a constructor registered by name both reconcile', async () => {
  const output = await example(['examples/hooks-and-constructor/main.ts']);
  assert.match(output, /NewBackupReconciler default\/nightly: next backup in 24h/);
  assert.match(output, /GreetingHooks\.onReconcile hi: children hi-greeting/);
  assert.match(output, /ConfigMap hi-greeting says: Hello, katalog!/);
});

test('examples/mount-into-hono: the host keeps its routes and serves the inspection API under /ops', async () => {
  const output = await example(['examples/mount-into-hono/main.ts', '0']);
  assert.match(output, /GET \/ → 200 my application/);
  assert.match(output, /GET \/api\/hello → 200 \{"hello":"world"\}/);
  assert.match(output, /GET \/ops\/ready → 200 \{"status":"ready","crds":\{"website":"healthy"\}\}/);
  assert.match(output, /website endpoints \{"health":"\/ops\/katalog\/website\/health","info":"\/ops\/katalog\/website"\}/);
});

test('examples/komposer: two Katalogs composed, the inline override reported with source komposer', async () => {
  const output = await example(['examples/komposer/main.ts']);
  assert.match(output, /CRDs in start order: catalog, store, invoice/);
  assert.match(output, /store\s+workers 4 \(komposer\)/);
  assert.match(output, /invoice\s+workers 3 \(options\), resync 5m0s \(definition\)/);
});

test('examples/testing-your-operator: the operator author’s own node:test suite passes', async () => {
  const output = await example(['--test', '--test-reporter=tap', 'examples/testing-your-operator/operator.test.ts']);
  assert.match(output, /# pass 2/);
  assert.match(output, /# fail 0/);
});
