// Orkestra data features run end to end through the real client-node against the test API server: generated TLS
// Secrets (the corpus's documented/public/cluster-06 unchanged, with its tls-cert Motif), reused as they are while
// valid, renewed two thirds into their lifetime, regenerated when the names change; key material never leaves the
// Secret (logs, status, conditions, events, the inspection API).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition, parseDefinition } from '../../src/definition/index.js';
import type { Definition } from '../../src/definition/types.js';
import type { Logger } from '../../src/observe/logger.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { TLS_RENEW_AT } from '../../src/operatorbox/tls.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { type?: string; metadata?: { annotations?: Record<string, string>; resourceVersion?: string }; data?: Record<string, string>; spec?: Record<string, unknown>; status?: Record<string, unknown> };

interface Running {
  server: TestApiServer;
  runtime: Runtime;
  definition: Definition;
  logs: string[];
}

function running(load: () => Promise<Definition>, namespaces: readonly string[] = []): () => Running {
  const state = {} as Running;
  before(async () => {
    state.server = await startTestApiServer();
    state.definition = await load();
    state.logs = [];
    for (const crd of state.definition.crds.values()) {
      const { group, kind, plural, scope, version } = crd.apiTypes;
      state.server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    for (const name of namespaces) state.server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    const logger = (bindings: Record<string, unknown>): Logger => {
      const line = (level: string) => (message: string, fields?: Record<string, unknown>) => void state.logs.push(`${level} ${message} ${JSON.stringify({ ...bindings, ...fields })}`);
      return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: (more) => logger({ ...bindings, ...more }) };
    };
    state.runtime = createRuntime(state.definition, { kubeConfig: state.server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 }, logger: logger({}) });
    await state.runtime.start();
  });
  after(async () => {
    await state.runtime.stop();
    await state.server.stop();
  });
  return () => state;
}

const text = (secret: Obj, key: string): string => Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');

/** The certificate of a generated Secret, checked against its CA and its key. */
function certificateOf(secret: Obj): X509Certificate {
  assert.equal(secret.type, 'kubernetes.io/tls');
  const cert = new X509Certificate(text(secret, 'tls.crt'));
  const ca = new X509Certificate(text(secret, 'ca.crt'));
  assert.ok(ca.ca, 'ca.crt is a CA');
  assert.ok(cert.checkIssued(ca) && cert.verify(ca.publicKey), 'tls.crt is signed by ca.crt');
  assert.ok(cert.checkPrivateKey(createPrivateKey(text(secret, 'tls.key'))), 'tls.key is the certificate\'s key');
  return cert;
}

