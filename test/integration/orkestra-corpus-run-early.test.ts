// Early-generation corpus definitions (iAlexeze/orkestra, `spec.crds` lists and `reconciler:` blocks) run end to
// end, unchanged, against the test API server through the real client-node: the children Orkestra would create,
// the status as Orkestra writes it (strings unless a type says otherwise), one drift correction or update each.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cr, running, type Obj } from '../support/orkestra-run.js';
import { waitFor } from '../support/cluster.js';

const API = 'demo.orkestra.io/v1alpha1';

describe('Orkestra corpus, run: early/03b-configmap-copy (fromConfigMap into a list of namespaces)', () => {
  const { server, definition } = running('early/03b-configmap-copy/katalog.yaml');

  test('the source is copied into every target namespace and kept in line; the status names the source', async () => {
    for (const name of ['platform', 'team-a', 'team-b']) server().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    server().create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'platform' }, data: { LOG_LEVEL: 'info' } });
    server().create(cr(definition(), 'dist', { configMapName: 'app-config', sourceNamespace: 'platform', targetNamespaces: ['team-a', 'team-b'] }));
    for (const namespace of ['team-a', 'team-b']) {
      const copy = await waitFor(`the copy in ${namespace}`, () => server().get('v1', 'ConfigMap', 'app-config', namespace) as Obj | undefined);
      assert.deepEqual(copy['data'], { LOG_LEVEL: 'info' });
    }
    const status = await waitFor('status', () => server().get(API, 'ConfigMapDistribution', 'dist', 'default')?.['status'] as Obj | undefined);
    assert.deepEqual([status['phase'], status['sourceConfigMap'], status['sourceNamespace']], ['Distributed', 'app-config', 'platform']);
    // reconcile: true: a hand edit of a copy is put back.
    server().patch('v1', 'ConfigMap', 'app-config', { data: { LOG_LEVEL: 'edited' } }, { namespace: 'team-b' });
    await waitFor('the copy put back', () => (server().get('v1', 'ConfigMap', 'app-config', 'team-b')?.['data'] as Obj | undefined)?.['LOG_LEVEL'] === 'info');
  });
});

describe('Orkestra corpus, run: early/04-multi-resource (Deployment + Service + ConfigMap, readyReplicas from the child)', () => {
  const { server, definition } = running('early/04-multi-resource/katalog.yaml');

  test('three children as declared; the status carries the Deployment\'s live replicas as strings; an update reaches the children', async () => {
    server().create(cr(definition(), 'app', { image: 'nginx:1.27', replicas: 2, port: 8080, logLevel: 'info', maxConnections: 100 }));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'app', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 2);
    const service = await waitFor('Service', () => server().get('v1', 'Service', 'app-svc', 'default') as Obj | undefined);
    assert.deepEqual((service.spec?.['ports'] as Obj[])[0], { port: 80, targetPort: 8080, protocol: 'TCP' });
    const config = await waitFor('ConfigMap', () => server().get('v1', 'ConfigMap', 'app-config', 'default') as Obj | undefined);
    assert.deepEqual(config['data'], { LOG_LEVEL: 'info', MAX_CONNECTIONS: '100' });
    // The test server's simulated Deployment controller makes the replicas ready; the next cycle reads them.
    const status = await waitFor('readyReplicas', () => {
      const current = server().get(API, 'Application', 'app', 'default')?.['status'] as Obj | undefined;
      return current?.['readyReplicas'] === '2' ? current : undefined;
    });
    assert.deepEqual([status['phase'], status['observedReplicas'], status['availableReplicas'], status['endpoint']], ['Running', '2', '2', 'app.default.svc.cluster.local']);
    server().patch(API, 'Application', 'app', { spec: { logLevel: 'debug', replicas: 3 } }, { namespace: 'default' });
    await waitFor('the ConfigMap updated', () => (server().get('v1', 'ConfigMap', 'app-config', 'default')?.['data'] as Obj | undefined)?.['LOG_LEVEL'] === 'debug');
    await waitFor('the Deployment scaled', () => (server().get('apps/v1', 'Deployment', 'app', 'default') as Obj | undefined)?.spec?.['replicas'] === 3);
  });
});

describe('Orkestra corpus, run: early/komposer-basic/website-katalog (default child names, reconcile: true)', () => {
  const { server, definition } = running('early/komposer-basic/website-katalog.yaml');

  test('unnamed children get Orkestra\'s default names; drift on the Deployment is corrected', async () => {
    server().create(cr(definition(), 'site', { image: 'nginx:1.27', replicas: 2, port: 8080 }));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site-deployment', 'default') as Obj | undefined);
    assert.equal(deployment.spec?.['replicas'], 2);
    const service = await waitFor('Service', () => server().get('v1', 'Service', 'site-svc', 'default') as Obj | undefined);
    assert.deepEqual((service.spec?.['ports'] as Obj[])[0], { port: 80, targetPort: 8080, protocol: 'TCP' });
    const status = await waitFor('status', () => server().get(API, 'Website', 'site', 'default')?.['status'] as Obj | undefined);
    assert.deepEqual([status['phase'], status['endpoint']], ['Running', 'site.default.svc.cluster.local']);
    server().patch('apps/v1', 'Deployment', 'site-deployment', { spec: { replicas: 7 } }, { namespace: 'default' });
    await waitFor('drift corrected', () => (server().get('apps/v1', 'Deployment', 'site-deployment', 'default') as Obj | undefined)?.spec?.['replicas'] === 2);
  });
});

