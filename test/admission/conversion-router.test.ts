// The conversion router without a port (app.request): ConversionReview in, ConversionReview out, per Orkestra's
// webhook (orkspace/orkestra health/conversion.go, health/conversion_logic.go and its test
// health/conversion_logic_test.go, whose Website v1alpha1 ⇄ v1 rules these rows reuse): the spec replaced by the
// path's rendered spec, metadata and status kept, apiVersion set; every object or none; clear errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { createConversionRouter, KatalogError, type ConversionOutcome } from '../../src/index.js';

const definition = parseDefinition(`
apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: demo }
spec:
  crds:
    website:
      apiTypes: { group: demo.orkestra.io, version: v1, kind: Website, plural: websites }
      conversion:
        storageVersion: v1
        paths:
          - from: v1alpha1
            to: v1
            spec:
              image: "{{ .spec.image }}"
              replicas: "{{ .spec.replicas }}"
              port: "{{ .spec.port }}"
              seo: { enabled: false }
              owner: "{{ .metadata.name }}-{{ default \\"x\\" .spec.team }}"
          - from: v1
            to: v1alpha1
            spec:
              image: "{{ .spec.image }}"
              replicas: "{{ .spec.replicas }}"
              port: "{{ .spec.port }}"
              theme: default
          - from: v1beta1
            to: v1
            spec:
              image: "{{ toInt .spec.image }}"
    gadget:
      apiTypes: { group: demo.orkestra.io, version: v1, kind: Gadget, plural: gadgets }
`);

const alpha = (name: string, spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'demo.orkestra.io/v1alpha1',
  kind: 'Website',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', labels: { app: name } },
  spec: { image: 'myorg/nginx:1.25', replicas: 2, port: '80', theme: 'dark', ...spec },
  status: { phase: 'Ready' },
});

function review(desiredAPIVersion: string, objects: unknown[], uid = 'u-1'): string {
  return JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } });
}

async function post(router: ReturnType<typeof createConversionRouter>, body: string, path = '/convert'): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await router.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

interface Answer {
  uid: string;
  convertedObjects: Record<string, unknown>[];
  result: { status: string; message?: string };
}

const outcomes: ConversionOutcome[] = [];
const router = createConversionRouter(definition, { onConversion: (outcome) => outcomes.push(outcome) });

test('up-conversion v1alpha1 → v1: the spec is the path\'s spec rendered; metadata, status and kind kept; apiVersion set', async () => {
  const { status, json } = await post(router, review('demo.orkestra.io/v1', [alpha('blog')]));
  assert.equal(status, 200);
  assert.equal(json.apiVersion, 'apiextensions.k8s.io/v1');
  assert.equal(json.kind, 'ConversionReview');
  const answer = json.response as Answer;
  assert.equal(answer.uid, 'u-1');
  assert.deepEqual(answer.result, { status: 'Success' });
  assert.deepEqual(answer.convertedObjects, [
    {
      apiVersion: 'demo.orkestra.io/v1',
      kind: 'Website',
      metadata: { name: 'blog', namespace: 'default', uid: 'uid-blog', resourceVersion: '7', labels: { app: 'blog' } },
      // A single action keeps its value's type (replicas stays 2); theme, which v1 does not have, is gone.
      spec: { image: 'myorg/nginx:1.25', replicas: 2, port: '80', seo: { enabled: false }, owner: 'blog-x' },
      status: { phase: 'Ready' },
    },
  ]);
});

test('down-conversion v1 → v1alpha1 adds the path\'s default (theme) and drops what v1alpha1 lacks (seo)', async () => {
  const v1 = { ...alpha('blog'), apiVersion: 'demo.orkestra.io/v1', spec: { image: 'a:1', replicas: 3, port: '8080', seo: { enabled: true } } };
  const answer = (await post(router, review('demo.orkestra.io/v1alpha1', [v1]))).json.response as Answer;
  assert.deepEqual(answer.convertedObjects.map((o) => [o.apiVersion, o.spec]), [['demo.orkestra.io/v1alpha1', { image: 'a:1', replicas: 3, port: '8080', theme: 'default' }]]);
});

test('the same version: only apiVersion is written, the object is otherwise as sent', async () => {
  const object = alpha('same');
  const answer = (await post(router, review('demo.orkestra.io/v1alpha1', [object]))).json.response as Answer;
  assert.deepEqual(answer.convertedObjects, [object]);
});

test('several objects (a list): each converted, in order', async () => {
  const answer = (await post(router, review('demo.orkestra.io/v1', [alpha('a'), alpha('b'), alpha('c')]))).json.response as Answer;
  assert.deepEqual(answer.convertedObjects.map((o) => (o.metadata as { name: string }).name), ['a', 'b', 'c']);
  assert.ok(answer.convertedObjects.every((o) => o.apiVersion === 'demo.orkestra.io/v1'));
});

