import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from '../../../src/testing/patch/strategic-merge.js';
import { strategicSchemaFor, listKeysFor, type StrategicSchema } from '../../../src/testing/patch/strategic-keys.js';
import { PatchError } from '../../../src/testing/patch/patch-error.js';
import fc from 'fast-check';
import { deepFreeze, snapshot } from './frozen.js';

function schema(apiVersion: string, kind: string): StrategicSchema {
  const found = strategicSchemaFor(apiVersion, kind);
  assert.ok(found, `${apiVersion} ${kind} has a strategic schema`);
  return found;
}

const deploymentSchema = schema('apps/v1', 'Deployment');

function deployment(): Record<string, unknown> {
  return deepFreeze({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      labels: { app: 'web', tier: 'front' },
      finalizers: ['example.com/a'],
      ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Site', name: 's', uid: 'u1', controller: true }],
    },
    spec: {
      replicas: 2,
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'app:1',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
              ports: [{ containerPort: 8080, name: 'http' }],
            },
            { name: 'sidecar', image: 'proxy:1' },
          ],
          tolerations: [{ key: 'a', operator: 'Exists' }],
          volumes: [{ name: 'data', emptyDir: {} }],
        },
      },
    },
  });
}

function patchDeployment(patch: unknown): Record<string, unknown> {
  return applyStrategicMergePatch(deployment(), deepFreeze(patch), deploymentSchema) as Record<string, unknown>;
}

const containersOf = (object: Record<string, unknown>): unknown =>
  ((object['spec'] as Record<string, unknown>)['template'] as { spec: { containers: unknown } }).spec.containers;

