// Server-side apply over HTTP with client-node: managed fields per manager and operation, conflicts between
// managers, force, and removal of a field its only applier stops applying.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, KubernetesObjectApi, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { crdManifest } from '../../src/testing/index.js';
import { unique, type Backend, type Json } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';

interface ManagedField {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
}

function managed(object: Json): ManagedField[] {
  return (object.metadata?.['managedFields'] as ManagedField[] | undefined) ?? [];
}

function ownsDataKey(entry: ManagedField | undefined, key: string): boolean {
  const data = entry?.fieldsV1?.['f:data'] as Record<string, unknown> | undefined;
  return data !== undefined && `f:${key}` in data;
}

/** A namespaced CRD with this schema in each version (`v1` alone unless told; the last one stored); its plural is unique per call. */
async function applyCrd(backend: Backend, group: string, kind: string, openAPIV3Schema: Json, versions = ['v1']): Promise<string> {
  const plural = `${kind.toLowerCase()}s${unique('c').replace(/[^a-z0-9]/g, '')}`;
  await backend.applyCrd(
    crdManifest({ group, kind, plural, singular: plural.slice(0, -1), versions: versions.map((name, i) => ({ name, storage: i === versions.length - 1, status: false, schema: openAPIV3Schema })) }),
  );
  return plural;
}

