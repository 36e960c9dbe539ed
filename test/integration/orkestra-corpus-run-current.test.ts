// Current-generation corpus definitions (orkspace/orkestra, `orkestra.orkspace.io/v1`, CRDs from `crdFile` alone)
// run end to end, unchanged, against the test API server through the real client-node: the children Orkestra would
// create, the status as Orkestra writes it, one drift correction or update each. The constructor ctrlruntime names
// is registered here in TypeScript, as a host does.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceRef } from '../../src/kube/resource.js';
import type { ConstructorFactory } from '../../src/operatorbox/types.js';
import { cr, running, type Obj } from '../support/orkestra-run.js';
import { waitFor } from '../support/cluster.js';

const status = (object: Record<string, unknown> | undefined): Obj | undefined => object?.['status'] as Obj | undefined;
const ready = (object: Record<string, unknown> | undefined): string | undefined =>
  ((status(object)?.['conditions'] ?? []) as Obj[]).find((condition) => condition['type'] === 'Ready')?.['status'] as string | undefined;

describe('Orkestra corpus, run: current/07-crd-file (two CRDs from their crdFiles)', () => {
  const { server, definition } = running('current/07-crd-file/katalog.yaml');

  test('an App gets a default-named Deployment and Service, a Database its ConfigMap; the status as strings', async () => {
    server().create(cr(definition(), 'web', { image: 'nginx:1.27', replicas: 2 }, 'default', 'app'));
    server().create(cr(definition(), 'pg', { engine: 'postgres', storageSize: '10Gi' }, 'default', 'database'));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'web-deployment', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 2);
    const service = await waitFor('Service', () => server().get('v1', 'Service', 'web-svc', 'default') as Obj | undefined);
    assert.deepEqual((service.spec?.['ports'] as Obj[])[0], { port: 80, targetPort: 8080, protocol: 'TCP' });
    const config = await waitFor('ConfigMap', () => server().get('v1', 'ConfigMap', 'pg-db-config', 'default') as Obj | undefined);
    assert.deepEqual(config['data'], { ENGINE: 'postgres', STORAGE: '10Gi' });
    const app = await waitFor('App status', () => status(server().get('crdfile.orkestra.io/v1alpha1', 'App', 'web', 'default')));
    assert.deepEqual([app['phase'], app['image']], ['Running', 'nginx:1.27']);
    const database = await waitFor('Database status', () => status(server().get('crdfile.orkestra.io/v1alpha1', 'Database', 'pg', 'default')));
    assert.deepEqual([database['phase'], database['engine']], ['Running', 'postgres']);
    server().patch('crdfile.orkestra.io/v1alpha1', 'App', 'web', { spec: { replicas: 3 } }, { namespace: 'default' });
    await waitFor('the Deployment scaled', () => (server().get('apps/v1', 'Deployment', 'web-deployment', 'default') as Obj | undefined)?.spec?.['replicas'] === 3);
  });
});

describe('Orkestra corpus, run: current/09-notes/02-user-defined (a note in a status field)', () => {
  const { server, definition } = running('current/09-notes/02-user-defined/katalog.yaml');

  test('the Deployment image joins image and tag (default "latest"); the status goes Pending → Ready with the note\'s host', async () => {
    server().create(cr(definition(), 'api', { image: 'nginx', port: 8080 }));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'api', 'default') as Obj | undefined);
    const container = ((((deployment.spec?.['template'] as Obj).spec as Obj)['containers'] as Obj[])[0] ?? {}) as Obj;
    assert.equal(container['image'], 'nginx:latest');
    assert.equal(deployment.spec?.['replicas'], 1);
    // Ready once the simulated Deployment controller reports the replica ready (the resync or the child's event).
    const done = await waitFor('Ready', () => (status(server().get('demo.orkestra.io/v1', 'Workload', 'api', 'default'))?.['phase'] === 'Ready' ? status(server().get('demo.orkestra.io/v1', 'Workload', 'api', 'default')) : undefined), 20_000);
    assert.equal(done['host'], 'api.default.svc.cluster.local');
    server().patch('demo.orkestra.io/v1', 'Workload', 'api', { spec: { tag: '1.27' } }, { namespace: 'default' });
    await waitFor('the image updated (onReconcile)', () => {
      const current = server().get('apps/v1', 'Deployment', 'api', 'default') as Obj | undefined;
      return ((((current?.spec?.['template'] as Obj | undefined)?.['spec'] as Obj | undefined)?.['containers'] as Obj[] | undefined)?.[0] ?? {})['image'] === 'nginx:1.27';
    });
  });
});

