// GET /katalog reuses the JSON of summaries that did not change (src/http/katalog-list.ts). These tests show it is
// never stale: every change is in the very next response, and the text always equals the from-scratch body.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Hono } from 'hono';
import { listOf } from '../../src/http/bodies.js';
import { katalogListWriter } from '../../src/http/katalog-list.js';
import { createInspectionRouter } from '../../src/http/router.js';
import type { CrdView, Gvk, LeaderView } from '../../src/http/view.js';
import { DEFAULT_SETTINGS, fakeCrd, ManualClock, scene, type FakeCrd } from './fake-view.js';

interface Summary {
  name: string;
  state: string;
  healthy: boolean;
  uptime: string;
  gvk: Gvk;
  endpoints: { health: string; info: string };
}

async function list(app: { request: (path: string) => Response | Promise<Response> }, path = '/katalog'): Promise<{ text: string; crds: Summary[] }> {
  const text = await (await app.request(path)).text();
  return { text, crds: (JSON.parse(text) as { crds: Summary[] }).crds };
}

const stateOf = (crds: readonly Summary[], name: string): [string, boolean, string] | undefined => {
  const crd = crds.find((c) => c.name === name);
  return crd === undefined ? undefined : [crd.state, crd.healthy, crd.uptime];
};

describe('GET /katalog after a change', () => {
  test('degraded, recovered, pending and restarted are each in the very next response', async () => {
    const { view, website } = scene();
    const app = createInspectionRouter(view);
    assert.deepEqual(stateOf((await list(app)).crds, 'website'), ['healthy', true, '5m3s']);
    for (let i = 0; i < 5; i++) website.health.recordFailure(new Error('boom'));
    assert.deepEqual(stateOf((await list(app)).crds, 'website'), ['degraded', false, '5m3s']);
    website.health.recordSuccess();
    assert.deepEqual(stateOf((await list(app)).crds, 'website'), ['healthy', true, '5m3s']);
    website.health.markPending('waiting for dependencies: database (healthy)');
    assert.deepEqual(stateOf((await list(app)).crds, 'website'), ['pending', false, '0s']);
    website.health.markStarted();
    assert.deepEqual(stateOf((await list(app)).crds, 'website'), ['healthy', true, '0s']);
  });

  test('uptime moves with the clock, from one whole second to the next', async () => {
    const { view, clock } = scene();
    const app = createInspectionRouter(view);
    assert.equal(stateOf((await list(app)).crds, 'database')?.[2], '5m3s');
    clock.tick(999); // 5m3.999s
    assert.equal(stateOf((await list(app)).crds, 'database')?.[2], '5m3s');
    clock.tick(1);
    assert.equal(stateOf((await list(app)).crds, 'database')?.[2], '5m4s');
  });

  test('a CRD that leaves, comes back or moves in the list is served as the list is now', async () => {
    const { view, website, cache } = scene();
    const app = createInspectionRouter(view);
    assert.deepEqual((await list(app)).crds.map((c) => c.name), ['database', 'website', 'cache']);
    view.crdList.splice(1, 1);
    const without = JSON.parse((await list(app)).text) as { total: number; crds: Summary[] };
    assert.deepEqual([without.total, without.crds.map((c) => c.name)], [2, ['database', 'cache']]);
    view.crdList.unshift(website);
    view.crdList.reverse();
    assert.deepEqual((await list(app)).crds.map((c) => c.name), ['cache', 'database', 'website']);
    cache.health.markStarted();
    assert.deepEqual(stateOf((await list(app)).crds, 'cache'), ['healthy', true, '0s']);
  });

  test('one router mounted under two prefixes gives each its own endpoints on every request', async () => {
    const { view } = scene();
    const router = createInspectionRouter(view);
    const host = new Hono();
    host.route('/ops', router);
    host.route('/a/b', router);
    for (let i = 0; i < 2; i++) {
      assert.equal((await list(host, '/ops/katalog')).crds[1]?.endpoints.info, '/ops/katalog/website');
      assert.equal((await list(host, '/a/b/katalog')).crds[1]?.endpoints.info, '/a/b/katalog/website');
    }
  });

  test('a view whose getter throws once: a 500, then the current body, not the one before the failure', async () => {
    const { view, website } = scene();
    const app = createInspectionRouter(view, { onError: () => undefined });
    const before = await list(app);
    let broken = true;
    const real = website.health;
    const health = Object.create(real, {
      uptime: {
        get: () => {
          if (broken) throw new Error('view failed');
          return real.uptime;
        },
      },
      state: { get: () => real.state },
    }) as typeof real;
    view.crdList[1] = { ...website, health };
    for (let i = 0; i < 5; i++) real.recordFailure(new Error('boom'));
    assert.equal((await app.request('/katalog')).status, 500);
    broken = false;
    const after = await list(app);
    assert.notEqual(after.text, before.text);
    assert.deepEqual(stateOf(after.crds, 'website'), ['degraded', false, '5m3s']);
  });
});

