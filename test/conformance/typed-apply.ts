// Server-side apply of a body its schema does not fit: kube-apiserver converts an apply body to a typed value of the
// schema before anything else, and a field the schema does not declare or a value of the wrong shape is a 500
// "failed to create typed patch object", whatever fieldValidation says, with nothing stored. Probed on
// kube-apiserver 1.37.2; each body below has one problem, since with several kube-apiserver names them in Go's map
// order, which is random.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { raw } from './raw-http.js';

const GROUP = 'typed.conformance.katalog.dev';
const GADGETS = `/apis/${GROUP}/v1/namespaces/default/gadgets`;
const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';
const APPLY = 'application/apply-patch+yaml';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  size: { type: 'integer' },
                  on: { type: 'boolean' },
                  title: { type: 'string' },
                  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  open: { type: 'object' },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                  },
                  tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                  template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      },
    ],
  },
};

const PREFIX = (name: string, kind: string): string => `failed to create typed patch object (/${name}; ${kind}): `;

/** An apply of `body` to a new Gadget: the answer and its message. */
async function applyGadget(backend: Backend, name: string, body: Record<string, unknown>, query = ''): Promise<{ status: number; message: unknown }> {
  const text = JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name }, ...body });
  const answer = await raw(backend.kubeConfig, 'PATCH', `${GADGETS}/${name}?fieldManager=typed${query}`, text, APPLY);
  return { status: answer.status, message: answer.body['message'] };
}

