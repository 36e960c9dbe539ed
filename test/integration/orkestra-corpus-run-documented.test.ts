// Documented-generation corpus definitions (docs.orkestra.sh's schema) run end to end, unchanged, against the test
// API server through the real client-node. The Go hooks and constructors they name are registered here in
// TypeScript under the same names, as a host does (docs/hooks-and-constructors.md); each does what its Orkestra
// demo's description says, reduced to one child.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, OwnerReference, ResourceRef } from '../../src/kube/resource.js';
import type { Hooks, ConstructorFactory } from '../../src/operatorbox/types.js';
import { cr, running, type Obj } from '../support/orkestra-run.js';
import { waitFor } from '../support/cluster.js';

const API = 'demo.orkestra.io/v1alpha1';
const SERVICE: ResourceRef = { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true };
const JOB: ResourceRef = { group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true };
const PIPELINE: ResourceRef = { group: 'demo.orkestra.io', version: 'v1alpha1', kind: 'Pipeline', plural: 'pipelines', namespaced: true };

function ownerReference(object: KubeObject): OwnerReference {
  return { apiVersion: object.apiVersion ?? '', kind: object.kind ?? '', name: object.metadata?.name ?? '', uid: object.metadata?.uid ?? '', controller: true };
}

/** DatabaseHooks (orkestra-hooks-demo): the database's Service, named as the status' endpoint says; hooks add to the templates. */
const DatabaseHooks: Hooks = {
  async onReconcile(ctx) {
    const name = ctx.object.metadata?.name ?? '';
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: `${name}-svc`, namespace: ctx.object.metadata?.namespace ?? 'default', ownerReferences: [ownerReference(ctx.object)] }, spec: { selector: { app: name }, ports: [{ port: 5432 }] } };
    await ctx.client.apply(SERVICE, service, { fieldManager: 'database-hooks', force: true, signal: ctx.signal });
  },
};

/** NewPipelineReconciler (orkestra-constructor-demo): one Job per Pipeline; the status goes Pending → Running → Succeeded/Failed. */
const NewPipelineReconciler: ConstructorFactory = () => ({
  async reconcile(request, ctx) {
    const pipeline = ctx.object;
    if (pipeline === undefined || pipeline.metadata?.deletionTimestamp !== undefined) return;
    const name = `${request.name}-run`;
    let job = await ctx.client.get(JOB, name, request.namespace, ctx.signal);
    if (job === undefined) {
      const image = String((pipeline['spec'] as Obj | undefined)?.['image'] ?? 'busybox:1.36');
      const manifest = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: request.namespace ?? 'default', ownerReferences: [ownerReference(pipeline)] }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'run', image }] } } } };
      job = await ctx.client.create(JOB, manifest, { signal: ctx.signal });
    }
    const status = (job['status'] ?? {}) as Obj;
    const phase = Number(status['succeeded'] ?? 0) > 0 ? 'Succeeded' : Number(status['failed'] ?? 0) > 0 ? 'Failed' : status['startTime'] === undefined ? 'Pending' : 'Running';
    if ((pipeline['status'] as Obj | undefined)?.['phase'] !== phase) {
      await ctx.client.patch(PIPELINE, request.name, request.namespace, { status: { phase, job: name } }, { subresource: 'status', signal: ctx.signal });
    }
    return phase === 'Succeeded' || phase === 'Failed' ? undefined : { requeueAfter: 100 };
  },
});

const hooks = { DatabaseHooks };
const constructors = { NewPipelineReconciler };

async function databaseRuns(server: () => import('../../src/testing/index.js').TestApiServer, database: Record<string, unknown>): Promise<void> {
  server().create(database);
  await waitFor('the template ServiceAccount', () => server().get('v1', 'ServiceAccount', 'db-sa', 'default'));
  const service = await waitFor('the hook\'s Service', () => server().get('v1', 'Service', 'db-svc', 'default') as Obj | undefined);
  assert.equal(((service.metadata?.['ownerReferences'] as Obj[])[0] ?? {})['name'], 'db');
  const status = await waitFor('status', () => server().get(API, 'Database', 'db', 'default')?.['status'] as Obj | undefined);
  assert.deepEqual([status['phase'], status['engine'], status['endpoint']], ['Running', 'postgres', 'db-svc.default.svc.cluster.local']);
}

