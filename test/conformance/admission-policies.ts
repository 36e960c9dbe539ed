// ValidatingAdmissionPolicies enforced as kube-apiserver enforces them: which requests a policy and its bindings
// cover, the params and variables its CEL sees, what a failed validation, an expression's error or a missing param
// answers (the words, the reason, the code), Warn bindings' warnings. kube-apiserver enforces a new binding once its
// informers have it: the suite waits for a sentinel policy, created last, before its tests.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, waitFor, type Backend, type Json } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';
import { crdManifest } from '../../src/testing/index.js';

const GROUP = 'policies.conformance.katalog.dev';
const POLICIES = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const BINDINGS = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

export function admissionPolicySuite(backend: () => Backend): void {
  describe('ValidatingAdmissionPolicy enforcement', () => {
    const namespace = unique('vap');
    const other = unique('vap-other');
    const id = namespace.replace(/^vap-/, '');
    const request = (method: string, path: string, body?: unknown, type?: string, accept?: string): Promise<RawAnswer> => raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body), type, accept);
    const configMaps = (ns = namespace): string => `/api/v1/namespaces/${ns}/configmaps`;
    /** Each policy covers the ConfigMaps labelled with its case (`p: <case>`), unless its spec says otherwise. */
    const covering = (label: string, operations = ['CREATE', 'UPDATE', 'DELETE']): Json => ({
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations, resources: ['configmaps'] }],
      objectSelector: { matchLabels: { p: label } },
    });
    const policyName = (label: string): string => `${label}-${id}`;
    const configMap = (name: string, label: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): Json => ({ metadata: { name, labels: { p: label, ...labels } }, ...(Object.keys(data).length === 0 ? {} : { data }) });
    /** The Status of a denial by `label`'s policy and binding. */
    const denial = (resource: string, name: string, label: string, message: string, reason = 'Invalid', code = 422, group?: string): Record<string, unknown> => {
      const text = `ValidatingAdmissionPolicy '${policyName(label)}' with binding '${policyName(label)}-b' denied request: ${message}`;
      return {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `${group === undefined ? resource : `${resource}.${group}`} "${name}" is forbidden: ${text}`,
        reason,
        details: { name, ...(group === undefined ? {} : { group }), kind: resource, causes: [{ message: text }] },
        code,
      };
    };
    const three = { a: '1', b: '2', c: '3' };

    before(async () => {
      for (const [name, labels] of [
        [namespace, { env: 'prod' }],
        [other, { env: 'dev' }],
      ] as const) {
        assert.equal((await request('POST', '/api/v1/namespaces', { metadata: { name, labels } })).status, 201);
      }
      assert.equal((await request('POST', configMaps(), { metadata: { name: 'limits' }, data: { max: '1' } })).status, 201);
      await backend().applyCrd(crdManifest({
        group: GROUP,
        kind: 'Widget',
        plural: 'widgets',
        versions: [{ name: 'v1', status: false, schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, when: { type: 'string', format: 'date-time' } } } } } }],
      }));
      await backend().applyCrd(crdManifest({
        group: GROUP,
        kind: 'Limit',
        plural: 'limits',
        scope: 'Cluster',
        versions: [{ name: 'v1', status: false, schema: { type: 'object', properties: { max: { type: 'integer' } } } }],
      }));
      for (const [name, max] of [
        [`small-${id}`, 2],
        [`big-${id}`, 10],
      ] as const) {
        const limit = { apiVersion: `${GROUP}/v1`, kind: 'Limit', metadata: { name, labels: { tier: id } }, max };
        await waitFor('the Limit kind to be served', async () => (await request('POST', `/apis/${GROUP}/v1/limits`, limit)).status === 201);
      }
      const widgets = { resourceRules: [{ apiGroups: [GROUP], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'] }] };
      const cases: [string, Json, Json?][] = [
        ['plain', { matchConstraints: covering('plain'), validations: [{ expression: 'size(object.data) < 3' }] }],
        ['message', { matchConstraints: covering('message'), validations: [{ expression: 'true' }, { expression: 'size(object.data) < 2', message: ' too many keys ' }, { expression: 'false', message: 'third' }] }],
        ['forbidden', { matchConstraints: covering('forbidden'), validations: [{ expression: 'size(object.data) < 2', messageExpression: "'has ' + string(size(object.data)) + ' keys in ' + namespaceObject.metadata.name + ' by ' + request.operation", reason: 'Forbidden' }] }],
        ['multiline', { matchConstraints: covering('multiline'), validations: [{ expression: 'false', messageExpression: "'a\\nb'", message: 'one line' }] }],
        ['large', { matchConstraints: covering('large'), validations: [{ expression: 'false', reason: 'RequestEntityTooLarge', message: 'big' }] }, { validationActions: ['Deny', 'Audit'] }],
        ['warn', { matchConstraints: covering('warn'), validations: [{ expression: 'size(object.data) < 2' }] }, { validationActions: ['Warn', 'Audit'] }],
        ['error', { matchConstraints: covering('error'), validations: [{ expression: "object.data.missing == 'x'" }] }],
        ['ignored', { matchConstraints: covering('ignored'), failurePolicy: 'Ignore', validations: [{ expression: "object.data.missing == 'x'" }] }],
        ['conditions', { matchConstraints: covering('conditions'), matchConditions: [{ name: 'not-exempt', expression: "!('exempt' in object.metadata.labels)" }], validations: [{ expression: 'false', message: 'denied' }] }],
        ['condition-errors', { matchConstraints: covering('condition-errors'), matchConditions: [{ name: 'a', expression: "object.data.nope == 'x'" }, { name: 'b', expression: "object.data.nope2 == 'x'" }], validations: [{ expression: 'true' }] }],
        ['variables', { matchConstraints: covering('variables'), variables: [{ name: 'keys', expression: 'size(object.data)' }, { name: 'many', expression: 'variables.keys > 1' }], validations: [{ expression: '!variables.many', messageExpression: "'keys: ' + string(variables.keys)" }] }],
        ['variable-error', { matchConstraints: covering('variable-error'), variables: [{ name: 'a', expression: 'object.data.nope' }, { name: 'b', expression: "variables.a + 'x'" }], validations: [{ expression: "variables.b == 'yx'" }] }],
        ['delete', { matchConstraints: covering('delete'), validations: [{ expression: "request.operation != 'DELETE' || oldObject.metadata.name != 'keep'", messageExpression: "'keep stays: object is ' + (object == null ? 'null' : 'set')" }] }],
        ['params', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: covering('params'), validations: [{ expression: 'size(object.data) <= int(params.data.max)', messageExpression: "'at most ' + params.data.max" }] }, { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }],
        ['allow', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: covering('allow'), validations: [{ expression: 'false' }] }, { paramRef: { name: 'absent', namespace, parameterNotFoundAction: 'Allow' } }],
        ['unknown-kind', { paramKind: { apiVersion: 'nope.example.com/v1', kind: 'Nope' }, matchConstraints: covering('unknown-kind'), validations: [{ expression: 'true' }] }, { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }],
        ['scoped', { matchConstraints: covering('scoped'), validations: [{ expression: 'false', message: 'prod only' }] }, { matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } } } }],
        ['named', { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], resourceNames: [`one-${id}`, `two-${id}`] }], excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], resourceNames: [`two-${id}`] }] }, validations: [{ expression: 'false', message: 'named' }] }],
        ['namespaces', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['namespaces'] }], namespaceSelector: { matchLabels: { p: `namespaces-${id}` } } }, validations: [{ expression: 'namespaceObject == null', message: 'no namespace object' }] }, { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }],
        ['namespace-request', { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['namespaces'] }], objectSelector: { matchLabels: { p: `namespace-request-${id}` } } }, validations: [{ expression: 'false', messageExpression: "'request.namespace is ' + request.namespace" }] }],
        ['widget-size', { paramKind: { apiVersion: `${GROUP}/v1`, kind: 'Limit' }, matchConstraints: widgets, validations: [{ expression: "!object.metadata.name.startsWith('sized') || object.spec.size <= params.max", messageExpression: "'size ' + string(object.spec.size) + ' over ' + string(params.max) + ' of ' + params.kind" }] }, { paramRef: { selector: { matchLabels: { tier: id } }, parameterNotFoundAction: 'Deny' } }],
        ['widget-update', { matchConstraints: { resourceRules: [{ apiGroups: [GROUP], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['widgets'] }] }, validations: [{ expression: 'object.spec.size >= oldObject.spec.size', messageExpression: "'shrinks from ' + string(oldObject.spec.size) + ': ' + request.kind.kind + ' ' + request.resource.resource" }] }],
        ['widget-time', { matchConstraints: widgets, validations: [{ expression: "!has(object.spec.when) || object.spec.when < timestamp('2030-01-01T00:00:00Z')" }] }],
        ['own-kinds', { matchConstraints: { resourceRules: [{ apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }], objectSelector: { matchLabels: { p: `own-kinds-${id}` } } }, validations: [{ expression: 'false', message: 'judged' }] }],
        // Created last: once kube-apiserver enforces it, its informers have every policy and binding above.
        ['sentinel', { matchConstraints: covering('sentinel'), validations: [{ expression: 'false' }] }],
      ];
      for (const [label, spec, binding] of cases) {
        const name = policyName(label);
        const created = await request('POST', POLICIES, { metadata: { name }, spec });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const bound = await request('POST', BINDINGS, { metadata: { name: `${name}-b` }, spec: { policyName: name, validationActions: ['Deny'], ...binding } });
        assert.equal(bound.status, 201, JSON.stringify(bound.body));
      }
      await waitFor('the policies to be enforced', async () => (await request('POST', `${configMaps()}?dryRun=All`, configMap('sentinel', 'sentinel'))).status === 422);
    });

    test('a failed validation answers the policy, the binding and the message: failed expression, message, messageExpression, reason', async () => {
      const plain = await request('POST', configMaps(), configMap('plain', 'plain', three));
      assert.deepEqual([plain.status, plain.body], [422, denial('configmaps', 'plain', 'plain', 'failed expression: size(object.data) < 3')]);
      // The name in the answer is the generated one, and a dry run is denied as the write would be.
      const generated = await request('POST', `${configMaps()}?dryRun=All`, { metadata: { generateName: 'gen-', labels: { p: 'plain' } }, data: three });
      const name = String((generated.body['details'] as Json | undefined)?.['name'] ?? '');
      assert.match(name, /^gen-[a-z0-9]{5}$/);
      assert.deepEqual(generated.body, denial('configmaps', name, 'plain', 'failed expression: size(object.data) < 3'));
      const message = await request('POST', configMaps(), configMap('message', 'message', three));
      assert.deepEqual(message.body, denial('configmaps', 'message', 'message', 'too many keys'));
      const forbidden = await request('POST', configMaps(), configMap('forbidden', 'forbidden', three));
      assert.deepEqual([forbidden.status, forbidden.body], [403, denial('configmaps', 'forbidden', 'forbidden', `has 3 keys in ${namespace} by CREATE`, 'Forbidden', 403)]);
      const multiline = await request('POST', configMaps(), configMap('multiline', 'multiline'));
      assert.deepEqual(multiline.body, denial('configmaps', 'multiline', 'multiline', 'one line'));
      const large = await request('POST', configMaps(), configMap('large', 'large'));
      assert.deepEqual([large.status, large.body], [413, denial('configmaps', 'large', 'large', 'big', 'RequestEntityTooLarge', 413)]);
      assert.equal((await request('POST', configMaps(), configMap('fine', 'plain', { a: '1' }))).status, 201);
    });

    test('a Warn binding lets the write through with a warning', async () => {
      const answer = await request('POST', configMaps(), configMap('warned', 'warn', three));
      assert.equal(answer.status, 201);
      assert.deepEqual(answer.warnings, [`Validation failed for ValidatingAdmissionPolicy '${policyName('warn')}' with binding '${policyName('warn')}-b': failed expression: size(object.data) < 2`]);
    });

    test("an expression's error denies under Fail and is passed over under Ignore; matchConditions skip or fail", async () => {
      const error = await request('POST', configMaps(), configMap('error', 'error', three));
      assert.deepEqual(error.body, denial('configmaps', 'error', 'error', "expression 'object.data.missing == 'x'' resulted in error: no such key: missing"));
      // A ConfigMap without data has no `data` key for CEL, as Go's encoder leaves the empty map out.
      const empty = await request('POST', configMaps(), configMap('empty', 'plain'));
      assert.deepEqual(empty.body, denial('configmaps', 'empty', 'plain', "expression 'size(object.data) < 3' resulted in error: no such key: data"));
      assert.equal((await request('POST', configMaps(), configMap('ignored', 'ignored', three))).status, 201);
      const conditioned = await request('POST', configMaps(), configMap('conditioned', 'conditions'));
      assert.deepEqual(conditioned.body, denial('configmaps', 'conditioned', 'conditions', 'denied'));
      assert.equal((await request('POST', configMaps(), configMap('exempt', 'conditions', {}, { exempt: 'yes' }))).status, 201);
      const failing = await request('POST', configMaps(), configMap('failing', 'condition-errors', { a: '1' }));
      const errors = "[expression 'object.data.nope == 'x'' resulted in error: no such key: nope, expression 'object.data.nope2 == 'x'' resulted in error: no such key: nope2]";
      assert.deepEqual(failing.body, denial('configmaps', 'failing', 'condition-errors', errors));
    });

    test('variables are evaluated when read, and their errors named as composition names them', async () => {
      const counted = await request('POST', configMaps(), configMap('counted', 'variables', three));
      assert.deepEqual(counted.body, denial('configmaps', 'counted', 'variables', 'keys: 3'));
      assert.equal((await request('POST', configMaps(), configMap('few', 'variables', { a: '1' }))).status, 201);
      const failed = await request('POST', configMaps(), configMap('failed', 'variable-error', { a: '1' }));
      const message = `expression 'variables.b == 'yx'' resulted in error: composited variable "b" fails to evaluate: composited variable "a" fails to evaluate: no such key: nope`;
      assert.deepEqual(failed.body, denial('configmaps', 'failed', 'variable-error', message));
    });

    test('a DELETE is judged on its old object, with a null object', async () => {
      assert.equal((await request('POST', configMaps(), configMap('keep', 'delete'))).status, 201);
      const refused = await request('DELETE', `${configMaps()}/keep`);
      assert.deepEqual(refused.body, denial('configmaps', 'keep', 'delete', 'keep stays: object is null'));
      assert.equal((await request('POST', configMaps(), configMap('go', 'delete'))).status, 201);
      assert.equal((await request('DELETE', `${configMaps()}/go`)).status, 200);
    });

    test("params: by name in the request's namespace, none found under Deny or Allow, a paramKind not served", async () => {
      assert.equal((await request('POST', configMaps(), configMap('one-key', 'params', { a: '1' }))).status, 201);
      const over = await request('POST', configMaps(), configMap('two-keys', 'params', { a: '1', b: '2' }));
      assert.deepEqual(over.body, denial('configmaps', 'two-keys', 'params', 'at most 1'));
      // In another namespace the ref (without a namespace of its own) names a ConfigMap that is not there.
      const missing = await request('POST', configMaps(other), configMap('elsewhere', 'params', { a: '1' }));
      assert.deepEqual(missing.body, denial('configmaps', 'elsewhere', 'params', 'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction'));
      assert.equal((await request('POST', configMaps(), configMap('allowed', 'allow'))).status, 201);
      const unknown = await request('POST', configMaps(), configMap('unknown', 'unknown-kind'));
      const text = `ValidatingAdmissionPolicy '${policyName('unknown-kind')}' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'nope.example.com/v1, Kind=Nope'`;
      assert.deepEqual(unknown.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `configmaps "unknown" is forbidden: ${text}`, reason: 'Invalid', details: { name: 'unknown', kind: 'configmaps', causes: [{ message: text }] }, code: 422 });
    });

    test('matching: a binding’s matchResources, resourceNames and excludeResourceRules, a Namespace by its own labels', async () => {
      const prod = await request('POST', configMaps(), configMap('scoped', 'scoped'));
      assert.deepEqual(prod.body, denial('configmaps', 'scoped', 'scoped', 'prod only'));
      assert.equal((await request('POST', configMaps(other), configMap('scoped', 'scoped'))).status, 201);
      const one = await request('POST', configMaps(), { metadata: { name: `one-${id}` } });
      assert.deepEqual(one.body, denial('configmaps', `one-${id}`, 'named', 'named'));
      assert.equal((await request('POST', configMaps(), { metadata: { name: `two-${id}` } })).status, 201);
      // A Namespace's request has the Namespace's own name as its namespace: the params are looked for there.
      const created = await request('POST', '/api/v1/namespaces', { metadata: { name: `ns-${id}`, labels: { p: `namespaces-${id}` } } });
      assert.deepEqual(created.body, denial('namespaces', `ns-${id}`, 'namespaces', 'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction'));
      // A request on a Namespace has the Namespace's own name as its namespace, in `request` too.
      const own = await request('POST', '/api/v1/namespaces', { metadata: { name: `nsreq-${id}`, labels: { p: `namespace-request-${id}` } } });
      assert.deepEqual(own.body, denial('namespaces', `nsreq-${id}`, 'namespace-request', `request.namespace is nsreq-${id}`));
      // The namespaceSelector is asked of the Namespace's own labels: one without them is not covered.
      assert.equal((await request('POST', '/api/v1/namespaces', { metadata: { name: `ns-free-${id}` } })).status, 201);
    });

    test('custom resources: params of a custom kind by selector, each one judged; oldObject and request on update; unstructured values', async () => {
      const widgets = `/apis/${GROUP}/v1/namespaces/${namespace}/widgets`;
      const widget = (name: string, spec: Json): Json => ({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name }, spec });
      assert.equal((await request('POST', widgets, widget('sized-1', { size: 1 }))).status, 201);
      const five = await request('POST', widgets, widget('sized-5', { size: 5 }));
      assert.deepEqual(five.body, denial('widgets', 'sized-5', 'widget-size', 'size 5 over 2 of Limit', 'Invalid', 422, GROUP));
      const shrunk = await request('PATCH', `${widgets}/sized-1`, { spec: { size: 0 } }, 'application/merge-patch+json');
      assert.deepEqual(shrunk.body, denial('widgets', 'sized-1', 'widget-update', 'shrinks from 1: Widget widgets', 'Invalid', 422, GROUP));
      // A date-time field is a string to a policy (the object is unstructured), not a timestamp as in a CRD's rules.
      const timed = await request('POST', widgets, widget('timed', { when: '2031-01-01T00:00:00Z' }));
      const message = "expression '!has(object.spec.when) || object.spec.when < timestamp('2030-01-01T00:00:00Z')' resulted in error: no such overload";
      assert.deepEqual(timed.body, denial('widgets', 'timed', 'widget-time', message, 'Invalid', 422, GROUP));
    });

    test('kubectl get columns: validations and paramKind of a policy, policyName and paramRef of a binding, webhooks of a configuration', async () => {
      const table = async (path: string): Promise<unknown> => {
        const answer = await request('GET', path, undefined, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io');
        const columns = (answer.body['columnDefinitions'] as Json[]).map((c) => [c['name'], c['type'], c['format'], c['priority'], c['description']]);
        // The last cell is the age, which differs between servers.
        const rows = (answer.body['rows'] as Json[]).map((row) => (row['cells'] as unknown[]).slice(0, -1));
        return { columns, rows };
      };
      const webhooks = policyName('webhooks');
      assert.equal((await request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { metadata: { name: webhooks }, webhooks: [] })).status, 201);
      const tables = [
        await table(`${POLICIES}/${policyName('params')}`),
        await table(`${POLICIES}/${policyName('message')}`),
        await table(`${BINDINGS}/${policyName('params')}-b`),
        await table(`${BINDINGS}/${policyName('allow')}-b`),
        await table(`${BINDINGS}/${policyName('widget-size')}-b`),
        await table(`${BINDINGS}/${policyName('plain')}-b`),
        await table(`/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${webhooks}`),
      ];
      const rows = tables.map((t) => (t as { rows: unknown[][] }).rows[0]);
      assert.deepEqual(rows, [
        [policyName('params'), 1, 'v1/ConfigMap'],
        [policyName('message'), 3, '<unset>'],
        [`${policyName('params')}-b`, policyName('params'), '*/limits'],
        [`${policyName('allow')}-b`, policyName('allow'), `${namespace}/absent`],
        [`${policyName('widget-size')}-b`, policyName('widget-size'), `&LabelSelector{MatchLabels:map[string]string{tier: ${id},},MatchExpressions:[]LabelSelectorRequirement{},}`],
        [`${policyName('plain')}-b`, policyName('plain'), '<unset>'],
        [webhooks, 0],
      ]);
      const columns = tables.map((t) => (t as { columns: unknown[][] }).columns.map((c) => c[0]));
      assert.deepEqual(columns, [...Array<string[]>(2).fill(['Name', 'Validations', 'ParamKind', 'Age']), ...Array<string[]>(4).fill(['Name', 'PolicyName', 'ParamRef', 'Age']), ['Name', 'Webhooks', 'Age']]);
      assert.deepEqual((tables[0] as { columns: unknown[][] }).columns[1], ['Validations', 'integer', '', 0, 'Validations indicates the number of validation rules defined in this configuration']);
    });

    test('policies and their bindings are not judged by policies; webhook configurations are', async () => {
      const labels = { p: `own-kinds-${id}` };
      const name = policyName('unjudged');
      const created = await request('POST', POLICIES, { metadata: { name, labels }, spec: { matchConstraints: covering('unjudged'), validations: [{ expression: 'true' }] } });
      assert.equal(created.status, 201);
      assert.equal((await request('POST', BINDINGS, { metadata: { name: `${name}-b`, labels }, spec: { policyName: name, validationActions: ['Deny'] } })).status, 201);
      const judged = await request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { metadata: { name: `judged-${id}`, labels }, webhooks: [] });
      assert.deepEqual(judged.body, denial('validatingwebhookconfigurations', `judged-${id}`, 'own-kinds', 'judged', 'Invalid', 422, 'admissionregistration.k8s.io'));
    });
  });
}