describe('Orkestra corpus, run: early/komposer-basic/komposer (two Katalogs composed, the website CRD overridden)', () => {
  const { server, definition } = running('early/komposer-basic/komposer.yaml');

  test('the composed website CRD runs with the base templates; the override takes its workers', async () => {
    assert.equal(definition().crds.get('website')?.settings.workers?.value, 4, 'the Komposer\'s override');
    server().create(cr(definition(), 'site', { image: 'nginx:1.27', replicas: 1, port: 8080 }, 'default', 'website'));
    await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site-deployment', 'default'));
    await waitFor('Service', () => server().get('v1', 'Service', 'site-svc', 'default'));
    const status = await waitFor('status', () => server().get(API, 'Website', 'site', 'default')?.['status'] as Obj | undefined);
    assert.equal(status['phase'], 'Running');
    // namespace-governance (no templates, a warn rule at admission) runs as namespace-katalog does, with its
    // admission router mounted, in orkestra-admission.test.ts.
  });
});

const ready = (object: Record<string, unknown> | undefined): string | undefined =>
  (((object?.['status'] as Obj | undefined)?.['conditions'] ?? []) as Obj[]).find((condition) => condition['type'] === 'Ready')?.['status'] as string | undefined;
const finalizers = (object: Record<string, unknown> | undefined): unknown => (object?.['metadata'] as Obj | undefined)?.['finalizers'];

describe('Orkestra corpus, run: early/crdkatalog (three CRDs without templates, finalizers, dependsOn)', () => {
  const { server, definition } = running('early/crdkatalog/crdkatalog.yaml');
  const PLATFORM = 'platform.orkestra.io/v1alpha1';

  test('each custom resource is reconciled (Ready=True) and carries its finalizers; deleting one removes them', async () => {
    server().create(cr(definition(), 'proj', {}, 'default', 'project'));
    const managed = cr(definition(), 'team-ns', {}, 'default', 'managednamespace');
    delete (managed['metadata'] as Obj)['namespace'];
    server().create(managed);
    server().create(cr(definition(), 'app', {}, 'default', 'application'));
    await waitFor('Project Ready', () => ready(server().get(PLATFORM, 'Project', 'proj', 'default')) === 'True');
    await waitFor('ManagedNamespace Ready', () => ready(server().get(PLATFORM, 'ManagedNamespace', 'team-ns')) === 'True');
    await waitFor('Application Ready', () => ready(server().get(PLATFORM, 'Application', 'app', 'default')) === 'True');
    assert.ok((finalizers(server().get(PLATFORM, 'Project', 'proj', 'default')) as string[]).includes('my-default-finalizer/platform-katalog'));
    assert.ok((finalizers(server().get(PLATFORM, 'Application', 'app', 'default')) as string[]).includes('my-finalizer/application'));
    server().delete(PLATFORM, 'Application', 'app', 'default');
    await waitFor('the Application gone', () => server().get(PLATFORM, 'Application', 'app', 'default') === undefined);
  });
});

describe('Orkestra corpus, run: early/docs-website (disabled built-in CRDs, a conditional Service, labels as a list)', () => {
  const { server, definition } = running('early/docs-website/website-katalog.yaml');

  test('Deployment and both Services with their labels; the public Service goes when exposePublicly turns false', async () => {
    server().create(cr(definition(), 'site', { image: 'nginx:1.27', replicas: 2, port: 8080, serviceType: 'NodePort', exposePublicly: true }, 'default', 'frontend'));
    const deployment = await waitFor('Deployment', () => server().get('apps/v1', 'Deployment', 'site', 'default') as Obj | undefined);
    assert.equal((deployment.metadata?.['labels'] as Obj)['app'], 'site');
    assert.equal(deployment.spec?.['replicas'], 2);
    const open = await waitFor('public Service', () => server().get('v1', 'Service', 'site-svc', 'default') as Obj | undefined);
    assert.equal(open.spec?.['type'], 'NodePort');
    const general = await waitFor('general Service', () => server().get('v1', 'Service', 'site-general-svc', 'default') as Obj | undefined);
    assert.deepEqual([general.spec?.['type'], (general.spec?.['ports'] as Obj[])[0]?.['port']], ['ClusterIP', 8080]);
    // The public Service's entry keeps it in line (reconcile: true): when its condition stops holding, Orkestra
    // deletes it (docs/operatorbox.md#pruning); the general one stays.
    server().patch('demo.orkestra.io/v1alpha1', 'Website', 'site', { spec: { exposePublicly: false } }, { namespace: 'default' });
    await waitFor('the public Service deleted', () => server().get('v1', 'Service', 'site-svc', 'default') === undefined);
    assert.ok(server().get('v1', 'Service', 'site-general-svc', 'default'));
    // backend (OrkApp, no templates) starts after frontend and is reconciled.
    server().create(cr(definition(), 'api', {}, 'default', 'backend'));
    await waitFor('OrkApp Ready', () => ready(server().get('orkestra.konduktor.io/v1alpha1', 'OrkApp', 'api', 'default')) === 'True');
  });
});
