// User-defined notes run end to end through the real client-node against the test API server: the corpus's
// current/09-notes/03-motifs (notes from a Motif through spec.imports, and one inline) and 04-komposer (the
// Komposer overrides the imported serviceHost note), unchanged. Children are named and status is written with the
// notes' results, as Orkestra renders them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { spec?: Record<string, unknown>; status?: Record<string, unknown> };
const WORKLOAD = 'demo.orkestra.io/v1';
const CORPUS = 'test/fixtures/orkestra/current/09-notes';

function running(file: string): () => { server: TestApiServer; runtime: Runtime; definition: Definition } {
  const state = {} as { server: TestApiServer; runtime: Runtime; definition: Definition };
  before(async () => {
    state.server = await startTestApiServer();
    state.definition = await loadDefinition(file);
    for (const crd of state.definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      state.server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    state.server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    state.runtime = createRuntime(state.definition, { kubeConfig: state.server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await state.runtime.start();
  });
  after(async () => {
    await state.runtime.stop();
    await state.server.stop();
  });
  return () => state;
}

function image(deployment: Obj): unknown {
  const template = deployment.spec?.['template'] as { spec?: { containers?: Array<{ image?: unknown }> } } | undefined;
  return template?.spec?.containers?.[0]?.image;
}

async function statusOf(server: TestApiServer, name: string, field: string): Promise<Record<string, unknown>> {
  return waitFor(`status.${field} of ${name}`, () => {
    const status = (server.get(WORKLOAD, 'Workload', name, 'shop') as Obj | undefined)?.status;
    return status?.[field] === undefined ? undefined : status;
  });
}

describe('Orkestra corpus, run: current/09-notes/03-motifs (Motif notes through spec.imports)', () => {
  const state = running(`${CORPUS}/03-motifs/katalog.yaml`);

  test('appLabel names the Deployment, fullImage gives its image, serviceHost and fullImage fill the status', async () => {
    const { server } = state();
    server.create({ apiVersion: WORKLOAD, kind: 'Workload', metadata: { name: 'api', namespace: 'shop' }, spec: { image: 'nginx', tag: '1.27', port: 8080 } });
    const deployment = await waitFor('Deployment shop-api', () => server.get('apps/v1', 'Deployment', 'shop-api', 'shop') as Obj | undefined);
    assert.equal(image(deployment), 'nginx:1.27');
    const status = await statusOf(server, 'api', 'host');
    assert.equal(status['host'], 'api.shop.svc.cluster.local');
    assert.equal(status['image'], 'nginx:1.27');
  });

  test('a note follows the custom resource: without a tag, fullImage falls back to latest', async () => {
    const { server } = state();
    server.create({ apiVersion: WORKLOAD, kind: 'Workload', metadata: { name: 'web', namespace: 'shop' }, spec: { image: 'httpd', port: 80 } });
    const deployment = await waitFor('Deployment shop-web', () => server.get('apps/v1', 'Deployment', 'shop-web', 'shop') as Obj | undefined);
    assert.equal(image(deployment), 'httpd:latest');
    assert.equal((await statusOf(server, 'web', 'image'))['image'], 'httpd:latest');
  });
});

describe('Orkestra corpus, run: current/09-notes/04-komposer (the Komposer overrides serviceHost)', () => {
  const state = running(`${CORPUS}/04-komposer/komposer.yaml`);

  test("the Komposer's serviceHost replaces the imported one; the Motif's notes still apply", async () => {
    const { server } = state();
    server.create({ apiVersion: WORKLOAD, kind: 'Workload', metadata: { name: 'api', namespace: 'shop' }, spec: { image: 'nginx', tag: '1.27', port: 8080 } });
    const status = await statusOf(server, 'api', 'host');
    assert.equal(status['host'], 'api.shop.svc.prod-cluster.example.com');
    const deployment = await waitFor('Deployment shop-api', () => server.get('apps/v1', 'Deployment', 'shop-api', 'shop') as Obj | undefined);
    assert.equal(image(deployment), 'nginx:1.27');
  });
});
