// Cross reads over HTTP (cross[].source) and another process's autoscale figures against a local HTTP server
// (127.0.0.1): Orkestra's routes built from host + protocol (escaped), an endpoint rendered over the custom resource;
// the answer as Orkestra shapes it (found added, 404 → found "false"); every failure is Orkestra's empty value and
// reported with a reason that quotes neither URL nor answer; cacheFor reuses a success for that long (bounded, per
// URL) and never a failure; the credential comes from a Secret; the figures read the answer's metrics as numbers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseDefinition } from '../../src/definition/load.js';
import type { CrdDefinition, CrossEntry } from '../../src/definition/types.js';
import { CrossSourceReads, routeOf } from '../../src/operatorbox/cross-source.js';
import { templateData } from '../../src/operatorbox/template-data.js';
import { RemoteFigures } from '../../src/runtime/remote-figures.js';

let server: Server;
let base = '';
const hits: Array<{ path: string; auth: string | undefined }> = [];
const answers = new Map<string, { status: number; body: string }>();

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    hits.push({ path, auth: req.headers.authorization });
    const answer = answers.get(path) ?? { status: 404, body: '{"error":"no"}' };
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function crd(cross: string, autoscale = ''): CrdDefinition {
  const definition = parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: t }
spec:
  crds:
    processor:
      apiTypes: { group: demo.io, version: v1, kind: Processor, plural: processors }
      operatorBox:
        cross:
${cross}${autoscale}`);
  return definition.crds.get('processor') ?? assert.fail('no CRD');
}

const object = { apiVersion: 'demo.io/v1', kind: 'Processor', metadata: { name: 'p', namespace: 'ns' }, spec: { peer: 'my-loader' } };
let clock = 0;
const failures: string[] = [];
const reads = (definition: CrdDefinition, secret?: string): CrossSourceReads =>
  new CrossSourceReads({
    crd: 'processor',
    entries: definition.operatorBox.cross ?? [],
    dialect: definition.templateDialect,
    readSecret: () => Promise.resolve(secret),
    now: () => clock,
    onFailure: (entry: CrossEntry, reason) => void failures.push(`${entry.as}: ${reason}`),
  });
const read = (r: CrossSourceReads): Promise<Record<string, unknown>> => r.read(object, templateData(object, {}, {}, 'orkestra'), new AbortController().signal);

describe('cross reads over HTTP', () => {
  test("Orkestra's routes from host and protocol", () => {
    assert.equal(routeOf('http://h:1', 'loader', 'cr', 'default', 'my loader'), 'http://h:1/katalog/loader/cr/default/my%20loader');
    assert.equal(routeOf('http://h:1', 'loader', 'cr', '', 'one'), 'http://h:1/katalog/loader/cr/one');
    assert.equal(routeOf('http://h:1', 'loader', 'events', 'ns', 'one'), 'http://h:1/katalog/loader/cr/ns/one/events');
    assert.equal(routeOf('http://h:1', 'loader', 'health', '', ''), 'http://h:1/katalog/loader/health');
    for (const protocol of ['metrics', 'info', undefined]) assert.equal(routeOf('http://h:1', 'loader', protocol, '', ''), 'http://h:1/katalog/loader');
  });

  test('the answer as Orkestra shapes it: found added from name, 404 is found "false", a selector rendered, the namespace defaulted', async () => {
    answers.set('/katalog/loader/cr/ns/my-loader', { status: 200, body: '{"name":"my-loader","status":{"phase":"Loading"}}' });
    answers.set('/katalog/loader/health', { status: 200, body: '{"state":"healthy"}' });
    const got = await read(
      reads(
        crd(`          - crd: loader
            selector: { name: "{{ .spec.peer }}" }
            source: { host: "${base}", protocol: cr }
            as: one
          - crd: loader
            source: { host: "${base}", protocol: health }
            as: health
          - crd: loader
            selector: { name: gone }
            source: { host: "${base}", protocol: cr }
            as: gone