export function applySuite(backend: () => Backend): void {
  describe('server-side apply', () => {
    test('managed fields record each manager; a second applier conflicts on a shared field; force takes it over', async () => {
      const name = unique('ssa');
      const api = KubernetesObjectApi.makeApiClient(backend().kubeConfig);
      const apply = async (manager: string, data: Record<string, string>, force = false): Promise<Json> =>
        JSON.parse(
          JSON.stringify(await api.patch({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data } as KubernetesObject, undefined, undefined, manager, force, PatchStrategy.ServerSideApply)),
        ) as Json;

      const first = await apply('alpha', { a: '1', b: '1' });
      assert.deepEqual(first.data, { a: '1', b: '1' });
      const alpha = managed(first).find((m) => m.manager === 'alpha');
      assert.equal(alpha?.operation, 'Apply');
      assert.equal(alpha?.apiVersion, 'v1');
      assert.equal(alpha?.fieldsType, 'FieldsV1');
      assert.ok(ownsDataKey(alpha, 'a') && ownsDataKey(alpha, 'b'), JSON.stringify(alpha));

      await assert.rejects(apply('beta', { a: '2' }), (error: unknown) => {
        assert.ok(error instanceof ApiException, String(error));
        assert.equal(error.code, 409);
        const status = JSON.parse(String(error.body)) as { reason?: string; message?: string; details?: { causes?: Array<{ reason?: string; field?: string; message?: string }> } };
        assert.equal(status.reason, 'Conflict');
        assert.match(status.message ?? '', /conflict with "alpha"/);
        assert.deepEqual(
          status.details?.causes?.map((c) => ({ reason: c.reason, field: c.field, message: c.message })),
          // StatusCause's type travels as `reason` in JSON.
          [{ reason: 'FieldManagerConflict', field: '.data.a', message: 'conflict with "alpha"' }],
        );
        return true;
      });
      // Same value: no conflict, both own it.
      const shared = await apply('beta', { b: '1' });
      assert.ok(ownsDataKey(managed(shared).find((m) => m.manager === 'beta'), 'b'));
      assert.ok(ownsDataKey(managed(shared).find((m) => m.manager === 'alpha'), 'b'));

      const forced = await apply('beta', { a: '2', b: '1' }, true);
      assert.equal(forced.data?.['a'], '2');
      assert.ok(ownsDataKey(managed(forced).find((m) => m.manager === 'beta'), 'a'));
      assert.ok(!ownsDataKey(managed(forced).find((m) => m.manager === 'alpha'), 'a'), 'alpha lost .data.a');

      // A merge patch is an Update by its manager.
      await api.patch({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { c: '3' } } as KubernetesObject, undefined, undefined, 'gamma', undefined, PatchStrategy.MergePatch);
      const afterUpdate = (await backend().get('v1', 'ConfigMap', name, 'default')) ?? {};
      const gamma = managed(afterUpdate).find((m) => m.manager === 'gamma');
      assert.equal(gamma?.operation, 'Update');
      assert.ok(ownsDataKey(gamma, 'c'));

      // beta stops applying .data.a, which only it owns: the field is removed. .data.b stays (alpha still owns it).
      const dropped = await apply('beta', { b: '1' });
      assert.deepEqual(dropped.data, { b: '1', c: '3' });
    });

    test('apply creates a missing object and is a no-op (same resourceVersion) when nothing changes', async () => {
      const name = unique('ssa-create');
      const api = KubernetesObjectApi.makeApiClient(backend().kubeConfig);
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { k: 'v' } } as KubernetesObject;
      const created = await api.patch(body, undefined, undefined, 'alpha', undefined, PatchStrategy.ServerSideApply);
      const again = await api.patch(body, undefined, undefined, 'alpha', undefined, PatchStrategy.ServerSideApply);
      assert.equal(again.metadata?.resourceVersion, created.metadata?.resourceVersion);
      assert.equal((await backend().get('v1', 'ConfigMap', name, 'default'))?.metadata?.['resourceVersion'], created.metadata?.resourceVersion);
    });

    test("an atomic map (a Service's selector, a CRD schema's x-kubernetes-map-type: atomic) is one owned field and is replaced whole: a second applier's key conflicts on the whole map, and force replaces it", async () => {
      const api = KubernetesObjectApi.makeApiClient(backend().kubeConfig);
      const apply = async (object: Json, manager: string, force = false): Promise<Json> =>
        JSON.parse(JSON.stringify(await api.patch(object as KubernetesObject, undefined, undefined, manager, force, PatchStrategy.ServerSideApply))) as Json;
      const conflict = async (object: Json, manager: string): Promise<number | undefined> => {
        try {
          await apply(object, manager);
          return undefined;
        } catch (error) {
          return error instanceof ApiException ? error.code : undefined;
        }
      };

      const service = (selector: Record<string, string>): Json => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: serviceName, namespace: 'default' }, spec: { selector, ports: [{ port: 80 }] } });
      const serviceName = unique('ssa-atomic');
      const first = await apply(service({ app: 'a', tier: 'web' }), 'alpha');
      const spec = managed(first).find((m) => m.manager === 'alpha')?.fieldsV1?.['f:spec'] as Record<string, unknown> | undefined;
      assert.deepEqual(spec?.['f:selector'], {}, 'the selector is one member');
      assert.equal(await conflict(service({ extra: 'x' }), 'beta'), 409, 'another key of the same map is the same field');
      const forced = await apply(service({ extra: 'x' }), 'beta', true);
      assert.deepEqual(forced.spec?.['selector'], { extra: 'x' }, 'replaced whole, not merged');

      const group = 'atomic.conformance.katalog.dev';
      await applyCrd(backend(), group, 'Gear', {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              atomic: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
              granular: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
        },
      });
      const gearName = unique('gear');
      const gear = (body: Record<string, unknown>): Json => ({ apiVersion: `${group}/v1`, kind: 'Gear', metadata: { name: gearName, namespace: 'default' }, spec: body });
      const created = await apply(gear({ atomic: { a: '1' }, granular: { a: '1' } }), 'alpha');
      assert.deepEqual(managed(created).find((m) => m.manager === 'alpha')?.fieldsV1?.['f:spec'], { 'f:atomic': {}, 'f:granular': { 'f:a': {} } });
      const merged = await apply(gear({ atomic: { b: '2' }, granular: { b: '2' } }), 'beta', true);
      assert.deepEqual(merged.spec, { atomic: { b: '2' }, granular: { a: '1', b: '2' } }, 'the atomic map replaced, the granular one merged');
    });
    test("an Update entry owns what the write adds whole ('.'), and an empty map as a leaf: a custom resource's POST and merge patch, a Deployment's strategic merge patch", async () => {
      const group = 'updates.conformance.katalog.dev';
      const object = (properties: Json, extra: Json = {}): Json => ({ type: 'object', properties, ...extra });
      const int = { type: 'integer' };
      const plural = await applyCrd(
        backend(),
        group,
        'Dial',
        object({
          spec: object({
            x: int,
            nested: object({ y: int, w: int }),
            added: object({ z: int }),
            empty: object({ e: int }),
            list: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: object({ k: int, v: int }, { required: ['k'] }) },
            m: { type: 'object', additionalProperties: object({ r: int }) },
          }),
        }),
      );
      const kubeConfig = backend().kubeConfig;
      const entries = (answer: { status: number; body: Json }): unknown => {
        assert.ok(answer.status < 300, JSON.stringify(answer.body));
        return managed(answer.body).map((m) => [m.manager, m.fieldsV1]);
      };
      const name = unique('dial');
      const path = `/apis/${group}/v1/namespaces/default/${plural}`;
      const body = { apiVersion: `${group}/v1`, kind: 'Dial', metadata: { name, labels: { a: 'b' } }, spec: { x: 1, nested: { y: 2 }, empty: {}, list: [{ k: 1 }], m: { q: { r: 1 } } } };
      const created = { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:spec': { '.': {}, 'f:empty': {}, 'f:list': { '.': {}, 'k:{"k":1}': { '.': {}, 'f:k': {} } }, 'f:m': { '.': {}, 'f:q': { '.': {}, 'f:r': {} } }, 'f:nested': { '.': {}, 'f:y': {} }, 'f:x': {} } };
      assert.deepEqual(entries(await raw(kubeConfig, 'POST', `${path}?fieldManager=first`, JSON.stringify(body))), [['first', created]]);
      const patched = await raw(kubeConfig, 'PATCH', `${path}/${name}?fieldManager=second`, JSON.stringify({ spec: { added: { z: 1 }, nested: { w: 3 } } }), 'application/merge-patch+json');
      assert.deepEqual(entries(patched), [['first', created], ['second', { 'f:spec': { 'f:added': { '.': {}, 'f:z': {} }, 'f:nested': { 'f:w': {} } } }]], 'a map the patch adds is owned whole, one it adds to is not');
      // Emptying a map removes its fields, not the map: it stays with the manager that added it; a removed list goes.
      const emptied = await raw(kubeConfig, 'PATCH', `${path}/${name}?fieldManager=third`, JSON.stringify({ spec: { nested: { y: null, w: null }, list: null } }), 'application/merge-patch+json');
      assert.deepEqual(entries(emptied), [
        ['first', { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:spec': { '.': {}, 'f:empty': {}, 'f:m': { '.': {}, 'f:q': { '.': {}, 'f:r': {} } }, 'f:nested': {}, 'f:x': {} } }],
        ['second', { 'f:spec': { 'f:added': { '.': {}, 'f:z': {} } } }],
      ]);

      const deployment = unique('updates');
      const apps = '/apis/apps/v1/namespaces/default/deployments';
      const template = { metadata: { labels: { app: deployment } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
      assert.equal((await raw(kubeConfig, 'POST', `${apps}?fieldManager=first`, JSON.stringify({ metadata: { name: deployment }, spec: { selector: { matchLabels: { app: deployment } }, template } }))).status, 201);
      const strategic = await raw(kubeConfig, 'PATCH', `${apps}/${deployment}?fieldManager=second`, JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'c', securityContext: { runAsUser: 1 } }], affinity: { nodeAffinity: {} } } } } }), 'application/strategic-merge-patch+json');
      assert.deepEqual((entries(strategic) as [string, unknown][])[1], ['second', { 'f:spec': { 'f:template': { 'f:spec': { 'f:affinity': { '.': {}, 'f:nodeAffinity': {} }, 'f:containers': { 'k:{"name":"c"}': { 'f:securityContext': { '.': {}, 'f:runAsUser': {} } } } } } } }]);
      await backend().delete('apps/v1', 'Deployment', deployment, 'default');
      await backend().delete(`${group}/v1`, 'Dial', name, 'default');
    });

    test('an update of an object that has no managed fields does not start tracking them; an apply does', async () => {
      const group = 'untracked.conformance.katalog.dev';
      const plural = await applyCrd(backend(), group, 'Bare', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
      const base = `/apis/${group}/v1/namespaces/default/${plural}`;
      const send = (method: string, path: string, body: unknown, type = 'application/json'): Promise<RawAnswer> => raw(backend().kubeConfig, method, path, JSON.stringify(body), type);
      // A create that sets nothing a manager could own leaves no entry at all.
      const created = await send('POST', `${base}?fieldManager=m`, { apiVersion: `${group}/v1`, kind: 'Bare', metadata: { name: 'bare' } });
      assert.equal(created.status, 201);
      assert.equal((created.body['metadata'] as Json)['managedFields'], undefined);
      for (const [manager, patch] of [['x', { spec: { other: 'o' } }], ['y', { metadata: { labels: { a: 'b' } } }]] as const) {
        const patched = await send('PATCH', `${base}/bare?fieldManager=${manager}`, patch, 'application/merge-patch+json');
        assert.equal(patched.status, 200);
        assert.equal((patched.body['metadata'] as Json)['managedFields'], undefined, `${manager}'s update is not tracked`);
      }
      const applied = await send('PATCH', `${base}/bare?fieldManager=z`, { apiVersion: `${group}/v1`, kind: 'Bare', metadata: { name: 'bare' }, spec: { other: 'p' } }, 'application/apply-patch+yaml');
      assert.equal(applied.status, 409, 'the fields already there belong to before-first-apply');
      assert.equal(applied.body['message'], 'Apply failed with 1 conflict: conflict with "before-first-apply" using untracked.conformance.katalog.dev/v1: .spec.other');
    });

    test('an Update manager has an entry per apiVersion it writes in, an Apply manager one; a write that only removes fields keeps the time', async () => {
      const group = 'versions.conformance.katalog.dev';
      const int = { type: 'integer' };
      const plural = await applyCrd(backend(), group, 'Knob', { type: 'object', properties: { spec: { type: 'object', properties: { a: int, b: int, c: int } } } }, ['v1beta1', 'v1']);
      const name = unique('knob');
      const base = (version: string): string => `/apis/${group}/${version}/namespaces/default/${plural}`;
      const send = async (method: string, version: string, query: string, body: unknown, type = 'application/json'): Promise<ManagedField[]> => {
        const answer = await raw(backend().kubeConfig, method, `${base(version)}${method === 'POST' ? '' : `/${name}`}?${query}`, JSON.stringify(body), type);
        assert.ok(answer.status < 300, JSON.stringify(answer.body));
        return managed(answer.body);
      };
      const merge = (version: string, manager: string, spec: Json): Promise<ManagedField[]> => send('PATCH', version, `fieldManager=${manager}`, { spec }, 'application/merge-patch+json');
      const apply = (version: string, manager: string, spec: Json, force = false): Promise<ManagedField[]> =>
        send('PATCH', version, `fieldManager=${manager}${force ? '&force=true' : ''}`, { apiVersion: `${group}/${version}`, kind: 'Knob', metadata: { name }, spec }, 'application/apply-patch+yaml');
      const summary = (entries: ManagedField[]): unknown[] => entries.map((m) => [m.manager, m.operation, m.apiVersion?.slice(group.length + 1), m.fieldsV1]);

      await send('POST', 'v1beta1', 'fieldManager=a', { apiVersion: `${group}/v1beta1`, kind: 'Knob', metadata: { name }, spec: { a: 1 } });
      // The same manager in v1: a second entry, which takes what it changes from the first.
      assert.deepEqual(summary(await merge('v1', 'a', { b: 2 })), [
        ['a', 'Update', 'v1', { 'f:spec': { 'f:b': {} } }],
        ['a', 'Update', 'v1beta1', { 'f:spec': { '.': {}, 'f:a': {} } }],
      ]);
      assert.deepEqual(summary(await merge('v1', 'a', { a: 5 })), [
        ['a', 'Update', 'v1', { 'f:spec': { 'f:a': {}, 'f:b': {} } }],
        ['a', 'Update', 'v1beta1', { 'f:spec': {} }],
      ]);
      // An applier's entry is one whatever the version, named for the last; a conflict names an Update entry's version.
      assert.deepEqual(summary(await apply('v1beta1', 'd', { c: 3 }))[0], ['d', 'Apply', 'v1beta1', { 'f:spec': { 'f:c': {} } }]);
      const moved = await apply('v1', 'd', { c: 3 });
      assert.deepEqual(summary(moved.filter((m) => m.manager === 'd')), [['d', 'Apply', 'v1', { 'f:spec': { 'f:c': {} } }]]);
      const conflict = await raw(backend().kubeConfig, 'PATCH', `${base('v1')}/${name}?fieldManager=d`, JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Knob', metadata: { name }, spec: { c: 3, a: 7 } }), 'application/apply-patch+yaml');
      assert.equal(conflict.status, 409);
      assert.equal(conflict.body['message'], `Apply failed with 1 conflict: conflict with "a" using ${group}/v1: .spec.a`);
      // A write that changes a field takes it from every entry of every version; an entry left empty goes.
      await apply('v1', 'd', { c: 3, a: 7 }, true);
      assert.deepEqual(summary(await merge('v1beta1', 'a', { b: 9 })), [
        ['d', 'Apply', 'v1', { 'f:spec': { 'f:a': {}, 'f:c': {} } }],
        ['a', 'Update', 'v1beta1', { 'f:spec': { '.': {}, 'f:b': {} } }],
      ]);
      // Removing a field the manager owns, and changing nothing, keeps its entry's time (RFC 3339 to the second).
      const before = (await merge('v1beta1', 'e', { b: 10 })).find((m) => m.manager === 'e') as ManagedField & { time?: string };
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const after = await merge('v1beta1', 'e', { a: null });
      const e = after.find((m) => m.manager === 'e') as ManagedField & { time?: string };
      assert.deepEqual([e.fieldsV1, e.time], [{ 'f:spec': { 'f:b': {} } }, before.time], 'the time of the write that took .spec.b');
      assert.deepEqual(after.find((m) => m.manager === 'd')?.fieldsV1, { 'f:spec': { 'f:c': {} } }, 'a removed field leaves its owner');
      await backend().delete(`${group}/v1`, 'Knob', name, 'default');
    });

    test('a struct or map emptied or filled keeps its member with the manager that owned it; only its entries are removed', async () => {
      const group = 'emptied.conformance.katalog.dev';
      const str = { type: 'string' };
      const fields = { type: 'object', properties: { a: str, b: str } };
      const spec = { type: 'object', properties: { s: fields, m: { type: 'object', additionalProperties: str } } };
      const plural = await applyCrd(backend(), group, 'Box', { type: 'object', properties: { spec } });
      const name = unique('box');
      const path = `/apis/${group}/v1/namespaces/default/${plural}`;
      const write = async (method: string, manager: string, body: unknown, type: string): Promise<unknown[]> => {
        const answer = await raw(backend().kubeConfig, method, `${path}${method === 'POST' ? '' : `/${name}`}?fieldManager=${manager}`, JSON.stringify(body), type);
        assert.ok(answer.status < 300, JSON.stringify(answer.body));
        return managed(answer.body).map((m) => [m.manager, m.fieldsV1]);
      };
      const merge = (manager: string, s: Json, m: Json): Promise<unknown[]> => write('PATCH', manager, { spec: { s, m } }, 'application/merge-patch+json');
      const both = (value: Json): Json => ({ 'f:spec': { 'f:m': value, 'f:s': value } });

      await write('POST', 'c', { apiVersion: `${group}/v1`, kind: 'Box', metadata: { name }, spec: {} }, 'application/json');
      assert.deepEqual(await merge('u1', {}, {}), [['c', { 'f:spec': {} }], ['u1', both({})]]);
      // Filled: the member u1 took when it set `{}` stays with u1 beside the entry it adds.
      assert.deepEqual(await merge('u1', { a: '1' }, { a: '1' }), [['c', { 'f:spec': {} }], ['u1', both({ '.': {}, 'f:a': {} })]]);
      // Emptied: the entry is removed, the member stays.
      assert.deepEqual(await merge('u1', { a: null }, { a: null }), [['c', { 'f:spec': {} }], ['u1', both({})]]);
      // Another manager filling it takes only its entry.
      assert.deepEqual(await merge('u2', { b: '2' }, { b: '2' }), [['c', { 'f:spec': {} }], ['u1', both({})], ['u2', both({ 'f:b': {} })]]);
      // Replaced by `{}`: the entry goes, and with it the entry of u2, who owned nothing else; the replacing write takes nothing.
      const replace = [{ op: 'replace', path: '/spec/s', value: {} }, { op: 'replace', path: '/spec/m', value: {} }];
      assert.deepEqual(await write('PATCH', 'u3', replace, 'application/json-patch+json'), [['c', { 'f:spec': {} }], ['u1', both({})]]);
      await backend().delete(`${group}/v1`, 'Box', name, 'default');
    });

    test("ports are keyed by number and protocol (TCP when left out); a created Service's allocated addresses are nobody's", async () => {
      const name = unique('ports');
      const send = (method: string, path: string, body: unknown, type = 'application/json'): Promise<RawAnswer> => raw(backend().kubeConfig, method, path, JSON.stringify(body), type);
      const deployment = {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: {
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: {
              containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }, { containerPort: 53 }] }],
              topologySpreadConstraints: [{ topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', maxSkew: 1, labelSelector: { matchLabels: { app: name } } }],
            },
          },
        },
      };
      const applied = await send('PATCH', `/apis/apps/v1/namespaces/default/deployments/${name}?fieldManager=ports`, deployment, 'application/apply-patch+yaml');
      assert.equal(applied.status, 201, JSON.stringify(applied.body));
      const podSpec = (((managed(applied.body as Json)[0]?.fieldsV1?.['f:spec'] as Json)['f:template'] as Json)['f:spec'] as Json);
      const ports = ((podSpec['f:containers'] as Json)['k:{"name":"c"}'] as Json)['f:ports'] as Json;
      assert.deepEqual(Object.keys(ports), ['k:{"containerPort":53,"protocol":"TCP"}', 'k:{"containerPort":53,"protocol":"UDP"}', 'k:{"containerPort":80,"protocol":"TCP"}']);
      assert.deepEqual(Object.keys(podSpec['f:topologySpreadConstraints'] as Json), ['k:{"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}']);
      const service = await send('POST', '/api/v1/namespaces/default/services?fieldManager=creator', { metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }] } });
      assert.equal(service.status, 201, JSON.stringify(service.body));
      assert.match(String((service.body as Json).spec?.['clusterIP']), /^\d+\.\d+\.\d+\.\d+$/, 'an address was allocated');
      assert.deepEqual(managed(service.body as Json).map((e) => [e.manager, e.operation, e.fieldsV1]), [
        [
          'creator',
          'Update',
          {
            'f:spec': {
              'f:internalTrafficPolicy': {},
              'f:ports': { '.': {}, 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } },
              'f:selector': {},
              'f:sessionAffinity': {},
              'f:type': {},
            },
          },
        ],
      ]);
      await backend().delete('apps/v1', 'Deployment', name, 'default');
      await backend().delete('v1', 'Service', name, 'default');
    });
  });
}
