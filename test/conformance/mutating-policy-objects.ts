// MutatingAdmissionPolicies and their bindings as objects, as kube-apiserver 1.37.2 stores, lists, watches and
// refuses them (every expectation probed on it: temp/probes/map-objects.ts and its output): a policy's defaults
// (failurePolicy Fail, its matchConstraints' matchPolicy Equivalent and empty selectors, each rule's scope `*`; no
// status) in Go's field order, and a binding's matchResources'; the 422s of kube's ValidateMutatingAdmission-
// Policy(Binding): the rules a ValidatingAdmissionPolicy shares, then the operations a mutation cannot serve, the
// mutations and the reinvocationPolicy; each CEL expression compiled (`params` undeclared without a paramKind,
// `variables` always declared); the PUT that must carry a resourceVersion; and kubectl's columns. A syntax error is
// compared by its code, reason, field and shown value only (cel-go's words are pinned in crd-schemas.ts). The type of
// a mutation's result (Object, list(JSONPatch)) is pinned in mutating-policies.ts. Policies here are never bound, and
// bindings name no existing policy: nothing is mutated.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { answered, invalidAnswer, type Cause } from './invalid-answer.js';
import { raw, rawWatch, type RawAnswer } from './raw-http.js';
import { DNS1123, STATIC } from './kube-messages.js';

const GROUP = 'admissionregistration.k8s.io';
const P = `/apis/${GROUP}/v1/mutatingadmissionpolicies`;
const B = `/apis/${GROUP}/v1/mutatingadmissionpolicybindings`;
const POLICY = 'MutatingAdmissionPolicy';
const BINDING = 'MutatingAdmissionPolicyBinding';
const RULE = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] };
const DEFAULTED_RULE = { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' };
const PATCH = "[JSONPatch{op: 'add', path: '/data', value: {}}]";
const MUTATING = ['*', 'CONNECT', 'CREATE', 'UPDATE'];
const EXCLUSIVE = 'Forbidden: name and selector are mutually exclusive';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const q = (text: string): string => JSON.stringify(text);
const required = (field: string, detail = ''): Cause => ['FieldValueRequired', field, detail === '' ? 'Required value' : `Required value: ${detail}`];
const invalid = (field: string, shown: string, detail: string): Cause => ['FieldValueInvalid', field, `Invalid value: ${shown}: ${detail}`];
const unsupported = (field: string, value: string, supported: readonly string[]): Cause => ['FieldValueNotSupported', field, `Unsupported value: ${q(value)}: supported values: ${supported.map(q).join(', ')}`];
/** cel-go's compile error at an offset of a one-line text, with its snippet and caret. */
const compileError = (field: string, text: string, at: number, message: string): Cause => invalid(field, q(text), `compilation failed: ERROR: <input>:1:${at + 1}: ${message}\n | ${text}\n | ${'.'.repeat(at)}^`);
const apply = (expression: string): Json => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jsonPatch = (expression: string): Json => ({ patchType: 'JSONPatch', jsonPatch: { expression } });

/** The value at `keys` in a JSON value (undefined where there is none). */
function at(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((inner, key) => (typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>)[key] : undefined), value);
}

/** A policy named `name` of one ConfigMap rule, one mutation, reinvocationPolicy Never, and `spec` over them. */
function policy(name: string, spec: Json = {}): Json {
  return { metadata: { name }, spec: { matchConstraints: { resourceRules: [RULE] }, mutations: [jsonPatch(PATCH)], reinvocationPolicy: 'Never', ...spec } };
}

/** A case: the object's body (by its name) and the causes of its 422 (by the name it was sent with). */
type Case = [body: (name: string) => Json, causes: (name: string) => Cause[]];

