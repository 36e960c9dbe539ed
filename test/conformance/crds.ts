// CustomResourceDefinitions: install, versions and the served flag, discovery, and removal.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApisApi, CustomObjectsApi, ApiException } from '@kubernetes/client-node';
import { crdManifest } from '../../src/testing/index.js';
import { unique, waitFor, type Backend } from './backend.js';

async function served(backend: Backend, group: string, version: string): Promise<boolean> {
  const api = backend.kubeConfig.makeApiClient(CustomObjectsApi);
  try {
    await api.listNamespacedCustomObject({ group, version, namespace: 'default', plural: 'gizmos' });
    return true;
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return false;
    throw error;
  }
}

export function crdSuite(backend: () => Backend): void {
  describe('CustomResourceDefinitions', () => {
    test('only served versions answer and appear in discovery; serving another version later makes the same object readable there; deleting the CRD removes it', async () => {
      const group = `${unique('crd')}.conformance.katalog.dev`;
      const versions = (v2Served: boolean) => [
        { name: 'v1', served: true, storage: true },
        { name: 'v2', served: v2Served, storage: false },
      ];
      const crdName = `gizmos.${group}`;
      await backend().applyCrd(crdManifest({ group, kind: 'Gizmo', plural: 'gizmos', versions: versions(false) }));
      const crd = await backend().get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crdName);
      const conditions = (crd?.status?.['conditions'] as Array<{ type: string; status: string }> | undefined) ?? [];
      assert.deepEqual(
        conditions.filter((c) => c.type === 'Established' || c.type === 'NamesAccepted').map((c) => `${c.type}=${c.status}`).sort(),
        ['Established=True', 'NamesAccepted=True'],
      );
      assert.deepEqual(crd?.status?.['storedVersions'], ['v1']);
      assert.equal(await served(backend(), group, 'v1'), true);
      assert.equal(await served(backend(), group, 'v2'), false, 'an unserved version answers 404');

      const groups = await backend().kubeConfig.makeApiClient(ApisApi).getAPIVersions();
      const discovered = groups.groups.find((g) => g.name === group);
      assert.deepEqual(discovered?.versions.map((v) => v.version), ['v1']);
      assert.equal(discovered?.preferredVersion?.version, 'v1');

      await backend().create({ apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name: 'g', namespace: 'default' }, spec: { size: 3 } });
      await backend().applyCrd(crdManifest({ group, kind: 'Gizmo', plural: 'gizmos', versions: versions(true) }));
      const asV2 = await waitFor('the object at v2', () => backend().get(`${group}/v2`, 'Gizmo', 'g', 'default'));
      assert.equal(asV2['apiVersion'], `${group}/v2`);
      assert.deepEqual(asV2.spec, { size: 3 });

      await backend().delete('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crdName);
      await waitFor('the CRD gone', async () => (await backend().get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crdName)) === undefined);
      await waitFor('v1 no longer served', async () => !(await served(backend(), group, 'v1')));
    });
  });
}
