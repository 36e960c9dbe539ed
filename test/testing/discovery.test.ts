// Discovery and non-resource endpoints of the test API server, as kubectl and KubernetesObjectApi read them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiextensionsV1Api, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { widget, widgetCrd } from './widget-crd.js';

interface ResourceEntry {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  singularName: string;
}

describe('discovery', () => {
  let server: TestApiServer;
  const get = async (path: string): Promise<{ status: number; type: string | null; body: unknown }> => {
    const res = await fetch(server.url + path);
    const text = await res.text();
    const type = res.headers.get('content-type');
    return { status: res.status, type, body: type?.startsWith('application/json') === true ? (JSON.parse(text) as unknown) : text };
  };

  before(async () => {
    server = await startTestApiServer();
  });
  after(() => server.stop());

  test('/version, /api and health endpoints answer like a real server', async () => {
    const version = await get('/version');
    assert.equal(version.status, 200);
    assert.match((version.body as { gitVersion: string }).gitVersion, /^v1\.\d+\.\d+/);
    const api = (await get('/api')).body as { kind: string; versions: string[]; serverAddressByClientCIDRs: unknown[] };
    assert.equal(api.kind, 'APIVersions');
    assert.deepEqual(api.versions, ['v1']);
    assert.equal(api.serverAddressByClientCIDRs.length, 1);
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/ping']) {
      const health = await get(path);
      assert.equal(health.status, 200, path);
      assert.equal(health.body, 'ok');
    }
  });

  test('/openapi/v2 is 404 (kubectl needs --validate=false) and unknown paths answer a JSON Status', async () => {
    const openapi = await get('/openapi/v2');
    assert.equal(openapi.status, 404);
    const unknown = await get('/apis/nothing.example.com/v1');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.type, 'application/json');
    assert.equal((unknown.body as { kind: string; reason: string }).reason, 'NotFound');
  });

  test('/api/v1 lists the core resources, each main resource before its status subresource', async () => {
    const list = (await get('/api/v1')).body as { kind: string; groupVersion: string; resources: ResourceEntry[] };
    assert.equal(list.kind, 'APIResourceList');
    assert.equal(list.groupVersion, 'v1');
    const names = list.resources.map((r) => r.name);
    for (const name of ['namespaces', 'configmaps', 'secrets', 'services', 'serviceaccounts', 'pods', 'persistentvolumeclaims', 'events']) {
      assert.ok(names.includes(name), name);
    }
    assert.ok(names.indexOf('pods') < names.indexOf('pods/status'));
    const cm = list.resources.find((r) => r.name === 'configmaps');
    assert.deepEqual(cm?.shortNames, ['cm']);
    assert.equal(cm?.namespaced, true);
    assert.ok(cm?.verbs.includes('watch'));
    assert.equal(list.resources.find((r) => r.name === 'namespaces')?.namespaced, false);
    assert.equal(names.includes('configmaps/status'), false, 'ConfigMaps have no status subresource');
  });

  test('/apis lists the built-in groups with their preferred version', async () => {
    const groups = (await get('/apis')).body as { kind: string; groups: { name: string; preferredVersion: { groupVersion: string } }[] };
    assert.equal(groups.kind, 'APIGroupList');
    const byName = new Map(groups.groups.map((g) => [g.name, g]));
    for (const name of ['apps', 'batch', 'networking.k8s.io', 'rbac.authorization.k8s.io', 'coordination.k8s.io', 'apiextensions.k8s.io']) {
      assert.equal(byName.get(name)?.preferredVersion.groupVersion, `${name}/v1`, name);
    }
    const apps = (await get('/apis/apps')).body as { kind: string; name: string };
    assert.equal(apps.kind, 'APIGroup');
    const appsV1 = (await get('/apis/apps/v1')).body as { resources: ResourceEntry[] };
    // By name, as kube-apiserver lists a built-in group: each resource before its subresources, scale before status.
    assert.deepEqual(
      appsV1.resources.map((r) => r.name),
      ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'],
    );
  });

  test('a CRD is discoverable as soon as it is created, with short names, categories and its status subresource', async () => {
    await server.kubeConfig.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: widgetCrd() });
    const groups = (await get('/apis')).body as { groups: { name: string; versions: { version: string }[]; preferredVersion: { version: string } }[] };
    const example = groups.groups.find((g) => g.name === 'example.com');
    assert.deepEqual(
      example?.versions.map((v) => v.version),
      ['v1', 'v1beta1'],
    );
    assert.equal(example?.preferredVersion.version, 'v1');
    const v1 = (await get('/apis/example.com/v1')).body as { resources: ResourceEntry[] };
    assert.deepEqual(
      v1.resources.map((r) => r.name),
      ['widgets', 'widgets/status'],
    );
    assert.deepEqual(v1.resources[0]?.shortNames, ['wd']);
    assert.deepEqual(v1.resources[0]?.categories, ['all', 'things']);
    assert.equal(v1.resources[0]?.singularName, 'widget');
    const beta = (await get('/apis/example.com/v1beta1')).body as { resources: ResourceEntry[] };
    assert.deepEqual(
      beta.resources.map((r) => r.name),
      ['widgets'],
      'v1beta1 declares no status subresource',
    );
    // KubernetesObjectApi resolves the kind through discovery and picks the main resource.
    const objects = KubernetesObjectApi.makeApiClient(server.kubeConfig);
    const created = await objects.create<KubernetesObject>(widget('discovered'));
    assert.equal(created.metadata?.name, 'discovered');
  });
});