// Its `.metrics.autoscaleActive` and `.metrics.workers` status fields are not written: katalog's template data has
// no `.metrics` root outside autoscale conditions (docs/orkestra-compatibility.md#the-corpus).
describe('Orkestra corpus, run: current/12-autoscale-without (queue drop; .metrics in status fields)', () => {
  const { server, definition } = running('current/12-autoscale-without/katalog.yaml');

  test('Deployment and Service by default names; the phase and the .metrics fields are written as Orkestra writes them', async () => {
    server().create(cr(definition(), 'ing', { image: 'busybox:1.36', replicas: 1 }));
    await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'ing-deployment', 'default'));
    const service = await waitFor('Service', () => server().get('v1', 'Service', 'ing-svc', 'default') as Obj | undefined);
    assert.equal((service.spec?.['ports'] as Obj[])[0]?.['port'], 8080);
    const current = await waitFor('status', () => status(server().get('autoscale.orkestra.io/v1alpha1', 'Ingestor', 'ing', 'default')));
    assert.equal(current['phase'], 'Running');
    assert.deepEqual([current['autoscaleActive'], current['workers']], ['false', '2'], 'no autoscale rule: not active, the declared 2 workers, as strings');
  });
});

const DEPLOYMENT: ResourceRef = { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true };

/** NewWebAppReconciler (orkestra-ctrlruntime-constructor): a Deployment per WebApp, kept at the spec's replicas and image. */
const NewWebAppReconciler: ConstructorFactory = () => ({
  async reconcile(request, ctx) {
    const app = ctx.object;
    if (app === undefined || app.metadata?.deletionTimestamp !== undefined) return;
    const spec = (app['spec'] ?? {}) as Obj;
    const labels = { app: request.name };
    const owner = { apiVersion: app.apiVersion ?? '', kind: app.kind ?? '', name: request.name, uid: app.metadata?.uid ?? '', controller: true };
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: request.name, namespace: request.namespace ?? 'default', labels, ownerReferences: [owner] },
      spec: { replicas: Number(spec['replicas'] ?? 1), selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: String(spec['image'] ?? 'nginx') }] } } },
    };
    await ctx.client.apply(DEPLOYMENT, manifest, { fieldManager: 'webapp', force: true, signal: ctx.signal });
  },
});

describe('Orkestra corpus, run: current/ctrlruntime (a constructor, a watched ConfigMap index, an eventAware gate)', () => {
  const { server, definition } = running('current/ctrlruntime/katalog.yaml', { constructors: { NewWebAppReconciler } });

  test('the constructor makes the Deployment and keeps it at the spec', async () => {
    server().create(cr(definition(), 'shop', { image: 'nginx:1.27', replicas: 2 }));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'shop', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 2);
    server().patch('migration.demo.orkestra.io/v1alpha1', 'WebApp', 'shop', { spec: { replicas: 4 } }, { namespace: 'default' });
    await waitFor('the Deployment scaled', () => (server().get('apps/v1', 'Deployment', 'shop', 'default') as Obj | undefined)?.spec?.['replicas'] === 4);
  });
});

describe('Orkestra corpus, run: current/e2e-probe (resourceExists and allReplicasReady in conditions)', () => {
  const { server, definition } = running('current/e2e-probe/katalog.yaml');

  test('Deployment and Service as named; the phase reaches Ready once the replicas are; drift on the Deployment is put back', async () => {
    server().create(cr(definition(), 'probe', { image: 'nginx:alpine', replicas: 1, port: 8080 }));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'probe', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 1);
    const service = await waitFor('Service', () => server().get('v1', 'Service', 'probe-svc', 'default') as Obj | undefined);
    assert.deepEqual((service.spec?.['ports'] as Obj[])[0], { port: 8080, targetPort: 8080, protocol: 'TCP' });
    await waitFor('Ready', () => status(server().get('e2e.orkestra.io/v1alpha1', 'E2EProbe', 'probe', 'default'))?.['phase'] === 'Ready', 20_000);
    server().patch('apps/v1', 'Deployment', 'probe', { spec: { replicas: 3 } }, { namespace: 'default' });
    await waitFor('drift corrected', () => (server().get('apps/v1', 'Deployment', 'probe', 'default') as Obj | undefined)?.spec?.['replicas'] === 1);
  });
});

describe('Orkestra corpus, run: current/watch-entries/valid (watches on Deployments and Nodes, sentinels)', () => {
  const { server, definition } = running('current/watch-entries/valid/watch-entries.yaml');

  test('a Widget is reconciled (Ready=True) with its watches running on Deployments and Nodes', async () => {
    server().create(cr(definition(), 'w', {}));
    await waitFor('Ready=True', () => ready(server().get('validate.orkestra.io/v1alpha1', 'Widget', 'w', 'default')) === 'True');
    server().create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
    server().create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    assert.equal(ready(server().get('validate.orkestra.io/v1alpha1', 'Widget', 'w', 'default')), 'True');
  });
});
