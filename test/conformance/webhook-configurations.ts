// Validating- and MutatingWebhookConfigurations as kube-apiserver 1.37.2 refuses them (every expectation probed on
// it: temp/probes/whc-create.ts, whc-warn.ts and their output): kube's ValidateValidatingWebhookConfiguration and
// ValidateMutatingWebhookConfiguration in their order, per webhook its name, rules, policies, sideEffects, timeout,
// selectors, client (an https `url` as Go's url.Parse reads it, or a `service`), matchConditions (compiled as a
// policy's, without `params`), then its admissionReviewVersions and its name's uniqueness; a `.static.k8s.io` name
// last; an update judged again; the warning for a rule naming a resource webhooks never see. Every configuration
// accepted here has rules no request matches (a group no server serves) and `failurePolicy: Ignore`, and is deleted
// at once: the real server never calls its webhook.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { answered, invalidAnswer, type Cause } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';
import { DNS1035, DNS1123, LABEL_VALUE, QUALIFIED, STATIC } from './kube-messages.js';

const GROUP = 'admissionregistration.k8s.io';
const V = `/apis/${GROUP}/v1/validatingwebhookconfigurations`;
const M = `/apis/${GROUP}/v1/mutatingwebhookconfigurations`;
const KINDS: ReadonlyArray<[path: string, kind: string]> = [[V, 'ValidatingWebhookConfiguration'], [M, 'MutatingWebhookConfiguration']];
const RULE = { operations: ['CREATE'], apiGroups: ['example.invalid'], apiVersions: ['v1'], resources: ['nothings'] };
const FORM = '; desired format: https://host[/path]';
const HTTPS_ONLY = `'https' is the only allowed URL scheme${FORM}`;
const NO_HOST = `host must be specified${FORM}`;
const EXACTLY_ONE = 'exactly one of url or service is required';
const EXCLUDED = (at: string, resource: string): string => `${at}: ${resource} is excluded from admission webhooks; this rule will have no effect`;

const q = (text: string): string => JSON.stringify(text);
const required = (field: string, detail = ''): Cause => ['FieldValueRequired', field, detail === '' ? 'Required value' : `Required value: ${detail}`];
const invalid = (field: string, shown: string, detail: string): Cause => ['FieldValueInvalid', field, `Invalid value: ${shown}: ${detail}`];
const unsupported = (field: string, value: string, supported: readonly string[]): Cause => ['FieldValueNotSupported', field, `Unsupported value: ${q(value)}: supported values: ${supported.map(q).join(', ')}`];
const duplicate = (field: string, value: string): Cause => ['FieldValueDuplicate', field, `Duplicate value: ${q(value)}`];
const badUrl = (field: string, error: string): Cause => required(field, `url must be a valid URL: ${error}${FORM}`);
/** cel-go's compile error at an offset of a one-line text, with its snippet and caret. */
const compileError = (field: string, text: string, at: number, message: string): Cause => invalid(field, q(text), `compilation failed: ERROR: <input>:1:${at + 1}: ${message}\n | ${text}\n | ${'.'.repeat(at)}^`);

