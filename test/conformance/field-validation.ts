// fieldValidation (Strict, Warn by default, Ignore) on create, update and patch: unknown and duplicate fields of a
// built-in kind (at every level of its Go type) and of a custom resource with a structural schema; the Status bodies
// and Warning headers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { raw } from './raw-http.js';

const GROUP = 'fields.conformance.katalog.dev';
const GIZMOS = `/apis/${GROUP}/v1/namespaces/default/gizmos`;
const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const PODS = '/api/v1/namespaces/default/pods';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gizmos.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { kind: 'Gizmo', plural: 'gizmos', singular: 'gizmo', listKind: 'GizmoList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { size: { type: 'integer' }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
            },
          },
        },
      },
    ],
  },
};

function configMapText(name: string): string {
  return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","bogusMeta":1},"foo":1,"data":{"a":"1"},"data":{"a":"2"}}`;
}
const CM_PROBLEMS = ['unknown field "metadata.bogusMeta"', 'unknown field "foo"', 'duplicate field "data"'];

function gizmoText(name: string): string {
  return `{"apiVersion":"${GROUP}/v1","kind":"Gizmo","metadata":{"name":"${name}"},"spec":{"size":1,"size":2,"extra":1,"free":{"anything":1}},"top":1}`;
}
const GIZMO_PROBLEMS = ['duplicate field "spec.size"', 'unknown field "spec.extra"', 'unknown field "top"'];

