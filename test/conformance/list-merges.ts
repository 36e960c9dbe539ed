// How lists merge in server-side applies and strategic merge patches: every list of a built-in kind as its Go type
// and kube-apiserver's OpenAPI declare it (not only the ones operators set most), a custom resource's as its schema
// declares it, and `metadata`'s as ObjectMeta's in every kind. Two managers apply to one object: what each owns and
// what the object holds. A strategic merge patch: the order the merged list is left in, and the patches it refuses.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { raw } from './raw-http.js';
import { crdManifest } from '../../src/testing/index.js';

const GROUP = 'lists.conformance.katalog.dev';

interface Applied {
  readonly status: number;
  readonly body: Json;
  /** Each manager's fieldsV1, by manager. */
  readonly owned: Record<string, unknown>;
}

async function apply(backend: Backend, path: string, manager: string, body: unknown): Promise<Applied> {
  const answer = await raw(backend.kubeConfig, 'PATCH', `${path}?fieldManager=${manager}`, JSON.stringify(body), 'application/apply-patch+yaml');
  const entries = (answer.body['metadata'] as { managedFields?: Array<{ manager: string; fieldsV1: unknown }> } | undefined)?.managedFields ?? [];
  return { status: answer.status, body: answer.body as Json, owned: Object.fromEntries(entries.map((entry) => [entry.manager, entry.fieldsV1])) };
}

const crd = crdManifest({
  group: GROUP,
  kind: 'Tag',
  plural: 'tags',
  versions: [{ name: 'v1', status: false, schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['port', 'protocol'],
            items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } },
          },
        },
      },
    },
  } }],
});

