import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BuildContext } from '../../src/registry/kind-builder.js';
import { applyRank, KindTable } from '../../src/registry/kind-table.js';

const context: BuildContext = { parent: { name: 'blog', namespace: 'web' }, ownerLabel: 'website.web.blog', source: 'spec.crds.website.operatorBox.onCreate.x[0]' };
const table = new KindTable();

function build(kind: string, body: Record<string, unknown>, ctx: BuildContext = context): Record<string, unknown> {
  const builder = table.get(kind);
  assert.ok(builder, `builder for ${kind}`);
  return builder.build(body, ctx) as Record<string, unknown>;
}

describe('built-in template kinds', () => {
  test('deployments: a full apps/v1 Deployment with selector and pod labels', () => {
    const manifest = build('deployments', {
      image: 'nginx:1.27',
      replicas: '3',
      port: 8080,
      env: { MODE: 'prod', WORKERS: 4 },
      labels: { tier: 'web' },
      podLabels: { team: 'a' },
    });
    assert.deepEqual(manifest, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'blog-deployment', labels: { tier: 'web' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { 'app.kubernetes.io/name': 'blog-deployment', 'katalog.dev/owner': 'website.web.blog' } },
        template: {
          metadata: { labels: { 'app.kubernetes.io/name': 'blog-deployment', 'katalog.dev/owner': 'website.web.blog', team: 'a' } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'nginx:1.27',
                env: [
                  { name: 'MODE', value: 'prod' },
                  { name: 'WORKERS', value: '4' },
                ],
                ports: [{ containerPort: 8080 }],
              },
            ],
          },
        },
      },
    });
  });

  test('deployments: defaults, ports list, and the spec escape hatch', () => {
    const manifest = build('deployments', { name: 'web', image: 'nginx', ports: [80, { name: 'metrics', containerPort: '9090' }], spec: { strategy: { type: 'Recreate' } } });
    const spec = manifest['spec'] as Record<string, unknown>;
    assert.equal(spec['replicas'], 1);
    assert.deepEqual(spec['strategy'], { type: 'Recreate' });
    const pod = (spec['template'] as { spec: { containers: Array<Record<string, unknown>> } }).spec;
    assert.deepEqual(pod.containers[0]?.['ports'], [{ containerPort: 80 }, { name: 'metrics', containerPort: 9090 }]);
  });

  test('deployments: image is required and replicas must be an integer', () => {
    assert.throws(() => build('deployments', {}), /deployments need "image"/);
    assert.throws(() => build('deployments', { image: 'x', replicas: 'many' }), /"replicas" must be an integer/);
  });

  test('statefulSets: serviceName defaults to the set name', () => {
    const spec = build('statefulSets', { name: 'db', image: 'postgres' })['spec'] as Record<string, unknown>;
    assert.equal(spec['serviceName'], 'db');
    assert.equal(build('statefulSets', { image: 'postgres' })['kind'], 'StatefulSet');
  });

  test('replicaSets (Orkestra pkg/types/types_replicaset.go): default name <cr>-replicaset, replicas 1, the Deployment pod fields', () => {
    const replicaSet = build('replicaSets', { image: 'nginx:1.27', port: '8080', replicas: '3' });
    assert.deepEqual([replicaSet['apiVersion'], replicaSet['kind'], (replicaSet['metadata'] as Record<string, unknown>)['name']], ['apps/v1', 'ReplicaSet', 'blog-replicaset']);
    const spec = replicaSet['spec'] as { replicas: number; selector: { matchLabels: Record<string, string> }; template: { spec: { containers: Array<{ image: string; ports: Array<{ containerPort: number }> }> } } };
    assert.equal(spec.replicas, 3);
    assert.deepEqual(spec.selector.matchLabels, { 'app.kubernetes.io/name': 'blog-replicaset', 'katalog.dev/owner': 'website.web.blog' });
    assert.equal(spec.template.spec.containers[0]?.image, 'nginx:1.27');
    assert.equal(spec.template.spec.containers[0]?.ports[0]?.containerPort, 8080);
    assert.equal((build('replicaSets', { image: 'nginx' })['spec'] as { replicas: number }).replicas, 1);
  });

  test('daemonSets: no replicas, default name <cr>-daemonset, one pod per node', () => {
    const daemonSet = build('daemonSets', { image: 'fluent-bit:3', updateStrategy: { type: 'OnDelete' } });
    assert.equal(daemonSet['kind'], 'DaemonSet');
    assert.equal((daemonSet['metadata'] as Record<string, unknown>)['name'], 'blog-daemonset');
    const spec = daemonSet['spec'] as Record<string, unknown>;
    assert.equal(spec['replicas'], undefined);
    assert.deepEqual(spec['updateStrategy'], { type: 'OnDelete' });
  });

  test('services: port and targetPort, default selector on the owner label', () => {
    assert.deepEqual(build('services', { port: 80, targetPort: 8080 }), {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'blog-svc' },
      spec: { type: 'ClusterIP', selector: { 'katalog.dev/owner': 'website.web.blog' }, ports: [{ port: 80, targetPort: 8080 }] },
    });
  });

  test('services: several ports get names; a named target port is kept', () => {
    const spec = build('services', { type: 'NodePort', ports: [80, { port: 443, targetPort: 'https' }], selector: { app: 'x' } })['spec'] as Record<string, unknown>;
    assert.deepEqual(spec['ports'], [
      { port: 80, targetPort: 80, name: 'port-80' },
      { port: 443, targetPort: 'https', name: 'port-443' },
    ]);
    assert.deepEqual(spec['selector'], { app: 'x' });
    assert.throws(() => build('services', {}), /services need "port" or "ports"/);
  });

  test('configMaps: values become strings', () => {
    assert.deepEqual(build('configMaps', { data: { a: 1, b: true, c: 'x', d: { k: 'v' } } }), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'blog-config' },
      data: { a: '1', b: 'true', c: 'x', d: '{"k":"v"}' },
    });
  });

  test('secrets: data and stringData are plain text, encoded into data', () => {
    assert.deepEqual(build('secrets', { name: 's', data: { user: 'admin' }, stringData: { password: 'pw' } }), {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      type: 'Opaque',
      data: { user: Buffer.from('admin').toString('base64'), password: Buffer.from('pw').toString('base64') },
    });
  });

  test('serviceAccounts, namespaces', () => {
    assert.deepEqual(build('serviceAccounts', { imagePullSecrets: ['regcred'] }), {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'blog-sa' },
      imagePullSecrets: [{ name: 'regcred' }],
    });
    assert.deepEqual(build('namespaces', { labels: { env: 'dev' } }), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web-blog', labels: { env: 'dev' } } });
    assert.deepEqual(build('namespaces', {}, { ...context, parent: { name: 'acme', namespace: undefined } })['metadata'], { name: 'acme' });
  });

  test('jobs: backoffLimit 3, restartPolicy Never', () => {
    assert.deepEqual(build('jobs', { image: 'busybox', command: ['sh', '-c', 'echo bye'] }), {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'blog-job' },
      spec: {
        backoffLimit: 3,
        template: { spec: { containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'echo bye'] }], restartPolicy: 'Never' } },
      },
    });
  });

  test('cronJobs: schedule required, job template inside', () => {
    const manifest = build('cronJobs', { schedule: '*/5 * * * *', image: 'busybox', args: 'run' });
    const spec = manifest['spec'] as { schedule: string; jobTemplate: { spec: { backoffLimit: number; template: { spec: { restartPolicy: string; containers: unknown[] } } } } };
    assert.equal(spec.schedule, '*/5 * * * *');
    assert.equal(spec.jobTemplate.spec.backoffLimit, 3);
    assert.equal(spec.jobTemplate.spec.template.spec.restartPolicy, 'OnFailure');
    assert.deepEqual(spec.jobTemplate.spec.template.spec.containers, [{ name: 'app', image: 'busybox', args: ['run'] }]);
    assert.throws(() => build('cronJobs', { image: 'busybox' }), /cronJobs need "schedule"/);
  });

  test('ingresses: one rule to the default service, TLS on request', () => {
    assert.deepEqual(build('ingresses', { host: 'blog.example.com', tls: true, className: 'nginx' }), {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'blog-ingress' },
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            host: 'blog.example.com',
            http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'blog-svc', port: { number: 80 } } } }] },
          },
        ],
        tls: [{ hosts: ['blog.example.com'], secretName: 'blog-ingress-tls' }],
      },
    });
  });

  test('RBAC kinds', () => {
    const rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }];
    assert.deepEqual(build('roles', { rules }), { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'blog-role' }, rules });
    assert.deepEqual(build('clusterRoles', { rules })['metadata'], { name: 'web-blog-clusterrole' });
    assert.deepEqual(build('roleBindings', { roleRef: 'reader', serviceAccount: 'blog-sa' }), {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'blog-rolebinding' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'blog-sa', namespace: 'web' }],
    });
    const binding = build('clusterRoleBindings', { roleRef: 'view', subjects: [{ kind: 'ServiceAccount', name: 'x' }] });
    assert.deepEqual(binding['roleRef'], { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
    assert.deepEqual(binding['subjects'], [{ kind: 'ServiceAccount', name: 'x', namespace: 'web' }]);
    assert.throws(() => build('roleBindings', { roleRef: 'r' }), /need "subjects" or "serviceAccount"/);
  });

  test('resources: a full manifest, common fields folded into metadata', () => {
    assert.deepEqual(
      build('resources', { apiVersion: 'example.io/v1', kind: 'Cache', name: 'c1', labels: { a: 'b' }, metadata: { annotations: { x: 'y' } }, spec: { size: 3 } }),
      { apiVersion: 'example.io/v1', kind: 'Cache', metadata: { annotations: { x: 'y' }, name: 'c1', labels: { a: 'b' } }, spec: { size: 3 } },
    );
    assert.throws(() => build('resources', { apiVersion: 'v1', kind: 'ConfigMap' }), /need "name"/);
  });
});