export function fieldValidationSuite(backend: () => Backend): void {
  describe('fieldValidation', () => {
    test('Warn (the default) stores the object without its unknown fields and says why in Warning headers; Ignore says nothing', async () => {
      const kc = backend().kubeConfig;
      for (const mode of ['', '?fieldValidation=Warn', '?fieldValidation=Ignore']) {
        const cmName = unique('fv-cm');
        const cm = await raw(kc, 'POST', CONFIG_MAPS + mode, configMapText(cmName));
        assert.equal(cm.status, 201);
        assert.deepEqual(cm.warnings, mode.endsWith('Ignore') ? [] : CM_PROBLEMS, `ConfigMap, fieldValidation${mode}`);
        assert.equal(cm.body['foo'], undefined);
        assert.equal((cm.body['metadata'] as Record<string, unknown>)['bogusMeta'], undefined);
      }
      await backend().applyCrd(crd);
      for (const mode of ['', '?fieldValidation=Ignore']) {
        const name = unique('fv-gizmo');
        const created = await raw(kc, 'POST', GIZMOS + mode, gizmoText(name));
        assert.equal(created.status, 201);
        assert.deepEqual(created.warnings, mode === '' ? GIZMO_PROBLEMS : []);
        assert.deepEqual(created.body['spec'], { size: 2, free: { anything: 1 } }, 'pruned (preserve-unknown-fields kept), the last duplicate wins');
        assert.equal(created.body['top'], undefined);
        const patched = await raw(kc, 'PATCH', `${GIZMOS}/${name}${mode}`, '{"spec":{"extra2":1,"size":3}}', 'application/merge-patch+json');
        assert.equal(patched.status, 200);
        assert.deepEqual(patched.warnings, mode === '' ? ['unknown field "spec.extra2"'] : []);
        assert.deepEqual(patched.body['spec'], { size: 3, free: { anything: 1 } });
      }
    });

    test('Strict refuses: 400 on create and update with the decoder\'s message, 422 on a patch; nothing is stored', async () => {
      const kc = backend().kubeConfig;
      const cmName = unique('fv-cm');
      const cm = await raw(kc, 'POST', `${CONFIG_MAPS}?fieldValidation=Strict`, configMapText(cmName));
      assert.deepEqual({ status: cm.status, reason: cm.body['reason'], message: cm.body['message'] }, {
        status: 400,
        reason: 'BadRequest',
        message: `ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: ${CM_PROBLEMS.join(', ')}`,
      });
      assert.equal(await backend().get('v1', 'ConfigMap', cmName), undefined);

      await backend().applyCrd(crd);
      const name = unique('fv-gizmo');
      const refused = await raw(kc, 'POST', `${GIZMOS}?fieldValidation=Strict`, gizmoText(name));
      assert.deepEqual({ status: refused.status, message: refused.body['message'] }, {
        status: 400,
        message: `Gizmo in version "v1" cannot be handled as a Gizmo: strict decoding error: ${GIZMO_PROBLEMS.join(', ')}`,
      });
      const created = await raw(kc, 'POST', `${GIZMOS}?fieldValidation=Strict`, `{"apiVersion":"${GROUP}/v1","kind":"Gizmo","metadata":{"name":"${name}"},"spec":{"size":1}}`);
      assert.equal(created.status, 201);
      const rv = String((created.body['metadata'] as Record<string, unknown>)['resourceVersion']);
      const update = await raw(kc, 'PUT', `${GIZMOS}/${name}?fieldValidation=Strict`, `{"apiVersion":"${GROUP}/v1","kind":"Gizmo","metadata":{"name":"${name}","resourceVersion":"${rv}"},"spec":{"size":1,"extra":1}}`);
      assert.deepEqual({ status: update.status, message: update.body['message'] }, {
        status: 400,
        message: 'Gizmo in version "v1" cannot be handled as a Gizmo: strict decoding error: unknown field "spec.extra"',
      });
      for (const [type, patch] of [
        ['application/merge-patch+json', '{"top":1,"spec":{"extra2":1}}'],
        ['application/json-patch+json', '[{"op":"add","path":"/spec/extra2","value":1},{"op":"add","path":"/top","value":1}]'],
      ] as const) {
        const answer = await raw(kc, 'PATCH', `${GIZMOS}/${name}?fieldValidation=Strict`, patch, type);
        assert.equal(answer.status, 422, type);
        assert.equal(answer.body['reason'], 'Invalid');
        assert.match(String(answer.body['message']), /^ "" is invalid: patch: Invalid value: ".*": strict decoding error: unknown field "spec\.extra2", unknown field "top"$/s);
        const causes = (answer.body['details'] as { causes?: Array<{ field?: string; reason?: string }> } | undefined)?.causes;
        assert.deepEqual(causes?.map((c) => `${String(c.reason)} ${String(c.field)}`), ['FieldValueInvalid patch']);
      }
      assert.deepEqual((await backend().get(`${GROUP}/v1`, 'Gizmo', name))?.spec, { size: 1 });
    });

    test('a built-in kind\'s fields are known at every level: a Deployment\'s nested unknown fields are warned about and dropped, or refused', async () => {
      const kc = backend().kubeConfig;
      const deployment = (name: string): string =>
        JSON.stringify({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name },
          spec: {
            selector: { matchLabels: { app: name }, extra: 1 },
            template: {
              metadata: { labels: { app: name } },
              spec: { containers: [{ name: 'c', image: 'i', Image: 'x', resources: { limits: { cpu: '1' }, bogus: {} } }], volumes: [{ name: 'v', emptyDir: {}, configMap2: {} }] },
            },
          },
        });
      const problems = [
        'unknown field "spec.selector.extra"',
        'unknown field "spec.template.spec.containers[0].Image"',
        'unknown field "spec.template.spec.containers[0].resources.bogus"',
        'unknown field "spec.template.spec.volumes[0].configMap2"',
      ];
      const name = unique('fv-deploy');
      const refused = await raw(kc, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, deployment(name));
      assert.deepEqual({ status: refused.status, message: refused.body['message'] }, {
        status: 400,
        message: `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ${problems.join(', ')}`,
      });
      const created = await raw(kc, 'POST', DEPLOYMENTS, deployment(name));
      assert.equal(created.status, 201);
      assert.deepEqual(created.warnings, problems);
      const spec = (await backend().get('apps/v1', 'Deployment', name))?.spec as { selector: unknown; template: { spec: { containers: Array<Record<string, unknown>>; volumes: Array<Record<string, unknown>> } } };
      assert.deepEqual(spec.selector, { matchLabels: { app: name } }, 'a misspelt field is not kept for the controller to trip over');
      assert.equal(spec.template.spec.containers[0]?.['Image'], undefined, 'field names are matched case-sensitively');
      assert.deepEqual(spec.template.spec.containers[0]?.['resources'], { limits: { cpu: '1' } });
      assert.deepEqual(Object.keys(spec.template.spec.volumes[0] ?? {}).sort(), ['emptyDir', 'name']);

      const smp = '{"spec":{"template":{"spec":{"containers":[{"name":"c","zzz":1,"securityContext":{"privileged":false,"nope":2}}]}}}}';
      const strict = await raw(kc, 'PATCH', `${DEPLOYMENTS}/${name}?fieldValidation=Strict`, smp, 'application/strategic-merge-patch+json');
      assert.equal(strict.status, 422);
      assert.equal(
        strict.body['message'],
        ' "" is invalid: patch: Invalid value: "map[spec:map[template:map[spec:map[containers:[map[name:c securityContext:map[nope:2 privileged:false] zzz:1]]]]]]": ' +
          'strict decoding error: unknown field "spec.template.spec.containers[0].securityContext.nope", unknown field "spec.template.spec.containers[0].zzz"',
        'a strategic merge patch is named by its own map, as Go prints it',
      );
      const warned = await raw(kc, 'PATCH', `${DEPLOYMENTS}/${name}`, smp, 'application/strategic-merge-patch+json');
      assert.equal(warned.status, 200);
      assert.deepEqual(warned.warnings, ['unknown field "spec.template.spec.containers[0].securityContext.nope"', 'unknown field "spec.template.spec.containers[0].zzz"']);
      const container = ((warned.body['spec'] as typeof spec).template.spec.containers[0] ?? {}) as Record<string, unknown>;
      assert.deepEqual([container['zzz'], container['securityContext']], [undefined, { privileged: false }]);
    });

    test('a status write and a CRD are decoded as their Go types too: unknown fields under conditions and inside a schema', async () => {
      const kc = backend().kubeConfig;
      const pod = unique('fv-pod');
      assert.equal((await raw(kc, 'POST', PODS, JSON.stringify({ metadata: { name: pod }, spec: { containers: [{ name: 'c', image: 'i' }] } }))).status, 201);
      const status = await raw(kc, 'PATCH', `${PODS}/${pod}/status`, '{"status":{"conditions":[{"type":"Ready","status":"True","bogus":1}],"phasee":"x"}}', 'application/merge-patch+json');
      assert.equal(status.status, 200);
      assert.deepEqual(status.warnings, ['unknown field "status.conditions[0].bogus"', 'unknown field "status.phasee"']);
      const group = `${unique('fv')}.example.com`;
      const schema = { type: 'object', properties: { spec: { type: 'object', descriptionn: 'x', properties: { a: { type: 'string', formatt: 'y' } } } } };
      const refused = await raw(kc, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict', JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `things.${group}` },
        spec: { group, scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] },
      }));
      assert.deepEqual({ status: refused.status, message: refused.body['message'] }, {
        status: 400,
        message:
          'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: ' +
          'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.descriptionn", ' +
          'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.a.formatt"',
      });
    });

    test("a built-in kind's value of the wrong JSON type is Go's decoding error, 400 before anything else, on a create and an update", async () => {
      const kc = backend().kubeConfig;
      const prefix = (kind: string): string => `${kind} in version "v1" cannot be handled as a ${kind}: json: cannot unmarshal `;
      const deployment = (name: string, spec: Json, container: Json = {}): Json => ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i', ...container }] } }, ...spec },
      });
      const cases: Array<[Json, Json, string]> = [
        [{ replicas: '3' }, {}, 'string into Go struct field DeploymentSpec.spec.replicas of type int32'],
        [{ replicas: 1.5 }, {}, 'number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32'],
        [{ paused: 'yes', replicas: '3' }, {}, 'string into Go struct field DeploymentSpec.spec.paused of type bool'],
        [{}, { ports: [{ containerPort: '80' }] }, 'string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32'],
        [{}, { env: [{ name: 'A', value: 1 }] }, 'number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string'],
        [{}, { command: 'sh' }, 'string into Go struct field Container.spec.template.spec.containers.command of type []string'],
        [{}, { imagePullPolicy: 1 }, 'number into Go struct field Container.spec.template.spec.containers.imagePullPolicy of type v1.PullPolicy'],
        [{ strategy: { rollingUpdate: { maxSurge: true } } }, {}, 'bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32'],
        [{ template: [] }, {}, 'array into Go struct field DeploymentSpec.spec.template of type v1.PodTemplateSpec'],
      ];
      for (const [spec, container, problem] of cases) {
        const name = unique('fv-types');
        const answer = await raw(kc, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, JSON.stringify({ ...deployment(name, spec, container), bogus: 1 }));
        assert.deepEqual({ status: answer.status, reason: answer.body['reason'], message: answer.body['message'] }, { status: 400, reason: 'BadRequest', message: prefix('Deployment') + problem }, problem);
      }
      const name = unique('fv-types');
      const made = await raw(kc, 'POST', CONFIG_MAPS, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { a: 'b' } } }));
      assert.equal(made.status, 201);
      const rv = String((made.body['metadata'] as Json)['resourceVersion']);
      const update = await raw(kc, 'PUT', `${CONFIG_MAPS}/${name}`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, resourceVersion: rv }, data: { a: 1 } }));
      assert.deepEqual({ status: update.status, message: update.body['message'] }, { status: 400, message: `${prefix('ConfigMap')}number into Go struct field ConfigMap.data of type string` });
      const labels = await raw(kc, 'PUT', `${CONFIG_MAPS}/${name}`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, resourceVersion: rv, labels: { a: true } } }));
      assert.deepEqual({ status: labels.status, message: labels.body['message'] }, { status: 400, message: `${prefix('ConfigMap')}bool into Go struct field ObjectMeta.metadata.labels of type string` });
    });

    test('an unknown fieldValidation value is 422 Invalid on the request\'s options', async () => {
      const kc = backend().kubeConfig;
      const message = 'Unsupported value: "bogus": supported values: "", "Ignore", "Strict", "Warn"';
      const name = unique('fv-bogus');
      const create = await raw(kc, 'POST', `${CONFIG_MAPS}?fieldValidation=bogus`, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"}}`);
      const patch = await raw(kc, 'PATCH', `${CONFIG_MAPS}/${name}?fieldValidation=bogus`, '{}', 'application/merge-patch+json');
      for (const [answer, options] of [[create, 'CreateOptions'], [patch, 'PatchOptions']] as const) {
        assert.equal(answer.status, 422);
        assert.deepEqual(
          { message: answer.body['message'], details: answer.body['details'] },
          {
            message: `${options}.meta.k8s.io "" is invalid: fieldValidation: ${message}`,
            details: { group: 'meta.k8s.io', kind: options, causes: [{ reason: 'FieldValueNotSupported', message, field: 'fieldValidation' }] },
          },
        );
      }
    });
  });
}