describe('applyStrategicMergePatch on a Deployment', () => {
  test('containers merge by name: a changed image keeps the other fields and containers', () => {
    const result = patchDeployment({ spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } } });
    assert.deepEqual(containersOf(result), [
      { name: 'app', image: 'app:2', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], ports: [{ containerPort: 8080, name: 'http' }] },
      { name: 'sidecar', image: 'proxy:1' },
    ]);
  });

  test('env merges by name inside a container; a new container goes after the patch items before it, as kube-apiserver orders it', () => {
    const result = patchDeployment({
      spec: { template: { spec: { containers: [{ name: 'app', env: [{ name: 'B', value: 'two' }, { name: 'C', value: '3' }] }, { name: 'new', image: 'n:1' }] } } },
    });
    assert.deepEqual(containersOf(result), [
      { name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: 'two' }, { name: 'C', value: '3' }], ports: [{ containerPort: 8080, name: 'http' }] },
      { name: 'new', image: 'n:1' },
      { name: 'sidecar', image: 'proxy:1' },
    ]);
    const alone = patchDeployment({ spec: { template: { spec: { containers: [{ name: 'new', image: 'n:1' }] } } } });
    assert.deepEqual((containersOf(alone) as { name: string }[]).map((c) => c.name), ['new', 'app', 'sidecar'], 'a new item alone goes first');
  });

  test('ports merge by containerPort', () => {
    const result = patchDeployment({ spec: { template: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 8080, protocol: 'TCP' }, { containerPort: 9090 }] }] } } } });
    const [app] = containersOf(result) as { ports: unknown }[];
    assert.deepEqual(app?.ports, [{ containerPort: 8080, name: 'http', protocol: 'TCP' }, { containerPort: 9090 }]);
  });

  test('$patch: delete removes a list item by its key', () => {
    const result = patchDeployment({ spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }, { name: 'app', env: [{ name: 'A', $patch: 'delete' }] }] } } } });
    assert.deepEqual(containersOf(result), [{ name: 'app', image: 'app:1', env: [{ name: 'B', value: '2' }], ports: [{ containerPort: 8080, name: 'http' }] }]);
  });

  test('null deletes a map key', () => {
    const result = patchDeployment({ metadata: { labels: { tier: null } }, spec: { replicas: null } });
    assert.deepEqual((result['metadata'] as Record<string, unknown>)['labels'], { app: 'web' });
    assert.equal(Object.hasOwn(result['spec'] as object, 'replicas'), false);
  });

  test('finalizers merge as a set of strings, in the order the patch gives the ones it names', () => {
    const result = patchDeployment({ metadata: { finalizers: ['example.com/b', 'example.com/a'] } });
    assert.deepEqual((result['metadata'] as Record<string, unknown>)['finalizers'], ['example.com/b', 'example.com/a']);
  });

  test('$deleteFromPrimitiveList removes finalizers', () => {
    const result = patchDeployment({ metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } });
    assert.deepEqual((result['metadata'] as Record<string, unknown>)['finalizers'], []);
  });

  test('ownerReferences merge by uid', () => {
    const result = patchDeployment({
      metadata: { ownerReferences: [{ uid: 'u1', blockOwnerDeletion: true }, { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u2' }] },
    });
    assert.deepEqual((result['metadata'] as Record<string, unknown>)['ownerReferences'], [
      { apiVersion: 'example.com/v1', kind: 'Site', name: 's', uid: 'u1', controller: true, blockOwnerDeletion: true },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u2' },
    ]);
  });

  test('lists without a merge key (tolerations) are replaced', () => {
    const result = patchDeployment({ spec: { template: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } } } });
    assert.deepEqual((result['spec'] as { template: { spec: { tolerations: unknown } } }).template.spec.tolerations, [{ key: 'b', operator: 'Exists' }]);
  });

  test('{"$patch": "replace"} as a list element replaces the list', () => {
    const result = patchDeployment({ spec: { template: { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'o:1' }] } } } });
    assert.deepEqual(containersOf(result), [{ name: 'only', image: 'o:1' }]);
  });

  test('$patch: replace in a map replaces the map; $patch: delete removes it', () => {
    const replaced = patchDeployment({ metadata: { labels: { $patch: 'replace', only: 'x' } } });
    assert.deepEqual((replaced['metadata'] as Record<string, unknown>)['labels'], { only: 'x' });
    const deleted = patchDeployment({ spec: { template: { metadata: { $patch: 'delete' } } } });
    assert.deepEqual(Object.keys((deleted['spec'] as { template: object }).template), ['spec']);
  });

  test('$retainKeys keeps only the listed keys of the original map', () => {
    const result = patchDeployment({ spec: { template: { spec: { volumes: [{ name: 'data', $retainKeys: ['name', 'configMap'], configMap: { name: 'cm' } }] } } } });
    assert.deepEqual((result['spec'] as { template: { spec: { volumes: unknown } } }).template.spec.volumes, [{ name: 'data', configMap: { name: 'cm' } }]);
  });

  test('$setElementOrder orders the merged list and is not stored', () => {
    const result = patchDeployment({
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'new' }, { name: 'sidecar' }, { name: 'app' }], containers: [{ name: 'new', image: 'n:1' }] } } },
    });
    assert.deepEqual((containersOf(result) as { name: string }[]).map((c) => c.name), ['new', 'sidecar', 'app']);
    assert.equal(JSON.stringify(result).includes('$'), false);
  });

  test('directives in a new subtree are applied, never stored', () => {
    const result = applyStrategicMergePatch({}, { metadata: { labels: { $patch: 'replace', a: 'b' } }, spec: { template: { spec: { containers: [{ name: 'x', env: [{ name: 'gone', $patch: 'delete' }] }] } } } }, deploymentSchema);
    assert.deepEqual(result, { metadata: { labels: { a: 'b' } }, spec: { template: { spec: { containers: [{ name: 'x', env: [] }] } } } });
  });

  test('errors: a keyed item without its key, an unknown directive, a patch that is not an object', () => {
    assert.throws(
      () => patchDeployment({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } }),
      (e: unknown) => e instanceof PatchError && e.internal && e.reason === 'map: map[image:x] does not contain declared merge key: name',
    );
    assert.throws(() => patchDeployment({ metadata: { $patch: 'explode' } }), (e: unknown) => e instanceof PatchError && /unknown "\$patch"/.test(e.reason));
    assert.throws(() => applyStrategicMergePatch({}, [], deploymentSchema), PatchError);
  });

  test('__proto__ keys are data', () => {
    const patch = JSON.parse('{"metadata":{"labels":{"__proto__":{"polluted":true}}}}') as unknown;
    const result = applyStrategicMergePatch(deployment(), patch, deploymentSchema);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.match(JSON.stringify(result), /"labels":\{"app":"web","tier":"front","__proto__":\{"polluted":true\}\}/);
  });
});

