// cross[].labelSelector end to end against the test API server (real client-node over HTTP): an Application finds
// the Database CRD through its labelSelector (tier: platform) and reads the Database of its name, and finds the
// Cache CRD (tier: edge) and, with no selector, reads the first Cache labelled tier=edge; creating, changing and
// relabelling those objects reaches its ConfigMap without the Application being touched (the cross informers).
import { after, before, describe, test } from 'node:test';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const DATA = 'data.orkestra.io/v1';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: by-labels }
spec:
  crds:
    database:
      apiTypes: { group: data.orkestra.io, version: v1, kind: Database, plural: databases }
      labelSelector: { tier: platform }
      operatorBox:
        status: { conditions: false }
    cache:
      apiTypes: { group: data.orkestra.io, version: v1, kind: Cache, plural: caches }
      labelSelector: { tier: edge }
      operatorBox:
        status: { conditions: false }
    application:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Application, plural: applications }
      operatorBox:
        reconciler:
          cross:
            - labelSelector: { tier: platform }
              selector: { name: "{{ .metadata.name }}-db" }
              as: db
            - labelSelector: { tier: edge }
              as: edge
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-wiring"
              data:
                db: "{{ .cross.db.found }}/{{ .cross.db.spec.engine }}"
                edge: "{{ .cross.edge.found }}/{{ .cross.edge.name }}"
`;

describe('cross labelSelector: the CRD found through its labelSelector, read through informers', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(KATALOG);
    for (const crd of definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  const wiring = (app: string): Record<string, string> | undefined => server.get('v1', 'ConfigMap', `${app}-wiring`, 'default')?.['data'] as Record<string, string> | undefined;

  test('the Database by name and the Cache by the tier label follow their creation, change and relabelling', async () => {
    server.create({ apiVersion: 'demo.orkestra.io/v1alpha1', kind: 'Application', metadata: { name: 'shop', namespace: 'default' }, spec: {} });
    await waitFor('nothing found yet', () => wiring('shop')?.['db'] === 'false/' && wiring('shop')?.['edge'] === 'false/');

    server.create({ apiVersion: DATA, kind: 'Database', metadata: { name: 'shop-db', namespace: 'default', labels: { tier: 'platform' } }, spec: { engine: 'postgres' } });
    server.create({ apiVersion: DATA, kind: 'Cache', metadata: { name: 'front', namespace: 'default', labels: { tier: 'edge' } }, spec: {} });
    await waitFor('both read', () => wiring('shop')?.['db'] === 'true/postgres' && wiring('shop')?.['edge'] === 'true/front');

    server.patch(DATA, 'Database', 'shop-db', { spec: { engine: 'mysql' } }, { namespace: 'default' });
    await waitFor('the Database change read', () => wiring('shop')?.['db'] === 'true/mysql');

    server.patch(DATA, 'Cache', 'front', { metadata: { labels: { tier: 'core' } } }, { namespace: 'default' });
    await waitFor('the Cache that lost the label is no longer read', () => wiring('shop')?.['edge'] === 'false/');
  });
});