/** A webhook that matches nothing, named `a.example.com` unless `more` says otherwise. */
const hook = (more: Json = {}): Json => ({ name: 'a.example.com', clientConfig: { url: 'https://hook.example.com/x' }, rules: [RULE], sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Ignore', ...more });
/** Webhooks named `w<i>.example.com`, one for each `more`. */
const hooks = (...more: Json[]): Json[] => more.map((each, i) => hook({ name: `w${i}.example.com`, ...each }));
const W = (i: number, field: string): string => `webhooks[${i}].${field}`;

/** A case: the webhooks and the causes of the 422 (by the configuration's name), of a validating configuration unless a path says otherwise. */
type Case = [webhooks: Json[], causes: (name: string) => Cause[], path?: string];

export function webhookConfigurationSuite(backend: () => Backend): void {
  describe('webhook configurations: validation', () => {
    const send = (method: string, path: string, body?: unknown, type?: string): Promise<RawAnswer> => raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body), type);
    const kindOf = (path: string): string => (path === M ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration');

    /** Each configuration must be refused with exactly these causes, no warnings, and nothing stored. */
    async function refused(cases: readonly Case[], suffix = ''): Promise<void> {
      for (const [webhooks, causes, path = V] of cases) {
        const name = `${unique('whc')}${suffix}`;
        const answer = await send('POST', path, { metadata: { name }, webhooks });
        assert.deepEqual({ ...answered(answer), warnings: answer.warnings }, { ...invalidAnswer(GROUP, kindOf(path), name, causes(name)), warnings: [] }, JSON.stringify(webhooks));
        assert.equal((await send('GET', `${path}/${name}`)).status, 404, `nothing stored for ${JSON.stringify(webhooks)}`);
      }
    }

    /** Each configuration must be created with these warnings (none by default), then it is deleted. */
    async function accepted(path: string, webhooks: Json[], warnings: string[] = []): Promise<RawAnswer> {
      const name = unique('whc');
      const answer = await send('POST', path, { metadata: { name }, webhooks });
      assert.equal(answer.status, 201, `${JSON.stringify(webhooks)}: ${String(answer.body['message'])}`);
      assert.deepEqual(answer.warnings, warnings, JSON.stringify(webhooks));
      assert.equal((await send('DELETE', `${path}/${name}`)).status, 200);
      return answer;
    }

    test('a webhook without sideEffects, admissionReviewVersions or a client is refused by both kinds; a `.static.k8s.io` name last', async () => {
      const bare = (): Cause[] => [required(W(0, 'sideEffects'), 'must specify one of None, NoneOnDryRun'), required(W(0, 'clientConfig'), EXACTLY_ONE), required(W(0, 'admissionReviewVersions'), 'must specify one of v1, v1beta1')];
      await refused(KINDS.map(([path]): Case => [[{ name: 'a.example.com' }], bare, path]));
      await refused([[[hook({ sideEffects: 'X' })], (name) => [unsupported(W(0, 'sideEffects'), 'X', ['None', 'NoneOnDryRun']), invalid('metadata.name', q(name), STATIC)]]], '.static.k8s.io');
      await refused([[[], (name) => [invalid('metadata.name', q(name), STATIC)], M]], '.static.k8s.io');
    });

    test('a webhook’s name is a DNS subdomain of three segments or more, once in its configuration', async () => {
      await refused([
        [[hook({ name: '' })], () => [required(W(0, 'name'))]],
        [
          [hook({ name: 'bad' }), hook({ name: 'a.b' }), hook({ name: 'A.b.c' }), hook(), hook()],
          () => [
            invalid(W(0, 'name'), '"bad"', 'should be a domain with at least three segments separated by dots'),
            invalid(W(1, 'name'), '"a.b"', 'should be a domain with at least three segments separated by dots'),
            invalid(W(2, 'name'), '"A.b.c"', DNS1123),
            duplicate(W(4, 'name'), 'a.example.com'),
          ],
        ],
      ]);
    });

    test('a client is exactly one of a url and a service; the url is https, as Go’s url.Parse reads it, without user, fragment or query; a caBundle is base64', async () => {
      const url = (text: string): Json => ({ clientConfig: { url: text } });
      const U = (i: number): string => W(i, 'clientConfig.url');
      await refused([
        [[hook({ clientConfig: { url: 'https://a.example.com', service: { name: 's', namespace: 'n' } } }), hook({ name: 'b.example.com', clientConfig: {} })], () => [required(W(0, 'clientConfig'), EXACTLY_ONE), required(W(1, 'clientConfig'), EXACTLY_ONE)]],
        [
          hooks(url('http://a.example.com/x'), url('https://u:p@a.example.com/x?q=1#frag'), url('/relative'), url(''), url('a.example.com/x'), url('https:///x'), url('https://u@a.example.com?'), url('https://user:@a.example.com/')),
          () => [
            invalid(U(0), '"http"', HTTPS_ONLY),
            invalid(U(1), '"u:p"', 'user information is not permitted in the URL'),
            invalid(U(1), '"frag"', 'fragments are not permitted in the URL'),
            invalid(U(1), '"q=1"', 'query parameters are not permitted in the URL'),
            ...[2, 3, 4].flatMap((i) => [invalid(U(i), '""', HTTPS_ONLY), invalid(U(i), '""', NO_HOST)]),
            invalid(U(5), '""', NO_HOST),
            invalid(U(6), '"u"', 'user information is not permitted in the URL'),
            invalid(U(7), '"user:"', 'user information is not permitted in the URL'),
          ],
        ],
        [
          hooks(url('https://a b.example.com'), url('https://a.example.com/%zz'), url('https://a.example.com:abc/x'), url(':nope'), url('https://a.example.com/\u0001'), url('https://[::1/x'), url('https://%41.example.com/')),
          () => [
            badUrl(U(0), 'parse "https://a b.example.com": invalid character " " in host name'),
            badUrl(U(1), 'parse "https://a.example.com/%zz": invalid URL escape "%zz"'),
            badUrl(U(2), 'parse "https://a.example.com:abc/x": invalid port ":abc" after host'),
            badUrl(U(3), 'parse ":nope": missing protocol scheme'),
            badUrl(U(4), 'parse "https://a.example.com/\\x01": net/url: invalid control character in URL'),
            badUrl(U(5), 'parse "https://[::1/x": missing \']\' in host'),
            badUrl(U(6), 'parse "https://%41.example.com/": invalid URL escape "%41"'),
          ],
        ],
      ]);
      // A caBundle that is not base64 fails the decoding of the body: 400, before any validation.
      const notBase64 = await send('POST', V, { metadata: { name: unique('whc') }, webhooks: [hook({ clientConfig: { url: 'https://a.example.com', caBundle: 'not base64!' } })] });
      assert.deepEqual([notBase64.status, notBase64.body['message']], [400, 'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: illegal base64 data at input byte 3']);
    });

    test('a service needs a name and a namespace (each reported at the other’s field, as kube does), a port and a path of DNS segments', async () => {
      const service = (more: Json): Json => ({ clientConfig: { service: { name: 's', namespace: 'n', ...more } } });
      const S = (i: number, field: string): string => W(i, `clientConfig.service.${field}`);
      const port = 'port is not valid: must be between 1 and 65535, inclusive';
      await refused([
        [
          hooks({ clientConfig: { service: {} } }, { clientConfig: { service: { name: 's' } } }, { clientConfig: { service: { namespace: 'n' } } }, service({ port: 0 }), service({ port: 70000, path: 'x' })),
          () => [required(S(0, 'name')), required(S(0, 'namespace')), required(S(1, 'name')), required(S(2, 'namespace')), invalid(S(3, 'port'), '0', port), invalid(S(4, 'port'), '70000', port), invalid(S(4, 'path'), '"x"', "must start with a '/'"), invalid(S(4, 'path'), '"x"', 'segment[0] may not be empty')],
        ],
        [
          hooks(service({ path: '//' }), service({ path: '/a//B_c/' }), service({ path: 'a//' })),
          () => [
            invalid(S(0, 'path'), '"//"', 'segment[0] may not be empty'),
            invalid(S(1, 'path'), '"/a//B_c/"', 'segment[1] may not be empty'),
            invalid(S(1, 'path'), '"/a//B_c/"', `segment[2]: ${DNS1123}`),
            invalid(S(2, 'path'), '"a//"', "must start with a '/'"),
            invalid(S(2, 'path'), '"a//"', 'segment[0] may not be empty'),
            invalid(S(2, 'path'), '"a//"', 'segment[1] may not be empty'),
          ],
        ],
      ]);
    });

    test('failurePolicy, matchPolicy, sideEffects (None or NoneOnDryRun), timeoutSeconds (1 to 30) and reinvocationPolicy are checked', async () => {
      const sideEffects = ['None', 'NoneOnDryRun'];
      await refused([
        [
          [hook({ failurePolicy: 'X', matchPolicy: 'Y', sideEffects: 'Some', timeoutSeconds: 31 }), hook({ name: 'b.example.com', sideEffects: 'Unknown', timeoutSeconds: 0 }), hook({ name: 'c.example.com', sideEffects: 'Z', timeoutSeconds: -1 })],
          () => [
            unsupported(W(0, 'failurePolicy'), 'X', ['Fail', 'Ignore']),
            unsupported(W(0, 'matchPolicy'), 'Y', ['Equivalent', 'Exact']),
            unsupported(W(0, 'sideEffects'), 'Some', sideEffects),
            invalid(W(0, 'timeoutSeconds'), '31', 'the timeout value must be between 1 and 30 seconds'),
            unsupported(W(1, 'sideEffects'), 'Unknown', sideEffects),
            invalid(W(1, 'timeoutSeconds'), '0', 'the timeout value must be between 1 and 30 seconds'),
            unsupported(W(2, 'sideEffects'), 'Z', sideEffects),
            invalid(W(2, 'timeoutSeconds'), '-1', 'the timeout value must be between 1 and 30 seconds'),
          ],
        ],
        [[hook({ failurePolicy: 'X', reinvocationPolicy: 'Z', sideEffects: 'NoneOnDryRun' })], () => [unsupported(W(0, 'failurePolicy'), 'X', ['Fail', 'Ignore']), unsupported(W(0, 'reinvocationPolicy'), 'Z', ['IfNeeded', 'Never'])], M],
      ]);
    });

    test('admissionReviewVersions: at least one, DNS-1035 labels, each once, one of them v1 or v1beta1', async () => {
      const A = (i: number, index?: number): string => W(i, `admissionReviewVersions${index === undefined ? '' : `[${index}]`}`);
      await refused([
        [
          hooks({ admissionReviewVersions: ['v2'] }, { admissionReviewVersions: ['v1', 'v1', 'V1', 'v1beta1', ''] }, { admissionReviewVersions: [] }, { admissionReviewVersions: ['x', 'x'] }),
          () => [
            invalid(A(0), '["v2"]', 'must include at least one of v1, v1beta1'),
            invalid(A(1, 1), '"v1"', 'duplicate version'),
            invalid(A(1, 2), '"V1"', DNS1035),
            invalid(A(1, 4), '""', DNS1035),
            required(A(2), 'must specify one of v1, v1beta1'),
            invalid(A(3, 1), '"x"', 'duplicate version'),
            invalid(A(3), '["x","x"]', 'must include at least one of v1, v1beta1'),
          ],
        ],
      ]);
    });

    test('selectors and rules are refused as a policy’s', async () => {
      const N = W(0, 'namespaceSelector');
      const R = W(0, 'rules[1]');
      const selectors = {
        namespaceSelector: { matchLabels: { 'a b': 'c d' }, matchExpressions: [{ key: 'k', operator: 'In' }, { key: 'k', operator: 'Nope', values: ['bad value'] }] },
        objectSelector: { matchExpressions: [{ key: 'k', operator: 'Exists', values: ['x'] }] },
      };
      await refused([
        [
          [hook(selectors)],
          () => [
            invalid(`${N}.matchLabels`, '"a b"', `name part ${QUALIFIED}`),
            invalid(`${N}.matchLabels`, '"c d"', LABEL_VALUE),
            required(`${N}.matchExpressions[0].values`, "must be specified when `operator` is 'In' or 'NotIn'"),
            invalid(`${N}.matchExpressions[1].operator`, '"Nope"', 'not a valid selector operator'),
            invalid(`${N}.matchExpressions[1].values[0]`, '"bad value"', LABEL_VALUE),
            ['FieldValueForbidden', W(0, 'objectSelector.matchExpressions[0].values'), "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
          ],
        ],
        [
          [hook({ rules: [{}, { operations: ['*', 'GET'], apiGroups: ['*', 'x'], apiVersions: ['*', ''], resources: ['*', 'a/*', 'a/b', ''], scope: 'Nope' }] })],
          () => [
            ...['operations', 'apiGroups', 'apiVersions', 'resources'].map((field) => required(W(0, `rules[0].${field}`))),
            invalid(`${R}.operations`, '["*","GET"]', "if '*' is present, must not specify other operations"),
            unsupported(`${R}.operations[1]`, 'GET', ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE']),
            invalid(`${R}.apiGroups`, '["*","x"]', "if '*' is present, must not specify other API groups"),
            invalid(`${R}.apiVersions`, '["*",""]', "if '*' is present, must not specify other API versions"),
            required(`${R}.apiVersions[1]`),
            invalid(`${R}.resources[2]`, '"a/b"', "if 'a/*' is present, must not specify a/b"),
            required(`${R}.resources[3]`),
            unsupported(`${R}.scope`, 'Nope', ['*', 'Cluster', 'Namespaced']),
          ],
        ],
      ]);
    });

    test('matchConditions are compiled as a policy’s without params or variables; authorizer and namespaceObject are declared', async () => {
      const C = (i: number, field: string): string => W(0, `matchConditions[${i}].${field}`);
      const conditions = [
        { name: 'a', expression: '1' },
        { name: 'a', expression: 'true' },
        { name: 'Bad Name', expression: ' request.nope' },
        { name: '', expression: '' },
        { name: 'p', expression: 'params.x' },
        { name: 'v', expression: 'variables.x' },
        { name: 'o', expression: 'object.x' },
      ];
      await refused([
        [
          [hook({ matchConditions: conditions })],
          () => [
            invalid(C(0, 'expression'), '"1"', 'must evaluate to bool but got int'),
            duplicate(C(1, 'name'), 'a'),
            compileError(C(2, 'expression'), 'request.nope', 7, "undefined field 'nope'"),
            invalid(C(2, 'name'), '"Bad Name"', `name part ${QUALIFIED}`),
            required(C(3, 'expression')),
            required(C(3, 'name')),
            compileError(C(4, 'expression'), 'params.x', 0, "undeclared reference to 'params' (in container '')"),
            compileError(C(5, 'expression'), 'variables.x', 0, "undeclared reference to 'variables' (in container '')"),
            invalid(C(6, 'expression'), '"object.x"', 'must evaluate to bool but got dyn'),
          ],
        ],
        [[hook({ matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })) })], () => [['FieldValueTooMany', W(0, 'matchConditions'), 'Too many: 65: must have at most 64 items']]],
      ]);
      // A syntax error: its code, reason and field (cel-go's words are pinned in crd-schemas.ts).
      const name = unique('whc');
      const answer = await send('POST', V, { metadata: { name }, webhooks: [hook({ matchConditions: [{ name: 'a', expression: 'object.(' }] })] });
      const causes = (answer.body['details'] as { causes?: Json[] } | undefined)?.causes ?? [];
      assert.deepEqual([answer.status, causes.map((cause) => [cause['reason'], cause['field']])], [422, [['FieldValueInvalid', C(0, 'expression')]]]);
      assert.ok(String(causes[0]?.['message']).startsWith('Invalid value: "object.(": compilation failed: ERROR: <input>:'), String(causes[0]?.['message']));
      const declared = ["authorizer.group('').resource('pods').check('get').allowed()", "namespaceObject.metadata.name == 'x'", 'has(object.x) && oldObject == null', 'request.dryRun'];
      await accepted(V, [hook({ matchConditions: declared.map((expression, i) => ({ name: `c${i}`, expression })) })]);
    });

    test('accepted: both kinds defaulted, an uppercase scheme, any port number in a url, an empty fragment, a service, no webhooks', async () => {
      for (const [path] of KINDS) {
        const answer = await accepted(path, [hook()]);
        const defaults = { ...hook(), rules: [{ ...RULE, scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10, ...(path === M ? { reinvocationPolicy: 'Never' } : {}) };
        assert.deepEqual(answer.body['webhooks'], [defaults]);
      }
      const url = (text: string): Json => ({ clientConfig: { url: text } });
      await accepted(V, hooks(url('HTTPS://A.example.com'), url('https://a.example.com:99999/x'), url('https://a.example.com#'), { clientConfig: { service: { name: 'S!', namespace: 'N!', path: '/ok/fine.x/' } } }));
      await accepted(M, []);
    });

    test('a rule naming a resource admission webhooks never see is warned about, once per resource, on create and update', async () => {
      const excluded = { operations: ['CREATE'], apiGroups: ['authentication.k8s.io', 'authorization.k8s.io'], apiVersions: ['v1'], resources: ['tokenreviews', 'subjectaccessreviews', 'tokenreviews'] };
      const wildcard = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['tokenreviews'] };
      const R = W(0, 'rules[0]');
      await accepted(V, [hook({ rules: [excluded, wildcard] })], [EXCLUDED(R, 'tokenreviews.authentication.k8s.io'), EXCLUDED(R, 'subjectaccessreviews.authorization.k8s.io')]);
      const subresource = { ...excluded, apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews/x', 'selfsubjectrulesreviews'] };
      await accepted(M, [hook({ rules: [subresource] })], [EXCLUDED(R, 'selfsubjectrulesreviews.authorization.k8s.io')]);
      const name = unique('whc');
      assert.equal((await send('POST', V, { metadata: { name }, webhooks: [hook()] })).status, 201);
      const patched = await send('PATCH', `${V}/${name}`, { webhooks: [hook({ rules: [{ ...RULE, apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] }] })] }, 'application/merge-patch+json');
      assert.deepEqual([patched.status, patched.warnings], [200, [EXCLUDED(R, 'selfsubjectreviews.authentication.k8s.io')]]);
      assert.equal((await send('DELETE', `${V}/${name}`)).status, 200);
      // A configuration refused for something else gets no warning: they come once the validation passed.
      const refusedWithExcluded = await send('POST', V, { metadata: { name: unique('whc') }, webhooks: [hook({ rules: [excluded], timeoutSeconds: 31 })] });
      assert.deepEqual([refusedWithExcluded.status, refusedWithExcluded.warnings], [422, []]);
    });

    test('an update is judged as a create, the `.static.k8s.io` rule aside: a PUT, a merge patch and a JSON patch are refused, nothing changes', async () => {
      const name = unique('whc');
      const stored = [hook({ matchConditions: [{ name: 'm', expression: 'true' }] })];
      assert.equal((await send('POST', V, { metadata: { name }, webhooks: stored })).status, 201);
      const put = async (webhooks: Json[], causes: Cause[]): Promise<void> => {
        const version = ((await send('GET', `${V}/${name}`)).body['metadata'] as Json)['resourceVersion'];
        assert.deepEqual(answered(await send('PUT', `${V}/${name}`, { metadata: { name, resourceVersion: version }, webhooks })), invalidAnswer(GROUP, 'ValidatingWebhookConfiguration', name, causes));
      };
      await put([hook({ sideEffects: 'Some' })], [unsupported(W(0, 'sideEffects'), 'Some', ['None', 'NoneOnDryRun'])]);
      await put([hook({ admissionReviewVersions: [] }), hook()], [required(W(0, 'admissionReviewVersions'), 'must specify one of v1, v1beta1'), duplicate(W(1, 'name'), 'a.example.com')]);
      await put([hook({ matchConditions: [{ name: 'm', expression: '1' }] })], [invalid(W(0, 'matchConditions[0].expression'), '"1"', 'must evaluate to bool but got int')]);
      const merge = await send('PATCH', `${V}/${name}`, { webhooks: [hook({ timeoutSeconds: 99 })] }, 'application/merge-patch+json');
      assert.deepEqual(answered(merge), invalidAnswer(GROUP, 'ValidatingWebhookConfiguration', name, [invalid(W(0, 'timeoutSeconds'), '99', 'the timeout value must be between 1 and 30 seconds')]));
      const json = await send('PATCH', `${V}/${name}`, [{ op: 'replace', path: '/webhooks/0/clientConfig/url', value: 'http://x' }], 'application/json-patch+json');
      assert.deepEqual(answered(json), invalidAnswer(GROUP, 'ValidatingWebhookConfiguration', name, [invalid(W(0, 'clientConfig.url'), '"http"', HTTPS_ONLY)]));
      const after = (await send('GET', `${V}/${name}`)).body;
      assert.deepEqual([(after['metadata'] as Json)['generation'], (after['webhooks'] as Json[])[0]?.['matchConditions'], (after['webhooks'] as Json[])[0]?.['timeoutSeconds']], [1, [{ name: 'm', expression: 'true' }], 10]);
      assert.equal((await send('DELETE', `${V}/${name}`)).status, 200);
    });
  });
}
