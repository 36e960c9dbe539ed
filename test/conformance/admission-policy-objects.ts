// ValidatingAdmissionPolicies and their bindings as objects, as kube-apiserver 1.37.2 stores and refuses them (every
// expectation probed on it: temp/probes/vap.ts and its output): the defaults a policy gets (failurePolicy Fail, its
// matchConstraints' matchPolicy Equivalent and empty selectors, each rule's scope `*`, an empty status) and a
// binding's matchResources gets; what a PUT or merge patch keeps; and the 422s of kube's ValidateValidatingAdmission-
// Policy(Binding): rules and selectors, paramKind, matchConditions, variables, validations, audit annotations, paramRef,
// validation actions, a `.static.k8s.io` name, and each CEL expression compiled (a result of the wrong type, `dyn`
// included; an undefined field of `request` or `namespaceObject`; `params`, `variables` or `authorizer` where they are
// not declared). A syntax error is compared by its code, reason and field only (cel-go's words for the common errors
// are pinned in crd-schemas.ts; for others the parser has its own: docs/testing.md). Policies here have no binding, and bindings name no existing policy:
// nothing is enforced.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { answered, invalidAnswer, type Cause } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';
import { DNS1035, DNS1123, LABEL_VALUE, QUALIFIED, STATIC } from './kube-messages.js';

const GROUP = 'admissionregistration.k8s.io';
const P = `/apis/${GROUP}/v1/validatingadmissionpolicies`;
const B = `/apis/${GROUP}/v1/validatingadmissionpolicybindings`;
const RULE = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] };
const AT_LEAST_ONE = 'validations or auditAnnotations must contain at least one item';
const EXCLUSIVE = 'Forbidden: name and selector are mutually exclusive';
const DENY_AND_WARN = 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)';

const q = (text: string): string => JSON.stringify(text);
const required = (field: string, detail = ''): Cause => ['FieldValueRequired', field, detail === '' ? 'Required value' : `Required value: ${detail}`];
const invalid = (field: string, shown: string, detail: string): Cause => ['FieldValueInvalid', field, `Invalid value: ${shown}: ${detail}`];
const unsupported = (field: string, value: string, supported: readonly string[]): Cause => ['FieldValueNotSupported', field, `Unsupported value: ${q(value)}: supported values: ${supported.map(q).join(', ')}`];
const duplicate = (field: string, value: string): Cause => ['FieldValueDuplicate', field, `Duplicate value: ${q(value)}`];
/** cel-go's compile error at an offset of a one-line text, with its snippet and caret. */
const compileError = (field: string, text: string, at: number, ...messages: string[]): Cause =>
  invalid(field, q(text), `compilation failed: ${messages.map((message) => `ERROR: <input>:1:${at + 1}: ${message}\n | ${text}\n | ${'.'.repeat(at)}^`).join('\n')}`);
const typed = (field: string, text: string, want: string, got: string): Cause => invalid(field, q(text), `must evaluate to ${want} but got ${got}`);
const V = 'spec.validations[0].expression';

/** The value at `keys` in a JSON value (undefined where there is none). */
function at(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((inner, key) => (typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>)[key] : undefined), value);
}

/** A policy named `name` of one ConfigMap rule and `spec`. */
function policy(name: string, spec: Json = {}): Json {
  return { apiVersion: `${GROUP}/v1`, kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: { resourceRules: [RULE] }, ...spec } };
}
const validating = (expression: string, more: Json = {}): Json => ({ validations: [{ expression, ...more }] });

/** A case: the object's spec (or the whole body, given `metadata`) and the causes of its 422, both by its name. */
type Case = [body: (name: string) => Json, causes: (name: string) => Cause[]];

