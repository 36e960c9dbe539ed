// operatorBox.cross end to end against the test API server (the runtime talks to it through the real client-node
// over HTTP): an Application reads the Database of its name and the Databases of its tenant into `.cross`; its
// ConfigMap and status follow those Databases as they appear, change and go, without the Application being
// touched (the reads are watched through informers), and only the Applications that read a changed Database are
// reconciled again. A selector that renders nothing fails the reconcile (Ready=False, retried with backoff).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Hooks } from '../../src/operatorbox/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

const APPS = 'demo.orkestra.io/v1alpha1';
const DBS = 'data.orkestra.io/v1';

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: crossing }
spec:
  crds:
    database:
      apiTypes: { group: data.orkestra.io, version: v1, kind: Database, plural: databases }
      operatorBox:
        status: { conditions: false }
    application:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Application, plural: applications }
      operatorBox:
        hooks: { function: AppHooks }
        reconciler:
          cross:
            - crd: database
              selector: { name: "{{ .spec.database }}" }
              as: db
            - crd: database
              selector:
                matchLabels: { tenant: "{{ .spec.tenant }}" }
              strategy: all
              as: tenantDbs
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-wiring"
              data:
                found: "{{ .cross.db.found }}"
                phase: "{{ .cross.db.status.phase }}"
                tenantDbs: "{{ len .cross.tenantDbs }}"
        status:
          fields:
            - path: dbPhase
              value: "{{ .cross.db.status.phase }}"
`;

describe('cross: other CRDs read into .cross, followed through informers', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  const reconciled = new Map<string, number>();
  const hooks: Record<string, Hooks> = {
    AppHooks: {
      onReconcile: (ctx) => {
        const name = String(ctx.object.metadata?.name);
        reconciled.set(name, (reconciled.get(name) ?? 0) + 1);
      },
    },
  };
  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(KATALOG);
    for (const crd of definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, hooks: hooks, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  const wiring = (app: string): Record<string, string> | undefined => server.get('v1', 'ConfigMap', `${app}-wiring`, 'default')?.['data'] as Record<string, string> | undefined;
  const ready = (app: string): Record<string, unknown> | undefined =>
    ((server.get(APPS, 'Application', app, 'default')?.['status'] as { conditions?: Array<Record<string, unknown>> } | undefined)?.conditions ?? []).find((c) => c['type'] === 'Ready');
  const database = (name: string, labels: Record<string, string>): Record<string, unknown> => ({ apiVersion: DBS, kind: 'Database', metadata: { name, namespace: 'default', labels }, spec: { sizeGb: 1 } });

  test('a missing Database reads found "false"; its creation, status change and deletion reach the ConfigMap and status', async () => {
    server.create({ apiVersion: APPS, kind: 'Application', metadata: { name: 'shop', namespace: 'default' }, spec: { database: 'shop-db', tenant: 'acme' } });
    await waitFor('the first wiring', () => wiring('shop')?.['found'] === 'false');
    assert.deepEqual(wiring('shop'), { found: 'false', tenantDbs: '0' }, 'a missing field renders nothing (phase is left out)');

    server.create(database('shop-db', { tenant: 'acme' }));
    await waitFor('the Database seen by name and by label', () => wiring('shop')?.['found'] === 'true' && wiring('shop')?.['tenantDbs'] === '1');
    server.patch(DBS, 'Database', 'shop-db', { status: { phase: 'Ready' } }, { namespace: 'default', subresource: 'status' });
    await waitFor('the Database status read', () => wiring('shop')?.['phase'] === 'Ready');
    await waitFor('the status field written', () => (server.get(APPS, 'Application', 'shop', 'default')?.['status'] as Record<string, unknown> | undefined)?.['dbPhase'] === 'Ready');

    server.create(database('other-db', { tenant: 'acme' }));
    await waitFor('a second Database of the tenant', () => wiring('shop')?.['tenantDbs'] === '2');
    server.patch(DBS, 'Database', 'other-db', { metadata: { labels: { tenant: 'globex' } } }, { namespace: 'default' });
    await waitFor('a Database that left the tenant (its old labels matched)', () => wiring('shop')?.['tenantDbs'] === '1');

    server.delete(DBS, 'Database', 'shop-db', 'default');
    await waitFor('the Database gone', () => wiring('shop')?.['found'] === 'false' && wiring('shop')?.['tenantDbs'] === '0');
  });

  test('only the Applications that read a changed Database are reconciled again', async () => {
    server.create({ apiVersion: APPS, kind: 'Application', metadata: { name: 'blog', namespace: 'default' }, spec: { database: 'blog-db', tenant: 'initech' } });
    server.create({ apiVersion: APPS, kind: 'Application', metadata: { name: 'wiki', namespace: 'default' }, spec: { database: 'wiki-db', tenant: 'umbrella' } });
    await waitFor('both wired and ready', () => wiring('blog') !== undefined && ready('wiki')?.['status'] === 'True');
    server.create(database('blog-db', {}));
    await waitFor('blog sees its Database', () => wiring('blog')?.['found'] === 'true');
    const wikiBefore = reconciled.get('wiki') ?? 0;
    // A change blog reads, then one nobody reads: once both are through, wiki was not reconciled for either.
    server.create(database('unread-db', { tenant: 'nobody' }));
    server.patch(DBS, 'Database', 'blog-db', { status: { phase: 'Provisioning' } }, { namespace: 'default', subresource: 'status' });
    await waitFor('blog sees the status', () => wiring('blog')?.['phase'] === 'Provisioning');
    assert.equal(reconciled.get('wiki') ?? 0, wikiBefore, 'wiki reads neither Database');
  });

  test('a selector that renders an empty name fails the reconcile with the entry path (Ready=False), and recovers', async () => {
    server.create({ apiVersion: APPS, kind: 'Application', metadata: { name: 'broken', namespace: 'default' }, spec: { tenant: 'acme', database: '' } });
    const failed = await waitFor('Ready=False', () => (ready('broken')?.['status'] === 'False' ? ready('broken') : undefined));
    assert.match(String(failed['message']), /spec\.crds\.application\.operatorBox\.cross\[0\]: selector\.name rendered empty/);
    assert.equal(wiring('broken'), undefined);
    server.patch(APPS, 'Application', 'broken', { spec: { database: 'shop-db' } }, { namespace: 'default' });
    await waitFor('recovered', () => wiring('broken')?.['found'] === 'false');
  });
});
