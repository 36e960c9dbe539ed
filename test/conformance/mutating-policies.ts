// MutatingAdmissionPolicies enforced as kube-apiserver enforces them: what an ApplyConfiguration merges and a
// JSONPatch changes, what the CEL sees (params, variables, the request, the Namespace), what an error answers under
// each failure policy, the schema of a custom resource (list types, atomic fields, field types), the compilation of
// a mutation when the policy is written, and the reinvocation after a mutating webhook. kube-apiserver enforces a
// new binding once its informers have it (and, for a custom resource, once it has the CRD's OpenAPI): the suite waits
// for sentinel writes before its tests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { webhookServer, type FakeWebhook } from '../support/fake-webhook.js';
import { unique, waitFor, type Backend, type Json } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';
import { crdManifest } from '../../src/testing/index.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'mutations.conformance.katalog.dev';
const POLICIES = '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies';
const BINDINGS = '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings';

const apply = (expression: string): Json => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jsonPatch = (expression: string): Json => ({ patchType: 'JSONPatch', jsonPatch: { expression } });

export function mutatingPolicySuite(backend: () => Backend): void {
  describe('MutatingAdmissionPolicy enforcement', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
    let webhook: FakeWebhook;
    const namespace = unique('map');
    const id = namespace.replace(/^map-/, '');
    const request = async (method: string, path: string, body?: unknown): Promise<RawAnswer & { readonly body: Json }> => {
      const answer = await raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body));
      return { ...answer, body: answer.body as Json };
    };
    const configMaps = `/api/v1/namespaces/${namespace}/configmaps`;
    const widgets = `/apis/${GROUP}/v1/namespaces/${namespace}/widgets`;
    const name = (label: string): string => `${label}-${id}`;
    /** Each policy covers the objects of the suite's namespace labelled with its case (`m: <case>`). */
    const covering = (label: string, resource = 'configmaps', group = ''): Json => ({
      resourceRules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: [resource] }],
      namespaceSelector: { matchLabels: { suite: id } },
      objectSelector: { matchLabels: { m: label } },
    });
    const configMap = (objectName: string, label: string, data: Record<string, string> = { a: 'yes' }): Json => ({ metadata: { name: objectName, labels: { m: label } }, data });
    const widget = (objectName: string, label: string): Json => ({
      apiVersion: `${GROUP}/v1`,
      kind: 'Widget',
      metadata: { name: objectName, labels: { m: label } },
      spec: { keyed: [{ name: 'a', v: '1' }, { name: 'b', v: '2' }], atomic: ['p'], set: ['y'], amap: { b: 'q' }, note: 'n' },
    });
    /** The 403 of a policy error: its message is the policy's alone, its reason Invalid. */
    const refusal = (objectName: string, label: string, message: string, group?: string, kind = 'configmaps'): Record<string, unknown> => {
      const text = `policy '${name(label)}' with binding '${name(label)}-b' denied request: ${message}`;
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text, reason: 'Invalid', details: { name: objectName, ...(group === undefined ? {} : { group }), kind, causes: [{ message: text }] }, code: 403 };
    };

    before(async () => {
      const tls = await selfSignedCertificate();
      webhook = await webhookServer(tls);
      // The webhook labels what the reinvocation cases write, after the policies ran.
      webhook.answer = (review) => {
        const labels = ((review['object'] as Json | null)?.metadata?.['labels'] ?? {}) as Record<string, string>;
        if (labels['m'] !== 'if-needed' && labels['m'] !== 'never') return { allowed: true };
        const patch = [{ op: 'add', path: '/metadata/labels/webhook', value: 'was-here' }];
        return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
      };
      assert.equal((await request('POST', '/api/v1/namespaces', { metadata: { name: namespace, labels: { suite: id, team: 'blue' } } })).status, 201);
      assert.equal((await request('POST', configMaps, { metadata: { name: 'settings' }, data: { greeting: 'hi' } })).status, 201);
      const item = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, v: { type: 'string' } } };
      await backend().applyCrd(crdManifest({
        group: GROUP,
        kind: 'Widget',
        plural: 'widgets',
        versions: [{ name: 'v1', status: false, schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                keyed: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: item },
                atomic: { type: 'array', items: { type: 'string' } },
                set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                amap: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string' }, b: { type: 'string' } } },
                size: { type: 'integer' },
                note: { type: 'string' },
              },
            },
          },
        } }],
      }));
      const reinvoked = "Object{metadata: Object.metadata{annotations: {'saw': 'webhook' in object.metadata.labels ? object.metadata.labels.webhook : 'nothing'}}}";
      const cases: [string, Json, Json?][] = [
        ['apply', { matchConstraints: covering('apply'), mutations: [apply("Object{data: {'added': 'yes', 'team': namespaceObject.metadata.labels.team, 'op': request.operation}, metadata: Object.metadata{labels: {'mutated': 'true'}}}")] }],
        ['patch', { matchConstraints: covering('patch'), mutations: [jsonPatch("[JSONPatch{op: 'add', path: '/data/name', value: object.metadata.name}, JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('example.com/x'), value: 'v'}]")] }],
        ['ordered', { matchConstraints: covering('ordered'), mutations: [apply("Object{data: {'first': '1'}}"), jsonPatch("[JSONPatch{op: 'add', path: '/data/second', value: object.data.first + '2'}]")] }],
        ['tested', { matchConstraints: covering('tested'), mutations: [jsonPatch("[JSONPatch{op: 'test', path: '/data/a', value: 'no'}, JSONPatch{op: 'add', path: '/data/b', value: 'set'}]")] }],
        ['params', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: covering('params'), variables: [{ name: 'twice', expression: 'params.data.greeting + params.data.greeting' }], mutations: [apply("Object{data: {'greeting': params.data.greeting, 'twice': variables.twice}}")] }, { paramRef: { name: 'settings', namespace, parameterNotFoundAction: 'Deny' } }],
        ['conditions', { matchConstraints: covering('conditions'), matchConditions: [{ name: 'only-chosen', expression: "object.metadata.name.startsWith('chosen')" }], mutations: [apply("Object{data: {'chosen': 'yes'}}")] }],
        ['mismatch', { matchConstraints: covering('mismatch'), mutations: [apply("Object{metadata: Object.spec{labels: {'x': 'y'}}}")] }],
        ['failing', { matchConstraints: covering('failing'), mutations: [apply("Object{data: {'x': object.data.missing}}")] }],
        ['ignored', { matchConstraints: covering('ignored'), failurePolicy: 'Ignore', mutations: [apply("Object{data: {'x': object.data.missing}}")] }],
        ['bad-op', { matchConstraints: covering('bad-op'), mutations: [jsonPatch("[JSONPatch{op: 'frob', path: '/data'}]")] }],
        ['undeclared', { matchConstraints: covering('undeclared'), mutations: [apply("Object{spec: Object.spec{replicas: 1}}")] }],
        ['strict', { matchConstraints: covering('strict'), mutations: [jsonPatch("[JSONPatch{op: 'add', path: '/spec', value: {'x': 'y'}}]")] }],
        ['if-needed', { matchConstraints: covering('if-needed'), reinvocationPolicy: 'IfNeeded', mutations: [apply(reinvoked)] }],
        ['never', { matchConstraints: covering('never'), mutations: [apply(reinvoked)] }],
        ['merged', { matchConstraints: covering('merged', 'widgets', GROUP), mutations: [apply("Object{spec: Object.spec{keyed: [Object.spec.keyed{name: 'b', v: 'new'}], set: ['z'], size: 3}}")] }],
        ['atomic', { matchConstraints: covering('atomic', 'widgets', GROUP), mutations: [apply("Object{spec: Object.spec{atomic: ['x']}}")] }],
        ['atomic-map', { matchConstraints: covering('atomic-map', 'widgets', GROUP), mutations: [apply("Object{spec: Object.spec{amap: Object.spec.amap{a: 'x'}}}")] }],
        ['typed', { matchConstraints: covering('typed', 'widgets', GROUP), mutations: [apply("Object{spec: Object.spec{size: 'big'}}")] }],
        ['unknown', { matchConstraints: covering('unknown', 'widgets', GROUP), mutations: [apply("Object{spec: Object.spec{bogus: 'x'}}")] }],
        ['widget-patch', { matchConstraints: covering('widget-patch', 'widgets', GROUP), mutations: [jsonPatch("[JSONPatch{op: 'add', path: '/spec/bogus', value: 'x'}, JSONPatch{op: 'add', path: '/spec/size', value: 4}]")] }],
        // Created last: once kube-apiserver enforces it, its informers have every policy and binding above.
        ['sentinel', { matchConstraints: covering('sentinel'), mutations: [apply("Object{data: {'sentinel': 'seen'}}")] }],
      ];
      for (const [label, spec, binding] of cases) {
        const created = await request('POST', POLICIES, { metadata: { name: name(label) }, spec: { reinvocationPolicy: 'Never', ...spec } });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const bound = await request('POST', BINDINGS, { metadata: { name: `${name(label)}-b` }, spec: { policyName: name(label), ...binding } });
        assert.equal(bound.status, 201, JSON.stringify(bound.body));
      }
      const configuration = {
        metadata: { name: `labeller-${id}` },
        webhooks: [
          {
            name: `labeller.${GROUP}`,
            clientConfig: { url: `${webhook.url}/mutating`, caBundle: Buffer.from(tls.cert).toString('base64') },
            rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
            namespaceSelector: { matchLabels: { suite: id } },
            objectSelector: { matchExpressions: [{ key: 'm', operator: 'In', values: ['if-needed', 'never', 'sentinel'] }] },
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
          },
        ],
      };
      assert.equal((await request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', configuration)).status, 201);
      await waitFor('the policies and the webhook to be in force', async () => {
        const answer = await request('POST', `${configMaps}?dryRun=All`, configMap('sentinel', 'sentinel'));
        return answer.status === 201 && answer.body.data?.['sentinel'] === 'seen' && webhook.seen.length > 0;
      }, 60_000);
      // kube-apiserver applies a policy to a custom resource once it has the CRD's OpenAPI (503 before).
      await waitFor('the Widget kind to be mutated', async () => (await request('POST', `${widgets}?dryRun=All`, widget('sentinel', 'merged'))).body.spec?.['size'] === 3, 60_000);
    });

    after(async () => {
      await webhook.close();
    });

    test('an ApplyConfiguration merges into the object on create and update, dry run too; what it adds is owned by no manager', async () => {
      const created = await request('POST', configMaps, configMap('applied', 'apply'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.data, { a: 'yes', added: 'yes', team: 'blue', op: 'CREATE' });
      assert.deepEqual(created.body.metadata?.['labels'], { m: 'apply', mutated: 'true' });
      const [entry] = created.body.metadata?.['managedFields'] as Json[];
      assert.deepEqual(entry?.['fieldsV1'], { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:m': {} } } });
      const updated = await request('PUT', `${configMaps}/applied`, { metadata: { name: 'applied', labels: { m: 'apply' }, resourceVersion: created.body.metadata?.['resourceVersion'] }, data: { own: '2' } });
      assert.deepEqual(updated.body.data, { added: 'yes', team: 'blue', op: 'UPDATE', own: '2' });
      const dry = await request('POST', `${configMaps}?dryRun=All`, configMap('dry', 'apply', {}));
      assert.deepEqual(dry.body.data, { added: 'yes', team: 'blue', op: 'CREATE' });
    });

    test("a JSONPatch's operations apply in order (jsonpatch.escapeKey in a path), mutations one after the other; a failed test changes nothing", async () => {
      const patched = await request('POST', configMaps, configMap('patched', 'patch'));
      assert.deepEqual([patched.status, patched.body.data, patched.body.metadata?.['labels']], [201, { a: 'yes', name: 'patched' }, { m: 'patch', 'example.com/x': 'v' }]);
      const ordered = await request('POST', configMaps, configMap('ordered', 'ordered'));
      assert.deepEqual(ordered.body.data, { a: 'yes', first: '1', second: '12' });
      const tested = await request('POST', configMaps, configMap('tested', 'tested'));
      assert.deepEqual([tested.status, tested.body.data], [201, { a: 'yes' }]);
    });

    test("params, variables and matchConditions: the param's data, a variable over it, a condition that passes the policy over", async () => {
      const withParams = await request('POST', configMaps, configMap('with-params', 'params'));
      assert.deepEqual(withParams.body.data, { a: 'yes', greeting: 'hi', twice: 'hihi' });
      assert.deepEqual((await request('POST', configMaps, configMap('chosen-one', 'conditions'))).body.data, { a: 'yes', chosen: 'yes' });
      assert.deepEqual((await request('POST', configMaps, configMap('passed-over', 'conditions'))).body.data, { a: 'yes' });
    });

    test("errors refuse the write under Fail (a 403 in the policy's words) and are passed over under Ignore; an undecodable result is a 500", async () => {
      const mismatch = await request('POST', configMaps, configMap('mismatch', 'mismatch'));
      const expected = 'type mismatch: unexpected type name "Object.spec", expected "Object.metadata", which matches field name path from root Object type';
      assert.deepEqual([mismatch.status, mismatch.body], [403, refusal('mismatch', 'mismatch', expected)]);
      const failing = await request('POST', configMaps, configMap('failing', 'failing'));
      assert.deepEqual(failing.body, refusal('failing', 'failing', "expression 'Object{data: {'x': object.data.missing}}' resulted in error: no such key: missing"));
      const ignored = await request('POST', configMaps, configMap('ignored', 'ignored'));
      assert.deepEqual([ignored.status, ignored.body.data], [201, { a: 'yes' }]);
      assert.deepEqual((await request('POST', configMaps, configMap('bad-op', 'bad-op'))).body, refusal('bad-op', 'bad-op', 'JSON Patch: Unexpected kind: frob'));
      const undeclared = await request('POST', configMaps, configMap('undeclared', 'undeclared'));
      assert.deepEqual(undeclared.body, refusal('undeclared', 'undeclared', 'error applying patch: failed to convert patch object to typed object: .spec: field not declared in schema'));
      const strict = await request('POST', configMaps, configMap('strict', 'strict'));
      assert.deepEqual([strict.status, strict.body.message], [500, 'Internal error occurred: strict decoding error: unknown field "spec"']);
      assert.equal((await request('GET', `${configMaps}/strict`)).status, 404);
    });

    test("a custom resource's schema: lists merge by their type, atomic ones are refused, field types are checked; a JSONPatch's unknown field is pruned", async () => {
      const merged = await request('POST', widgets, widget('merged', 'merged'));
      assert.equal(merged.status, 201, JSON.stringify(merged.body));
      assert.deepEqual(merged.body.spec, { amap: { b: 'q' }, atomic: ['p'], keyed: [{ name: 'a', v: '1' }, { name: 'b', v: 'new' }], note: 'n', set: ['y', 'z'], size: 3 });
      const atomic = await request('POST', widgets, widget('atomic', 'atomic'));
      assert.deepEqual(atomic.body, refusal('atomic', 'atomic', 'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.atomic', GROUP, 'widgets'));
      const atomicMap = await request('POST', widgets, widget('atomic-map', 'atomic-map'));
      assert.deepEqual(atomicMap.body, refusal('atomic-map', 'atomic-map', 'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.amap', GROUP, 'widgets'));
      const typed = await request('POST', widgets, widget('typed', 'typed'));
      assert.deepEqual(typed.body, refusal('typed', 'typed', 'error applying patch: failed to convert patch object to typed object: .spec.size: expected numeric (int or float), got string', GROUP, 'widgets'));
      const unknown = await request('POST', widgets, widget('unknown', 'unknown'));
      assert.deepEqual(unknown.body, refusal('unknown', 'unknown', 'error applying patch: failed to convert patch object to typed object: .spec.bogus: field not declared in schema', GROUP, 'widgets'));
      const patched = await request('POST', widgets, widget('widget-patch', 'widget-patch'));
      assert.deepEqual([patched.status, patched.body.spec?.['size'], 'bogus' in (patched.body.spec ?? {})], [201, 4, false]);
    });

    test('a policy with reinvocationPolicy IfNeeded runs again after a webhook changed the object; Never does not', async () => {
      const ifNeeded = await request('POST', configMaps, configMap('if-needed', 'if-needed'));
      assert.deepEqual([ifNeeded.body.metadata?.['labels'], ifNeeded.body.metadata?.['annotations']], [{ m: 'if-needed', webhook: 'was-here' }, { saw: 'was-here' }]);
      const never = await request('POST', configMaps, configMap('never', 'never'));
      assert.deepEqual([never.body.metadata?.['labels'], never.body.metadata?.['annotations']], [{ m: 'never', webhook: 'was-here' }, { saw: 'nothing' }]);
    });

    test("a mutation's expression is compiled when the policy is written: its result's type, the types it constructs, a JSONPatch's fields", async () => {
      const refused = async (expression: Json): Promise<string> => {
        const answer = await request('POST', POLICIES, { metadata: { name: name('refused') }, spec: { matchConstraints: covering('refused'), reinvocationPolicy: 'Never', mutations: [expression] } });
        assert.equal(answer.status, 422, JSON.stringify(answer.body));
        return String(((answer.body['details'] as Json)['causes'] as Json[])[0]?.['message']);
      };
      assert.equal(await refused(apply('object.data')), 'Invalid value: "object.data": must evaluate to Object but got dyn');
      assert.equal(await refused(apply('Object.spec{}')), 'Invalid value: "Object.spec{}": must evaluate to Object but got Object.spec');
      assert.equal(await refused(jsonPatch('[]')), 'Invalid value: "[]": must evaluate to list(JSONPatch) but got list(dyn)');
      assert.equal(await refused(jsonPatch("[{'op': 'add'}]")), 'Invalid value: "[{\'op\': \'add\'}]": must evaluate to list(JSONPatch) but got list(map(string, string))');
      assert.equal(await refused(apply('Foo{}')), "Invalid value: \"Foo{}\": compilation failed: ERROR: <input>:1:4: undeclared reference to 'Foo' (in container '')\n | Foo{}\n | ...^");
      const badField = "[JSONPatch{op: 1, path: '/data'}]";
      assert.equal(await refused(jsonPatch(badField)), `Invalid value: "${badField}": compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n | ${badField}\n | .............^`);
      // Accepted: a conditional with an empty list, a filter over JSONPatch values.
      for (const expression of ["object.data.size() > 0 ? [JSONPatch{op: 'remove', path: '/data/a'}] : []", "[JSONPatch{op: 'add', path: '/data', value: {}}].filter(p, p.op == 'add')"]) {
        const answer = await request('POST', `${POLICIES}?dryRun=All`, { metadata: { name: name('accepted') }, spec: { matchConstraints: covering('accepted'), reinvocationPolicy: 'Never', mutations: [jsonPatch(expression)] } });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
      }
    });
  });
}