export function typedApplySuite(backend: () => Backend): void {
  describe('server-side apply of a body its schema does not fit', () => {
    test('an undeclared field or a value of the wrong shape is a 500 in every fieldValidation mode; nothing is stored', async () => {
      await backend().applyCrd(crd);
      const kind = `${GROUP}/v1, Kind=Gadget`;
      for (const mode of ['', '&fieldValidation=Warn', '&fieldValidation=Ignore', '&fieldValidation=Strict']) {
        const name = unique('typed');
        const answer = await applyGadget(backend(), name, { spec: { size: 1, bogus: 2 } }, mode);
        assert.deepEqual(answer, { status: 500, message: `${PREFIX(name, kind)}.spec.bogus: field not declared in schema` }, `fieldValidation${mode}`);
        assert.equal(await backend().get(`${GROUP}/v1`, 'Gadget', name), undefined, 'nothing stored');
      }
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ top: 1 }, '.top: field not declared in schema'],
        [{ metadata: { name: 'x', bogus: 1 } }, '.metadata.bogus: field not declared in schema'],
        [{ status: { ready: true, extra: 1 } }, '.status.extra: field not declared in schema'],
        [{ spec: { size: 'big' } }, '.spec.size: expected numeric (int or float), got string'],
        [{ spec: { size: { a: 1 } } }, '.spec.size: expected numeric (int or float), got map[string]interface {}'],
        [{ spec: { title: 1 } }, '.spec.title: expected string, got &value.valueUnstructured{Value:1}'],
        [{ spec: { title: { b: 'x', a: 1 } } }, '.spec.title: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"a":1, "b":"x"}}'],
        [{ spec: { on: 'yes' } }, '.spec.on: expected boolean, got &{yes}'],
        [{ spec: { labels: { a: 1 } } }, '.spec.labels.a: expected string, got &value.valueUnstructured{Value:1}'],
        [{ spec: { ports: [{ name: 'http', port: 80, extra: 1 }] } }, '.spec.ports[name="http"].extra: field not declared in schema'],
        [{ spec: { ports: [{ name: 'a', port: 'x' }] } }, '.spec.ports[name="a"].port: expected numeric (int or float), got string'],
        [{ spec: { ports: [{ port: 80 }] } }, `.spec.ports: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn't have default values for any key fields)`],
        [{ spec: { ports: [{ name: 'a' }, { name: 'a' }] } }, '.spec.ports: duplicate entries for key [name="a"]'],
        [{ spec: { ports: 'x' } }, '.spec.ports: expected list, got &{x}'],
        [{ spec: { tags: ['a', 'a'] } }, '.spec.tags: duplicate entries for key [="a"]'],
        [{ spec: { tags: ['a', 1] } }, '.spec.tags[=1]: expected string, got &value.valueUnstructured{Value:1}'],
        [{ spec: { template: { apiVersion: 'v1', kind: 'X', metadata: { name: 'x', bogus: 1 }, anything: 1 } } }, '.spec.template.metadata.bogus: field not declared in schema'],
        [{ spec: 'x' }, '.spec: expected map, got &{x}'],
        [{ metadata: { name: 'x', labels: { a: true } } }, '.metadata.labels.a: expected string, got &value.valueUnstructured{Value:true}'],
        [{ metadata: { name: 'x', finalizers: [1] } }, '.metadata.finalizers[=1]: expected string, got &value.valueUnstructured{Value:1}'],
      ];
      for (const [body, problem] of cases) {
        const name = unique('typed');
        const withName = body['metadata'] === undefined ? body : { ...body, metadata: { ...(body['metadata'] as object), name } };
        assert.deepEqual(await applyGadget(backend(), name, withName), { status: 500, message: PREFIX(name, kind) + problem }, JSON.stringify(body));
      }
      // What the schema leaves open is applied: preserve-unknown-fields, an object schema without fields, an
      // embedded resource's own fields.
      const name = unique('typed');
      const fine = await applyGadget(backend(), name, { spec: { size: 1, free: { any: { thing: 1 } }, open: {}, template: { apiVersion: 'v1', kind: 'X', anything: 1 } } });
      assert.equal(fine.status, 201, String(fine.message));
    });

    test('a built-in kind: its top level, metadata and the string map of a ConfigMap', async () => {
      const kc = backend().kubeConfig;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ data: { a: 'b' }, bogus: 1 }, '.bogus: field not declared in schema'],
        [{ data: { replicas: 3 } }, '.data.replicas: expected string, got &value.valueUnstructured{Value:3}'],
        [{ metadata: { bogus: 1 } }, '.metadata.bogus: field not declared in schema'],
      ];
      for (const [body, problem] of cases) {
        const name = unique('typed-cm');
        const text = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', ...body, metadata: { ...(body['metadata'] as object | undefined), name } });
        const answer = await raw(kc, 'PATCH', `${CONFIG_MAPS}/${name}?fieldManager=typed`, text, APPLY);
        assert.deepEqual({ status: answer.status, message: answer.body['message'] }, { status: 500, message: PREFIX(name, '/v1, Kind=ConfigMap') + problem }, JSON.stringify(body));
        assert.equal(await backend().get('v1', 'ConfigMap', name), undefined, 'nothing stored');
      }
    });

    test("a built-in kind at every level of its Go type: what an operator's child template gets wrong in a Deployment", async () => {
      const kc = backend().kubeConfig;
      const c = '.spec.template.spec.containers[name="c"]';
      const cases: Array<[Record<string, unknown>, Record<string, unknown>, string]> = [
        [{}, { imagePullPolicyy: 'Always' }, `${c}.imagePullPolicyy: field not declared in schema`],
        [{ replicas: '3' }, {}, '.spec.replicas: expected numeric (int or float), got string'],
        [{ paused: 'yes' }, {}, '.spec.paused: expected boolean, got &{yes}'],
        [{}, { command: 'sh' }, `${c}.command: expected list, got &{sh}`],
        [{}, { env: [{ name: 'A', value: 1 }] }, `${c}.env[name="A"].value: expected string, got &value.valueUnstructured{Value:1}`],
        [{}, { env: [{ name: 'A' }, { name: 'A' }] }, `${c}.env: duplicate entries for key [name="A"]`],
        [{}, { resources: { limits: { cpu: {} } } }, `${c}.resources.limits.cpu: expected any scalar, got &{map[]}`],
        [{}, { ports: [{ containerPort: 80, hostz: 1 }] }, `${c}.ports[containerPort=80,protocol="TCP"].hostz: field not declared in schema`],
      ];
      for (const [spec, container, problem] of cases) {
        const name = unique('typed-deploy');
        const body = {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name },
          spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i', ...container }] } }, ...spec },
        };
        const answer = await raw(kc, 'PATCH', `/apis/apps/v1/namespaces/default/deployments/${name}?fieldManager=typed`, JSON.stringify(body), APPLY);
        assert.deepEqual({ status: answer.status, message: answer.body['message'] }, { status: 500, message: PREFIX(name, 'apps/v1, Kind=Deployment') + problem }, problem);
        assert.equal(await backend().get('apps/v1', 'Deployment', name), undefined, 'nothing stored');
      }
      const name = unique('typed-deploy');
      const fine = {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: {
          selector: { matchLabels: { app: name } },
          strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
          template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 1, memory: '1Gi' } }, ports: [{ containerPort: 80 }] }] } },
        },
      };
      const applied = await raw(kc, 'PATCH', `/apis/apps/v1/namespaces/default/deployments/${name}?fieldManager=typed`, JSON.stringify(fine), APPLY);
      assert.equal(applied.status, 201, 'a quantity as a number, int-or-strings either way, a port keyed by its default protocol');
    });
  });
}