describe('Orkestra corpus, run: documented/public/cluster-06 (tls-cert Motif, 7 CRDs)', () => {
  const state = running(() => loadDefinition('test/fixtures/orkestra/documented/public/cluster-06/katalog.yaml'), ['demo-06']);

  test('a TLSPolicy gets a kubernetes.io/tls Secret for its names, valid rotateAfter (1y); status as Orkestra writes it', async () => {
    const { server } = state();
    const started = Date.now();
    server.create({ apiVersion: 'net.demo.orkestra.io/v1alpha1', kind: 'TLSPolicy', metadata: { name: 'edge', namespace: 'demo-06' }, spec: { commonName: 'edge.example.com' } });
    const secret = await waitFor('TLS Secret', () => server.get('v1', 'Secret', 'edge-tls', 'demo-06') as Obj | undefined);
    const cert = certificateOf(secret);
    assert.match(cert.subject, /CN=edge\.example\.com/);
    for (const host of ['edge', 'edge.demo-06', 'edge.demo-06.svc', 'edge.demo-06.svc.cluster.local']) assert.equal(cert.checkHost(host), host);
    assert.equal(cert.checkHost('other.demo-06.svc'), undefined);
    const validFor = Date.parse(cert.validTo) - started;
    assert.ok(Math.abs(validFor - 365 * 86_400_000) < 60_000, `valid for ${validFor} ms`);
    const renewAt = Date.parse(secret.metadata?.annotations?.[TLS_RENEW_AT] ?? '');
    assert.ok(Math.abs(renewAt - started - (365 * 86_400_000 * 2) / 3) < 60_000, 'renewal two thirds into the lifetime');
    const status = await waitFor('status', () => (server.get('net.demo.orkestra.io/v1alpha1', 'TLSPolicy', 'edge', 'demo-06') as Obj | undefined)?.status?.['phase'] === 'Issued' ? (server.get('net.demo.orkestra.io/v1alpha1', 'TLSPolicy', 'edge', 'demo-06') as Obj).status : undefined);
    assert.deepEqual([status?.['tlsSecret'], status?.['commonName']], ['edge-tls', 'edge.example.com']);
  });

  test('a VirtualService of the same Katalog gets its Service, ConfigMap and status', async () => {
    const { server } = state();
    server.create({ apiVersion: 'net.demo.orkestra.io/v1alpha1', kind: 'VirtualService', metadata: { name: 'shop', namespace: 'demo-06' }, spec: { host: 'shop.example.com', upstream: 'shop-backend', port: 8080 } });
    const service = await waitFor('Service', () => server.get('v1', 'Service', 'shop-vs', 'demo-06') as Obj | undefined);
    assert.ok(service);
    const config = await waitFor('ConfigMap', () => server.get('v1', 'ConfigMap', 'shop-virtual-service', 'demo-06') as Obj | undefined);
    assert.deepEqual(config.data, { HOST: 'shop.example.com', UPSTREAM: 'shop-backend' });
    const status = await waitFor('status', () => (server.get('net.demo.orkestra.io/v1alpha1', 'VirtualService', 'shop', 'demo-06') as Obj | undefined)?.status?.['endpoint']);
    assert.equal(status, 'shop-vs.demo-06.svc.cluster.local');
  });

  test('key material reaches neither logs, status, conditions, events, other objects, nor the inspection API', async () => {
    const { server, runtime, logs } = state();
    const secret = await waitFor('TLS Secret', () => server.get('v1', 'Secret', 'edge-tls', 'demo-06') as Obj | undefined);
    const key = text(secret, 'tls.key');
    const pieces = [key.slice(40, 72), (secret.data?.['tls.key'] ?? '').slice(40, 72)];
    const answers: string[] = [];
    for (const path of ['/health', '/ready', '/metrics', '/katalog', '/katalog/tls-policy', '/katalog/tls-policy/health']) answers.push(await (await runtime.router.request(path)).text());
    const others = server.objects().filter((object) => (object as Obj).type !== 'kubernetes.io/tls').map((object) => JSON.stringify(object));
    for (const written of [...logs, ...answers, ...others]) for (const piece of pieces) assert.ok(!written.includes(piece), `key material leaked: ${written.slice(0, 200)}`);
  });
});