export function mutatingPolicyObjectSuite(backend: () => Backend): void {
  describe('MutatingAdmissionPolicy objects: defaults, validation, updates, columns', () => {
    const send = (method: string, path: string, body?: unknown, type?: string, accept?: string): Promise<RawAnswer> =>
      raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body), type, accept);
    const remove = async (path: string, ...names: string[]): Promise<void> => {
      for (const name of names) assert.equal((await send('DELETE', `${path}/${name}`)).status, 200);
    };

    /** Each body must be refused with exactly these causes, no warnings, and nothing stored. */
    async function refused(path: string, kind: string, cases: readonly Case[]): Promise<void> {
      for (const [body, causes] of cases) {
        const sent = body(unique('mapo'));
        const name = String(at(sent, 'metadata', 'name'));
        const answer = await send('POST', path, sent);
        assert.deepEqual({ ...answered(answer), warnings: answer.warnings }, { ...invalidAnswer(GROUP, kind, name, causes(name)), warnings: [] }, JSON.stringify(sent));
        assert.equal((await send('GET', `${path}/${name}`)).status, 404, `nothing stored for ${JSON.stringify(sent)}`);
      }
    }

    test('a policy is stored in Go’s field order with its defaults: failurePolicy, matchPolicy, selectors, each rule’s scope; no status', async () => {
      const name = unique('mapo');
      const exclude = { ...RULE, resourceNames: ['x'] };
      const sent = {
        metadata: { name },
        spec: {
          reinvocationPolicy: 'IfNeeded',
          matchConditions: [{ name: 'c', expression: 'true' }],
          mutations: [jsonPatch(PATCH), apply('Object{}')],
          variables: [{ name: 'v', expression: 'object.metadata.name' }],
          matchConstraints: { excludeResourceRules: [exclude], resourceRules: [RULE], namespaceSelector: { matchLabels: { a: 'b' } } },
          paramKind: { kind: 'ConfigMap', apiVersion: 'v1' },
        },
      };
      const expected = {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: {
          namespaceSelector: { matchLabels: { a: 'b' } },
          objectSelector: {},
          resourceRules: [DEFAULTED_RULE],
          excludeResourceRules: [{ resourceNames: ['x'], ...DEFAULTED_RULE }],
          matchPolicy: 'Equivalent',
        },
        variables: [{ name: 'v', expression: 'object.metadata.name' }],
        mutations: [jsonPatch(PATCH), apply('Object{}')],
        failurePolicy: 'Fail',
        matchConditions: [{ name: 'c', expression: 'true' }],
        reinvocationPolicy: 'IfNeeded',
      };
      // JSON text compared, so that the order of the fields counts.
      const shown = (body: Json): string => JSON.stringify([Object.keys(body), at(body, 'metadata', 'generation'), body['spec']]);
      const created = await send('POST', P, sent);
      assert.equal(created.status, 201, String(created.body['message']));
      assert.equal(shown(created.body), JSON.stringify([['kind', 'apiVersion', 'metadata', 'spec'], 1, expected]));
      assert.equal(shown((await send('GET', `${P}/${name}`)).body), shown(created.body));
      assert.equal((await send('GET', `${P}/${name}/status`)).status, 404, 'no /status subresource');
      await remove(P, name);
    });

    test('a binding’s matchResources is defaulted as a policy’s constraints; paramRef is kept; validationActions is an unknown field', async () => {
      const name = unique('mapo');
      const paramRef = { namespace: 'ns', selector: { matchLabels: { a: 'b' } }, parameterNotFoundAction: 'Allow' };
      const answer = await send('POST', B, { metadata: { name }, spec: { matchResources: { excludeResourceRules: [RULE] }, paramRef, policyName: unique('mapo-none') } });
      assert.equal(answer.status, 201, String(answer.body['message']));
      const matchResources = { namespaceSelector: {}, objectSelector: {}, excludeResourceRules: [DEFAULTED_RULE], matchPolicy: 'Equivalent' };
      assert.equal(JSON.stringify(at(answer.body, 'spec')), JSON.stringify({ policyName: at(answer.body, 'spec', 'policyName'), paramRef, matchResources }));
      const bare = unique('mapo');
      const kept = await send('POST', B, { metadata: { name: bare }, spec: { policyName: 'p', validationActions: ['Deny'] } });
      assert.deepEqual([kept.status, at(kept.body, 'spec'), kept.warnings], [201, { policyName: 'p' }, ['unknown field "spec.validationActions"']]);
      await remove(B, name, bare);
    });

    test('a policy without constraints, mutations or reinvocationPolicy, or with an unknown policy or paramKind, is refused; a `.static.k8s.io` name last', async () => {
      const everything = {
        failurePolicy: 'X',
        paramKind: { apiVersion: 'a/b/c', kind: '' },
        matchConstraints: { resourceRules: [{ ...RULE, operations: ['DELETE'] }], matchPolicy: 'X' },
        matchConditions: [{ name: '', expression: '' }],
        variables: [{ name: '1x', expression: 'true' }],
        mutations: [{ patchType: 'X' }],
        reinvocationPolicy: 'X',
      };
      await refused(P, POLICY, [
        [(name) => ({ metadata: { name }, spec: {} }), () => [required('spec.matchConstraints'), required('spec.mutations', 'mutations must contain at least one item'), required('spec.reinvocationPolicy')]],
        [(name) => policy(name, { matchConstraints: {}, mutations: [] }), () => [required('spec.matchConstraints.resourceRules'), required('spec.mutations', 'mutations must contain at least one item')]],
        [(name) => policy(name, { reinvocationPolicy: 'Always', failurePolicy: 'Maybe' }), () => [unsupported('spec.failurePolicy', 'Maybe', ['Fail', 'Ignore']), unsupported('spec.reinvocationPolicy', 'Always', ['IfNeeded', 'Never'])]],
        [(name) => policy(name, { reinvocationPolicy: '' }), () => [required('spec.reinvocationPolicy')]],
        [
          (name) => policy(name, everything),
          () => [
            unsupported('spec.failurePolicy', 'X', ['Fail', 'Ignore']),
            invalid('spec.paramKind.apiVersion', '"a/b/c"', 'unexpected GroupVersion string: a/b/c'),
            required('spec.paramKind.kind'),
            unsupported('spec.matchConstraints.matchPolicy', 'X', ['Equivalent', 'Exact']),
            unsupported('spec.matchConstraints.resourceRules.operations', 'DELETE', MUTATING),
            required('spec.matchConditions[0].expression'),
            required('spec.matchConditions[0].name'),
            invalid('spec.variables[0].name', '"1x"', 'must be a valid CEL identifier'),
            unsupported('spec.mutations[0].patchType', 'X', ['ApplyConfiguration', 'JSONPatch']),
            unsupported('spec.reinvocationPolicy', 'X', ['IfNeeded', 'Never']),
          ],
        ],
        [(name) => policy(`${name}.static.k8s.io`, { failurePolicy: 'X' }), (name) => [unsupported('spec.failurePolicy', 'X', ['Fail', 'Ignore']), invalid('metadata.name', q(name), STATIC)]],
      ]);
    });

    test('a policy’s rules are judged as a ValidatingAdmissionPolicy’s, then each operation of its resourceRules a mutation cannot serve', async () => {
      const C = 'spec.matchConstraints';
      await refused(P, POLICY, [
        [
          (name) => policy(name, { matchConstraints: { resourceRules: [{ ...RULE, operations: ['DELETE', 'CREATE', 'GET'] }, { ...RULE, operations: ['*'] }], excludeResourceRules: [{ ...RULE, operations: ['DELETE'] }] } }),
          () => [
            unsupported(`${C}.resourceRules[0].operations[2]`, 'GET', ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE']),
            unsupported(`${C}.resourceRules.operations`, 'DELETE', MUTATING),
            unsupported(`${C}.resourceRules.operations`, 'GET', MUTATING),
          ],
        ],
        [
          (name) => policy(name, { matchConstraints: { resourceRules: [{}], matchPolicy: 'Nope', objectSelector: { matchExpressions: [{ key: 'k', operator: 'In' }] } } }),
          () => [
            unsupported(`${C}.matchPolicy`, 'Nope', ['Equivalent', 'Exact']),
            required(`${C}.objectSelector.matchExpressions[0].values`, "must be specified when `operator` is 'In' or 'NotIn'"),
            ...['operations', 'apiGroups', 'apiVersions', 'resources'].map((field) => required(`${C}.resourceRules[0].${field}`)),
          ],
        ],
      ]);
    });

    test('a mutation needs a known patchType and its own patch with an expression, and must not carry the other patch', async () => {
      const M = 'spec.mutations[0]';
      const both = { applyConfiguration: { expression: 'Object{}' }, jsonPatch: { expression: PATCH } };
      await refused(P, POLICY, [
        [(name) => policy(name, { mutations: [{ patchType: 'Nope', applyConfiguration: { expression: 'Object{}' } }] }), () => [unsupported(`${M}.patchType`, 'Nope', ['ApplyConfiguration', 'JSONPatch'])]],
        [(name) => policy(name, { mutations: [{ applyConfiguration: { expression: 'Object{}' } }] }), () => [required(`${M}.patchType`)]],
        [(name) => policy(name, { mutations: [{ patchType: 'ApplyConfiguration' }] }), () => [required(`${M}.applyConfiguration`, 'must be specified when patchType is ApplyConfiguration')]],
        [(name) => policy(name, { mutations: [{ patchType: 'ApplyConfiguration', ...both }] }), () => [invalid(`${M}.jsonPatch`, '"{jsonPatch}"', 'must not be specified when patchType is ApplyConfiguration')]],
        [(name) => policy(name, { mutations: [{ patchType: 'JSONPatch', ...both }] }), () => [invalid(`${M}.applyConfiguration`, '"{applyConfiguration}"', 'must not be specified when patchType is JSONPatch')]],
        [
          (name) => policy(name, { mutations: [{ patchType: 'JSONPatch', applyConfiguration: { expression: 'Object{}' } }] }),
          () => [required(`${M}.jsonPatch`, 'must be specified when patchType is JSONPatch'), invalid(`${M}.applyConfiguration`, '"{applyConfiguration}"', 'must not be specified when patchType is JSONPatch')],
        ],
        [
          (name) => policy(name, { mutations: [apply(''), jsonPatch('  '), { patchType: 'JSONPatch', jsonPatch: {} }] }),
          () => [required(`${M}.applyConfiguration.expression`), required('spec.mutations[1].jsonPatch.expression'), required('spec.mutations[2].jsonPatch.expression')],
        ],
      ]);
    });

    test('CEL: `params` needs a paramKind, `variables` is always declared (an unknown one is an undefined field), matchConditions see neither', async () => {
      const A = 'spec.mutations[0].applyConfiguration.expression';
      const J = 'spec.mutations[0].jsonPatch.expression';
      const params = "undeclared reference to 'params' (in container '')";
      await refused(P, POLICY, [
        [(name) => policy(name, { mutations: [apply('params.x')] }), () => [compileError(A, 'params.x', 0, params)]],
        [(name) => policy(name, { mutations: [apply('variables.x')] }), () => [compileError(A, 'variables.x', 9, "undefined field 'x'")]],
        [(name) => policy(name, { mutations: [jsonPatch('variables.x')] }), () => [compileError(J, 'variables.x', 9, "undefined field 'x'")]],
        [(name) => policy(name, { variables: [{ name: 'a', expression: '1' }], mutations: [apply('variables.b')] }), () => [compileError(A, 'variables.b', 9, "undefined field 'b'")]],
        [(name) => policy(name, { mutations: [apply('request.nope')] }), () => [compileError(A, 'request.nope', 7, "undefined field 'nope'")]],
        [(name) => policy(name, { matchConditions: [{ name: 'c', expression: 'variables.x == 1' }] }), () => [compileError('spec.matchConditions[0].expression', 'variables.x == 1', 0, "undeclared reference to 'variables' (in container '')")]],
        [(name) => policy(name, { matchConditions: [{ name: 'c', expression: 'params.x == 1' }] }), () => [compileError('spec.matchConditions[0].expression', 'params.x == 1', 0, params)]],
        [
          (name) => policy(name, { variables: [{ name: '1x', expression: '' }, { name: '', expression: 'true' }, { name: 'ok', expression: 'params.x' }] }),
          () => [
            invalid('spec.variables[0].name', '"1x"', 'must be a valid CEL identifier'),
            required('spec.variables[0].expression', 'expression is not specified'),
            required('spec.variables[1].name', 'name is not specified'),
            compileError('spec.variables[2].expression', 'params.x', 0, params),
          ],
        ],
      ]);
    });

    test('a CEL syntax error is refused on its field, a mutation’s shown trimmed (the code, reason, field and value)', async () => {
      const cases: Array<[Json, string, string]> = [
        [{ mutations: [apply('  1 +  ')] }, 'spec.mutations[0].applyConfiguration.expression', '1 +'],
        [{ mutations: [jsonPatch('1 +')] }, 'spec.mutations[0].jsonPatch.expression', '1 +'],
        [{ matchConditions: [{ name: 'c', expression: 'object.(' }] }, 'spec.matchConditions[0].expression', 'object.('],
        [{ variables: [{ name: 'v', expression: '1 +' }] }, 'spec.variables[0].expression', '1 +'],
      ];
      for (const [spec, field, shown] of cases) {
        const name = unique('mapo');
        const answer = await send('POST', P, policy(name, spec));
        const causes = (answer.body['details'] as { causes?: Json[] } | undefined)?.causes ?? [];
        assert.deepEqual([answer.status, answer.body['reason'], causes.map((cause) => [cause['reason'], cause['field']])], [422, 'Invalid', [['FieldValueInvalid', field]]], JSON.stringify(spec));
        assert.ok(String(causes[0]?.['message']).startsWith(`Invalid value: ${q(shown)}: compilation failed: ERROR: <input>:`), String(causes[0]?.['message']));
        assert.equal((await send('GET', `${P}/${name}`)).status, 404);
      }
    });

    test('expressions kube-apiserver compiles are accepted: variables composed, params with a paramKind, request and object in a matchCondition', async () => {
      const specs: Json[] = [
        { variables: [{ name: 'a', expression: 'object.metadata.name' }, { name: 'b', expression: 'variables.a' }], mutations: [jsonPatch("[JSONPatch{op: 'add', path: '/x', value: variables.b}]")] },
        { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [jsonPatch("[JSONPatch{op: 'add', path: '/data', value: params.data}]")], matchConditions: [{ name: 'p', expression: "has(params.data) && request.operation == 'CREATE'" }] },
        { matchConditions: [{ name: 'not-exempt', expression: "!('exempt' in object.metadata.labels)" }], failurePolicy: 'Ignore', reinvocationPolicy: 'IfNeeded' },
      ];
      for (const spec of specs) {
        const name = unique('mapo');
        const answer = await send('POST', P, policy(name, spec));
        assert.deepEqual([answer.status, answer.warnings], [201, []], `${JSON.stringify(spec)}: ${String(answer.body['message'])}`);
        await remove(P, name);
      }
    });

    test('a binding is refused for its policyName (required first), paramRef and matchResources; a `.static.k8s.io` name last', async () => {
      const binding = (spec: Json) => (name: string): Json => ({ metadata: { name }, spec });
      const R = 'spec.paramRef';
      const M = 'spec.matchResources';
      await refused(B, BINDING, [
        [binding({}), () => [required('spec.policyName')]],
        [binding({ policyName: 'Bad_Name' }), () => [invalid('spec.policyName', '"Bad_Name"', DNS1123)]],
        [
          binding({ policyName: 'p', paramRef: { name: 'x', selector: {}, parameterNotFoundAction: 'Nope' } }),
          () => [['FieldValueForbidden', `${R}.name`, EXCLUSIVE], ['FieldValueForbidden', `${R}.selector`, EXCLUSIVE], unsupported(`${R}.parameterNotFoundAction`, 'Nope', ['Deny', 'Allow'])],
        ],
        [binding({ policyName: 'p', paramRef: { name: 'x' } }), () => [required(`${R}.parameterNotFoundAction`)]],
        [binding({ policyName: 'p', paramRef: { namespace: 'x', parameterNotFoundAction: 'Deny' } }), () => [required(R, 'one of name or selector must be specified')]],
        [
          binding({ matchResources: { resourceRules: [{ ...RULE, operations: ['DELETE', 'GET'] }], excludeResourceRules: [{ ...RULE, operations: ['DELETE'] }], matchPolicy: 'X' }, paramRef: { name: 'a/b' } }),
          () => [
            required('spec.policyName'),
            invalid(`${R}.name`, '"a/b"', "may not contain '/'"),
            required(`${R}.parameterNotFoundAction`),
            unsupported(`${M}.matchPolicy`, 'X', ['Equivalent', 'Exact']),
            unsupported(`${M}.resourceRules[0].operations[1]`, 'GET', ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE']),
            unsupported(`${M}.resourceRules.operations`, 'DELETE', MUTATING),
            unsupported(`${M}.resourceRules.operations`, 'GET', MUTATING),
          ],
        ],
        [(name) => ({ metadata: { name: `${name}.static.k8s.io` }, spec: {} }), (name) => [required('spec.policyName'), invalid('metadata.name', q(name), STATIC)]],
      ]);
    });

    test('updates: a PUT must carry a resourceVersion, moves the generation on a spec change only, is judged as a create; a merge patch nulling defaults gets them back', async () => {
      const name = unique('mapo');
      assert.equal((await send('POST', P, policy(name))).status, 201);
      assert.equal((await send('POST', B, { metadata: { name }, spec: { policyName: unique('mapo-none') } })).status, 201);
      for (const [path, resource, body] of [[P, 'mutatingadmissionpolicies', policy(name)], [B, 'mutatingadmissionpolicybindings', { metadata: { name }, spec: { policyName: 'p' } }]] as const) {
        const cause = { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be specified for an update', field: 'metadata.resourceVersion' };
        const expected = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${resource}.${GROUP} "${name}" is invalid: metadata.resourceVersion: ${cause.message}`, reason: 'Invalid', details: { name, group: GROUP, kind: resource, causes: [cause] }, code: 422 };
        assert.deepEqual((await send('PUT', `${path}/${name}`, body)).body, expected);
      }
      const put = async (spec: Json): Promise<RawAnswer> => {
        const version = at((await send('GET', `${P}/${name}`)).body, 'metadata', 'resourceVersion');
        return send('PUT', `${P}/${name}`, { ...policy(name, spec), metadata: { name, resourceVersion: version } });
      };
      const state = (answer: RawAnswer): unknown[] => [answer.status, at(answer.body, 'metadata', 'generation'), at(answer.body, 'spec', 'reinvocationPolicy'), at(answer.body, 'spec', 'failurePolicy')];
      assert.deepEqual(state(await put({})), [200, 1, 'Never', 'Fail']);
      assert.deepEqual(state(await put({ reinvocationPolicy: 'IfNeeded' })), [200, 2, 'IfNeeded', 'Fail']);
      const refusedPut = await put({ reinvocationPolicy: 'X', failurePolicy: 'Ignore', mutations: [jsonPatch('params.x')] });
      const J = 'spec.mutations[0].jsonPatch.expression';
      assert.deepEqual(answered(refusedPut), invalidAnswer(GROUP, POLICY, name, [compileError(J, 'params.x', 0, "undeclared reference to 'params' (in container '')"), unsupported('spec.reinvocationPolicy', 'X', ['IfNeeded', 'Never'])]));
      const patched = await send('PATCH', `${P}/${name}`, { spec: { failurePolicy: null, matchConstraints: { matchPolicy: null } } }, 'application/merge-patch+json');
      assert.deepEqual([...state(patched), at(patched.body, 'spec', 'matchConstraints')], [200, 2, 'IfNeeded', 'Fail', { namespaceSelector: {}, objectSelector: {}, resourceRules: [DEFAULTED_RULE], matchPolicy: 'Equivalent' }]);
      const emptied = await send('PATCH', `${B}/${name}`, { spec: { policyName: '' } }, 'application/merge-patch+json');
      assert.deepEqual(answered(emptied), invalidAnswer(GROUP, BINDING, name, [required('spec.policyName')]));
      const renamed = await send('PATCH', `${B}/${name}`, { spec: { policyName: 'other' } }, 'application/merge-patch+json');
      assert.deepEqual([renamed.status, at(renamed.body, 'metadata', 'generation'), at(renamed.body, 'spec')], [200, 2, { policyName: 'other' }]);
      await remove(P, name);
      await remove(B, name);
    });

    test('a policy is listed and watched: added, modified, deleted', async () => {
      const name = unique('mapo');
      const version = String(at((await send('GET', P)).body, 'metadata', 'resourceVersion'));
      assert.equal((await send('POST', P, policy(name))).status, 201);
      const listed = await send('GET', `${P}?fieldSelector=metadata.name%3D${name}`);
      assert.deepEqual([listed.body['kind'], (listed.body['items'] as Json[]).map((item) => [Object.keys(item), at(item, 'metadata', 'name')])], ['MutatingAdmissionPolicyList', [[['metadata', 'spec'], name]]]);
      assert.equal((await send('PATCH', `${P}/${name}`, { spec: { reinvocationPolicy: 'IfNeeded' } }, 'application/merge-patch+json')).status, 200);
      await remove(P, name);
      const watch = await rawWatch(backend().kubeConfig, `${P}?watch=true&resourceVersion=${version}&fieldSelector=metadata.name%3D${name}`, (events) => events.length >= 3, 10_000);
      assert.deepEqual(watch.events.map((event) => [event.type, event.object.metadata?.name]), [['ADDED', name], ['MODIFIED', name], ['DELETED', name]]);
    });

    test('kubectl get columns: mutations and paramKind of a policy, policyName and paramRef (a selector in Go’s form) of a binding', async () => {
      const table = async (path: string): Promise<{ columns: unknown[][]; cells: unknown[] }> => {
        const answer = await send('GET', path, undefined, undefined, TABLE);
        const columns = (answer.body['columnDefinitions'] as Json[]).map((c) => [c['name'], c['type'], c['format'], c['priority'], c['description']]);
        // The last cell is the age, which differs between servers.
        return { columns, cells: ((answer.body['rows'] as Json[])[0]?.['cells'] as unknown[]).slice(0, -1) };
      };
      const [bare, params] = [unique('mapo'), unique('mapo')];
      assert.equal((await send('POST', P, policy(bare))).status, 201);
      assert.equal((await send('POST', P, policy(params, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [jsonPatch(PATCH), apply('Object{}')] }))).status, 201);
      const policyName = unique('mapo-none');
      const selector = { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }] };
      const refs: Array<[string, Json | undefined, string]> = [
        [unique('mapo'), undefined, '<unset>'],
        [unique('mapo'), { name: 'p', parameterNotFoundAction: 'Deny' }, '*/p'],
        [unique('mapo'), { name: 'p', namespace: 'n', parameterNotFoundAction: 'Deny' }, 'n/p'],
        [unique('mapo'), { selector, parameterNotFoundAction: 'Allow' }, '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}'],
      ];
      for (const [name, paramRef] of refs) assert.equal((await send('POST', B, { metadata: { name }, spec: { policyName, ...(paramRef === undefined ? {} : { paramRef }) } })).status, 201);
      const policies = [await table(`${P}/${bare}`), await table(`${P}/${params}`)];
      assert.deepEqual(policies.map((t) => t.cells), [[bare, 1, '<unset>'], [params, 2, 'v1/ConfigMap']]);
      assert.deepEqual(policies[0]?.columns.map((c) => c[0]), ['Name', 'Mutations', 'ParamKind', 'Age']);
      assert.deepEqual(policies[0]?.columns.slice(1, 3), [
        ['Mutations', 'integer', '', 0, 'Mutation indicates the number of mutations rules defined in this configuration'],
        ['ParamKind', 'string', '', 0, 'ParamKind specifies the kind of resources used to parameterize this policy'],
      ]);
      const bindings = await Promise.all(refs.map(([name]) => table(`${B}/${name}`)));
      assert.deepEqual(bindings.map((t) => t.cells), refs.map(([name, , shown]) => [name, policyName, shown]));
      assert.deepEqual(bindings[0]?.columns.map((c) => c[0]), ['Name', 'PolicyName', 'ParamRef', 'Age']);
      assert.deepEqual(bindings[0]?.columns.slice(1, 3), [
        ['PolicyName', 'string', '', 0, 'PolicyName indicates the policy definition which the policy binding binded to'],
        ['ParamRef', 'string', '', 0, 'ParamRef indicates the param resource which sets the configuration param'],
      ]);
      await remove(P, bare, params);
      await remove(B, ...refs.map(([name]) => name));
    });
  });
}