async function pipelineRuns(server: () => import('../../src/testing/index.js').TestApiServer, pipeline: Record<string, unknown>): Promise<void> {
  server().create(pipeline);
  const job = await waitFor('the constructor\'s Job', () => server().get('batch/v1', 'Job', 'p-run', 'default') as Obj | undefined);
  assert.equal(((((job.spec?.['template'] as Obj).spec as Obj)['containers'] as Obj[])[0] ?? {})['image'], 'alpine:3.19');
  // The test server's simulated Job controller completes it; the constructor writes the phase it reads.
  await waitFor('Succeeded', () => (server().get(API, 'Pipeline', 'p', 'default')?.['status'] as Obj | undefined)?.['phase'] === 'Succeeded');
}

for (const file of ['documented/09-hooks/katalog.yaml', 'documented/mixed/09-hooks/katalog.yaml']) {
  describe(`Orkestra corpus, run: ${file} (templates, then the hooks it names)`, () => {
    const { server, definition } = running(file, { hooks });
    test('the ServiceAccount from the template, the Service from DatabaseHooks, the status fields as strings', async () => {
      await databaseRuns(server, cr(definition(), 'db', { engine: 'postgres' }));
    });
  });
}

for (const file of ['documented/10-constructor/katalog.yaml', 'documented/mixed/10-constructor/katalog.yaml']) {
  describe(`Orkestra corpus, run: ${file} (a constructor owns reconcile)`, () => {
    const { server, definition } = running(file, { constructors });
    test('NewPipelineReconciler makes the Job and moves the phase to Succeeded when it completes', async () => {
      await pipelineRuns(server, cr(definition(), 'p', { image: 'alpine:3.19' }));
    });
  });
}

describe('Orkestra corpus, run: documented/mixed/01-hello-website (an image alone, allowedNamespaces)', () => {
  const { server, definition } = running('documented/mixed/01-hello-website/katalog.yaml');
  test('the Deployment gets Orkestra\'s default name and one replica; outside default nothing is made', async () => {
    server().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    server().create(cr(definition(), 'site', { image: 'nginx:1.27' }));
    server().create(cr(definition(), 'away', { image: 'nginx:1.27' }, 'other'));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site-deployment', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 1);
    assert.equal(server().get('apps/v1', 'Deployment', 'away-deployment', 'other'), undefined);
  });
});

