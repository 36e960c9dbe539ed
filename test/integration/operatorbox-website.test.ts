// The example Website Katalog end to end, against the test API server through the real client-node: children with
// ownership, drift correction within a second, a `when` turning false, no write when nothing changed, status
// fields, and the delete path (onDelete Job blocking, finalizers removed, children collected).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { Registry } from 'prom-client';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> };

const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'];

describe('operatorBox: the example Website', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const registry = new Registry();
  const website = parse(readFileSync('examples/website/website.yaml', 'utf8')) as Obj;

  const get = (apiVersion: string, kind: string, name: string): Obj | undefined => server.get(apiVersion, kind, name, 'default') as Obj | undefined;
  const writes = (): number => WRITE_VERBS.reduce((sum, verb) => sum + server.requests.count({ verb }), 0);
  const drift = async (): Promise<number> => Number(/controller_drift_corrections_total\{crd="website"\} (\d+)/.exec(await registry.metrics())?.[1] ?? 'NaN');

  before(async () => {
    // This test drives the farewell Job's status by hand and counts drift corrections exactly, so the simulated
    // workload controllers (which would complete the Job and write Deployment status meanwhile) are off here;
    // test/examples/demo-commands.test.ts runs the same operator with them on.
    server = await startTestApiServer({ simulateWorkloads: false });
    runtime = createRuntime(await loadDefinition('examples/website/katalog.yaml'), {
      kubeConfig: server.kubeConfig,
      watch: FAST_WATCH,
      installCrds: true,
      registry,
      rateLimiter: { baseDelay: 5, maxDelay: 200 },
    });
    await runtime.start();
    server.create(website);
  });

  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  test('creates the Deployment, Service and ConfigMap with owner references and labels, and an Ingress for the host', async () => {
    const deployment = await waitFor('the Deployment', () => get('apps/v1', 'Deployment', 'hello'));
    const parent = get('example.io/v1', 'Website', 'hello');
    const uid = parent?.metadata?.['uid'];
    assert.equal(typeof uid, 'string');
    for (const [apiVersion, kind, name] of [
      ['apps/v1', 'Deployment', 'hello'],
      ['v1', 'Service', 'hello'],
      ['v1', 'ConfigMap', 'hello-content'],
      ['networking.k8s.io/v1', 'Ingress', 'hello'],
    ] as const) {
      const child = await waitFor(`${kind} ${name}`, () => get(apiVersion, kind, name));
      assert.deepEqual(child.metadata?.['ownerReferences'], [{ apiVersion: 'example.io/v1', kind: 'Website', name: 'hello', uid, controller: true, blockOwnerDeletion: true }], kind);
      const labels = child.metadata?.['labels'] as Record<string, string>;
      assert.equal(labels['app.kubernetes.io/managed-by'], 'katalog');
      assert.equal(labels['katalog.dev/owner'], 'website.default.hello');
    }
    assert.equal(deployment.spec?.['replicas'], 2);
    const container = ((deployment.spec?.['template'] as Obj).spec?.['containers'] as Obj[])[0];
    assert.equal(container?.['image'], 'nginx:1.27');
    assert.deepEqual((get('v1', 'ConfigMap', 'hello-content') as Obj)['data'], { 'index.html': '<h1>Hello from katalog</h1>' });
    assert.deepEqual(get('v1', 'Service', 'hello')?.spec?.['selector'], { 'katalog.dev/owner': 'website.default.hello' });
  });

  test('writes Ready, observedGeneration and the status fields', async () => {
    const status = await waitFor('status written', () => {
      const current = get('example.io/v1', 'Website', 'hello')?.status;
      return current?.['phase'] === 'Serving' ? current : undefined;
    });
    assert.equal(status['url'], 'http://hello.default.svc');
    assert.equal(status['observedGeneration'], 1);
    const ready = (status['conditions'] as Obj[]).find((condition) => condition['type'] === 'Ready');
    assert.equal(ready?.['status'], 'True');
    assert.equal(ready?.['reason'], 'ReconcileSucceeded');
    assert.deepEqual(get('example.io/v1', 'Website', 'hello')?.metadata?.['finalizers'], ['katalog.dev/cleanup', 'example.io/farewell']);
  });

  test('a re-reconcile with nothing changed makes no write at all', async () => {
    await server.settled();
    await new Promise((resolve) => setTimeout(resolve, 300));
    let reconciles = 0;
    const off = runtime.on('reconciled', ({ crd }) => {
      if (crd === 'website') reconciles++;
    });
    try {
      server.requests.reset();
      // A change that is not in any template: the parent is reconciled again and must find nothing to do.
      server.patch('example.io/v1', 'Website', 'hello', { metadata: { annotations: { touched: 'yes' } } }, { namespace: 'default' });
      await waitFor('a reconcile', () => reconciles >= 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(writes(), 0, `writes: ${JSON.stringify(server.requests.log().filter((r) => WRITE_VERBS.includes(r.verb)))}`);
    } finally {
      off();
    }
  });

  test('scaling the Deployment by hand is undone within a second and counted as drift', async () => {
    const before = await drift();
    const editedAt = Date.now();
    server.patch('apps/v1', 'Deployment', 'hello', { spec: { replicas: 5 } }, { namespace: 'default' });
    await waitFor('replicas back to 2', () => get('apps/v1', 'Deployment', 'hello')?.spec?.['replicas'] === 2, 1000);
    const elapsed = Date.now() - editedAt;
    assert.ok(elapsed < 1000, `corrected in ${elapsed} ms`);
    await waitFor('drift counted', async () => (await drift()) === before + 1);
  });

  test('a change of the parent spec is applied, and is not drift', async () => {
    const before = await drift();
    server.patch('example.io/v1', 'Website', 'hello', { spec: { replicas: 3, title: 'Hi' } }, { namespace: 'default' });
    await waitFor('replicas 3', () => get('apps/v1', 'Deployment', 'hello')?.spec?.['replicas'] === 3);
    await waitFor('new page', () => (get('v1', 'ConfigMap', 'hello-content')?.['data'] as Record<string, string> | undefined)?.['index.html'] === '<h1>Hi</h1>');
    assert.equal(await drift(), before);
  });

  test('a `when` turning false deletes the child', async () => {
    assert.ok(get('networking.k8s.io/v1', 'Ingress', 'hello'));
    server.patch('example.io/v1', 'Website', 'hello', { spec: { host: null } }, { namespace: 'default' });
    await waitFor('the Ingress deleted', () => get('networking.k8s.io/v1', 'Ingress', 'hello') === undefined);
    assert.ok(get('apps/v1', 'Deployment', 'hello'), 'other children stay');
  });

  test('deleting the Website runs the onDelete Job, then removes the finalizers; the children are collected', async () => {
    server.delete('example.io/v1', 'Website', 'hello', 'default');
    const job = await waitFor('the farewell Job', () => get('batch/v1', 'Job', 'hello-farewell'));
    assert.deepEqual((job.metadata?.['labels'] as Record<string, string>)['katalog.dev/owner'], 'website.default.hello');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(get('example.io/v1', 'Website', 'hello'), 'the Job blocks the removal while it runs');
    server.updateStatus({ ...job, status: { succeeded: 1 } });
    await waitFor('the Website gone', () => get('example.io/v1', 'Website', 'hello') === undefined, 3000);
    await server.settled();
    await waitFor('children collected', () =>
      ['Deployment', 'Service', 'ConfigMap', 'Job'].every((kind) => server.objects({ kind, namespace: 'default' }).length === 0),
    );
  });
});
