// Field selectors on custom resources: `metadata.name`, `metadata.namespace` (namespaced kinds only) and the
// selectable fields of the version asked for (`spec.versions[].selectableFields`), their values as strings (an
// integer, a boolean, "" when missing); any other label is 400 `field label not supported`, on lists and watches.
// And the CRDs kube-apiserver refuses for where their selectable fields sit beside their schemas.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { raw } from './raw-http.js';

interface ListBody {
  items?: Array<{ metadata?: { name?: string } }>;
  message?: string;
}

/** A Gauge CRD: v1 selects on color, size and ready, v2 on shade; `shared` gives both versions the same schema. */
function gaugeCrd(group: string, scope: 'Namespaced' | 'Cluster', options: { shared?: boolean; sameFields?: boolean } = {}): unknown {
  const schemaFor = (description: string): unknown => ({
    openAPIV3Schema: {
      type: 'object',
      description,
      properties: {
        spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' }, ready: { type: 'boolean' }, shade: { type: 'string' } } },
      },
    },
  });
  const v1Fields = [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.ready' }];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gauges.${group}` },
    spec: {
      group,
      scope,
      names: { kind: 'Gauge', plural: 'gauges', singular: 'gauge', listKind: 'GaugeList' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schemaFor('a gauge'), selectableFields: v1Fields },
        { name: 'v2', served: true, storage: false, schema: schemaFor(options.shared === true ? 'a gauge' : 'a gauge, v2'), selectableFields: options.sameFields === true ? v1Fields : [{ jsonPath: '.spec.shade' }] },
      ],
    },
  };
}

async function createCrd(backend: Backend, crd: unknown): Promise<{ status: number; causes: unknown }> {
  const answer = await raw(backend.kubeConfig, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd));
  return { status: answer.status, causes: (answer.body['details'] as { causes?: unknown } | undefined)?.causes };
}

export function fieldSelectorSuite(backend: () => Backend): void {
  describe('field selectors on custom resources', () => {
    test('a CRD whose versions share a schema but not their selectable fields is refused, and so is the converse', async () => {
      const shared = await createCrd(backend(), gaugeCrd(`${unique('shared')}.conformance.katalog.dev`, 'Namespaced', { shared: true }));
      const message = 'Invalid value: "": may only be set when `version.schema.openAPIV3Schema` is not included';
      assert.deepEqual(shared, {
        status: 422,
        causes: [0, 1].map((i) => ({ reason: 'FieldValueInvalid', message, field: `spec.versions[${i}].selectableFields` })),
      });
      const sameFields = await createCrd(backend(), gaugeCrd(`${unique('same')}.conformance.katalog.dev`, 'Namespaced', { sameFields: true }));
      assert.deepEqual(sameFields, {
        status: 422,
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "": may only be set when validations.schema is included', field: 'spec.selectableFields' }],
      });
      const both = await createCrd(backend(), gaugeCrd(`${unique('both')}.conformance.katalog.dev`, 'Namespaced', { shared: true, sameFields: true }));
      assert.equal(both.status, 201, 'the same schema and the same fields in every version');
    });

    test("a version's own selectable fields, with values as strings; others are 400, and a cluster-scoped kind has no metadata.namespace", async () => {
      const group = `${unique('fields')}.conformance.katalog.dev`;
      await backend().applyCrd(gaugeCrd(group, 'Namespaced'));
      const gauge = (name: string, spec: Record<string, unknown>): unknown => ({ apiVersion: `${group}/v1`, kind: 'Gauge', metadata: { name, namespace: 'default' }, spec });
      await backend().create(gauge('a', { color: 'red', size: 3, ready: true }));
      await backend().create(gauge('b', { color: 'blue', size: 10, ready: false, shade: 'dark' }));
      await backend().create(gauge('c', {}));
      const list = async (version: string, selector: string, path = `/apis/${group}/${version}/namespaces/default/gauges`): Promise<{ status: number; names: string[]; message: string }> => {
        const answer = await raw(backend().kubeConfig, 'GET', `${path}?fieldSelector=${encodeURIComponent(selector)}`);
        const body = answer.body as ListBody;
        return { status: answer.status, names: (body.items ?? []).map((item) => item.metadata?.name ?? '').sort(), message: body.message ?? '' };
      };
      const names = async (version: string, selector: string): Promise<string[]> => {
        const answer = await list(version, selector);
        assert.equal(answer.status, 200, `${version} ${selector}: ${answer.message}`);
        return answer.names;
      };
      assert.deepEqual(await names('v1', 'spec.color=red'), ['a']);
      assert.deepEqual(await names('v1', 'spec.size=10'), ['b']);
      assert.deepEqual(await names('v1', 'spec.ready=true'), ['a']);
      assert.deepEqual(await names('v1', 'spec.ready=false'), ['b']);
      assert.deepEqual(await names('v1', 'spec.color='), ['c'], 'a missing field is ""');
      assert.deepEqual(await names('v1', 'spec.color!=red'), ['b', 'c']);
      assert.deepEqual(await names('v1', 'metadata.name=b,spec.size!=3'), ['b']);
      assert.deepEqual(await names('v1', 'metadata.namespace=default,spec.color=blue'), ['b']);
      assert.deepEqual(await names('v2', 'spec.shade=dark'), ['b'], "v2's own selectable field");
      for (const [version, label] of [['v1', 'spec.shade'], ['v2', 'spec.color'], ['v1', 'spec.other']] as const) {
        const refused = await list(version, `${label}=x`);
        assert.equal(refused.status, 400, `${version} ${label}`);
        assert.equal(refused.message, `field label not supported: ${label}`);
      }
      // The same rules on a watch.
      const watch = await raw(backend().kubeConfig, 'GET', `/apis/${group}/v2/namespaces/default/gauges?watch=true&timeoutSeconds=1&fieldSelector=${encodeURIComponent('spec.color=red')}`);
      assert.equal(watch.status, 400);
      assert.equal((watch.body as ListBody).message, 'field label not supported: spec.color');

      const clusterGroup = `${unique('cfields')}.conformance.katalog.dev`;
      await backend().applyCrd(gaugeCrd(clusterGroup, 'Cluster'));
      await backend().create({ apiVersion: `${clusterGroup}/v1`, kind: 'Gauge', metadata: { name: 'x' }, spec: { color: 'red' } });
      const path = `/apis/${clusterGroup}/v1/gauges`;
      assert.deepEqual((await list('v1', 'metadata.name=x', path)).names, ['x']);
      assert.deepEqual((await list('v1', 'spec.color=red', path)).names, ['x']);
      const namespaced = await list('v1', 'metadata.namespace=', path);
      assert.deepEqual({ status: namespaced.status, message: namespaced.message }, { status: 400, message: 'field label not supported: metadata.namespace' });
      // The built-in Namespace has no metadata.namespace either; a ClusterRole has.
      const namespaces = await list('v1', 'metadata.namespace=', '/api/v1/namespaces');
      assert.deepEqual({ status: namespaces.status, message: namespaces.message }, { status: 400, message: 'field label not supported: metadata.namespace' });
      assert.equal((await list('v1', 'metadata.namespace=', '/apis/rbac.authorization.k8s.io/v1/clusterroles')).status, 200);
    });
  });
}