const failures: Array<[string, string, unknown[], RegExp]> = [
  ['an undeclared pair (Orkestra\'s message)', 'demo.orkestra.io/v1beta1', [alpha('a')], /^no conversion path declared for v1alpha1 → v1beta1 in kind "Website"/],
  ['a kind without conversion', 'demo.orkestra.io/v2', [{ ...alpha('g'), kind: 'Gadget' }], /^no conversion rules for kind "Gadget" of group "demo\.orkestra\.io"$/],
  ['another group', 'other.io/v1', [alpha('a')], /^cannot convert Website from group demo\.orkestra\.io to other\.io\/v1$/],
  ['an object without apiVersion', 'demo.orkestra.io/v1', [{ kind: 'Website', metadata: { name: 'x' } }], /^object missing apiVersion$/],
  ['an object without kind', 'demo.orkestra.io/v1', [{ apiVersion: 'demo.orkestra.io/v1alpha1', metadata: { name: 'x' } }], /^object missing kind$/],
  ['a template that fails on the object', 'demo.orkestra.io/v1', [{ ...alpha('b'), apiVersion: 'demo.orkestra.io/v1beta1' }], /^converting spec from v1beta1 to v1: .*spec\.crds\.website\.conversion\.paths\[2\]\.spec\.image/],
];

for (const [what, desired, objects, message] of failures) {
  test(`failure — ${what}: result Failure with the message, no converted object`, async () => {
    const { status, json } = await post(router, review(desired, objects, 'u-f'));
    assert.equal(status, 200);
    const answer = json.response as Answer;
    assert.equal(answer.uid, 'u-f');
    assert.equal(answer.result.status, 'Failure');
    assert.match(answer.result.message ?? '', message);
    assert.deepEqual(answer.convertedObjects, []);
  });
}

test('one failing object among several: none is converted', async () => {
  const answer = (await post(router, review('demo.orkestra.io/v1', [alpha('a'), { ...alpha('b'), kind: 'Gadget' }, alpha('c')]))).json.response as Answer;
  assert.equal(answer.result.status, 'Failure');
  assert.deepEqual(answer.convertedObjects, []);
});

test('onConversion hears the kind, versions, count and outcome, never an object', async () => {
  outcomes.length = 0;
  await post(router, review('demo.orkestra.io/v1', [alpha('a'), alpha('b')]));
  await post(router, review('demo.orkestra.io/v1beta1', [alpha('a')]));
  assert.deepEqual(outcomes, [
    { kinds: ['Website'], desiredAPIVersion: 'demo.orkestra.io/v1', objects: 2, succeeded: true },
    { kinds: ['Website'], desiredAPIVersion: 'demo.orkestra.io/v1beta1', objects: 1, succeeded: false },
  ]);
});

test('bad requests: 400 with what is wrong; another path 404; another method 405', async () => {
  const bad: Array<[string, RegExp]> = [
    ['{', /not valid JSON/],
    [JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', request: {} }), /expected apiVersion apiextensions\.k8s\.io\/v1 and kind ConversionReview/],
    [JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }), /request is missing/],
    [JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'u', objects: [] } }), /desiredAPIVersion is missing/],
    [JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'u', desiredAPIVersion: 'a/v1', objects: [1] } }), /objects\[0\] is not an object/],
  ];
  for (const [body, message] of bad) {
    const { status, json } = await post(router, body);
    assert.equal(status, 400, body);
    assert.match(String(json.message), message);
  }
  assert.equal((await post(router, review('demo.orkestra.io/v1', []), '/other')).status, 404);
  const get = await router.request('/convert');
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
});

test('converters: code converts the pairs no path declares; a declared path wins; a throw is a Failure', async () => {
  const withCode = createConversionRouter(definition, {
    converters: {
      website: (object, toVersion) => {
        if (toVersion === 'v2') throw new Error('v2 is not ready');
        return { ...object, spec: { converted: toVersion }, metadata: { name: 'changed' } };
      },
      gadget: (object) => ({ ...object, spec: { size: 1 } }),
    },
  });
  const coded = (await post(withCode, review('demo.orkestra.io/v1beta1', [alpha('a')]))).json.response as Answer;
  // metadata is never changed by a conversion, whatever the converter returns
  assert.deepEqual(coded.convertedObjects.map((o) => [o.apiVersion, o.spec, (o.metadata as { name: string }).name]), [['demo.orkestra.io/v1beta1', { converted: 'v1beta1' }, 'a']]);
  const declared = (await post(withCode, review('demo.orkestra.io/v1', [alpha('a')]))).json.response as Answer;
  assert.equal((declared.convertedObjects[0]?.spec as { seo?: unknown }).seo !== undefined, true);
  const gadget = (await post(withCode, review('demo.orkestra.io/v2', [{ ...alpha('g'), kind: 'Gadget' }]))).json.response as Answer;
  assert.deepEqual(gadget.convertedObjects[0]?.spec, { size: 1 });
  const thrown = (await post(withCode, review('demo.orkestra.io/v2', [alpha('a')]))).json.response as Answer;
  assert.deepEqual(thrown.result, { status: 'Failure', message: 'the converter of website failed from v1alpha1 to v2: v2 is not ready' });
});

test('construction errors: a converter of no CRD, and one path declared by two entries of one kind', () => {
  assert.throws(() => createConversionRouter(definition, { converters: { nope: (o) => o } }), (error: unknown) => error instanceof KatalogError && /converters names "nope"/.test(error.message));
  const twice = parseDefinition(`
apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: demo }
spec:
  crds:
    website-v1alpha1:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Website, plural: websites }
      conversion: { storageVersion: v1, paths: [{ from: v1alpha1, to: v1, spec: {} }] }
    website-v1:
      apiTypes: { group: demo.orkestra.io, version: v1, kind: Website, plural: websites }
      conversion: { storageVersion: v1, paths: [{ from: v1alpha1, to: v1, spec: {} }] }
`);
  assert.throws(() => createConversionRouter(twice), /the path v1alpha1 → v1 of kind demo\.orkestra\.io\/Website is declared by both website-v1alpha1 and website-v1/);
});
