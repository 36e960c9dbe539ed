// The embedded demo as a user runs it: a child process that comes up, answers on all six endpoints, has created
// the Website's children, and exits 0 on SIGINT with nothing left running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/kube/client.js';

test('npm start: the demo serves the six endpoints, creates the children, and stops cleanly on SIGINT', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo/main.ts', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  try {
    const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`demo not ready in 120s:\n${output}`)), 120_000);
      const check = (): void => {
        const match = /demo ready: (http:\/\/\S+)/.exec(output);
        if (match !== null) {
          clearTimeout(timer);
          resolve(match);
        }
      };
      child.stdout.on('data', check);
      child.once('exit', (code) => reject(new Error(`demo exited with ${String(code)}:\n${output}`)));
    });
    const api = ready[1] ?? '';
    const get = async (path: string): Promise<{ status: number; type: string | null; body: string }> => {
      const response = await fetch(`${api}${path}`);
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    };
    const health = await get('/health');
    assert.equal(health.status, 200);
    assert.equal((JSON.parse(health.body) as { status: string }).status, 'ok');
    const readiness = await get('/ready');
    assert.deepEqual(JSON.parse(readiness.body), { status: 'ready', crds: { website: 'healthy' } });
    const metrics = await get('/metrics');
    assert.match(metrics.type ?? '', /^text\/plain/);
    assert.match(metrics.body, /controller_reconcile_total\{crd="website",result="success"\} [1-9]/);
    const list = JSON.parse((await get('/katalog')).body) as { total: number; crds: Array<{ name: string; state: string }> };
    assert.equal(list.total, 1);
    assert.equal(list.crds[0]?.state, 'healthy');
    const detail = await get('/katalog/website');
    assert.equal(detail.status, 200);
    assert.equal((JSON.parse(detail.body) as { resourceCount: number }).resourceCount, 1);
    const crdHealth = await get('/katalog/website/health');
    assert.equal(crdHealth.status, 200);
    assert.equal((await get('/katalog/nope')).status, 404);

    const server = /cluster\s+(http:\/\/\S+)/.exec(output)?.[1] ?? '';
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromClusterAndUser({ name: 'demo', server, skipTLSVerify: true }, { name: 'demo' });
    const client = new KubeClient(kubeConfig);
    const deployment = await client.get({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true }, 'hello', 'default');
    assert.equal((deployment?.['spec'] as { replicas?: number } | undefined)?.replicas, 2);
    assert.equal(deployment?.metadata?.ownerReferences?.[0]?.kind, 'Website');

    const stoppedAt = Date.now();
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0, output);
    assert.ok(Date.now() - stoppedAt < 10_000, 'the demo took too long to stop');
    assert.match(output, /SIGINT: stopping\nstopped/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
