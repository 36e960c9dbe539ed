// No custom-resource data in messages: a secret planted in the specs of custom resources makes their templates
// fail in many ways (bad printf argument, toInt, fromJson, index, arithmetic, range, a short-form field, an apply
// the API server rejects with a message quoting the value). The Ready conditions must say where and what failed,
// and neither they nor any answer of the inspection API, under thousands of random requests, may hold a piece of
// the secret. The router never answers a 5xx besides its documented 503s.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, customResource, katalog, katalogEntry, waitFor, type CrdSpec } from '../support/cluster.js';

/** 40 characters, upper and lower case (so that it is also an invalid Kubernetes name) and digits. */
const SECRET = `Sx${randomBytes(30).toString('base64').replace(/[^A-Za-z0-9]/g, 'q').slice(0, 38)}`;
const PIECES = Array.from({ length: SECRET.length - 9 }, (_, i) => SECRET.slice(i, i + 10));

function leaks(text: string): string | undefined {
  return PIECES.find((piece) => text.includes(piece));
}

interface Case {
  /** CRD name in the Katalog, and its plural. */
  readonly name: string;
  /** The templates (onReconcile). */
  readonly templates: Record<string, unknown>;
  /** What the Ready message must say about the failure (besides the template path). */
  readonly says: RegExp;
}

const CASES: readonly Case[] = [
  { name: 'printfs', templates: { configMaps: [{ name: 'p', data: { v: '{{ printf "%d" .spec.secret }}' } }] }, says: /printf: %d needs/ },
  { name: 'toints', templates: { configMaps: [{ name: 'p', data: { v: '{{ toInt .spec.secret }}' } }] }, says: /toInt: the text \(40 characters\) is not a number/ },
  { name: 'tobools', templates: { configMaps: [{ name: 'p', data: { v: '{{ toBool .spec.secret }}' } }] }, says: /toBool: the text/ },
  { name: 'fromjsons', templates: { configMaps: [{ name: 'p', data: { v: '{{ (fromJson .spec.secret).x }}' } }] }, says: /fromJson: the text \(40 characters\) is not valid JSON/ },
  { name: 'indexes', templates: { configMaps: [{ name: 'p', data: { v: '{{ index .spec.list .spec.secret }}' } }] }, says: /index: a list needs an integer position/ },
  { name: 'adds', templates: { configMaps: [{ name: 'p', data: { v: '{{ add 1 .spec.secret }}' } }] }, says: /add: argument 2 is a text/ },
  { name: 'ranges', templates: { configMaps: [{ name: 'p', data: { v: '{{ range .spec.secret }}x{{ end }}' } }] }, says: /range can't iterate over a string/ },
  { name: 'ports', templates: { services: [{ name: 'p', ports: ['{{ .spec.secret }}'] }] }, says: /must be a port number \(1-65535\), got a text/ },
  { name: 'names', templates: { configMaps: [{ name: '{{ .spec.secret }}', data: { v: 'x' } }] }, says: /failed to apply ConfigMap \(.*\): HTTP 422 Invalid/ },
];

function spec(name: string): CrdSpec {
  return { kind: `${name[0]?.toUpperCase() ?? ''}${name.slice(1, -1)}`, plural: name };
}

type Obj = Record<string, unknown> & { status?: { conditions?: Array<{ type: string; status: string; message: string }> } };

describe('no custom-resource data in messages or in the inspection API', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    for (const c of CASES) server.applyCrd(crdManifest(spec(c.name)));
    await server.settled();
    const crds = Object.fromEntries(CASES.map((c) => [c.name, katalogEntry(spec(c.name), { operatorBox: { onReconcile: c.templates } })]));
    runtime = createRuntime(katalog(crds), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    await runtime.start();
    for (const c of CASES) server.create(customResource(spec(c.name), 'holder', { secret: SECRET, list: [1, 2, 3] }));
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  test('each failure is reported as Ready=False saying where and what failed, without the value', async () => {
    for (const c of CASES) {
      const ready = await waitFor(`Ready=False on ${c.name}`, () => {
        const object = server.get(`example.io/v1`, spec(c.name).kind, 'holder', 'default') as Obj | undefined;
        const condition = object?.status?.conditions?.find((x) => x.type === 'Ready');
        return condition?.status === 'False' ? condition : undefined;
      });
      assert.match(ready.message, c.says, c.name);
      assert.match(ready.message, /onReconcile\.(configMaps|services)\[0\]/, `${c.name}: the message names the template: ${ready.message}`);
      assert.equal(leaks(ready.message), undefined, `${c.name}: ${ready.message}`);
    }
    // Every CRD has failed often enough to be degraded: its health record shows its last error.
    await waitFor('every CRD degraded', () => CASES.every((c) => runtime.crds().find((crd) => crd.name === c.name)?.state === 'degraded'));
    for (const c of CASES) {
      const response = await runtime.router.request(`/katalog/${c.name}/health`);
      assert.equal(response.status, 503);
      const text = await response.text();
      assert.match(text, c.says, c.name);
      assert.equal(leaks(text), undefined, `${c.name}: ${text}`);
    }
  });

  test('thousands of random requests: no piece of the secret in any answer, no 5xx but the documented 503s', async () => {
    await waitFor('every CRD degraded', () => CASES.every((c) => runtime.crds().find((crd) => crd.name === c.name)?.state === 'degraded'));
    const names = CASES.map((c) => c.name);
    const segment = fc.oneof(
      fc.constantFrom('katalog', 'health', 'ready', 'metrics', ...names, 'holder', 'default', '', '.', '%2F', '%00', '__proto__', 'constructor'),
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^[a-z0-9-]{1,40}$/),
    );
    const path = fc.oneof(
      fc.array(segment, { maxLength: 5 }).map((segments) => `/${segments.join('/')}`),
      fc.tuple(fc.constantFrom(...names, 'holder'), fc.constantFrom('', '/health', '/', '/holder', '/health/x')).map(([name, tail]) => `/katalog/${name}${tail}`),
      fc.constantFrom('/health', '/ready', '/metrics', '/katalog'),
    );
    const query = fc.oneof(
      fc.constant(''),
      fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 12 }), { maxKeys: 3 }).map((params) => `?${new URLSearchParams(params).toString()}`),
      fc.constantFrom('?watch=true', '?name=holder', '?verbose=1&fields=spec', '?%zz'),
    );
    const method = fc.oneof(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), fc.stringMatching(/^[A-Z]{1,8}$/).filter((m) => !['CONNECT', 'TRACE', 'TRACK'].includes(m)));
    let asked = 0;
    await fc.assert(
      fc.asyncProperty(path, query, method, async (target, search, verb) => {
        let request: Request;
        try {
          request = new Request(`http://localhost${target}${search}`, { method: verb });
        } catch {
          return; // not a request a client could send
        }
        asked++;
        const response = await runtime.router.fetch(request);
        const text = await response.text();
        const label = `${verb} ${target}${search} → ${response.status}`;
        assert.equal(leaks(text), undefined, `${label}: ${text}`);
        for (const [, value] of response.headers) assert.equal(leaks(value), undefined, label);
        if (response.status >= 500) {
          const pathname = new URL(request.url).pathname;
          assert.equal(response.status, 503, label);
          assert.match(pathname, /^\/(ready|katalog\/[^/]+\/health)$/, `${label}: a 503 outside the documented ones`);
        }
      }),
      { numRuns: 3000 },
    );
    assert.ok(asked > 2500, `only ${asked} requests could be sent`);
  });
});
