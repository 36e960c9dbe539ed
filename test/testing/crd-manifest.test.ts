// crdManifest(): a CRD a test can install without YAML, served as declared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crdManifest, startTestApiServer } from '../../src/testing/index.js';

test('crdManifest installs a servable CRD: versions, storage and the status subresource as declared', async () => {
  const server = await startTestApiServer();
  try {
    server.applyCrd(crdManifest({ group: 'fruit.io', kind: 'Apple', plural: 'apples', shortNames: ['ap'], versions: [{ name: 'v1beta1', status: false }, { name: 'v1', storage: true }] }));
    const discovery = async (version: string): Promise<string[]> => {
      const body = (await (await fetch(`${server.url}/apis/fruit.io/${version}`)).json()) as { resources: Array<{ name: string }> };
      return body.resources.map((resource) => resource.name);
    };
    assert.deepEqual(await discovery('v1'), ['apples', 'apples/status']);
    assert.deepEqual(await discovery('v1beta1'), ['apples']);
    const stored = server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'apples.fruit.io') as { status?: { storedVersions?: string[] } } | undefined;
    assert.deepEqual(stored?.status?.storedVersions, ['v1']);
    server.create({ apiVersion: 'fruit.io/v1', kind: 'Apple', metadata: { name: 'a', namespace: 'default' }, spec: { anything: { goes: true } } });
    assert.deepEqual((server.get('fruit.io/v1', 'Apple', 'a', 'default') as { spec: unknown }).spec, { anything: { goes: true } }, 'the open schema keeps every field');
  } finally {
    await server.stop();
  }
});
