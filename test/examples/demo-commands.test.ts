// Every command the embedded demo prints, pasted into a shell as printed: the curl lines and the kubectl lines,
// run with Debian's kubectl from .tools/ first on PATH and no kubeconfig. `kubectl delete website hello` completes
// because the simulated Job controller finishes the Website's farewell Job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { kubectlBinary } from '../support/tools.js';

function shell(line: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile('bash', ['-c', line], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

test('the demo: every printed command works when pasted', async (t) => {
  const kubectl = kubectlBinary();
  if (kubectl.path === undefined) {
    t.skip(kubectl.reason);
    return;
  }
  const home = await mkdtemp(join(tmpdir(), 'katalog-demo-'));
  const env = { HOME: home, PATH: `${dirname(kubectl.path)}:${process.env['PATH'] ?? '/usr/bin:/bin'}` };
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo/main.ts', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`demo not ready in 30s:\n${output}`)), 30_000);
      child.stdout.on('data', () => {
        if (output.includes('demo ready:')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`demo exited with ${String(code)}:\n${output}`)));
    });
    const commands = output
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('curl ') || line.startsWith('kubectl '));
    assert.equal(commands.filter((c) => c.startsWith('curl ')).length, 5, output);
    assert.ok(commands.some((c) => /^kubectl .* delete website hello$/.test(c)), output);
    const results = new Map<string, { code: number; stdout: string; stderr: string; ms: number }>();
    for (const command of commands) {
      const result = await shell(command, env);
      assert.equal(result.code, 0, `${command}\nexit ${result.code}\n${result.stderr}${result.stdout}`);
      results.set(command.replace(/--server \S+ /, '').replace(/^curl \S+?(\/\S*)$/, 'curl $1'), result);
    }
    const get = results.get('kubectl get websites,deployments,services,configmaps');
    assert.match(get?.stdout ?? '', /website.example.io\/hello/);
    assert.match(get?.stdout ?? '', /deployment.apps\/hello\s+\d\/\d/);
    assert.match(results.get('kubectl get pods -l app.kubernetes.io/name=hello')?.stdout ?? '', /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\nhello-\S+\s+\d\/1\s+(Pending|Running)/);
    const deleted = results.get('kubectl delete website hello');
    assert.match(deleted?.stdout ?? '', /website.example.io "hello" deleted/);
    assert.ok((deleted?.ms ?? Infinity) < 15_000, `delete took ${deleted?.ms ?? '?'} ms`);
    const after = await shell(commands.find((c) => c.includes(' get websites')) ?? 'false', env);
    assert.doesNotMatch(after.stdout, /website.example.io\/hello/, 'the Website is gone');
    assert.match(output, /reconciled|activated/);
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGINT');
      await once(child, 'exit');
    }
    await rm(home, { recursive: true, force: true });
  }
});
