// Property: no path, method or CRD name makes the router answer 5xx, and every error is the JSON error shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Hono } from 'hono';
import { createInspectionRouter } from '../../src/http/router.js';
import { scene } from './fake-view.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'get', 'Foo'];
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

const segment = fc.oneof(
  fc.constantFrom('katalog', 'health', 'ready', 'metrics', 'website', 'database', 'cache', 'constructor', '__proto__', 'toString', 'hasOwnProperty', '', '.', '..', '%', '%2F', '%00', '%E0%A4%A', '%zz', 'Website', 'a'.repeat(64), 'é', '🙂', '?', '#', ';', '*', ':crd'),
  fc.string({ maxLength: 12 }),
  fc.stringMatching(/^[a-z0-9-]{1,70}$/),
);
const path = fc.array(segment, { maxLength: 5 }).map((segments) => `/${segments.join('/')}`);
const katalogPath = fc.tuple(segment, fc.constantFrom('', '/health', '/health/', '/', '/x')).map(([name, tail]) => `/katalog/${name}${tail}`);
const method = fc.oneof(
  fc.constantFrom(...METHODS),
  fc.stringMatching(/^[A-Z]{1,10}$/).filter((m) => !FORBIDDEN.has(m)),
);

function requestOf(base: string, target: string, verb: string): Request | undefined {
  try {
    return new Request(`http://localhost${base}${target}`, { method: verb });
  } catch {
    return undefined; // not a request a client could send
  }
}

/** True when the router, not the host, owns the path (the six paths and the /katalog subtree under the mount). */
function routerOwns(request: Request, mount: string): boolean {
  const pathname = new URL(request.url).pathname;
  if (!pathname.startsWith(`${mount}/`)) return false;
  const rest = pathname.slice(mount.length);
  return /^\/(health|ready|metrics|katalog)$/.test(rest) || rest.startsWith('/katalog/');
}

async function check(app: Hono, request: Request, mount: string): Promise<void> {
  const response = await app.fetch(request);
  const label = `${request.method} ${request.url}`;
  assert.ok(response.status < 500, `${label} → ${response.status}`);
  const text = await response.text();
  if (request.method === 'HEAD') {
    assert.equal(text, '', label);
    return;
  }
  // Mounted, the rest of the host's namespace is the host's: its own 404 answers there.
  if (mount !== '' && !routerOwns(request, mount)) return;
  const type = response.headers.get('content-type') ?? '';
  if (response.status >= 400) {
    assert.equal(type, 'application/json', label);
    const body = JSON.parse(text) as { error: string; status: number; message: string };
    assert.equal(body.status, response.status, label);
    assert.equal(typeof body.message, 'string', label);
    assert.ok(body.message.length < 400, `${label}: message of ${body.message.length} characters`);
    if (response.status === 405) assert.equal(response.headers.get('allow'), 'GET, HEAD', label);
  } else if (!type.startsWith('text/plain')) {
    assert.equal(type, 'application/json', label);
    JSON.parse(text);
  }
}

/** The standard scene with every CRD healthy and synced, so that no 5xx of any kind is legitimate. */
function healthyScene(): ReturnType<typeof scene> {
  const all = scene();
  all.database.health.recordSuccess();
  all.cache.health.markStarted();
  all.cache.synced = true;
  return all;
}

test('random paths, methods and CRD names never produce a 5xx, standalone or mounted', async () => {
  const { view } = healthyScene();
  const standalone = createInspectionRouter(view);
  const host = new Hono();
  host.route('/ops', createInspectionRouter(view));
  await fc.assert(
    fc.asyncProperty(fc.oneof(path, katalogPath), method, fc.boolean(), async (target, verb, mounted) => {
      const request = requestOf(mounted ? '/ops' : '', target, verb);
      fc.pre(request !== undefined);
      await check(mounted ? host : standalone, request, mounted ? '/ops' : '');
    }),
    { numRuns: 1500 },
  );
});

test('a known CRD name always reaches its records; anything else on the CRD routes is the exact 404', async () => {
  const { view } = scene();
  const app = createInspectionRouter(view);
  const known = new Set(['website', 'database', 'cache']);
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.constantFrom(...known), fc.stringMatching(/^[a-z0-9-]{1,64}$/), fc.string({ maxLength: 20 })), async (name) => {
      const request = requestOf('', `/katalog/${encodeURIComponent(name)}`, 'GET');
      // `.` and `..` are URL dot segments: the URL itself resolves them away before any router sees the path.
      fc.pre(request !== undefined && name !== '' && name !== '.' && name !== '..');
      const response = await app.fetch(request);
      if (known.has(name)) {
        assert.equal(response.status, 200);
      } else {
        assert.equal(response.status, 404, name);
        const body = (await response.json()) as { error: string; message: string };
        assert.equal(body.error, 'not_found');
        assert.ok(body.message.startsWith('no CRD named "'), body.message);
      }
    }),
    { numRuns: 500 },
  );
});