export function admissionPolicyObjectSuite(backend: () => Backend): void {
  describe('ValidatingAdmissionPolicy objects: defaults and validation', () => {
    const send = (method: string, path: string, body?: unknown, type?: string): Promise<RawAnswer> => raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body), type);

    /** Each body must be refused with exactly these causes, no warnings, and nothing stored. */
    async function refused(path: string, kind: string, cases: readonly Case[]): Promise<void> {
      for (const [body, causes] of cases) {
        const name = unique('vapo');
        const object = body(name);
        const sent = object['metadata'] === undefined ? { metadata: { name }, spec: object } : object;
        const shownName = String((sent['metadata'] as Json)['name']);
        const answer = await send('POST', path, sent);
        assert.deepEqual({ ...answered(answer), warnings: answer.warnings }, { ...invalidAnswer(GROUP, kind, shownName, causes(shownName)), warnings: [] }, JSON.stringify(sent));
        assert.equal((await send('GET', `${path}/${shownName}`)).status, 404, `nothing stored for ${JSON.stringify(sent)}`);
      }
    }

    /** Each policy spec must be created (201, no warnings), then it is deleted. */
    async function accepted(specs: readonly Json[]): Promise<void> {
      for (const spec of specs) {
        const name = unique('vapo');
        const answer = await send('POST', P, policy(name, spec));
        assert.equal(answer.status, 201, `${JSON.stringify(spec)}: ${String(answer.body['message'])}`);
        assert.deepEqual(answer.warnings, []);
        assert.equal((await send('DELETE', `${P}/${name}`)).status, 200);
      }
    }

    test('a policy is stored with its defaults: failurePolicy, matchPolicy, both selectors, each rule’s scope, an empty status', async () => {
      const name = unique('vapo');
      const exclude = { ...RULE, resourceNames: ['x'] };
      const answer = await send('POST', P, policy(name, { matchConstraints: { resourceRules: [RULE], excludeResourceRules: [exclude], objectSelector: { matchLabels: { case: name } } }, validations: [{ expression: 'true' }] }));
      const expected = {
        generation: 1,
        spec: {
          matchConstraints: { namespaceSelector: {}, objectSelector: { matchLabels: { case: name } }, resourceRules: [{ ...RULE, scope: '*' }], excludeResourceRules: [{ ...exclude, scope: '*' }], matchPolicy: 'Equivalent' },
          validations: [{ expression: 'true' }],
          failurePolicy: 'Fail',
        },
        status: {},
      };
      const shown = (body: unknown): unknown => ({ generation: at(body, 'metadata', 'generation'), spec: at(body, 'spec'), status: at(body, 'status') });
      assert.equal(answer.status, 201, String(answer.body['message']));
      assert.deepEqual(shown(answer.body), expected);
      assert.deepEqual(shown((await send('GET', `${P}/${name}`)).body), expected);
      assert.equal((await send('DELETE', `${P}/${name}`)).status, 200);
    });

    test('a binding’s matchResources is defaulted as a policy’s constraints (no rule needed); paramRef and actions are kept', async () => {
      const name = unique('vapo');
      const spec = { policyName: unique('vapo-none'), validationActions: ['Warn', 'Audit'], paramRef: { selector: { matchLabels: { a: 'b' } }, parameterNotFoundAction: 'Allow' } };
      const answer = await send('POST', B, { metadata: { name }, spec: { ...spec, matchResources: { excludeResourceRules: [RULE] } } });
      assert.equal(answer.status, 201, String(answer.body['message']));
      assert.deepEqual(at(answer.body, 'spec'), { ...spec, matchResources: { namespaceSelector: {}, objectSelector: {}, excludeResourceRules: [{ ...RULE, scope: '*' }], matchPolicy: 'Equivalent' } });
      const bare = unique('vapo');
      assert.deepEqual(at((await send('POST', B, { metadata: { name: bare }, spec: { policyName: 'p', validationActions: ['Deny'] } })).body, 'spec'), { policyName: 'p', validationActions: ['Deny'] });
      for (const each of [name, bare]) assert.equal((await send('DELETE', `${B}/${each}`)).status, 200);
    });

    test('updates: a PUT is defaulted again and moves the generation on a spec change, a merge patch nulling defaults gets them back', async () => {
      const name = unique('vapo');
      assert.equal((await send('POST', P, policy(name, validating('true')))).status, 201);
      const put = async (spec: Json): Promise<RawAnswer> => {
        const stored = (await send('GET', `${P}/${name}`)).body;
        return send('PUT', `${P}/${name}`, { ...policy(name, spec), metadata: { name, resourceVersion: at(stored, 'metadata', 'resourceVersion') }, status: { observedGeneration: 5 } });
      };
      const state = (answer: RawAnswer): unknown[] => [answer.status, at(answer.body, 'metadata', 'generation'), at(answer.body, 'spec', 'failurePolicy'), at(answer.body, 'status')];
      assert.deepEqual(state(await put(validating('false'))), [200, 2, 'Fail', {}]);
      assert.deepEqual(state(await put(validating('false'))), [200, 2, 'Fail', {}]);
      assert.deepEqual(state(await put({ ...validating('false'), failurePolicy: 'Ignore' })), [200, 3, 'Ignore', {}]);
      const patched = await send('PATCH', `${P}/${name}`, { spec: { failurePolicy: null, matchConstraints: { matchPolicy: null } } }, 'application/merge-patch+json');
      assert.deepEqual([...state(patched), at(patched.body, 'spec', 'matchConstraints')], [200, 4, 'Fail', {}, { namespaceSelector: {}, objectSelector: {}, resourceRules: [{ ...RULE, scope: '*' }], matchPolicy: 'Equivalent' }]);
      assert.equal((await send('DELETE', `${P}/${name}`)).status, 200);
    });

    test('a policy without constraints, checks or a valid failurePolicy or paramKind is refused; a `.static.k8s.io` name last', async () => {
      await refused(P, 'ValidatingAdmissionPolicy', [
        [() => ({}), () => [required('spec.matchConstraints'), required('spec.validations', AT_LEAST_ONE), required('spec.auditAnnotations', AT_LEAST_ONE)]],
        [() => ({ matchConstraints: {}, ...validating('true') }), () => [required('spec.matchConstraints.resourceRules')]],
        [(name) => policy(name, { ...validating('true'), failurePolicy: 'Maybe' }), () => [unsupported('spec.failurePolicy', 'Maybe', ['Fail', 'Ignore'])]],
        [
          (name) => policy(name, { ...validating('true'), paramKind: { apiVersion: 'a/b/c', kind: 'Bad_Kind' } }),
          () => [invalid('spec.paramKind.apiVersion', '"a/b/c"', 'unexpected GroupVersion string: a/b/c'), invalid('spec.paramKind.kind', '"Bad_Kind"', `may have mixed case, but should otherwise match: ${DNS1035}`)],
        ],
        [(name) => policy(name, { ...validating('true'), paramKind: {} }), () => [required('spec.paramKind.apiVersion'), required('spec.paramKind.kind')]],
        [(name) => policy(name, { ...validating('true'), paramKind: { apiVersion: 'Bad_Group/V1', kind: 'X' } }), () => [invalid('spec.paramKind.apiVersion', '"Bad_Group"', DNS1123), invalid('spec.paramKind.apiVersion', '"V1"', DNS1035)]],
        [(name) => policy(name, { ...validating('true'), paramKind: { apiVersion: 'example.com/', kind: 'X' } }), () => [invalid('spec.paramKind.apiVersion', '"example.com/"', 'version must be specified')]],
        [(name) => policy(`${name}.static.k8s.io`, { ...validating('true'), failurePolicy: 'X' }), (name) => [unsupported('spec.failurePolicy', 'X', ['Fail', 'Ignore']), invalid('metadata.name', q(name), STATIC)]],
      ]);
    });

    test('a policy’s rules and selectors are refused as a webhook’s: operations, groups, versions, resources and wildcards, names, scope', async () => {
      const C = 'spec.matchConstraints';
      const E = `${C}.excludeResourceRules[0]`;
      const resources = ['*', 'pods', '*/*', 'a/*', 'a/b', '*/s', 'x/s', ''];
      const constraints = {
        resourceRules: [{}],
        excludeResourceRules: [{ operations: ['*', 'GET'], apiGroups: ['*', 'x'], apiVersions: ['*', ''], resources, scope: 'Nope', resourceNames: ['a', 'a', '..', 'x/y'] }],
        matchPolicy: 'Nope',
        namespaceSelector: { matchLabels: { 'a b': 'c d' } },
        objectSelector: { matchExpressions: [{ key: 'k', operator: 'In' }] },
      };
      await refused(P, 'ValidatingAdmissionPolicy', [
        [
          (name) => policy(name, { matchConstraints: constraints, ...validating('true') }),
          () => [
            unsupported(`${C}.matchPolicy`, 'Nope', ['Equivalent', 'Exact']),
            invalid(`${C}.namespaceSelector.matchLabels`, '"a b"', `name part ${QUALIFIED}`),
            invalid(`${C}.namespaceSelector.matchLabels`, '"c d"', LABEL_VALUE),
            required(`${C}.objectSelector.matchExpressions[0].values`, "must be specified when `operator` is 'In' or 'NotIn'"),
            ...['operations', 'apiGroups', 'apiVersions', 'resources'].map((field) => required(`${C}.resourceRules[0].${field}`)),
            duplicate(`${E}.resourceNames[1]`, 'a'),
            invalid(`${E}.resourceNames[2]`, '".."', "may not be '..'"),
            invalid(`${E}.resourceNames[3]`, '"x/y"', "may not contain '/'"),
            invalid(`${E}.operations`, '["*","GET"]', "if '*' is present, must not specify other operations"),
            unsupported(`${E}.operations[1]`, 'GET', ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE']),
            invalid(`${E}.apiGroups`, '["*","x"]', "if '*' is present, must not specify other API groups"),
            invalid(`${E}.apiVersions`, '["*",""]', "if '*' is present, must not specify other API versions"),
            required(`${E}.apiVersions[1]`),
            invalid(`${E}.resources[3]`, '"a/*"', "if '*/*' is present, must not specify a/*"),
            invalid(`${E}.resources[4]`, '"a/b"', "if 'a/*' is present, must not specify a/b"),
            invalid(`${E}.resources[5]`, '"*/s"', "if '*/*' is present, must not specify */s"),
            invalid(`${E}.resources[6]`, '"x/s"', "if '*/s' is present, must not specify x/s"),
            required(`${E}.resources[7]`),
            invalid(`${E}.resources`, JSON.stringify(resources), "if '*/*' is present, must not specify other resources"),
            invalid(`${E}.resources`, JSON.stringify(resources), "if '*' is present, must not specify other resources without subresources"),
            unsupported(`${E}.scope`, 'Nope', ['*', 'Cluster', 'Namespaced']),
          ],
        ],
      ]);
    });

    test('a policy’s validations, messages, variables, audit annotations and matchConditions are refused field by field', async () => {
      const many = (count: number, make: (i: number) => Json): Json[] => Array.from({ length: count }, (_, i) => make(i));
      await refused(P, 'ValidatingAdmissionPolicy', [
        [(name) => policy(name, validating('true', { reason: 'Nope' })), () => [unsupported('spec.validations[0].reason', 'Nope', ['Forbidden', 'Invalid', 'RequestEntityTooLarge'])]],
        [(name) => policy(name, validating('  ', { message: '  ', messageExpression: ' ' })), () => [required(V, 'expression is not specified'), invalid('spec.validations[0].messageExpression', '" "', 'must be non-empty if specified'), invalid('spec.validations[0].message', '"  "', 'must be non-empty if specified')]],
        [(name) => policy(name, validating('true', { message: 'a\nb' })), () => [invalid('spec.validations[0].message', '"a\\nb"', 'must not contain line breaks')]],
        [
          (name) => policy(name, { variables: [{ name: 'a', expression: 'variables.b' }, { name: 'b', expression: '1' }, { name: '', expression: '' }, { name: 'in', expression: 'true' }, { name: '1x', expression: 'true' }], validations: [{ expression: 'variables.a == variables.b' }, { expression: 'variables.b' }, { expression: 'variables.nope' }] }),
          () => [
            compileError('spec.variables[0].expression', 'variables.b', 9, "undefined field 'b'"),
            required('spec.variables[2].name', 'name is not specified'),
            required('spec.variables[2].expression', 'expression is not specified'),
            invalid('spec.variables[3].name', '"in"', 'must be a valid CEL identifier'),
            invalid('spec.variables[4].name', '"1x"', 'must be a valid CEL identifier'),
            typed('spec.validations[1].expression', 'variables.b', 'bool', 'int'),
            compileError('spec.validations[2].expression', 'variables.nope', 9, "undefined field 'nope'"),
          ],
        ],
        [
          (name) => policy(name, { auditAnnotations: [{ key: 'a b', valueExpression: "'x'" }, { key: 'k', valueExpression: '1' }, { key: 'k', valueExpression: '' }] }),
          (name) => [
            invalid('spec.auditAnnotations[0].key', q(`${name}/a b`), `name part ${QUALIFIED}`),
            typed('spec.auditAnnotations[1].valueExpression', '1', 'one of [string null_type]', 'int'),
            required('spec.auditAnnotations[2].valueExpression', 'valueExpression is not specified'),
            duplicate('spec.auditAnnotations[2].key', 'k'),
          ],
        ],
        [
          (name) => policy(name, { auditAnnotations: many(21, (i) => ({ key: `k${i}`, valueExpression: "'v'" })) }),
          () => [invalid('spec.auditAnnotations', JSON.stringify(many(21, (i) => ({ Key: `k${i}`, ValueExpression: "'v'" }))), 'must not have more than 20 auditAnnotations')],
        ],
        [
          (name) => policy(name, { variables: [{ name: 'x', expression: 'true' }], ...validating('true'), matchConditions: [{ name: 'a', expression: '1' }, { name: 'a', expression: 'true' }, { name: 'Bad Name', expression: ' request.nope' }, { name: '', expression: '' }, { name: 'p', expression: 'params.x' }, { name: 'v', expression: 'variables.x' }] }),
          () => [
            typed('spec.matchConditions[0].expression', '1', 'bool', 'int'),
            duplicate('spec.matchConditions[1].name', 'a'),
            compileError('spec.matchConditions[2].expression', 'request.nope', 7, "undefined field 'nope'"),
            invalid('spec.matchConditions[2].name', '"Bad Name"', `name part ${QUALIFIED}`),
            required('spec.matchConditions[3].expression'),
            required('spec.matchConditions[3].name'),
            compileError('spec.matchConditions[4].expression', 'params.x', 0, "undeclared reference to 'params' (in container '')"),
            compileError('spec.matchConditions[5].expression', 'variables.x', 0, "undeclared reference to 'variables' (in container '')"),
          ],
        ],
        [(name) => policy(name, { ...validating('true'), matchConditions: many(65, (i) => ({ name: `c${i}`, expression: 'true' })) }), () => [['FieldValueTooMany', 'spec.matchConditions', 'Too many: 65: must have at most 64 items']]],
      ]);
    });

    test('each CEL expression must be of its field’s type: a validation a bool, a messageExpression a string, dyn refused as well', async () => {
      const notBool: Array<[string, string]> = [
        ['1', 'int'], ["'a' + 'b'", 'string'], ['1.0', 'double'], ['1u', 'uint'], ["b'x'", 'bytes'], ['null', 'null_type'], ['[1]', 'list(int)'], ['[[1]]', 'list(list(int))'], ['{}', 'map(dyn, dyn)'], ['{"a": [1]}', 'map(string, list(int))'],
        ["duration('1s')", 'google.protobuf.Duration'], ['size(object)', 'int'], ['true ? 1 : 2', 'int'], ['request', 'kubernetes.AdmissionRequest'], ['request.kind', 'kubernetes.GroupVersionKind'], ['request.userInfo.groups', 'list(string)'],
        ['namespaceObject', 'kubernetes.Namespace'], ['namespaceObject.metadata.labels', 'map(string, string)'], ['namespaceObject.metadata.creationTimestamp', 'google.protobuf.Timestamp'], ['object', 'dyn'], ['object.spec.enabled', 'dyn'], ["object['x']", 'dyn'], ['request.options', 'dyn'],
        ['object.items.map(x, x)', 'list(dyn)'],
      ];
      await refused(P, 'ValidatingAdmissionPolicy', [
        ...notBool.map(([text, got]): Case => [(name) => policy(name, validating(text)), () => [typed(V, text, 'bool', got)]]),
        [(name) => policy(name, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, ...validating('params.data') }), () => [typed(V, 'params.data', 'bool', 'dyn')]],
        [(name) => policy(name, { variables: [{ name: 'r', expression: 'request' }, { name: 's', expression: "'x'" }], validations: [{ expression: 'variables.r.nope == 1' }, { expression: 'variables.r' }, { expression: 'variables.s' }] }), () => [typed('spec.validations[1].expression', 'variables.r', 'bool', 'dyn'), typed('spec.validations[2].expression', 'variables.s', 'bool', 'string')]],
        [(name) => policy(name, validating('true', { messageExpression: '1' })), () => [typed('spec.validations[0].messageExpression', '1', 'string', 'int')]],
        [(name) => policy(name, validating('true', { messageExpression: 'object.metadata.name' })), () => [typed('spec.validations[0].messageExpression', 'object.metadata.name', 'string', 'dyn')]],
        [(name) => policy(name, { auditAnnotations: [{ key: 'a', valueExpression: 'null' }, { key: 'b', valueExpression: 'object.x' }] }), () => [typed('spec.auditAnnotations[1].valueExpression', 'object.x', 'one of [string null_type]', 'dyn')]],
      ]);
    });

    test('a field `request` or `namespaceObject` does not have, and `params`, `variables` or `authorizer` where undeclared, fail to compile', async () => {
      const cases: Array<[string, number, string]> = [
        ['request.nope == 1', 7, "undefined field 'nope'"],
        ['has(request.nope)', 3, "undefined field 'nope'"],
        ['request.userInfo.nope == 1', 16, "undefined field 'nope'"],
        ['namespaceObject.metadata.nope == 1', 24, "undefined field 'nope'"],
        ['namespaceObject.spec.x == 1', 20, "undefined field 'x'"],
        ['params.x == 1', 0, "undeclared reference to 'params' (in container '')"],
        ['variables.x == 1', 0, "undeclared reference to 'variables' (in container '')"],
      ];
      const M = 'spec.validations[0].messageExpression';
      const authorized = "authorizer.group('').resource('x').check('get').allowed() ? 'a' : 'b'";
      const several = 'params.a == params.b && request.nope == 1';
      const params = "undeclared reference to 'params' (in container '')";
      await refused(P, 'ValidatingAdmissionPolicy', [
        ...cases.map(([text, at, message]): Case => [(name) => policy(name, validating(text)), () => [compileError(V, text, at, message)]]),
        [(name) => policy(name, validating('true', { messageExpression: authorized })), () => [compileError(M, authorized, 0, "undeclared reference to 'authorizer' (in container '')")]],
        [
          (name) => policy(name, validating(several)),
          () => [invalid(V, q(several), `compilation failed: ${[[0, params], [12, params], [31, "undefined field 'nope'"]].map(([at, message]) => `ERROR: <input>:1:${Number(at) + 1}: ${String(message)}\n | ${several}\n | ${'.'.repeat(Number(at))}^`).join('\n')}`)],
        ],
      ]);
    });

    test('a CEL syntax error is refused on its field (the code, reason and field)', async () => {
      const cases: Array<[Json, string, string]> = [
        [validating('object.data.('), V, 'object.data.('],
        [validating('true', { messageExpression: '1 +' }), 'spec.validations[0].messageExpression', '1 +'],
        [{ auditAnnotations: [{ key: 'k', valueExpression: '  1 +' }] }, 'spec.auditAnnotations[0].valueExpression', '  1 +'],
        [{ ...validating('true'), matchConditions: [{ name: 'c', expression: 'object.(' }] }, 'spec.matchConditions[0].expression', 'object.('],
        [{ ...validating('true'), variables: [{ name: 'v', expression: '1 +' }] }, 'spec.variables[0].expression', '1 +'],
      ];
      for (const [spec, field, shown] of cases) {
        const name = unique('vapo');
        const answer = await send('POST', P, policy(name, spec));
        const causes = (answer.body['details'] as { causes?: Json[] } | undefined)?.causes ?? [];
        assert.deepEqual([answer.status, answer.body['reason'], causes.map((cause) => [cause['reason'], cause['field']])], [422, 'Invalid', [['FieldValueInvalid', field]]], JSON.stringify(spec));
        assert.ok(String(causes[0]?.['message']).startsWith(`Invalid value: ${q(shown)}: compilation failed: ERROR: <input>:`), String(causes[0]?.['message']));
        assert.equal((await send('GET', `${P}/${name}`)).status, 404);
      }
    });

    test('expressions kube-apiserver compiles are accepted: dyn fields compared, has(), declared fields, params with a paramKind, variables', async () => {
      await accepted([
        validating('object.nope.foo == 1'),
        validating('has(object.x) && request.dryRun'),
        validating("request.namespace == 'a' && request.userInfo.groups.exists(g, g == 'x') && request.options.x == 1"),
        validating("namespaceObject.metadata.labels.env != 'prod'", { message: 'not in prod', reason: 'Forbidden' }),
        { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, ...validating("params.data.max == '2'", { messageExpression: "'at most ' + params.data.max" }) },
        { variables: [{ name: 'keys', expression: 'size(object.data)' }, { name: 'many', expression: 'variables.keys > 1' }], ...validating('!variables.many', { messageExpression: "'keys: ' + string(variables.keys)" }) },
        { auditAnnotations: [{ key: 'a', valueExpression: 'null' }, { key: 'b', valueExpression: "'x'" }], failurePolicy: 'Ignore' },
        { ...validating('true'), matchConditions: [{ name: 'not-exempt', expression: "!('exempt' in object.metadata.labels)" }] },
      ]);
    });

    test('a binding is refused for its policyName, paramRef, matchResources and actions; missing ones are listed last', async () => {
      const binding = (spec: Json) => (name: string): Json => ({ metadata: { name }, spec });
      const R = 'spec.paramRef';
      await refused(B, 'ValidatingAdmissionPolicyBinding', [
        [binding({ policyName: 'p' }), () => [required('spec.validationActions')]],
        [binding({ validationActions: ['Deny'] }), () => [required('spec.policyName')]],
        [binding({ policyName: 'p', validationActions: ['Deny', 'Deny'] }), () => [duplicate('spec.validationActions[1]', 'Deny')]],
        [binding({ policyName: 'p', validationActions: ['Deny', 'Warn'] }), () => [invalid('spec.validationActions', '["Deny","Warn"]', DENY_AND_WARN)]],
        [binding({ policyName: 'p', validationActions: ['Deny'], paramRef: { namespace: 'x' } }), () => [required(R, 'one of name or selector must be specified'), required(`${R}.parameterNotFoundAction`)]],
        [binding({ policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'a/b', parameterNotFoundAction: '' } }), () => [invalid(`${R}.name`, '"a/b"', "may not contain '/'"), required(`${R}.parameterNotFoundAction`)]],
        [
          binding({ paramRef: { name: 'x', selector: {}, parameterNotFoundAction: 'Nope' }, matchResources: { matchPolicy: 'X' }, validationActions: [] }),
          () => [
            ['FieldValueForbidden', `${R}.name`, EXCLUSIVE],
            ['FieldValueForbidden', `${R}.selector`, EXCLUSIVE],
            unsupported(`${R}.parameterNotFoundAction`, 'Nope', ['Deny', 'Allow']),
            unsupported('spec.matchResources.matchPolicy', 'X', ['Equivalent', 'Exact']),
            required('spec.policyName'),
            required('spec.validationActions'),
          ],
        ],
        [
          binding({ policyName: 'Bad_Name', validationActions: ['Nope', 'Warn', 'Warn', 'Deny'] }),
          () => [
            invalid('spec.policyName', '"Bad_Name"', DNS1123),
            unsupported('spec.validationActions[0]', 'Nope', ['Audit', 'Deny', 'Warn']),
            duplicate('spec.validationActions[2]', 'Warn'),
            invalid('spec.validationActions', '["Nope","Warn","Warn","Deny"]', DENY_AND_WARN),
          ],
        ],
        [(name) => ({ metadata: { name: `${name}.static.k8s.io` }, spec: {} }), (name) => [invalid('metadata.name', q(name), STATIC), required('spec.policyName'), required('spec.validationActions')]],
      ]);
    });

    test('an update is judged as a create, the `.static.k8s.io` rule aside: a policy PUT, a binding PUT emptied, a merge patch', async () => {
      const name = unique('vapo');
      assert.equal((await send('POST', P, policy(name, validating('true')))).status, 201);
      assert.equal((await send('POST', B, { metadata: { name }, spec: { policyName: unique('vapo-none'), validationActions: ['Deny'] } })).status, 201);
      const version = async (path: string): Promise<unknown> => at((await send('GET', path)).body, 'metadata', 'resourceVersion');
      const put = async (path: string, kind: string, spec: Json, causes: Cause[]): Promise<void> => {
        const answer = await send('PUT', path, { metadata: { name, resourceVersion: await version(path) }, spec });
        assert.deepEqual(answered(answer), invalidAnswer(GROUP, kind, name, causes));
      };
      await put(`${P}/${name}`, 'ValidatingAdmissionPolicy', { ...policy(name, validating('1')).spec, failurePolicy: 'X' }, [unsupported('spec.failurePolicy', 'X', ['Fail', 'Ignore']), typed(V, '1', 'bool', 'int')]);
      await put(`${B}/${name}`, 'ValidatingAdmissionPolicyBinding', { policyName: '', validationActions: [] }, [required('spec.policyName'), required('spec.validationActions')]);
      const patched = await send('PATCH', `${B}/${name}`, { spec: { validationActions: ['Warn', 'Warn'] } }, 'application/merge-patch+json');
      assert.deepEqual(answered(patched), invalidAnswer(GROUP, 'ValidatingAdmissionPolicyBinding', name, [duplicate('spec.validationActions[1]', 'Warn')]));
      assert.deepEqual(at((await send('GET', `${B}/${name}`)).body, 'spec', 'validationActions'), ['Deny']);
      for (const path of [P, B]) assert.equal((await send('DELETE', `${path}/${name}`)).status, 200);
    });
  });
}
