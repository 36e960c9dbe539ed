// Every TypeScript block of README.md and docs/*.md is a program, a server, a test or a marked fragment
// (scripts/doc-snippets.mjs, docs/contributing-docs.md). Programs, servers and tests run here as a user would run
// them, against this repository's sources, beside the example Website operator's katalog.yaml and crd.yaml, with
// KUBECONFIG pointing at a test API server. Servers must shut down on SIGTERM (and the README's also on SIGINT)
// and exit by themselves within their drain time-out plus one second. Type-checking them all against the packed
// package with a strict consumer tsconfig is the consumer check of .ci/run (`npm run docs:check` does it locally).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadYaml } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { KINDS, findSnippets, writeSnippets } from '../../scripts/doc-snippets.mjs';

const repo = resolve(import.meta.dirname, '..', '..');
const outDir = join(repo, 'temp', 'doc-snippets');
const SERVER_READY_MS = 120_000; // a loaded machine compiles the program with tsx first
const PROGRAM_MS = 120_000;

interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env['NODE_TEST_CONTEXT']; // a child `node --test` must not think it is a subtest of ours
  return env;
}

function run(args: string[], env: Record<string, string>): { child: ReturnType<typeof spawn>; output: () => string; exited: Promise<Finished> } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: outDir, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Finished>((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal, output })));
  return { child, output: () => output, exited };
}

async function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what())), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function until(what: string, ms: number, check: () => Promise<boolean> | boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms; output:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The drain time-out the program sets (`drainTimeout: '20s'`), else the runtime's default of 30 s. */
function drainTimeoutMs(code: string): number {
  const match = /drainTimeout:\s*'(\d+)s'/.exec(code);
  return match === null ? 30_000 : Number(match[1]) * 1000;
}

test('every TypeScript block is marked as a program, server, test or fragment', () => {
  const snippets = findSnippets();
  assert.ok(snippets.length >= 15, `found only ${snippets.length} blocks`);
  for (const snippet of snippets) assert.ok(KINDS.includes(snippet.kind), `${snippet.file}:${snippet.line}`);
  // A complete program imports what it uses from katalog: a block that calls createRuntime without importing it is
  // a fragment and must say so.
  for (const snippet of snippets.filter((s) => s.kind !== 'fragment')) {
    if (/\bcreateRuntime\(/.test(snippet.code)) assert.match(snippet.code, /import \{[^}]*\bcreateRuntime\b[^}]*\} from 'katalog'/, `${snippet.file}:${snippet.line}`);
  }
});

describe('the complete blocks of README.md and docs/ run as written', () => {
  let server: TestApiServer;
  const crd = loadYaml(readFileSync(join(repo, 'examples', 'website', 'crd.yaml'), 'utf8'));
  const snippets = writeSnippets(outDir, { source: true });
  const env = { KUBECONFIG: join(outDir, 'kubeconfig'), PORT: '0' };

  before(async () => {
    copyFileSync(join(repo, 'examples', 'website', 'katalog.yaml'), join(outDir, 'katalog.yaml'));
    copyFileSync(join(repo, 'examples', 'website', 'crd.yaml'), join(outDir, 'crd.yaml'));
    server = await startTestApiServer();
    writeFileSync(env.KUBECONFIG, server.kubeconfigYaml);
  });
  after(() => server.stop());

  function freshCluster(): void {
    server.reset();
    server.applyCrd(crd);
  }

  for (const snippet of snippets.filter((s) => s.kind === 'program')) {
    test(`${snippet.file}:${snippet.line} runs and exits 0 by itself`, async () => {
      freshCluster();
      const child = run([snippet.path], env);
      const finished = await within(child.exited, PROGRAM_MS, () => `still running after ${PROGRAM_MS} ms:\n${child.output()}`);
      assert.deepEqual([finished.code, finished.signal], [0, null], finished.output);
    });
  }

  for (const snippet of snippets.filter((s) => s.kind === 'test')) {
    test(`${snippet.file}:${snippet.line} passes under node --test`, async () => {
      const child = run(['--test', '--test-reporter=tap', snippet.path], {});
      const finished = await within(child.exited, PROGRAM_MS, () => `still running after ${PROGRAM_MS} ms:\n${child.output()}`);
      assert.equal(finished.code, 0, finished.output);
      assert.match(finished.output, /# fail 0/);
    });
  }

  for (const snippet of snippets.filter((s) => s.kind === 'server')) {
    const signals: NodeJS.Signals[] = snippet.file === 'README.md' ? ['SIGTERM', 'SIGINT'] : ['SIGTERM'];
    for (const signal of signals) {
      test(`${snippet.file}:${snippet.line} serves, reconciles, and on ${signal} exits by itself within its drain time-out + 1 s`, async () => {
        freshCluster();
        const child = run([snippet.path], env);
        let url = '';
        try {
          await until('no URL printed', SERVER_READY_MS, () => {
            url = /https?:\/\/[^\s]+/.exec(child.output())?.[0] ?? '';
            return url !== '' || child.child.exitCode !== null;
          }, child.output);
          assert.equal(child.child.exitCode, null, `exited early:\n${child.output()}`);
          await until('not ready', SERVER_READY_MS, async () => (await fetch(`${url}/ready`).catch(() => undefined))?.status === 200, child.output);
          server.create({ apiVersion: 'example.io/v1', kind: 'Website', metadata: { name: 'snippet', namespace: 'default' }, spec: {} });
          await until('no Deployment for the Website', SERVER_READY_MS, () => server.get('apps/v1', 'Deployment', 'snippet', 'default') !== undefined, child.output);
        } catch (error) {
          child.child.kill('SIGKILL');
          throw error;
        }
        const limit = drainTimeoutMs(snippet.code) + 1000;
        const sent = Date.now();
        child.child.kill(signal);
        const finished = await within(child.exited, limit, () => `no exit within ${limit} ms of ${signal}:\n${child.output()}`).catch((error: unknown) => {
          child.child.kill('SIGKILL');
          throw error;
        });
        assert.deepEqual([finished.code, finished.signal], [0, null], finished.output);
        assert.ok(Date.now() - sent <= limit);
        await assert.rejects(fetch(`${url}/health`), 'the server is closed');
      });
    }
  }
});
