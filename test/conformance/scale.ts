// The /scale subresource of Deployments, StatefulSets and custom resources over raw HTTP: the Scale each server
// answers, the writes through it (PUT, every patch type, apply), their errors, and the managed fields they leave on
// the parent. Every expected value below is what kube-apiserver 1.37.2 answered.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';

const MERGE = 'application/merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

/** A Scale without what differs between runs (uid, resourceVersion, creation time). */
function stable(scale: Record<string, unknown>): Record<string, unknown> {
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _created, ...metadata } = scale['metadata'] as Record<string, unknown>;
  return { ...scale, metadata };
}

/** The parent's managed fields as [manager, operation, apiVersion, subresource, has a time, fieldsV1]. */
function entries(object: Json): unknown[][] {
  const managed = (object.metadata?.['managedFields'] as Record<string, unknown>[] | undefined) ?? [];
  return managed.map((e) => [e['manager'], e['operation'], e['apiVersion'], e['subresource'] ?? '', 'time' in e, e['fieldsV1']]);
}

function message(answer: RawAnswer): string {
  return String(answer.body['message']);
}

const SCALE = (name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'autoscaling/v1',
  kind: 'Scale',
  metadata: { name, ...metadata },
  spec,
});

function deployment(name: string, replicas: number): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name, tier: 'x' } },
      template: { metadata: { labels: { app: name, tier: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    },
  };
}

const REPLICAS = { 'f:spec': { 'f:replicas': {} } };

