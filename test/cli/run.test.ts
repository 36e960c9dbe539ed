// `katalog run --embedded` as a user runs it: a child process that serves the inspection API (URL on stdout), runs
// the hooks and constructors of a --code module, and on SIGTERM stops everything and exits 0 by itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { startKatalog } from './katalog-command.js';

test('katalog run --embedded --code: /health and /ready answer, SIGTERM stops it and the process exits 0', async () => {
  const child = startKatalog(['run', '--embedded', '--port', '0', '--code', 'test/fixtures/cli/operator.mjs', 'examples/hooks-and-constructor/katalog.yaml']);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL on stdout in 120s:\n${stderr}`)), 120_000);
      child.stdout.on('data', () => {
        const match = /^(http:\/\/\S+)\n/.exec(stdout);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      void exited.then(([code]) => reject(new Error(`exited with ${String(code)} before listening:\n${stderr}`)));
    });
    const health = await fetch(`${url}/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, 'ok');
    const deadline = Date.now() + 60_000;
    let ready: { status: string; crds?: Record<string, string> } = { status: '' };
    while (Date.now() < deadline) {
      const response = await fetch(`${url}/ready`);
      ready = (await response.json()) as typeof ready;
      // backup waits for greeting to be healthy, so it may still be pending when /ready first answers 200.
      if (response.status === 200 && ready.crds?.['backup'] === 'healthy') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(ready, { status: 'ready', crds: { greeting: 'healthy', backup: 'healthy' } }, stderr);
    const backup = (await (await fetch(`${url}/katalog/backup`)).json()) as { reconciler: { type: string } };
    assert.equal(backup.reconciler.type, 'custom');

    child.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, stderr);
    assert.match(stderr, /embedded test API server on http:\/\/127\.0\.0\.1:\d+/);
    assert.match(stderr, /SIGTERM: stopping\n(.*\n)*stopped\n$/);
    assert.equal(stdout, `${url}\n`, 'stdout holds the URL and nothing else');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test('katalog run: an unreachable API server exits 3 with the reason on stderr', async () => {
  const child = startKatalog(['run', '--kubeconfig', 'test/fixtures/cli/unreachable.kubeconfig', '--port', '0', 'examples/website/katalog.yaml']);
  child.stdin.end();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 3, stderr);
  assert.match(stderr, /katalog run: cannot start: .*127\.0\.0\.1:9/);
});
