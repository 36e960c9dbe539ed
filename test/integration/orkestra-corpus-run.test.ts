// Orkestra corpus definitions run end to end, unchanged, against the test API server through the real
// client-node: children created as Orkestra would create them (its default names, its condition shorthand,
// its template functions), status written as Orkestra writes it (strings unless a type says otherwise),
// namespace guards honoured. Files: test/fixtures/orkestra/ (each cites its source repository and commit).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cr, running, type Obj } from '../support/orkestra-run.js';
import { waitFor } from '../support/cluster.js';

describe('Orkestra corpus, run: current/02-with-serviceaccount (crdFile alone, allowedNamespaces, allReplicasReady)', () => {
  const { server, definition } = running('current/02-with-serviceaccount/katalog.yaml');

  test('children and status as Orkestra writes them; a custom resource outside allowedNamespaces is left alone', async () => {
    server().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    server().create(cr(definition(), 'site', { image: 'nginx:1.27', replicas: 2, port: 8080 }));
    server().create(cr(definition(), 'outside', { image: 'nginx:1.27', replicas: 1, port: 8080 }, 'other'));
    const status = await waitFor('status', () => server().get('demo.orkestra.io/v1alpha1', 'Website', 'site', 'default')?.['status'] as Obj | undefined);
    assert.equal(status['phase'], 'Running');
    assert.equal(status['endpoint'], 'site.default.svc.cluster.local');
    assert.ok(status['allReplicasReady'] === 'true' || status['allReplicasReady'] === 'false', 'a bool written as a string');
    const deployment = server().get('apps/v1', 'Deployment', 'site', 'default') as Obj;
    assert.equal(deployment.spec?.['replicas'], 2);
    const pod = (deployment.spec?.['template'] as Obj).spec as Obj;
    assert.equal(pod['serviceAccountName'], 'site-sa');
    assert.ok(server().get('v1', 'ServiceAccount', 'site-sa', 'default'));
    const service = server().get('v1', 'Service', 'site-svc', 'default') as Obj;
    assert.deepEqual((service.spec?.['ports'] as Obj[])[0], { port: 80, targetPort: 8080, protocol: 'TCP' });
    assert.equal(server().get('demo.orkestra.io/v1alpha1', 'Website', 'outside', 'other')?.['status'], undefined);
    assert.equal(server().get('apps/v1', 'Deployment', 'outside', 'other'), undefined);
  });
});

describe('Orkestra corpus, run: early/02-website-with-service (list form, reconciler block)', () => {
  const { server, definition } = running('early/02-website-with-service/katalog.yaml');

  test('status fields are strings, as Orkestra writes them, and the Deployment keeps the number', async () => {
    server().create(cr(definition(), 'site', { image: 'nginx:1.27', replicas: 2, port: 8080 }));
    const status = await waitFor('status', () => server().get('demo.orkestra.io/v1alpha1', 'Website', 'site', 'default')?.['status'] as Obj | undefined);
    assert.deepEqual([status['phase'], status['observedReplicas'], status['endpoint']], ['Running', '2', 'site.default.svc.cluster.local']);
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 2);
    assert.ok(server().get('v1', 'Service', 'site-svc', 'default'));
  });
});

describe('Orkestra corpus, run: early/01-hello-website (default child names)', () => {
  const { server, definition } = running('early/01-hello-website/katalog.yaml');

  test('an unnamed Deployment is named <cr>-deployment with one replica, as in Orkestra', async () => {
    server().create(cr(definition(), 'site', { image: 'nginx:1.27' }));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site-deployment', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 1);
  });
});

describe('Orkestra corpus, run: current/05-when-conditions (condition shorthand, get)', () => {
  const { server, definition } = running('current/05-when-conditions/katalog.yaml');

  test('equals / notEquals gate the children; get reads the child Deployment', async () => {
    server().create(cr(definition(), 'free', { image: 'nginx:1.27', tier: 'free', replicas: 1, port: 8080 }));
    server().create(cr(definition(), 'big', { image: 'nginx:1.27', tier: 'enterprise', monitoring: true, replicas: 1, port: 8080 }));
    await waitFor('big enterprise ConfigMap', () => server().get('v1', 'ConfigMap', 'big-enterprise-config', 'default'));
    await waitFor('big LoadBalancer Service', () => server().get('v1', 'Service', 'big-lb', 'default'));
    await waitFor('big monitoring ConfigMap', () => server().get('v1', 'ConfigMap', 'big-monitoring', 'default'));
    const free = await waitFor('free status', () => server().get('demo.orkestra.io/v1alpha1', 'Platform', 'free', 'default')?.['status'] as Obj | undefined);
    assert.equal(free['tier'], 'free');
    assert.ok(server().get('v1', 'Service', 'free-internal', 'default'));
    assert.equal(server().get('v1', 'Service', 'free-lb', 'default'), undefined);
    assert.equal(server().get('v1', 'ConfigMap', 'free-monitoring', 'default'), undefined);
    assert.equal(server().get('v1', 'ConfigMap', 'free-enterprise-config', 'default'), undefined);
  });
});

describe('Orkestra corpus, run: current/09-notes/01-built-in (Orkestra default semantics)', () => {
  const { server, definition } = running('current/09-notes/01-built-in/katalog.yaml');

  test('"default .spec.replicas 1" renders 1, as in Orkestra (the fallback comes first); phase follows status.ready', async () => {
    server().create(cr(definition(), 'site', { image: 'nginx:1.27', replicas: 3, port: 8080 }));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 1);
    const status = await waitFor('status', () => server().get('demo.orkestra.io/v1', 'Website', 'site', 'default')?.['status'] as Obj | undefined);
    assert.ok(['true', 'false'].includes(String(status['ready'])));
    assert.equal(typeof status['ready'], 'string');
  });
});