export function scaleSuite(backend: () => Backend): void {
  describe('the scale subresource', () => {
    const send = (method: string, path: string, body?: unknown, type = 'application/json'): Promise<RawAnswer> =>
      raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body), type);

    test("a Deployment's Scale is read and written through /scale, which sets only spec.replicas", async () => {
      const name = unique('scale-dep');
      const path = `/apis/apps/v1/namespaces/default/deployments/${name}`;
      assert.equal((await send('POST', '/apis/apps/v1/namespaces/default/deployments?fieldManager=m', deployment(name, 2))).status, 201);

      const read = await send('GET', `${path}/scale`);
      assert.equal(read.status, 200);
      assert.deepEqual(Object.keys(read.body), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
      assert.deepEqual(Object.keys(read.body['metadata'] as object), ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']);
      assert.deepEqual(stable(read.body), { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name, namespace: 'default' }, spec: { replicas: 2 }, status: { replicas: 0, selector: `app=${name},tier=x` } });

      const put = await send('PUT', `${path}/scale?fieldManager=scaler`, SCALE(name, { replicas: 3 }, { namespace: 'default' }));
      assert.equal(put.status, 200);
      assert.deepEqual((put.body['spec'] as Json)['replicas'], 3);
      assert.notEqual((put.body['metadata'] as Json)['resourceVersion'], (read.body['metadata'] as Json)['resourceVersion']);
      const parent = (await send('GET', path)).body as Json;
      assert.equal(parent.spec?.['replicas'], 3);
      assert.equal(parent.metadata?.['generation'], 2);
      // The scaler owns spec.replicas in an entry of subresource scale, without a time; m gave it up.
      const [scaler, m] = entries(parent);
      assert.deepEqual(scaler, ['scaler', 'Update', 'apps/v1', 'scale', false, REPLICAS]);
      assert.equal(m?.[0], 'm');
      assert.equal('f:replicas' in ((m?.[5] as Json)['f:spec'] as object), false);

      // Labels and status in a Scale patch are not the parent's: nothing changes, not even the resourceVersion.
      const ignored = await send('PATCH', `${path}/scale?fieldManager=other`, { metadata: { labels: { l: 'v' } }, status: { replicas: 9 } }, MERGE);
      assert.equal(ignored.status, 200);
      assert.equal((ignored.body['metadata'] as Json)['resourceVersion'], (put.body['metadata'] as Json)['resourceVersion']);

      for (const [type, patch, replicas] of [
        ['application/strategic-merge-patch+json', { spec: { replicas: 4 } }, 4],
        ['application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 5 }], 5],
        [MERGE, { spec: { replicas: 0 } }, 0],
      ] as const) {
        const patched = await send('PATCH', `${path}/scale?fieldManager=patcher`, patch, type);
        assert.equal(patched.status, 200, `${type}: ${JSON.stringify(patched.body)}`);
        // Go leaves replicas 0 out of a Scale's spec (omitempty).
        assert.deepEqual(patched.body['spec'], replicas === 0 ? {} : { replicas }, type);
      }
      const after = (await send('GET', path)).body as Json;
      assert.equal(after.spec?.['replicas'], 0);
      // Setting replicas to 0 removed the field from the Scale: nobody owns it any more.
      assert.deepEqual(entries(after).map((e) => e[0]), ['m']);
    });

    test('a write through /scale is refused as kube-apiserver refuses it', async () => {
      const name = unique('scale-bad');
      const path = `/apis/apps/v1/namespaces/default/deployments/${name}`;
      await send('POST', '/apis/apps/v1/namespaces/default/deployments', deployment(name, 1));
      const cases: [string, string, unknown, number, string][] = [
        ['PUT', 'a stale resourceVersion', SCALE(name, { replicas: 2 }, { resourceVersion: '1' }), 409, `Operation cannot be fulfilled on deployments.apps "${name}": the object has been modified; please apply your changes to the latest version and try again`],
        ['PUT', 'negative replicas', SCALE(name, { replicas: -1 }), 422, `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`],
        ['PUT', 'another name', SCALE('other', { replicas: 2 }), 400, `the name of the object (other) does not match the name on the URL (${name})`],
        ['PUT', 'another kind', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: 2 } }, 400, 'Deployment in version "v1" cannot be handled as a Scale: converting (v1.Deployment) to (autoscaling.Scale): unknown conversion'],
        ['PUT', 'another version', { apiVersion: 'autoscaling/v2', kind: 'Scale', metadata: { name }, spec: { replicas: 2 } }, 400, 'Scale in version "v2" cannot be handled as a Scale: no kind "Scale" is registered for version "autoscaling/v2" in scheme "pkg/runtime/scheme.go:111"'],
        ['PUT', 'replicas as a string', SCALE(name, { replicas: 'x' }), 400, 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32'],
        ['PUT', 'replicas past int32', SCALE(name, { replicas: 2147483648 }), 400, 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number 2147483648 into Go struct field ScaleSpec.spec.replicas of type int32'],
        ['POST', 'a create', SCALE(name, { replicas: 2 }), 405, 'the server does not allow this method on the requested resource'],
        ['DELETE', 'a delete', undefined, 405, 'the server does not allow this method on the requested resource'],
      ];
      for (const [method, what, body, code, text] of cases) {
        const answer = await send(method, `${path}/scale`, body);
        assert.equal(answer.status, code, what);
        assert.equal(message(answer), text, what);
      }
      const negative = await send('PATCH', `${path}/scale`, { spec: { replicas: -2 } }, MERGE);
      assert.equal(negative.status, 422);
      assert.equal(message(negative), `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0`);
      const typed = await send('PATCH', `${path}/scale`, { spec: { replicas: 1.5 } }, MERGE);
      assert.equal(typed.status, 422);
      assert.match(message(typed), /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"autoscaling\/v1\\",\\"kind\\":\\"Scale\\",.*": json: cannot unmarshal number 1\.5 into Go struct field ScaleSpec\.spec\.replicas of type int32$/);
      const strict = await send('PUT', `${path}/scale?fieldValidation=Strict`, SCALE(name, { replicas: 3, bogus: 1 }));
      assert.equal(strict.status, 400);
      assert.equal(message(strict), 'Scale in version "v1" cannot be handled as a Scale: strict decoding error: unknown field "spec.bogus"');
      const warned = await send('PUT', `${path}/scale`, SCALE(name, { replicas: 3, bogus: 1 }));
      assert.equal(warned.status, 200);
      assert.deepEqual(warned.warnings, ['unknown field "spec.bogus"']);
      const uid = await send('PUT', `${path}/scale`, SCALE(name, { replicas: 3 }, { uid: 'abc' }));
      assert.equal(uid.status, 409);
      assert.match(message(uid), new RegExp(`^Operation cannot be fulfilled on deployments\\.apps "${name}": StorageError: invalid object, Code: 4, Key: /registry/deployments/default/${name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: abc, UID in object meta: [0-9a-f-]{36}$`));
      const dry = await send('PUT', `${path}/scale?dryRun=All`, SCALE(name, { replicas: 7 }));
      assert.deepEqual(dry.body['spec'], { replicas: 7 });
      assert.deepEqual((await send('GET', `${path}/scale`)).body['spec'], { replicas: 3 });
      for (const [method, type] of [['GET', undefined], ['PUT', undefined], ['PATCH', MERGE]] as const) {
        const missing = await send(method, `/apis/apps/v1/namespaces/default/deployments/${name}-missing/scale`, method === 'GET' ? undefined : SCALE(`${name}-missing`, { replicas: 1 }), type);
        assert.equal(missing.status, 404, method);
        assert.equal(message(missing), `deployments.apps "${name}-missing" not found`, method);
      }
      assert.equal(message(await send('GET', `/api/v1/namespaces/default/configmaps/${name}/scale`)), 'the server could not find the requested resource');
    });

    test('an apply to /scale conflicts with whoever owns the replicas, and the main resource then conflicts with it', async () => {
      const name = unique('scale-apply');
      const path = `/apis/apps/v1/namespaces/default/deployments/${name}`;
      await send('POST', '/apis/apps/v1/namespaces/default/deployments?fieldManager=m', deployment(name, 2));
      const applied = (manager: string, replicas: number, force = false): Promise<RawAnswer> =>
        send('PATCH', `${path}/scale?fieldManager=${manager}${force ? '&force=true' : ''}`, { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas } }, APPLY);
      const refused = await applied('hpa', 5);
      assert.equal(refused.status, 409);
      assert.equal(message(refused), 'Apply failed with 1 conflict: conflict with "m" using autoscaling/v1: .spec.replicas');
      assert.equal((await applied('hpa', 5, true)).status, 200);
      const taken = (await send('GET', path)).body as Json;
      assert.deepEqual(entries(taken)[0], ['hpa', 'Apply', 'apps/v1', 'scale', false, REPLICAS]);
      // An equal value is shared, not a conflict.
      assert.equal((await applied('hpa2', 5)).status, 200);
      assert.deepEqual(entries((await send('GET', path)).body as Json).slice(0, 2).map((e) => e[0]), ['hpa', 'hpa2']);
      const main = await send('PATCH', `${path}?fieldManager=m`, deployment(name, 2), APPLY);
      assert.equal(main.status, 409);
      assert.equal(message(main), 'Apply failed with 2 conflicts: conflicts with "hpa" with subresource "scale":\n- .spec.replicas\nconflicts with "hpa2" with subresource "scale":\n- .spec.replicas');
      const wrongKind = await send('PATCH', `${path}/scale?fieldManager=hpa`, { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 6 } }, APPLY);
      assert.equal(wrongKind.status, 400);
      assert.equal(message(wrongKind), 'invalid object type: apps/v1, Kind=Deployment');
    });

    test('nobody owning the replicas, a write through /scale tracks nothing and an apply meets before-first-apply', async () => {
      const name = unique('scale-untracked');
      const path = `/apis/apps/v1/namespaces/default/deployments/${name}`;
      await send('POST', '/apis/apps/v1/namespaces/default/deployments?fieldManager=m', deployment(name, 2));
      // A Scale without replicas sets 0, which no manager owns.
      assert.equal((await send('PUT', `${path}/scale?fieldManager=zero`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name } })).status, 200);
      assert.equal((await send('PATCH', `${path}/scale?fieldManager=merger`, { spec: { replicas: 4 } }, MERGE)).status, 200);
      const parent = (await send('GET', path)).body as Json;
      assert.equal(parent.spec?.['replicas'], 4);
      assert.deepEqual(entries(parent).map((e) => e[0]), ['m']);
      const applied = await send('PATCH', `${path}/scale?fieldManager=hpa`, { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 7 } }, APPLY);
      assert.equal(applied.status, 409);
      assert.equal(message(applied), 'Apply failed with 1 conflict: conflict with "before-first-apply" with subresource "scale" using autoscaling/v1: .spec.replicas');
    });

    test("a custom resource's Scale reads and writes the paths its CRD names, under the resource's own validation", async () => {
      const obj = (properties: Json): Json => ({ type: 'object', properties });
      const schema = obj({
        spec: obj({ replicas: { type: 'integer', maximum: 10 }, other: { type: 'string' }, nested: obj({ count: { type: 'integer' } }) }),
        status: obj({ replicas: { type: 'integer' }, selector: { type: 'string' }, nested: obj({ count: { type: 'integer' } }) }),
      });
      const plural = `scalers${unique('c').replace(/[^a-z0-9]/g, '')}`;
      const nests = `nests${unique('c').replace(/[^a-z0-9]/g, '')}`;
      const crd = (name: string, kind: string, scale: Json): Json => ({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `${name}.scale.example.com` },
        spec: {
          group: 'scale.example.com',
          scope: 'Namespaced',
          names: { plural: name, singular: name.slice(0, -1), kind, listKind: `${kind}List` },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, subresources: { status: {}, scale } }],
        },
      });
      await backend().applyCrd(crd(plural, 'Scaler', { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' }));
      await backend().applyCrd(crd(nests, 'Nest', { specReplicasPath: '.spec.nested.count', statusReplicasPath: '.status.nested.count' }));
      const base = `/apis/scale.example.com/v1/namespaces/default/${plural}`;
      const discovery = (await send('GET', '/apis/scale.example.com/v1')).body['resources'] as Json[];
      assert.deepEqual(
        discovery.filter((r) => String(r['name']).startsWith(plural)).map((r) => [r['name'], r['group'], r['version'], r['kind']]),
        [
          [plural, undefined, undefined, 'Scaler'],
          [`${plural}/status`, undefined, undefined, 'Scaler'],
          [`${plural}/scale`, 'autoscaling', 'v1', 'Scale'],
        ],
      );

      await send('POST', `${base}?fieldManager=m`, { apiVersion: 'scale.example.com/v1', kind: 'Scaler', metadata: { name: 'empty' }, spec: { other: 'x' } });
      const unread = await send('GET', `${base}/empty/scale`);
      assert.equal(unread.status, 500);
      assert.deepEqual(unread.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist',
        reason: 'InternalError',
        details: { causes: [{ message: 'the spec replicas field ".spec.replicas" does not exist' }] },
        code: 500,
      });
      const empty = await send('PATCH', `${base}/empty/scale`, { metadata: { labels: { a: 'b' } } }, MERGE);
      assert.equal(empty.status, 400);
      assert.equal(message(empty), 'the spec replicas field ".spec.replicas" cannot be empty');
      assert.equal((await send('PATCH', `${base}/empty/scale?fieldManager=merger`, { spec: { replicas: 1 } }, MERGE)).status, 200);
      const filled = (await send('GET', `${base}/empty`)).body as Json;
      assert.deepEqual(filled.spec, { other: 'x', replicas: 1 });
      // Nobody owned the replicas before: the write is not tracked.
      assert.deepEqual(entries(filled).map((e) => e[0]), ['m']);

      await send('POST', `${base}?fieldManager=m`, { apiVersion: 'scale.example.com/v1', kind: 'Scaler', metadata: { name: 's' }, spec: { replicas: 2 } });
      await send('PATCH', `${base}/s/status`, { status: { replicas: 2, selector: 'app=x' } }, MERGE);
      assert.deepEqual(stable((await send('GET', `${base}/s/scale`)).body), { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 's', namespace: 'default' }, spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=x' } });
      assert.equal((await send('PUT', `${base}/s/scale?fieldManager=scaler`, SCALE('s', { replicas: 3 }))).status, 200);
      const scaled = (await send('GET', `${base}/s`)).body as Json;
      assert.equal(scaled.metadata?.['generation'], 2);
      assert.deepEqual(entries(scaled)[0], ['scaler', 'Update', 'scale.example.com/v1', 'scale', false, REPLICAS]);

      const refusals: [string, unknown, string, number, string][] = [
        ['PUT', SCALE('s', { replicas: 11 }), 'application/json', 422, 'Scaler.scale.example.com "s" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10'],
        ['PUT', SCALE('s', { replicas: -1 }), 'application/json', 422, 'Scaler.scale.example.com "s" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer'],
        ['PATCH', { spec: { replicas: 5 } }, 'application/strategic-merge-patch+json', 415, 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'],
      ];
      for (const [method, body, type, code, text] of refusals) {
        const answer = await send(method, `${base}/s/scale`, body, type);
        assert.equal(answer.status, code, text);
        assert.equal(message(answer), text);
      }

      const nest = `/apis/scale.example.com/v1/namespaces/default/${nests}`;
      await send('POST', nest, { apiVersion: 'scale.example.com/v1', kind: 'Nest', metadata: { name: 'n' }, spec: { other: 'y' } });
      assert.deepEqual((await send('PUT', `${nest}/n/scale`, SCALE('n', { replicas: 2 }))).body['status'], { replicas: 0 });
      assert.deepEqual(((await send('GET', `${nest}/n`)).body as Json).spec, { nested: { count: 2 }, other: 'y' });
    });

    test("a custom resource's own writes are checked at its scale paths", async () => {
      const plural = `checked${unique('c').replace(/[^a-z0-9]/g, '')}`;
      await backend().applyCrd({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `${plural}.scale.example.com` },
        spec: {
          group: 'scale.example.com',
          scope: 'Namespaced',
          names: { plural, singular: plural.slice(0, -1), kind: 'Checked', listKind: 'CheckedList' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
              subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
            },
          ],
        },
      });
      const base = `/apis/scale.example.com/v1/namespaces/default/${plural}`;
      const create = (name: string, spec: unknown): Promise<RawAnswer> => send('POST', base, { apiVersion: 'scale.example.com/v1', kind: 'Checked', metadata: { name }, spec });
      assert.equal(message(await create('big', { replicas: 2147483648 })), 'Checked.scale.example.com "big" is invalid: .spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647');
      assert.equal(message(await create('neg', { replicas: -1 })), 'Checked.scale.example.com "neg" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer');
      assert.equal(message(await create('str', { replicas: 'two' })), 'Checked.scale.example.com "str" is invalid: .spec.replicas: Invalid value: 0: .spec.replicas accessor error: two is of the type string, expected int64');
      assert.equal(message(await create('flat', 'no map')), 'Checked.scale.example.com "flat" is invalid: .spec.replicas: Invalid value: 0: .spec.replicas accessor error: no map is of the type string, expected map[string]interface{}');
      assert.equal((await create('ok', { replicas: 1 })).status, 201);
      const status = await send('PATCH', `${base}/ok/status`, { status: { replicas: -3, selector: 5 } }, MERGE);
      assert.equal(status.status, 422);
      assert.equal(
        message(status),
        'Checked.scale.example.com "ok" is invalid: [.status.replicas: Invalid value: -3: should be a non-negative integer, .status.selector: Invalid value: "": .status.selector accessor error: 5 is of the type int64, expected string]',
      );
    });

    test("a workload's Scale writes its label selector as text", async () => {
      const name = unique('scale-sts');
      await send('POST', '/apis/apps/v1/namespaces/default/statefulsets', {
        metadata: { name },
        spec: {
          serviceName: 's',
          selector: {
            matchLabels: { app: 's' },
            matchExpressions: [
              { key: 'tier', operator: 'In', values: ['b', 'a'] },
              { key: 'gone', operator: 'DoesNotExist' },
              { key: 'here', operator: 'Exists' },
              { key: 'env', operator: 'NotIn', values: ['prod'] },
            ],
          },
          template: { metadata: { labels: { app: 's', tier: 'a', here: 'y' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      });
      const scale = await send('GET', `/apis/apps/v1/namespaces/default/statefulsets/${name}/scale`);
      assert.deepEqual(scale.body['status'], { replicas: 0, selector: 'app=s,env notin (prod),!gone,here,tier in (a,b)' });
      const resources = (await send('GET', '/apis/apps/v1')).body['resources'] as Json[];
      assert.deepEqual(
        resources.filter((r) => String(r['name']).endsWith('/scale')).map((r) => [r['name'], r['group'], r['version'], r['kind'], r['verbs']]),
        ['deployments', 'replicasets', 'statefulsets'].map((plural) => [`${plural}/scale`, 'autoscaling', 'v1', 'Scale', ['get', 'patch', 'update']]),
      );
    });
  });
}
