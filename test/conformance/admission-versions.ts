// Admission of a custom resource served in two versions, as kube-apiserver does it: the request is admitted in the
// version the client wrote in; a webhook or policy whose rules name another served version matches it under
// `matchPolicy: Equivalent` (the default), not under `Exact`, and is sent the object converted to the version its
// rule names (`kind` says which, `requestKind` the client's), through the CRD's conversion webhook when it has one;
// what a mutating webhook patches there is converted back and stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { webhookServer, type FakeWebhook } from '../support/fake-webhook.js';
import { unique, waitFor, type Backend, type Json } from './backend.js';
import { raw, type RawAnswer } from './raw-http.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const GROUP = 'versions.conformance.katalog.dev';

/** The conversion of the suite's CRDs: v1beta1 calls `spec.size` `spec.count`. */
function converted(object: Json, apiVersion: string): Json {
  const out = structuredClone(object);
  out['apiVersion'] = apiVersion;
  const spec = out.spec;
  if (spec !== undefined && apiVersion.endsWith('/v1') && 'count' in spec) {
    spec['size'] = spec['count'];
    delete spec['count'];
  }
  if (spec !== undefined && apiVersion.endsWith('/v1beta1') && 'size' in spec) {
    spec['count'] = spec['size'];
    delete spec['size'];
  }
  return out;
}

