// Secret and ConfigMap copies (fromSecret / fromConfigMap, fromNamespace, toNamespaces), run from the Orkestra
// corpus unchanged against the test API server through the real client-node: the copies carry the source's data
// into every target namespace; a missing source is Ready=False and retried with backoff until it appears (never
// skipped); a change of the source reaches reconcile: true copies at the owner's next reconcile (its resync);
// a cluster-scoped owner's copies are deleted with it. The source's values never appear in conditions, logs or the
// inspection API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/types.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Logger } from '../../src/observe/logger.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; data?: Record<string, string>; type?: string; status?: { conditions?: Array<{ type: string; status: string; message?: string }> } & Record<string, unknown> };

const CORPUS = 'test/fixtures/orkestra';
const SECRET_VALUE = `Pw${randomBytes(24).toString('hex')}`;
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

interface Running {
  server: TestApiServer;
  runtime: Runtime;
  definition: Definition;
  logs: string[];
}

function running(file: string, resync?: string): () => Running {
  const state = {} as Running;
  before(async () => {
    state.server = await startTestApiServer();
    state.definition = await loadDefinition(`${CORPUS}/${file}`);
    state.logs = [];
    for (const crd of state.definition.crds.values()) {
      if (crd.crdFile !== undefined) continue;
      const { group, kind, plural, scope, version } = crd.apiTypes;
      state.server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    for (const name of ['platform', 'team-a', 'team-b']) state.server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    const logger = (bindings: Record<string, unknown>): Logger => {
      const line = (level: string) => (message: string, fields?: Record<string, unknown>) => void state.logs.push(`${level} ${message} ${JSON.stringify({ ...bindings, ...fields })}`);
      return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: (more) => logger({ ...bindings, ...more }) };
    };
    state.runtime = createRuntime(state.definition, {
      kubeConfig: state.server.kubeConfig,
      watch: FAST_WATCH,
      installCrds: true,
      rateLimiter: { baseDelay: 5, maxDelay: 200 },
      logger: logger({}),
      ...(resync === undefined ? {} : { defaults: { resync } }),
    });
    await state.runtime.start();
  });
  after(async () => {
    await state.runtime.stop();
    await state.server.stop();
  });
  return () => state;
}

function cr(definition: Definition, name: string, spec: Record<string, unknown>, namespace?: string): Record<string, unknown> {
  const crd = [...definition.crds.values()][0];
  assert.ok(crd);
  return { apiVersion: `${crd.apiTypes.group}/${crd.apiTypes.version}`, kind: crd.apiTypes.kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) }, spec };
}

function ready(object: Obj | undefined): { status: string; message?: string } | undefined {
  return object?.status?.conditions?.find((c) => c.type === 'Ready');
}

describe('copies: early/03-secret-copy (fromSecret, fromNamespace, toNamespaces from a list field)', () => {
  const state = running('early/03-secret-copy/katalog.yaml');

  test('a missing source is Ready=False without its names or values; once it exists, every target namespace gets the data', async () => {
    const { server, definition, runtime, logs } = state();
    server.create(cr(definition, 'dist', { secretName: 'db-creds', sourceNamespace: 'platform', targetNamespaces: ['team-a', 'team-b'] }, 'default'));
    const waiting = await waitFor('Ready=False', () => {
      const condition = ready(server.get('demo.orkestra.io/v1alpha1', 'SecretDistribution', 'dist', 'default') as Obj | undefined);
      return condition?.status === 'False' ? condition : undefined;
    });
    assert.match(waiting.message ?? '', /the Secret to copy \(fromSecret, fromNamespace\) does not exist; retried with backoff/);
    assert.doesNotMatch(waiting.message ?? '', /db-creds|platform/);
    assert.equal(server.get('v1', 'Secret', 'db-creds', 'team-a'), undefined);

    server.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-creds', namespace: 'platform' }, type: 'kubernetes.io/basic-auth', data: { username: b64('app'), password: b64(SECRET_VALUE) } });
    for (const namespace of ['team-a', 'team-b']) {
      const copy = await waitFor(`copy in ${namespace}`, () => server.get('v1', 'Secret', 'db-creds', namespace) as Obj | undefined);
      assert.deepEqual(copy.data, { username: b64('app'), password: b64(SECRET_VALUE) });
      assert.equal(copy.type, 'kubernetes.io/basic-auth', 'the source type is kept');
    }
    const status = await waitFor('Distributed', () => {
      const owner = server.get('demo.orkestra.io/v1alpha1', 'SecretDistribution', 'dist', 'default') as Obj | undefined;
      return ready(owner)?.status === 'True' ? owner?.status : undefined;
    });
    assert.deepEqual([status['phase'], status['sourceSecret'], status['sourceNamespace']], ['Distributed', 'db-creds', 'platform']);
    assert.equal(server.get('v1', 'Secret', 'db-creds', 'default'), undefined, 'no copy where toNamespaces does not say');

    // The value reaches neither the logs, nor the inspection API (its six routes).
    const answers: string[] = [];
    for (const path of ['/health', '/ready', '/metrics', '/katalog', '/katalog/secret-distribution', '/katalog/secret-distribution/health']) {
      answers.push(await (await runtime.router.request(path)).text());
    }
    const pieces = [SECRET_VALUE.slice(2, 14), b64(SECRET_VALUE).slice(4, 16)];
    for (const text of [...logs, ...answers]) for (const piece of pieces) assert.ok(!text.includes(piece), `a piece of the source value leaked: ${text.slice(0, 200)}`);
  });
});

