// `katalog rbac` is enough, and the runtime needs nothing else: the YAML the command prints (run as a child process)
// is the only RBAC in a test API server with authorization on, and the example Website operator runs its whole life
// under it as that ServiceAccount: leader election, activation, children, drift correction, status, a `when` turning
// false, the delete path with its onDelete Job, and the CRD going away. Not one request is refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { createRuntime, KubeClient, loadDefinition, type Runtime } from '../../src/index.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';
import { katalog } from './katalog-command.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; status?: Record<string, unknown> };

describe('katalog rbac: the runtime under exactly the generated rules', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const errors: string[] = [];
  const forbidden = (): string[] => server.requests.log().filter((r) => r.status === 403).map((r) => `${r.verb} ${r.path}`);

  before(async () => {
    const { code, stdout, stderr } = await katalog(['rbac', 'examples/website/katalog.yaml', '--leader-elect', '-n', 'operators']);
    assert.equal(code, 0, stderr);
    server = await startTestApiServer({
      authorization: { user: 'system:serviceaccount:operators:website-operator' },
      namespaces: ['default', 'operators'],
    });
    for (const doc of parseAllDocuments(stdout)) server.create(doc.toJS());
    server.applyCrd(parse(readFileSync('examples/website/crd.yaml', 'utf8')));
    runtime = createRuntime(await loadDefinition('examples/website/katalog.yaml'), {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      rateLimiter: { baseDelay: 5, maxDelay: 200 },
      leaderElection: { namespace: 'operators', name: 'website-operator', retryPeriod: '100ms', renewDeadline: '1s', leaseDuration: '2s' },
    });
    runtime.on('reconciled', ({ key, result, error }) => {
      if (result === 'error') errors.push(`${key}: ${error?.message ?? ''}`);
    });
    await runtime.start();
  });

  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  test('a Website lives and dies without one refused request', async () => {
    await waitFor('the Lease', () => server.get('coordination.k8s.io/v1', 'Lease', 'website-operator', 'operators'));
    server.create(parse(readFileSync('examples/website/website.yaml', 'utf8')));
    const get = (apiVersion: string, kind: string, name: string): Obj | undefined => server.get(apiVersion, kind, name, 'default') as Obj | undefined;
    await waitFor('the Ingress', () => get('networking.k8s.io/v1', 'Ingress', 'hello'));
    await waitFor('the status', () => get('example.io/v1', 'Website', 'hello')?.status?.['phase'] === 'Serving');

    server.patch('apps/v1', 'Deployment', 'hello', { spec: { replicas: 5 } }, { namespace: 'default' });
    await waitFor('drift corrected', () => (get('apps/v1', 'Deployment', 'hello')?.['spec'] as { replicas?: number } | undefined)?.replicas === 2);
    server.patch('example.io/v1', 'Website', 'hello', { spec: { host: null } }, { namespace: 'default' });
    await waitFor('the Ingress pruned', () => get('networking.k8s.io/v1', 'Ingress', 'hello') === undefined);

    server.delete('example.io/v1', 'Website', 'hello', 'default');
    const job = await waitFor('the farewell Job', () => get('batch/v1', 'Job', 'hello-farewell'));
    server.updateStatus({ ...job, status: { succeeded: 1 } });
    await waitFor('the Website gone', () => get('example.io/v1', 'Website', 'hello') === undefined).catch((error: unknown) => {
      throw new Error(`${String(error)}; refused: ${forbidden().join(', ')}; failed reconciles: ${errors.join('; ')}`);
    });
    server.delete('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'websites.example.io');
    await waitFor('deactivated', () => runtime.crds().find((crd) => crd.name === 'website')?.state === 'pending');

    assert.deepEqual(forbidden(), []);
    assert.deepEqual(errors, []);
    assert.ok(server.requests.count() > 20, 'the runtime talked to the server');
  });

  test('authorization is on: what the rules leave out is refused', async () => {
    const client = new KubeClient(server.kubeConfig);
    const secrets = { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true };
    await assert.rejects(() => client.list(secrets, { namespace: 'default' }), (error: Error & { status?: number }) => error.status === 403);
  });
});