export function admissionVersionSuite(backend: () => Backend): void {
  describe('admission of a custom resource served in several versions', { skip: hasOpenssl ? false : 'openssl is not on PATH' }, () => {
    let webhook: FakeWebhook;
    const namespace = unique('versions');
    const id = namespace.replace(/^versions-/, '');
    const request = (method: string, path: string, body?: unknown, type?: string): Promise<RawAnswer> => raw(backend().kubeConfig, method, path, body === undefined ? undefined : JSON.stringify(body), type);
    /** What each admission webhook was sent by `run`, by path (the validating ones are called together: sorted). */
    const sentBy = async (run: () => Promise<RawAnswer>): Promise<{ answer: RawAnswer; sent: string[] }> => {
      webhook.calls.length = 0;
      const answer = await run();
      const sent = webhook.calls
        .filter((call) => call.path !== '/convert')
        .map((call) => {
          const review = (JSON.parse(call.text) as { request: Json }).request;
          const object = review['object'] as Json;
          const version = (value: unknown): string => String((value as Json)['version']);
          return `${call.path} kind=${version(review['kind'])} resource=${version(review['resource'])} requestKind=${version(review['requestKind'])} requestResource=${version(review['requestResource'])} object=${String(object['apiVersion'])} ${JSON.stringify(object.spec)} ${JSON.stringify(object.metadata?.['labels'] ?? {})}`;
        });
      const [mutating, validating] = [sent.filter((line) => line.startsWith('/mutating')), sent.filter((line) => !line.startsWith('/mutating'))];
      return { answer, sent: [...mutating, ...validating.sort()] };
    };

    before(async () => {
      const tls = await selfSignedCertificate();
      const caBundle = Buffer.from(tls.cert).toString('base64');
      webhook = await webhookServer(tls);
      webhook.answer = (review, path) => {
        if (path === '/convert') return { convertedObjects: (review['objects'] as Json[]).map((object) => converted(object, String(review['desiredAPIVersion']))), result: { status: 'Success' } };
        const object = review['object'] as Json | null;
        const name = String(object?.metadata?.['name'] ?? '');
        if (path === '/mutating' && name.startsWith('mutated')) {
          const patch = [{ op: 'add', path: '/metadata/labels', value: { seen: String(object?.['apiVersion']).split('/')[1] } }];
          return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
        }
        return { allowed: true };
      };
      assert.equal((await request('POST', '/api/v1/namespaces', { metadata: { name: namespace } })).status, 201);
      const schema = (field: string): Json => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'integer' } } } } } });
      for (const [plural, kind, conversion] of [
        ['gizmos', 'Gizmo', undefined],
        ['doodads', 'Doodad', { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${webhook.url}/convert`, caBundle } } }],
      ] as const) {
        await backend().applyCrd({
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: `${plural}.${GROUP}` },
          spec: {
            group: GROUP,
            scope: 'Namespaced',
            names: { plural, kind },
            versions: [
              { name: 'v1beta1', served: true, storage: false, schema: schema(conversion === undefined ? 'size' : 'count') },
              { name: 'v1', served: true, storage: true, schema: schema('size') },
            ],
            ...(conversion === undefined ? {} : { conversion }),
          },
        });
      }
      const rules = (versions: string[]): Json[] => [{ operations: ['CREATE', 'UPDATE'], apiGroups: [GROUP], apiVersions: versions, resources: ['gizmos', 'doodads'] }];
      const configured = (path: string, versions: string[], matchPolicy: string): Json => ({
        name: `${path}.${id}.versions.example.com`,
        clientConfig: { url: `${webhook.url}/${path}`, caBundle },
        rules: rules(versions),
        matchPolicy,
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: 5,
      });
      const admission = '/apis/admissionregistration.k8s.io/v1';
      assert.equal((await request('POST', `${admission}/mutatingwebhookconfigurations`, { metadata: { name: `versions-${id}` }, webhooks: [configured('mutating', ['v1'], 'Equivalent')] })).status, 201);
      const validating = [configured('validating-equivalent', ['v1'], 'Equivalent'), configured('validating-exact', ['v1'], 'Exact'), configured('validating-beta', ['v1beta1'], 'Exact')];
      assert.equal((await request('POST', `${admission}/validatingwebhookconfigurations`, { metadata: { name: `versions-${id}` }, webhooks: validating })).status, 201);
      for (const [name, matchPolicy] of [
        [`equivalent-${id}`, 'Equivalent'],
        [`exact-${id}`, 'Exact'],
      ] as const) {
        const spec = {
          matchConstraints: { matchPolicy, resourceRules: rules(['v1']), objectSelector: { matchLabels: { policy: matchPolicy } } },
          validations: [{ expression: 'false', messageExpression: "request.kind.version + ' ' + request.requestKind.version + ' ' + object.apiVersion + ' ' + string(object.spec.size)" }],
        };
        assert.equal((await request('POST', `${admission}/validatingadmissionpolicies`, { metadata: { name }, spec })).status, 201);
        assert.equal((await request('POST', `${admission}/validatingadmissionpolicybindings`, { metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } })).status, 201);
      }
      // kube-apiserver calls the webhooks and enforces the policies once its informers have them.
      const probe = async (labels: Record<string, string>): Promise<RawAnswer> => request('POST', `/apis/${GROUP}/v1/namespaces/${namespace}/gizmos?dryRun=All`, { apiVersion: `${GROUP}/v1`, kind: 'Gizmo', metadata: { name: 'probe', labels } });
      await waitFor('the policies to be in force', async () => (await probe({ policy: 'Exact' })).status === 422);
      await waitFor('the webhooks to be called', async () => {
        webhook.calls.length = 0;
        await probe({});
        return webhook.calls.some((call) => call.path === '/validating-exact') && webhook.calls.some((call) => call.path === '/mutating');
      });
    });

    after(async () => {
      await webhook?.close();
    });

    const at = (version: string, plural: string): string => `/apis/${GROUP}/${version}/namespaces/${namespace}/${plural}`;
    const body = (version: string, kind: string, name: string, spec: Json, labels: Record<string, string> = {}): Json => ({ apiVersion: `${GROUP}/${version}`, kind, metadata: { name, labels }, spec });
    const review = (path: string, kind: string, request: string, object: string, spec: Json, labels: Json = {}): string =>
      `/${path} kind=${kind} resource=${kind} requestKind=${request} requestResource=${request} object=${GROUP}/${object} ${JSON.stringify(spec)} ${JSON.stringify(labels)}`;

    test('a rule for v1 matches a v1beta1 request under Equivalent (sent at v1), not under Exact; a v1beta1 rule is sent v1beta1', async () => {
      const { answer, sent } = await sentBy(() => request('POST', at('v1beta1', 'gizmos'), body('v1beta1', 'Gizmo', 'mutated', { size: 1 })));
      assert.equal(answer.status, 201);
      assert.deepEqual(sent, [
        review('mutating', 'v1', 'v1beta1', 'v1', { size: 1 }),
        review('validating-beta', 'v1beta1', 'v1beta1', 'v1beta1', { size: 1 }, { seen: 'v1' }),
        review('validating-equivalent', 'v1', 'v1beta1', 'v1', { size: 1 }, { seen: 'v1' }),
      ]);
      assert.deepEqual((answer.body['metadata'] as Json)['labels'], { seen: 'v1' });
      const inV1 = await sentBy(() => request('POST', at('v1', 'gizmos'), body('v1', 'Gizmo', 'plain', { size: 2 })));
      assert.deepEqual(inV1.sent, [review('mutating', 'v1', 'v1', 'v1', { size: 2 }), review('validating-equivalent', 'v1', 'v1', 'v1', { size: 2 }), review('validating-exact', 'v1', 'v1', 'v1', { size: 2 })]);
    });

    test('through a conversion webhook: each webhook is sent the object converted to its version; a mutation at v1 is converted back and stored', async () => {
      const created = await sentBy(() => request('POST', at('v1beta1', 'doodads'), body('v1beta1', 'Doodad', 'mutated', { count: 3 })));
      assert.equal(created.answer.status, 201);
      assert.deepEqual(created.sent, [
        review('mutating', 'v1', 'v1beta1', 'v1', { size: 3 }),
        review('validating-beta', 'v1beta1', 'v1beta1', 'v1beta1', { count: 3 }, { seen: 'v1' }),
        review('validating-equivalent', 'v1', 'v1beta1', 'v1', { size: 3 }, { seen: 'v1' }),
      ]);
      assert.deepEqual([created.answer.body['spec'], (created.answer.body['metadata'] as Json)['labels']], [{ count: 3 }, { seen: 'v1' }]);
      const patched = await sentBy(() => request('PATCH', `${at('v1beta1', 'doodads')}/mutated`, { spec: { count: 4 } }, 'application/merge-patch+json'));
      assert.equal(patched.answer.status, 200);
      assert.deepEqual(patched.sent, [
        review('mutating', 'v1', 'v1beta1', 'v1', { size: 4 }, { seen: 'v1' }),
        review('validating-beta', 'v1beta1', 'v1beta1', 'v1beta1', { count: 4 }, { seen: 'v1' }),
        review('validating-equivalent', 'v1', 'v1beta1', 'v1', { size: 4 }, { seen: 'v1' }),
      ]);
    });

    test('a policy for v1 judges a v1beta1 request at v1 under Equivalent, not under Exact', async () => {
      for (const [plural, kind, spec] of [
        ['gizmos', 'Gizmo', { size: 5 }],
        ['doodads', 'Doodad', { count: 5 }],
      ] as const) {
        const judged = await request('POST', at('v1beta1', plural), body('v1beta1', kind, `judged-${plural}`, spec, { policy: 'Equivalent' }));
        assert.equal(judged.status, 422);
        assert.match(String(judged.body['message']), new RegExp(`ValidatingAdmissionPolicy 'equivalent-${id}' with binding 'equivalent-${id}' denied request: v1 v1beta1 ${GROUP}/v1 5$`));
        assert.equal((await request('POST', at('v1beta1', plural), body('v1beta1', kind, `exact-${plural}`, spec, { policy: 'Exact' }))).status, 201);
      }
    });
  });
}