describe('Orkestra corpus, run: documented/mixed/komposer (a hooks CRD and a constructor CRD, with dependsOn)', () => {
  const { server, definition } = running('documented/mixed/komposer.yaml', { hooks, constructors });
  // The Komposer's inline `website: {operatorBox: {reconciler: {workers: 5}}}` is a nested override
  // (docs/orkestra-compatibility.md#komposer-overrides): the imported website keeps its templates and namespace guard.
  test('database runs its template and hooks; website (after database healthy) its imported template with 5 workers; pipeline its constructor', async () => {
    const website = definition().crds.get('website');
    assert.equal(website?.settings.workers?.value, 5, 'the Komposer\'s override');
    assert.deepEqual(website?.namespaceGuard?.allowed, ['default'], 'the imported allowedNamespaces');
    await databaseRuns(server, cr(definition(), 'db', { engine: 'postgres' }, 'default', 'database'));
    server().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    server().create(cr(definition(), 'site', { image: 'nginx:1.27' }, 'default', 'website'));
    server().create(cr(definition(), 'away', { image: 'nginx:1.27' }, 'other', 'website'));
    const deployment = await waitFor('the imported website template', () => server().get('apps/v1', 'Deployment', 'site-deployment', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 1);
    await pipelineRuns(server, cr(definition(), 'p', { image: 'alpine:3.19' }, 'default', 'pipeline'));
    assert.equal(server().get('apps/v1', 'Deployment', 'away-deployment', 'other'), undefined, 'outside the imported allowedNamespaces');
  });
});

describe('Orkestra corpus, run: documented/public/cluster-01 (allowedNamespaces demo-01)', () => {
  const { server, definition } = running('documented/public/cluster-01/katalog.yaml');
  test('a Website in demo-01 gets its Deployment, Service and status; drift on the Deployment is put back', async () => {
    server().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo-01' } });
    server().create(cr(definition(), 'site', { image: 'nginx:1.27', replicas: 2, port: 8080 }, 'demo-01'));
    server().create(cr(definition(), 'ignored', { image: 'nginx:1.27', replicas: 1, port: 8080 }));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site', 'demo-01') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 2);
    await waitFor('Service', () => server().get('v1', 'Service', 'site-svc', 'demo-01'));
    const status = await waitFor('status', () => server().get(API, 'Website', 'site', 'demo-01')?.['status'] as Obj | undefined);
    assert.deepEqual([status['phase'], status['endpoint']], ['Running', 'site.demo-01.svc.cluster.local']);
    server().patch('apps/v1', 'Deployment', 'site', { spec: { replicas: 5 } }, { namespace: 'demo-01' });
    await waitFor('the Deployment put back', () => (server().get('apps/v1', 'Deployment', 'site', 'demo-01') as Obj | undefined)?.spec?.['replicas'] === 2);
    assert.equal(server().get('apps/v1', 'Deployment', 'ignored', 'default'), undefined, 'outside allowedNamespaces');
  });
});

describe('Orkestra corpus, run: documented/public/cluster-02 (ServiceAccount, allReplicasReady)', () => {
  const { server, definition } = running('documented/public/cluster-02/katalog.yaml');
  test('the Deployment runs as the ServiceAccount; allReplicasReady turns "true" once the replicas are ready', async () => {
    server().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo-02' } });
    server().create(cr(definition(), 'site', { image: 'nginx:1.27', replicas: 2, port: 8080 }, 'demo-02'));
    await waitFor('ServiceAccount', () => server().get('v1', 'ServiceAccount', 'site-sa', 'demo-02'));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site', 'demo-02') as Obj | undefined);
    assert.equal(((deployment.spec?.['template'] as Obj).spec as Obj)['serviceAccountName'], 'site-sa');
    await waitFor('Service', () => server().get('v1', 'Service', 'site-svc', 'demo-02'));
    const status = await waitFor('allReplicasReady', () => {
      const current = server().get(API, 'Website', 'site', 'demo-02')?.['status'] as Obj | undefined;
      return current?.['allReplicasReady'] === 'true' ? current : undefined;
    });
    assert.deepEqual([status['phase'], status['endpoint']], ['Running', 'site.demo-02.svc.cluster.local']);
  });
});

describe('Orkestra corpus, run: documented/public/cluster-03 (cluster-scoped owner, fromSecret into namespaces)', () => {
  const { server, definition } = running('documented/public/cluster-03/katalog.yaml');
  test('the Secret is copied into every target namespace, the status names the source, the copies go with the owner', async () => {
    for (const name of ['platform', 'team-a', 'team-b']) server().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    server().create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-creds', namespace: 'platform' }, type: 'Opaque', data: { password: Buffer.from('s3cret').toString('base64') } });
    const owner = cr(definition(), 'dist', { secretName: 'db-creds', sourceNamespace: 'platform', targetNamespaces: ['team-a', 'team-b'] });
    delete (owner['metadata'] as Obj)['namespace'];
    server().create(owner);
    for (const namespace of ['team-a', 'team-b']) {
      const copy = await waitFor(`the copy in ${namespace}`, () => server().get('v1', 'Secret', 'db-creds', namespace) as Obj | undefined);
      assert.deepEqual(copy['data'], { password: Buffer.from('s3cret').toString('base64') });
    }
    const status = await waitFor('status', () => server().get(API, 'SecretDistribution', 'dist')?.['status'] as Obj | undefined);
    assert.deepEqual([status['phase'], status['sourceSecret'], status['sourceNamespace']], ['Distributed', 'db-creds', 'platform']);
    server().delete(API, 'SecretDistribution', 'dist');
    for (const namespace of ['team-a', 'team-b']) await waitFor(`the copy in ${namespace} deleted`, () => server().get('v1', 'Secret', 'db-creds', namespace) === undefined);
  });
});