describe('copies: current/03b-configmap-copy (crdFile, cluster-scoped owner, reconcile: true, resync)', () => {
  const state = running('current/03b-configmap-copy/katalog.yaml', '300ms');

  test('copies follow the source at the next reconcile, and are deleted with the cluster-scoped owner', async () => {
    const { server, definition } = state();
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'platform' }, data: { LOG_LEVEL: 'info' } });
    server.create(cr(definition, 'dist', { configMapName: 'app-config', sourceNamespace: 'platform', targetNamespaces: ['team-a', 'team-b'] }));
    for (const namespace of ['team-a', 'team-b']) {
      const copy = await waitFor(`copy in ${namespace}`, () => server.get('v1', 'ConfigMap', 'app-config', namespace) as Obj | undefined);
      assert.deepEqual(copy.data, { LOG_LEVEL: 'info' });
    }
    server.update({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'platform' }, data: { LOG_LEVEL: 'debug' } });
    for (const namespace of ['team-a', 'team-b']) {
      await waitFor(`updated copy in ${namespace}`, () => (server.get('v1', 'ConfigMap', 'app-config', namespace) as Obj | undefined)?.data?.['LOG_LEVEL'] === 'debug');
    }
    server.delete('demo.orkestra.io/v1alpha1', 'ConfigMapDistribution', 'dist');
    for (const namespace of ['team-a', 'team-b']) await waitFor(`copy in ${namespace} deleted`, () => server.get('v1', 'ConfigMap', 'app-config', namespace) === undefined);
    assert.ok(server.get('v1', 'ConfigMap', 'app-config', 'platform'), 'the source is left alone');
  });
});

describe('copies: early/docs-platform-namespace (fromSecret into the entry namespace; one Secret in onCreate and onReconcile)', () => {
  const state = running('early/docs-platform-namespace/platform-namespace-katalog.yaml');

  test('the pull secret is copied into spec.targetNamespace beside the ConfigMap and ServiceAccount; onReconcile keeps it in line', async () => {
    const { server, definition } = state();
    server.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'regcred', namespace: 'platform' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } });
    server.create(cr(definition, 'team-a', { targetNamespace: 'team-a', pullSecret: 'regcred', team: 'alpha', environment: 'dev', logLevel: 'info' }));
    const copy = await waitFor('pull secret copy', () => server.get('v1', 'Secret', 'regcred', 'team-a') as Obj | undefined);
    assert.equal(copy.type, 'kubernetes.io/dockerconfigjson');
    assert.deepEqual(copy.data, { '.dockerconfigjson': b64('{"auths":{}}') });
    await waitFor('ConfigMap', () => server.get('v1', 'ConfigMap', 'team-a-config', 'team-a'));
    await waitFor('ServiceAccount', () => server.get('v1', 'ServiceAccount', 'alpha-sa', 'team-a'));
  });
});