describe('katalogListWriter', () => {
  test('writes byte for byte what JSON.stringify(listOf()) writes, over random sequences of changes', () => {
    const KINDS = ['Website', 'Database', 'Cache', 'Queue'];
    const command = fc.oneof(
      fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 90_000 }) }),
      fc.record({ op: fc.constantFrom('fail' as const, 'succeed' as const, 'pend' as const, 'start' as const, 'activate' as const, 'toggle' as const), crd: fc.nat(3) }),
      fc.record({ op: fc.constant('mount' as const), mount: fc.constantFrom('', '/ops', '/a/b', '/ü "q"') }),
      fc.record({ op: fc.constant('leader' as const), leading: fc.option(fc.boolean(), { nil: undefined }), holder: fc.option(fc.constantFrom('pod-a', 'pod-b'), { nil: undefined }) }),
      fc.record({ op: fc.constant('reverse' as const) }),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        const clock = new ManualClock();
        const all: Array<FakeCrd & { gvk: Gvk }> = KINDS.map((kind, i) =>
          fakeCrd({ name: kind.toLowerCase(), clock, gvk: { group: 'example.io', version: 'v1alpha1', kind }, ...(i === 2 ? { mode: 'typed' as const } : {}), settings: i === 1 ? { ...DEFAULT_SETTINGS, resync: { value: 0, source: 'override' } } : DEFAULT_SETTINGS }),
        );
        let crds: CrdView[] = [...all];
        let mount = '';
        let leader: LeaderView | undefined;
        const writer = katalogListWriter();
        const check = (): void => assert.equal(writer.write(crds, mount, leader), JSON.stringify(listOf(crds, mount, leader)));
        check();
        for (const c of commands) {
          if (c.op === 'tick') clock.tick(c.ms);
          else if (c.op === 'mount') mount = c.mount;
          else if (c.op === 'reverse') crds = [...crds].reverse();
          else if (c.op === 'leader') leader = c.leading === undefined ? undefined : { identity: 'pod-a', leading: c.leading, holder: c.holder, lease: 'default/shop' };
          else {
            const crd = all[c.crd];
            if (crd === undefined) continue;
            if (c.op === 'fail') crd.health.recordFailure(new Error('boom "quoted"'));
            else if (c.op === 'succeed') crd.health.recordSuccess();
            else if (c.op === 'pend') crd.health.markPending('waiting');
            else if (c.op === 'start') crd.health.markStarted();
            else if (c.op === 'activate') crd.gvk = { ...crd.gvk, version: crd.gvk.version === 'v1' ? 'v1alpha1' : 'v1' };
            else crds = crds.includes(crd) ? crds.filter((x) => x !== crd) : [...crds, crd];
          }
          check();
        }
      }),
      { numRuns: 200 },
    );
  });

  test('a gvk object changed in place is seen', () => {
    const clock = new ManualClock();
    const gvk = { group: 'example.io', version: 'v1alpha1', kind: 'Website' };
    const crds = [fakeCrd({ name: 'website', clock, gvk })];
    const writer = katalogListWriter();
    assert.match(writer.write(crds, '', undefined), /"version":"v1alpha1"/);
    gvk.version = 'v1';
    assert.match(writer.write(crds, '', undefined), /"version":"v1"/);
  });

  test('an empty list', () => {
    assert.equal(katalogListWriter().write([], '', undefined), '{"total":0,"crds":[]}');
  });
});