`),
      ),
    );
    assert.deepEqual(got, {
      one: { name: 'my-loader', status: { phase: 'Loading' }, found: 'true' },
      health: { state: 'healthy', found: 'false' },
      gone: { found: 'false' },
    });
  });

  test("every failure is Orkestra's empty value and reported, quoting neither URL nor answer; cacheFor keeps successes only, per URL", async () => {
    failures.length = 0;
    answers.set('/bad', { status: 503, body: '{"lastError":"peer-secret"}' });
    answers.set('/text', { status: 200, body: 'peer-secret' });
    answers.set('/list', { status: 200, body: '[1]' });
    answers.set('/ns/p', { status: 200, body: '{"name":"p"}' });
    const r = reads(
      crd(`          - crd: a
            selector: { name: x }
            source: { endpoint: "${base}/bad" }
          - crd: b
            source: { endpoint: "${base}/text" }
          - crd: c
            source: { endpoint: "${base}/list" }
          - crd: d
            source: { endpoint: "${base}/{{ .metadata.namespace }}/{{ .metadata.name }}", cacheFor: 10s }
`),
    );
    const got = await read(r);
    assert.deepEqual(got['a'], { found: 'false', name: 'x', namespace: 'ns', spec: {}, status: {} });
    assert.deepEqual(got['b'], { found: 'false', name: '', namespace: 'ns', spec: {}, status: {} });
    assert.deepEqual(got['d'], { name: 'p', found: 'true' });
    assert.deepEqual(failures, ['a: HTTP status 503 (expected 200)', 'b: the answer is not JSON', 'c: the answer is not a JSON object']);
    const before = hits.length;
    await read(r);
    assert.deepEqual(
      hits.slice(before).map((hit) => hit.path),
      ['/bad', '/text', '/list'],
      'the cached success is not asked again; the failures are',
    );
    clock += 10_001;
    const again = hits.length;
    await read(r);
    assert.ok(hits.slice(again).some((hit) => hit.path === '/ns/p'), 'after cacheFor the URL is read again');
  });

  test('the credential comes from a Secret as a bearer token', async () => {
    answers.set('/auth', { status: 200, body: '{"name":"x"}' });
    const before = hits.length;
    await read(
      reads(
        crd(`          - crd: a
            source: { endpoint: "${base}/auth", auth: { secretRef: { name: peer, key: token } } }
`),
        's3cr3t',
      ),
    );
    assert.equal(hits[before]?.auth, 'Bearer s3cr3t');
  });
});

describe("another process's figures for autoscale", () => {
  test("the answer's metrics as numbers, through the cross entry that serves them; a failure leaves none and is reported", async () => {
    failures.length = 0;
    answers.set('/katalog/loader', { status: 200, body: '{"name":"loader","metrics":{"queueDepth":75,"workers":"2","label":"x"}}' });
    const definition = crd(
      `          - crd: loader
            source: { host: "${base}", protocol: metrics }
            as: figures
`,
      `        autoscale:
          conditions:
            when: [{ field: cross.loader.metrics.queueDepth, greaterThan: "60" }]
          do: { workers: 4 }
`,
    );
    const figures = new RemoteFigures({ crd: definition, readSecret: () => Promise.resolve(undefined), now: () => clock, onFailure: (entry, reason) => void failures.push(`${entry.as}: ${reason}`) });
    assert.equal(figures.size, 1);
    await figures.refresh(new AbortController().signal);
    assert.deepEqual(figures.read('loader'), { queueDepth: 75, workers: 2 });
    answers.set('/katalog/loader', { status: 200, body: '{"name":"loader"}' });
    await figures.refresh(new AbortController().signal);
    assert.equal(figures.read('loader'), undefined);
    assert.deepEqual(failures, ['figures: the answer has no metrics object']);
  });
});
