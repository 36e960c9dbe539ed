// After runtime.stop() (and closing its own server) a process whose only work was the runtime exits by itself.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { crdManifest, customResource } from '../support/cluster.js';

const EXIT = { kind: 'Exit', plural: 'exits' };
let server: TestApiServer;
before(async () => {
  server = await startTestApiServer();
  server.applyCrd(crdManifest(EXIT));
  await server.settled();
  server.create(customResource(EXIT, 'bye'));
});
after(async () => {
  await server.stop();
});

test('a process that created, started, reconciled and stopped a runtime exits within 2 s of stop() resolving', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/exit-child.ts', server.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  // Generous: on a loaded machine tsx alone can take tens of seconds to start the child. The 2 s bound is below.
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    const exitedAt = Date.now();
    assert.equal(code, 0, output);
    assert.match(output, /reconciled/);
    const stoppedAt = Number(/stopped (\d+)/.exec(output)?.[1]);
    assert.ok(Number.isFinite(stoppedAt), output);
    assert.ok(exitedAt - stoppedAt < 2000, `exited ${exitedAt - stoppedAt}ms after stop() resolved`);
  } finally {
    clearTimeout(killer);
  }
});