describe('KindTable', () => {
  test('registerKind adds or replaces a template kind', () => {
    const kinds = new KindTable();
    kinds.registerKind('redisClusters', { produces: { apiVersion: 'cache.io/v1', kind: 'RedisCluster' }, build: () => ({ apiVersion: 'cache.io/v1', kind: 'RedisCluster', metadata: { name: 'r' } }) });
    assert.ok(kinds.get('redisClusters'));
    assert.equal(kinds.childrenKey('cache.io/v1', 'RedisCluster', 'redisclusters'), 'redisClusters');
    assert.equal(kinds.childrenKey('apps/v1', 'Deployment', 'deployments'), 'deployments');
    assert.equal(kinds.childrenKey('example.io/v1', 'Cache', 'caches'), 'caches');
    assert.throws(() => kinds.registerKind('Bad-Name', { build: () => ({}) }), /camelCase/);
    assert.throws(() => kinds.registerKind('ok', {} as never), /build\(\) method/);
  });

  test('application order follows SPEC §4.1', () => {
    const order = ['Ingress', 'CronJob', 'Job', 'Service', 'Deployment', 'Cache', 'RoleBinding', 'ServiceAccount', 'ConfigMap', 'Secret', 'Namespace'];
    const sorted = [...order].sort((a, b) => applyRank(a) - applyRank(b));
    assert.deepEqual(sorted, [...order].reverse());
  });
});