export function listMergeSuite(backend: () => Backend): void {
  describe('how lists merge', () => {
    test("a built-in kind's lists beyond the common ones: a pod template's finalizers are a set, a webhook's match conditions keyed by name", async () => {
      const name = unique('lm-deploy');
      const path = `/apis/apps/v1/namespaces/default/deployments/${name}`;
      const deployment = (finalizer: string): Json => ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name }, finalizers: [finalizer] }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
      });
      assert.equal((await apply(backend(), path, 'one', deployment('x/one'))).status, 201);
      const two = await apply(backend(), path, 'two', { ...deployment('x/two'), spec: { template: { metadata: { finalizers: ['x/two'] } } } });
      assert.equal(two.status, 200);
      const template = (two.body.spec as { template: { metadata: { finalizers: string[] } } }).template;
      assert.deepEqual(template.metadata.finalizers, ['x/one', 'x/two'], 'a set: both kept');
      assert.deepEqual(two.owned['two'], { 'f:spec': { 'f:template': { 'f:metadata': { 'f:finalizers': { 'v:"x/two"': {} } } } } });

      const hook = unique('lm-hook');
      const hookPath = `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${hook}`;
      const webhook = { name: 'a.example.com', clientConfig: { url: 'https://hook.example.com' }, sideEffects: 'None', admissionReviewVersions: ['v1'], matchConditions: [{ name: 'm', expression: 'true' }] };
      const made = await apply(backend(), hookPath, 'one', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: hook }, webhooks: [webhook] });
      assert.equal(made.status, 201);
      const owned = made.owned['one'] as { 'f:webhooks': Record<string, Record<string, unknown>> };
      assert.deepEqual(owned['f:webhooks']['k:{"name":"a.example.com"}']?.['f:matchConditions'], { 'k:{"name":"m"}': { '.': {}, 'f:expression': {}, 'f:name': {} } });
      await raw(backend().kubeConfig, 'DELETE', hookPath);
    });

    test('an owner reference is owned whole; an item without its key is keyed by the default, and validation refuses it', async () => {
      const owner = await backend().create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: unique('lm-owner'), namespace: 'default' } });
      const uid = String(owner.metadata?.['uid']);
      const child = unique('lm-child');
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata?.['name'], uid };
      const made = await apply(backend(), `/api/v1/namespaces/default/configmaps/${child}`, 'one', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: child, ownerReferences: [ref] } });
      assert.equal(made.status, 201);
      assert.deepEqual(made.owned['one'], { 'f:metadata': { 'f:ownerReferences': { [`k:{"uid":"${uid}"}`]: {} } } });

      const pod = unique('lm-pod');
      const nameless = await raw(
        backend().kubeConfig,
        'PATCH',
        `/api/v1/namespaces/default/pods/${pod}?fieldManager=one`,
        JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: pod }, spec: { containers: [{ name: 'c', image: 'i', env: [{ value: 'x' }] }] } }),
        'application/apply-patch+yaml',
      );
      assert.deepEqual({ status: nameless.status, message: nameless.body['message'] }, { status: 422, message: `Pod "${pod}" is invalid: spec.containers[0].env[0].name: Required value` });
    });

    test("a strategic merge patch leaves merged lists in kube-apiserver's order, and refuses what it cannot merge with its 500s", async () => {
      const kc = backend().kubeConfig;
      const env = (names: string[]): Json[] => names.map((name) => ({ name, value: name }));
      const create = async (containers: Json[]): Promise<string> => {
        const name = unique('lm-smp');
        const made = await backend().create({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name, namespace: 'default', finalizers: ['x/a', 'x/b'] },
          spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers } } },
        });
        return String(made.metadata?.['name']);
      };
      const patch = async (containers: Json[], spec: Json, metadata?: Json): Promise<{ status: number; body: Json }> => {
        const name = await create(containers);
        const body = { ...(metadata === undefined ? {} : { metadata }), spec: { template: { spec } } };
        const answer = await raw(kc, 'PATCH', `/apis/apps/v1/namespaces/default/deployments/${name}`, JSON.stringify(body), 'application/strategic-merge-patch+json');
        return { status: answer.status, body: answer.body as Json };
      };
      const shape = (body: Json): string[] => {
        const containers = (body.spec as { template: { spec: { containers: Array<{ name: string; env?: Array<{ name: string }> }> } } }).template.spec.containers;
        return containers.map((c) => [c.name, ...(c.env ?? []).map((e) => e.name)].join(':'));
      };
      const c = (name: string, names: string[] = []): Json => ({ name, image: 'i', ...(names.length > 0 ? { env: env(names) } : {}) });

      const cases: Array<[string, Json[], Json, string[]]> = [
        ['a new item alone goes first', [c('a'), c('b')], { containers: [{ name: 'z', image: 'j' }] }, ['z', 'a', 'b']],
        ['a new item after a named one follows it', [c('a'), c('b'), c('c')], { containers: [{ name: 'b', image: 'j' }, { name: 'z', image: 'j' }] }, ['a', 'b', 'z', 'c']],
        ['named items keep the patch order', [c('a'), c('b'), c('c')], { containers: [{ name: 'c', image: 'j' }, { name: 'a', image: 'j' }] }, ['b', 'c', 'a']],
        ['inside a container too', [c('a', ['X', 'Y', 'W'])], { containers: [{ name: 'a', env: [{ name: 'Y', value: 'y' }, { name: 'Z', value: 'z' }] }] }, ['a:X:Y:Z:W']],
        ['$setElementOrder orders the whole list', [c('a'), c('b'), c('c')], { '$setElementOrder/containers': [{ name: 'c' }, { name: 'z' }, { name: 'a' }, { name: 'b' }], containers: [{ name: 'z', image: 'j' }] }, ['c', 'z', 'a', 'b']],
        ['a partial $setElementOrder orders what it names', [c('a'), c('b'), c('c')], { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }], containers: [{ name: 'c', image: 'j' }] }, ['b', 'c', 'a']],
        ['$patch: delete, then a new item', [c('a'), c('b')], { containers: [{ name: 'a', $patch: 'delete' }, { name: 'z', image: 'j' }] }, ['z', 'b']],
      ];
      for (const [what, containers, spec, expected] of cases) {
        const answer = await patch(containers, spec);
        assert.equal(answer.status, 200, `${what}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(shape(answer.body), expected, what);
      }
      const finalizers = await patch([c('a')], {}, { finalizers: ['x/b', 'x/c', 'x/a'] });
      assert.deepEqual(finalizers.body.metadata?.['finalizers'], ['x/b', 'x/c', 'x/a'], 'a set of primitives: the patch orders what it names');

      const keyless = await patch([c('a')], { containers: [{ image: 'j' }] });
      assert.deepEqual(
        { status: keyless.status, reason: keyless.body['reason'], message: keyless.body['message'] },
        { status: 500, reason: undefined, message: 'map: map[image:j] does not contain declared merge key: name' },
      );
      const misordered = await patch([c('a'), c('b')], { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'z', image: 'j' }] });
      assert.deepEqual(
        { status: misordered.status, message: misordered.body['message'] },
        { status: 500, message: "The order in patch list:\n[map[image:j name:z]]\n doesn't match $setElementOrder list:\n[map[name:b] map[name:a]]\n" },
      );
    });

    test("a custom resource's lists follow its schema (a set; keys with a default) and its metadata is ObjectMeta's", async () => {
      await backend().applyCrd(crd);
      const name = unique('lm-tag');
      const path = `/apis/${GROUP}/v1/namespaces/default/tags/${name}`;
      const tag = (finalizer: string, spec: Json): Json => ({ apiVersion: `${GROUP}/v1`, kind: 'Tag', metadata: { name, finalizers: [finalizer] }, spec });
      assert.equal((await apply(backend(), path, 'one', tag('x/one', { tags: ['a'], ports: [{ port: 80 }] }))).status, 201);
      const two = await apply(backend(), path, 'two', tag('x/two', { tags: ['b'], ports: [{ port: 81, name: 'x' }] }));
      assert.equal(two.status, 200, JSON.stringify(two.body));
      assert.deepEqual(two.body.metadata?.['finalizers'], ['x/one', 'x/two']);
      assert.deepEqual(two.body.spec, { tags: ['a', 'b'], ports: [{ port: 80, protocol: 'TCP' }, { port: 81, name: 'x', protocol: 'TCP' }] });
      assert.deepEqual(two.owned['two'], {
        'f:metadata': { 'f:finalizers': { 'v:"x/two"': {} } },
        'f:spec': { 'f:ports': { 'k:{"port":81,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } }, 'f:tags': { 'v:"b"': {} } },
      });
    });
  });
}