function tlsKatalog(validFor: string): Promise<Definition> {
  return Promise.resolve(
    parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: certs }
spec:
  crds:
    endpoint:
      apiTypes: { group: demo.io, version: v1, kind: Endpoint, plural: endpoints }
      operatorBox:
        reconciler: { resync: 100ms }
        onCreate:
          secrets:
            - name: "{{ .metadata.name }}-cert"
              tls:
                dnsNames: ["{{ .spec.host }}", "{{ .spec.alias }}"]
                validFor: ${validFor}
`),
  );
}

describe('tls: reused while valid, regenerated when the names change', () => {
  const state = running(() => tlsKatalog('90d'));

  test('resyncs leave the Secret as it is; a new name gives a new certificate', async () => {
    const { server, runtime } = state();
    server.create({ apiVersion: 'demo.io/v1', kind: 'Endpoint', metadata: { name: 'api', namespace: 'default' }, spec: { host: 'api.example.com' } });
    const first = await waitFor('TLS Secret', () => server.get('v1', 'Secret', 'api-cert', 'default') as Obj | undefined);
    const cert = certificateOf(first);
    assert.match(cert.subject, /CN=api-cert\.default\.svc/, 'default common name: <secret>.<namespace>.svc');
    assert.equal(cert.checkHost('api.example.com'), 'api.example.com');
    const reconciles = async (): Promise<number> => {
      const metrics = await (await runtime.router.request('/metrics')).text();
      const line = metrics.split('\n').find((l) => l.includes('controller_reconcile_total{') && l.includes('crd="endpoint"') && l.includes('success'));
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await reconciles();
    await waitFor('five resyncs', async () => (await reconciles()) >= before + 5 || undefined);
    const same = server.get('v1', 'Secret', 'api-cert', 'default') as Obj;
    assert.equal(same.metadata?.resourceVersion, first.metadata?.resourceVersion, 'not rewritten');

    const endpoint = server.get('demo.io/v1', 'Endpoint', 'api', 'default') as Obj;
    server.update({ ...endpoint, spec: { host: 'api.example.com', alias: 'api.internal' } });
    const renewed = await waitFor('new certificate', () => {
      const now = server.get('v1', 'Secret', 'api-cert', 'default') as Obj | undefined;
      return now !== undefined && now.data?.['tls.crt'] !== first.data?.['tls.crt'] ? now : undefined;
    });
    const next = certificateOf(renewed);
    assert.equal(next.checkHost('api.internal'), 'api.internal');
    assert.notEqual(next.serialNumber, cert.serialNumber);
  });
});

describe('tls: renewed two thirds into its lifetime, by a reconcile the runtime schedules', () => {
  const state = running(() => tlsKatalog('3s'));

  test('a new certificate before the old one expires', async () => {
    const { server } = state();
    server.create({ apiVersion: 'demo.io/v1', kind: 'Endpoint', metadata: { name: 'short', namespace: 'default' }, spec: { host: 'short.example.com' } });
    const first = await waitFor('TLS Secret', () => server.get('v1', 'Secret', 'short-cert', 'default') as Obj | undefined);
    const old = certificateOf(first);
    const renewed = await waitFor(
      'renewal',
      () => {
        const now = server.get('v1', 'Secret', 'short-cert', 'default') as Obj | undefined;
        return now !== undefined && now.data?.['tls.crt'] !== first.data?.['tls.crt'] ? now : undefined;
      },
      20_000,
    );
    const cert = certificateOf(renewed);
    assert.ok(Date.parse(cert.validTo) > Date.parse(old.validTo));
  });
});

describe('Orkestra corpus, run: current/informer-watch (CRD-level labels, watch by keyFrom.name)', () => {
  const state = running(() => loadDefinition('test/fixtures/orkestra/current/informer-watch/katalog.yaml'));

  test('the label is written onto the custom resource, others are kept, a removed one comes back', async () => {
    const { server, definition } = state();
    const crd = definition.crds.get('watch-probe');
    assert.ok(crd);
    const apiVersion = `${crd.apiTypes.group}/${crd.apiTypes.version}`;
    const kind = crd.apiTypes.kind;
    server.create({ apiVersion, kind, metadata: { name: 'probe-alpha', namespace: 'default', labels: { team: 'a' } }, spec: {} });
    const labelled = await waitFor('label', () => {
      const probe = server.get(apiVersion, kind, 'probe-alpha', 'default') as (Obj & { metadata?: { labels?: Record<string, string> } }) | undefined;
      return probe?.metadata?.labels?.['watchprobe-tester'] === 'probe-alpha' ? probe : undefined;
    });
    assert.deepEqual(labelled.metadata?.labels, { team: 'a', 'watchprobe-tester': 'probe-alpha' });
    const output = await waitFor('output ConfigMap', () => server.get('v1', 'ConfigMap', 'probe-alpha-output', 'default') as Obj | undefined);
    assert.deepEqual(output.data, { observed: 'probe-alpha', phase: 'active' });
    await waitFor('status', () => (server.get(apiVersion, kind, 'probe-alpha', 'default') as Obj | undefined)?.status?.['phase'] === 'Watching' || undefined);

    server.patch(apiVersion, kind, 'probe-alpha', { metadata: { labels: { 'watchprobe-tester': null } }, spec: { touched: true } }, { namespace: 'default' });
    await waitFor('label restored', () => (server.get(apiVersion, kind, 'probe-alpha', 'default') as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels?.['watchprobe-tester'] === 'probe-alpha' || undefined);
  });
});
