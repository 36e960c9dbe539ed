// The optional RBAC authorizer of the test API server, through client-node: off by default; on, a request is
// allowed only by a rule of a role bound to the configured user, and refused with a Kubernetes 403 otherwise.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api } from '@kubernetes/client-node';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { expectStatus } from './wait-for.js';

const SA = { kind: 'ServiceAccount', name: 'op', namespace: 'ops' };

describe('test API server authorization', () => {
  let server: TestApiServer;
  let core: CoreV1Api;

  before(async () => {
    server = await startTestApiServer({ authorization: { user: 'system:serviceaccount:ops:op' }, namespaces: ['default', 'ops', 'other'] });
    core = server.kubeConfig.makeApiClient(CoreV1Api);
    server.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'named', namespace: 'other' } });
    server.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'read-configmaps' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    });
    server.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'op-read' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'read-configmaps' },
      subjects: [SA],
    });
    server.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'secret-one', namespace: 'ops' },
      rules: [
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['one'] },
      ],
    });
    server.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'op-secret', namespace: 'ops' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'secret-one' },
      subjects: [SA],
    });
  });
  after(() => server.stop());

  test('a ClusterRoleBinding grants its rules in every namespace, and nothing more', async () => {
    assert.equal((await core.listConfigMapForAllNamespaces()).items.length, 1);
    assert.equal((await core.readNamespacedConfigMap({ namespace: 'other', name: 'named' })).metadata?.name, 'named');
    const denied = await expectStatus(() => core.createNamespacedConfigMap({ namespace: 'other', body: { metadata: { name: 'x' } } }), 403);
    assert.equal(denied.reason, 'Forbidden');
    assert.match(denied.message ?? '', /User "system:serviceaccount:ops:op" cannot create resource "configmaps" in API group "" in the namespace "other"/);
  });

  test('a RoleBinding grants only in its namespace; resourceNames restrict by name', async () => {
    await core.createNamespacedSecret({ namespace: 'ops', body: { metadata: { name: 'one' } } });
    await core.createNamespacedSecret({ namespace: 'ops', body: { metadata: { name: 'two' } } });
    await expectStatus(() => core.createNamespacedSecret({ namespace: 'other', body: { metadata: { name: 'one' } } }), 403);
    assert.equal((await core.readNamespacedSecret({ namespace: 'ops', name: 'one' })).metadata?.name, 'one');
    await expectStatus(() => core.readNamespacedSecret({ namespace: 'ops', name: 'two' }), 403);
    await expectStatus(() => core.listNamespacedSecret({ namespace: 'ops' }), 403);
  });

  test('discovery stays open; a server without the option allows everything', async () => {
    assert.equal((await fetch(`${server.url}/api/v1`)).status, 200);
    const open = await startTestApiServer();
    try {
      const created = await open.kubeConfig.makeApiClient(CoreV1Api).createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 's' } } });
      assert.equal(created.metadata?.name, 's');
    } finally {
      await open.stop();
    }
  });
});
