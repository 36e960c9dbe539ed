// What admission webhooks are sent, and what becomes of a mutating webhook's patch: the AdmissionReview as the API
// server's client writes it (Go's field order, the request's options), the object as the server holds it (decoded
// and defaulted, in its Go struct's form, with its namespace and the managedFields of the write), the patch applied
// to that form and its result decoded and defaulted again, what the webhook added owned by no manager. A webhook
// that passes its tests against the test server then behaves the same against a cluster.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { webhookServer, type FakeWebhook } from '../support/fake-webhook.js';
import { masked, unique, type Backend, type Json } from './backend.js';
import { raw } from './raw-http.js';
import { crdManifest } from '../../src/testing/index.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'reviews.conformance.katalog.dev';

/** The JSON patch answer of a mutating webhook. */
function patchAnswer(operations: unknown): Record<string, unknown> {
  return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(operations)).toString('base64') };
}

export function admissionReviewSuite(backend: () => Backend): void {
  describe('what admission webhooks are sent', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
    let webhook: FakeWebhook;
    let caBundle = '';
    const namespace = unique('reviews');
    const names = { mutating: `mutating-${namespace}`, validating: `validating-${namespace}` };
    /** Answers per object name and path; anything else is allowed as it is. */
    let answers: (name: string, path: string, review: Json) => Record<string, unknown> | undefined = () => undefined;

    const request = (method: string, path: string, body?: unknown, type?: string): ReturnType<typeof raw> => raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body), type);
    /** The reviews `run` caused, by path, masked. */
    const reviewsOf = async (run: () => Promise<unknown>): Promise<{ mutating: string[]; validating: string[] }> => {
      webhook.calls.length = 0;
      await run();
      const of = (path: string): string[] => webhook.calls.filter((call) => call.path === path).map((call) => masked(call.text));
      return { mutating: of('/mutating'), validating: of('/validating') };
    };

    before(async () => {
      const tls = await selfSignedCertificate();
      caBundle = Buffer.from(tls.cert).toString('base64');
      webhook = await webhookServer(tls);
      webhook.answer = (review, path) => {
        const object = (review['object'] ?? review['oldObject']) as Json | null;
        return answers(String(object?.metadata?.['name'] ?? ''), path, review) ?? { allowed: true };
      };
      assert.equal((await request('POST', '/api/v1/namespaces', { metadata: { name: namespace } })).status, 201);
      await backend().applyCrd(crdManifest({
        group: GROUP,
        kind: 'Thing',
        plural: 'things',
        versions: [{ name: 'v1', status: false, schema: { type: 'object', properties: { spec: { type: 'object', properties: { zeta: { type: 'string' }, size: { type: 'integer', default: 3 }, nested: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'string' } } } } } } } }],
      }));
      for (const kind of ['mutating', 'validating'] as const) {
        const configuration = {
          metadata: { name: names[kind] },
          webhooks: [
            {
              name: `${kind}.reviews.example.com`,
              clientConfig: { url: `${webhook.url}/${kind}`, caBundle },
              rules: [{ operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: ['', 'apps', GROUP], apiVersions: ['v1'], resources: ['configmaps', 'deployments', 'things'] }],
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
              sideEffects: 'None',
              admissionReviewVersions: ['v1'],
              timeoutSeconds: 5,
            },
          ],
        };
        assert.equal((await request('POST', `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations`, configuration)).status, 201);
      }
      // kube-apiserver starts calling a new webhook once its informer has seen the configuration.
      const deadline = Date.now() + 20_000;
      while (!webhook.calls.some((call) => call.path === '/validating')) {
        if (Date.now() > deadline) throw new Error('the webhooks were never called');
        await request('POST', `/api/v1/namespaces/${namespace}/configmaps?dryRun=All`, { metadata: { name: 'ready' } });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    after(async () => {
      for (const kind of ['mutating', 'validating']) await request('DELETE', `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations/${names[kind as 'mutating']}`);
      await webhook.close();
    });

    test('a create: the object as the server holds it (Go form, its namespace, the managedFields of the write), the review in Go order with the options', async () => {
      const path = `/api/v1/namespaces/${namespace}/configmaps?fieldManager=maker`;
      const sent = { data: {}, metadata: { labels: { z: '1', a: '2' }, annotations: {}, name: 'created' }, kind: 'ConfigMap', apiVersion: 'v1' };
      const reviews = await reviewsOf(async () => assert.equal((await request('POST', path, sent)).status, 201));
      const metadata = `"name":"created","namespace":"${namespace}"`;
      const fields = '"managedFields":[{"manager":"maker","operation":"Update","apiVersion":"v1","time":"~","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:a":{},"f:z":{}}}}}]';
      const envelope = (object: string): string =>
        `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"~","kind":{"group":"","version":"v1","kind":"ConfigMap"},"resource":{"group":"","version":"v1","resource":"configmaps"},"requestKind":{"group":"","version":"v1","kind":"ConfigMap"},"requestResource":{"group":"","version":"v1","resource":"configmaps"},"name":"created","namespace":"${namespace}","operation":"CREATE","userInfo":"~","object":${object},"oldObject":null,"dryRun":false,"options":{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"maker"}}}\n`;
      assert.deepEqual(reviews.mutating, [envelope(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{${metadata},"labels":{"a":"2","z":"1"},${fields}}}`)]);
      assert.deepEqual(reviews.validating, [envelope(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{${metadata},"uid":"~","creationTimestamp":"~","labels":{"a":"2","z":"1"},${fields}}}`)]);
    });

    test("a patch applies to that form; its result is decoded (a wrong type is a 500, an unknown field dropped) and defaulted; what it adds is nobody's", async () => {
      const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
      const patches: Record<string, unknown[]> = {
        'empty-data': [{ op: 'add', path: '/data/x', value: 'y' }],
        'wrong-type': [{ op: 'add', path: '/data', value: { x: 5 } }],
        unknown: [
          { op: 'add', path: '/bogus', value: 1 },
          { op: 'add', path: '/data', value: { z: 'b', a: 'c' } },
        ],
        sidecar: [{ op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'side', image: 'j' } }],
      };
      answers = (name, path) => (path === '/mutating' && patches[name] !== undefined ? patchAnswer(patches[name]) : undefined);
      // `data: {}` is not in what the webhook is sent (Go leaves an empty map out): there is no /data to add to.
      const empty = await request('POST', configMaps, { metadata: { name: 'empty-data' }, data: {} });
      assert.equal(empty.status, 500);
      assert.equal(empty.body['message'], 'Internal error occurred: add operation does not apply: doc is missing path: "/data/x": missing value');
      const wrong = await request('POST', configMaps, { metadata: { name: 'wrong-type' } });
      assert.equal(wrong.status, 500);
      assert.deepEqual(wrong.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Internal error occurred: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
        reason: 'InternalError',
        details: { causes: [{ message: 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string' }] },
        code: 500,
      });
      const unknown = await request('POST', configMaps, { metadata: { name: 'unknown' } });
      assert.equal(unknown.status, 201);
      const stored = unknown.body as Json;
      assert.equal(JSON.stringify(stored.data), '{"a":"c","z":"b"}');
      assert.equal('bogus' in stored, false);
      // The write's own fields were none (a name only): the data the webhook added is owned by no manager.
      assert.equal(stored.metadata?.['managedFields'], undefined);

      const deployments = `/apis/apps/v1/namespaces/${namespace}/deployments`;
      const deployment = { metadata: { name: 'sidecar' }, spec: { selector: { matchLabels: { a: 'a' } }, template: { metadata: { labels: { a: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
      const reviews = await reviewsOf(async () => assert.equal((await request('POST', deployments, deployment)).status, 201));
      const containers = (review: string | undefined): unknown => (JSON.parse(review ?? '{}') as { request: { object: { spec: { template: { spec: { containers: unknown } } } } } }).request.object.spec.template.spec.containers;
      const defaulted = (name: string, image: string): Json => ({ name, image, resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' });
      assert.deepEqual(containers(reviews.mutating[0]), [defaulted('c', 'i')]);
      assert.deepEqual(containers(reviews.validating[0]), [defaulted('c', 'i'), defaulted('side', 'j')]);
      const fields = JSON.stringify((JSON.parse(reviews.validating[0] ?? '{}') as { request: { object: Json } }).request.object.metadata?.['managedFields']);
      assert.ok(fields.includes('k:{\\"name\\":\\"c\\"}') && !fields.includes('side'), fields);
    });

    test('what a mutating webhook adds is owned by no manager: another manager applies it without a conflict', async () => {
      const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
      answers = (name, path, review) => (name === 'unowned' && path === '/mutating' && review['operation'] === 'CREATE' ? patchAnswer([{ op: 'add', path: '/metadata/labels', value: { hook: 'yes' } }]) : undefined);
      const created = await request('POST', `${configMaps}?fieldManager=maker`, { metadata: { name: 'unowned' }, data: { k: 'v' } });
      assert.equal(created.status, 201);
      assert.deepEqual((created.body as Json).metadata?.['labels'], { hook: 'yes' });
      assert.equal(JSON.stringify(((created.body as Json).metadata?.['managedFields'] as Json[]).map((entry) => entry['fieldsV1'])), '[{"f:data":{".":{},"f:k":{}}}]');
      const applied = await request('PATCH', `${configMaps}/unowned?fieldManager=applier`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unowned', labels: { hook: 'mine' } } }, 'application/apply-patch+yaml');
      assert.equal(applied.status, 200, JSON.stringify(applied.body));
      assert.deepEqual((applied.body as Json).metadata?.['labels'], { hook: 'mine' });
    });

    test('a webhook with reinvocationPolicy IfNeeded is called again, once, when a webhook after it changed the object; each matches the object as changed', async () => {
      const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
      // Configurations are called in the order of their names: `0-first` before the suite's, `z-late` after it.
      const first = `0-first-${namespace}`;
      const late = `z-late-${namespace}`;
      const configuration = (name: string, path: string, labels: Record<string, string>, reinvocationPolicy: string): Json => ({
        metadata: { name },
        webhooks: [
          {
            name: `${path}.reviews.example.com`,
            clientConfig: { url: `${webhook.url}/${path}`, caBundle },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
            objectSelector: { matchLabels: labels },
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
            reinvocationPolicy,
          },
        ],
      });
      const configurations = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
      assert.equal((await request('POST', configurations, configuration(first, 'first', { reinvoke: 'yes' }, 'IfNeeded'))).status, 201);
      // Matches only what the suite's mutating webhook adds.
      assert.equal((await request('POST', configurations, configuration(late, 'late', { added: 'yes' }, 'Never'))).status, 201);
      try {
        const deadline = Date.now() + 20_000;
        webhook.calls.length = 0;
        while (!webhook.calls.some((call) => call.path === '/first') || !webhook.calls.some((call) => call.path === '/late')) {
          if (Date.now() > deadline) throw new Error('the webhooks were never called');
          await request('POST', `${configMaps}?dryRun=All`, { metadata: { name: 'ready', labels: { reinvoke: 'yes', added: 'yes' } } });
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        answers = (name, path, review) => {
          const labels = ((review['object'] as Json).metadata?.['labels'] ?? {}) as Record<string, string>;
          return name === 'reinvoked' && path === '/mutating' && labels['added'] === undefined ? patchAnswer([{ op: 'add', path: '/metadata/labels/added', value: 'yes' }]) : undefined;
        };
        webhook.calls.length = 0;
        const created = await request('POST', configMaps, { metadata: { name: 'reinvoked', labels: { reinvoke: 'yes' } } });
        assert.equal(created.status, 201);
        const labelsSeen = webhook.calls.map((call) => `${call.path} ${JSON.stringify((JSON.parse(call.text) as { request: { object: Json } }).request.object.metadata?.['labels'])}`);
        assert.deepEqual(labelsSeen, [
          '/first {"reinvoke":"yes"}',
          '/mutating {"reinvoke":"yes"}',
          '/late {"added":"yes","reinvoke":"yes"}',
          '/first {"added":"yes","reinvoke":"yes"}',
          '/validating {"added":"yes","reinvoke":"yes"}',
        ]);
      } finally {
        for (const name of [first, late]) await request('DELETE', `${configurations}/${name}`);
      }
    });

    test('matchConditions: a false one skips the webhook whatever the others say; an error fails the request with a 403 under Fail', async () => {
      const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
      const name = `conditions-${namespace}`;
      const configurations = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
      const configuration = {
        metadata: { name },
        webhooks: [
          {
            name: 'conditions.reviews.example.com',
            clientConfig: { url: `${webhook.url}/conditions`, caBundle },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
            objectSelector: { matchLabels: { conditions: 'yes' } },
            matchConditions: [
              { name: 'create', expression: "request.operation == 'CREATE' && request.userInfo.username != ''" },
              { name: 'not-skipped', expression: "!has(object.metadata.annotations) || !('skip' in object.metadata.annotations)" },
              { name: 'by-label', expression: "object.metadata.labels.mode == 'call'" },
            ],
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
          },
        ],
      };
      assert.equal((await request('POST', configurations, configuration)).status, 201);
      try {
        const deadline = Date.now() + 20_000;
        webhook.calls.length = 0;
        while (!webhook.calls.some((call) => call.path === '/conditions')) {
          if (Date.now() > deadline) throw new Error('the webhook was never called');
          await request('POST', `${configMaps}?dryRun=All`, { metadata: { name: 'ready', labels: { conditions: 'yes', mode: 'call' } } });
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        answers = () => undefined;
        const called = async (metadata: Json): Promise<{ status: number; called: boolean; message: unknown }> => {
          webhook.calls.length = 0;
          const answer = await request('POST', configMaps, { metadata });
          return { status: answer.status, called: webhook.calls.some((call) => call.path === '/conditions'), message: answer.body['message'] };
        };
        assert.deepEqual(await called({ name: 'condition-true', labels: { conditions: 'yes', mode: 'call' } }), { status: 201, called: true, message: undefined });
        assert.deepEqual(await called({ name: 'condition-false', labels: { conditions: 'yes', mode: 'other' } }), { status: 201, called: false, message: undefined });
        // The last condition has no `mode` to read, but the one before it is false: skipped.
        assert.deepEqual(await called({ name: 'condition-skip', labels: { conditions: 'yes' }, annotations: { skip: '' } }), { status: 201, called: false, message: undefined });
        const refused = await request('POST', configMaps, { metadata: { name: 'condition-error', labels: { conditions: 'yes' } } });
        assert.equal(refused.status, 403);
        assert.deepEqual(refused.body, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `configmaps "condition-error" is forbidden: expression 'object.metadata.labels.mode == 'call'' resulted in error: no such key: mode`,
          reason: 'Forbidden',
          details: { name: 'condition-error', kind: 'configmaps' },
          code: 403,
        });
      } finally {
        await request('DELETE', `${configurations}/${name}`);
      }
    });

    test('a custom resource is sent sorted and defaulted; what a patch removes is defaulted again, what it adds outside the schema is pruned', async () => {
      answers = (name, path) => (name === 'thing' && path === '/mutating' ? patchAnswer([{ op: 'add', path: '/spec/extra', value: 1 }, { op: 'remove', path: '/spec/size' }]) : undefined);
      const things = `/apis/${GROUP}/v1/namespaces/${namespace}/things`;
      let created: Json = {};
      const reviews = await reviewsOf(async () => {
        const answer = await request('POST', things, { spec: { zeta: 'z', unknown: 1, nested: { b: '1', a: '2' } }, metadata: { name: 'thing' }, kind: 'Thing', apiVersion: `${GROUP}/v1` });
        assert.equal(answer.status, 201);
        created = answer.body as Json;
      });
      assert.deepEqual(reviews.mutating.map((review) => JSON.stringify((JSON.parse(review) as { request: { object: unknown } }).request.object)), [
        `{"apiVersion":"${GROUP}/v1","kind":"Thing","metadata":{"managedFields":[{"apiVersion":"${GROUP}/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{".":{},"f:nested":{".":{},"f:a":{},"f:b":{}},"f:size":{},"f:zeta":{}}},"manager":"unknown","operation":"Update","time":"~"}],"name":"thing","namespace":"${namespace}"},"spec":{"nested":{"a":"2","b":"1"},"size":3,"zeta":"z"}}`,
      ]);
      assert.deepEqual(created.spec, { nested: { a: '2', b: '1' }, size: 3, zeta: 'z' });
    });

    test("answers that are not valid fail the call; a patch that does not apply, or one of a DELETE's, is a 500 whatever the policy", async () => {
      const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
      const base64 = (text: string): string => Buffer.from(text).toString('base64');
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['no-type', { allowed: true, patch: base64('[]') }, 'failed calling webhook "mutating.reviews.example.com": received invalid webhook response: webhook returned response.patch but not response.patchType'],
        ['no-patch', { allowed: true, patchType: 'JSONPatch' }, 'failed calling webhook "mutating.reviews.example.com": received invalid webhook response: webhook returned response.patchType but not response.patch'],
        ['not-a-list', { allowed: true, patchType: 'JSONPatch', patch: base64('{"op":"add"}') }, 'failed calling webhook "mutating.reviews.example.com": received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
        ['merge', { allowed: true, patchType: 'Merge', patch: base64('[{"op":"add","path":"/data","value":{}}]') }, 'failed calling webhook "mutating.reviews.example.com": unsupported patch type "Merge"'],
        ['empty-type', { allowed: true, patchType: '', patch: base64('[]') }, 'failed calling webhook "mutating.reviews.example.com": received invalid webhook response: webhook returned invalid response.patchType of ""'],
        ['bad-base64', { allowed: true, patchType: 'JSONPatch', patch: '@@@@' }, 'failed calling webhook "mutating.reviews.example.com": failed to call webhook: illegal base64 data at input byte 0'],
        ['test-fails', patchAnswer([{ op: 'test', path: '/metadata/name', value: 'nope' }]), 'testing value /metadata/name failed: test failed'],
        // Answers that are not an admission.k8s.io/v1 AdmissionReview with a response, as the client refuses them.
        ['other-kind', { $review: { apiVersion: 'admission.k8s.io/v1', kind: 'Other' } }, 'failed calling webhook "mutating.reviews.example.com": failed to call webhook: no kind "Other" is registered for version "admission.k8s.io/v1" in scheme "pkg/runtime/scheme.go:111"'],
        ['empty', { $review: {} }, 'failed calling webhook "mutating.reviews.example.com": received invalid webhook response: webhook response was absent'],
        ['v1beta1', { $review: { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { allowed: true } } }, 'failed calling webhook "mutating.reviews.example.com": failed to call webhook: converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion'],
        ['no-response', { $review: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' } }, 'failed calling webhook "mutating.reviews.example.com": received invalid webhook response: webhook response was absent'],
        [
          'array-root',
          patchAnswer([{ op: 'replace', path: '', value: [1] }]),
          'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
        ],
      ];
      for (const [name, answer, why] of cases) {
        answers = (asked, path) => (asked === name && path === '/mutating' ? answer : undefined);
        const refused = await request('POST', configMaps, { metadata: { name } });
        assert.equal(refused.status, 500, name);
        assert.equal(refused.body['message'], `Internal error occurred: ${why}`, name);
      }
      // A response without a kind: decoded as the review asked for, refused once its uid is found right.
      answers = (asked, path, review) => (asked === 'no-kind' && path === '/mutating' ? { $review: { response: { uid: review['uid'], allowed: true } } } : undefined);
      const noKind = await request('POST', configMaps, { metadata: { name: 'no-kind' } });
      assert.equal(noKind.body['message'], 'Internal error occurred: failed calling webhook "mutating.reviews.example.com": received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=');
      // An empty patch changes nothing; a validating webhook may not patch.
      answers = (asked, path) => (asked === 'empty' ? (path === '/mutating' ? patchAnswer([]) : patchAnswer([{ op: 'add', path: '/data', value: {} }])) : undefined);
      const validatingPatch = await request('POST', configMaps, { metadata: { name: 'empty' } });
      assert.equal(validatingPatch.body['message'], 'Internal error occurred: failed calling webhook "validating.reviews.example.com": received invalid webhook response: validating webhook may not return response.patch');

      answers = () => undefined;
      assert.equal((await request('POST', configMaps, { metadata: { name: 'deleted' } })).status, 201);
      answers = (asked, path) => (asked === 'deleted' && path === '/mutating' ? patchAnswer([{ op: 'add', path: '/data', value: {} }]) : undefined);
      const reviews = await reviewsOf(async () => {
        const refused = await request('DELETE', `${configMaps}/deleted`, { propagationPolicy: 'Background' });
        assert.equal(refused.status, 500);
        assert.equal(refused.body['message'], 'Internal error occurred: admission webhook "mutating.reviews.example.com" attempted to modify the object, which is not supported for this operation');
      });
      const review = JSON.parse(reviews.mutating[0] ?? '{}') as { request: Json };
      assert.equal(review.request['object'], null);
      assert.deepEqual(review.request['options'], { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' });
      assert.equal(((review.request['oldObject'] as Json).metadata ?? {})['name'], 'deleted');
    });

    test("an update is sent its body as decoded; a patch, the patched object with the write's new managedFields", async () => {
      answers = () => undefined;
      const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
      assert.equal((await request('POST', `${configMaps}?fieldManager=maker`, { metadata: { name: 'updated', labels: { a: '1' } } })).status, 201);
      const put = await reviewsOf(async () => assert.equal((await request('PUT', `${configMaps}/updated?fieldManager=maker`, { metadata: { name: 'updated', labels: { b: '1' } }, data: { k: 'v' }, binaryData: {} })).status, 200));
      const objectOf = (review: string | undefined): Json => (JSON.parse(review ?? '{}') as { request: { object: Json } }).request.object;
      assert.equal(
        JSON.stringify(objectOf(put.mutating[0])),
        `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"updated","namespace":"${namespace}","labels":{"b":"1"},"managedFields":[{"manager":"maker","operation":"Update","apiVersion":"v1","time":"~","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:b":{}}}}}]},"data":{"k":"v"}}`,
      );
      const patched = await reviewsOf(async () => assert.equal((await request('PATCH', `${configMaps}/updated?fieldManager=maker&dryRun=All`, { data: { k2: 'v2' } }, 'application/merge-patch+json')).status, 200));
      const review = JSON.parse(patched.mutating[0] ?? '{}') as { request: Json };
      assert.deepEqual(review.request['options'], { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], fieldManager: 'maker' });
      assert.equal(review.request['dryRun'], true);
      assert.equal(
        JSON.stringify(objectOf(patched.mutating[0]).metadata?.['managedFields']),
        '[{"manager":"maker","operation":"Update","apiVersion":"v1","time":"~","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:k":{},"f:k2":{}},"f:metadata":{"f:labels":{".":{},"f:b":{}}}}}]',
      );
    });
  });
}