describe('strategic merge on other kinds', () => {
  test('Service ports merge by port', () => {
    const service = deepFreeze({ spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } });
    const result = applyStrategicMergePatch(service, { spec: { ports: [{ port: 80, name: 'http' }] } }, schema('v1', 'Service'));
    assert.deepEqual(result, { spec: { ports: [{ port: 80, targetPort: 8080, name: 'http' }, { port: 443 }] } });
  });

  test('CronJob containers merge at spec.jobTemplate.spec.template.spec', () => {
    const cron = deepFreeze({ spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'a', image: '1' }] } } } } } });
    const result = applyStrategicMergePatch(cron, { spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'b', image: '2' }] } } } } } }, schema('batch/v1', 'CronJob'));
    assert.deepEqual(result, { spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'b', image: '2' }, { name: 'a', image: '1' }] } } } } } });
  });

  test('Pod containers and status conditions merge by key', () => {
    const pod = deepFreeze({ spec: { containers: [{ name: 'a', image: '1' }] }, status: { conditions: [{ type: 'Ready', status: 'False' }] } });
    const result = applyStrategicMergePatch(pod, { spec: { containers: [{ name: 'a', image: '2' }] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }, schema('v1', 'Pod'));
    assert.deepEqual(result, { spec: { containers: [{ name: 'a', image: '2' }] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
  });

  test('ConfigMap data merges as a map', () => {
    const result = applyStrategicMergePatch(deepFreeze({ data: { a: '1', b: '2' } }), { data: { b: null, c: '3' } }, schema('v1', 'ConfigMap'));
    assert.deepEqual(result, { data: { a: '1', c: '3' } });
  });

  test('every workload kind merges its pod template containers by name', () => {
    for (const [apiVersion, kind] of [['apps/v1', 'StatefulSet'], ['apps/v1', 'DaemonSet'], ['apps/v1', 'ReplicaSet'], ['batch/v1', 'Job']] as const) {
      assert.deepEqual(schema(apiVersion, kind).listStrategy(['spec', 'template', 'spec', 'containers', 'volumeMounts']), { mergeKey: 'mountPath' }, kind);
      assert.deepEqual(schema(apiVersion, kind).listStrategy(['spec', 'template', 'spec', 'imagePullSecrets']), { mergeKey: 'name' }, kind);
    }
  });

  test('custom resources and unknown versions have no strategic schema', () => {
    assert.equal(strategicSchemaFor('example.com/v1', 'Site'), undefined);
    assert.equal(strategicSchemaFor('apps/v1beta1', 'Deployment'), undefined);
  });

  test('listKeysFor gives SSA keys, with metadata lists for custom resources', () => {
    const deploymentKeys = listKeysFor('apps/v1', 'Deployment');
    assert.deepEqual(deploymentKeys(['spec', 'template', 'spec', 'containers']), ['name']);
    assert.deepEqual(deploymentKeys(['metadata', 'finalizers']), []);
    assert.equal(deploymentKeys(['spec', 'template', 'spec', 'tolerations']), undefined);
    const custom = listKeysFor('example.com/v1', 'Site');
    assert.deepEqual(custom(['metadata', 'ownerReferences']), ['uid']);
    assert.equal(custom(['spec', 'containers']), undefined);
  });

  test('property: any patch on frozen inputs returns or throws PatchError, and {} changes nothing', () => {
    const json = fc.dictionary(fc.constantFrom('spec', 'template', 'containers', 'name', 'env', '$patch', 'x', '$retainKeys'), fc.jsonValue(), { maxKeys: 4 });
    fc.assert(
      fc.property(json, json, (target, patch) => {
        deepFreeze(target);
        deepFreeze(patch);
        assert.deepEqual(snapshot(applyStrategicMergePatch(target, {}, deploymentSchema)), snapshot(target));
        try {
          applyStrategicMergePatch(target, patch, deploymentSchema);
        } catch (error) {
          assert.ok(error instanceof PatchError, String(error));
        }
      }),
    );
  });
});
