// The in-process server's own parts of built-in kinds' defaults and validation that the conformance suite (which
// holds both servers to kube-apiserver's answers) does not reach: a Secret's base64 as Go decodes it, image tags,
// address and port allocation against what other Services hold, the pvc-protection controller, QoS classes,
// PriorityClasses, a DaemonSet's template generation, and the direct methods going through the same rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { checkBase64Fields } from '../../src/testing/kinds/builtin/base64-data.js';
import { imageTag } from '../../src/testing/kinds/builtin/image-reference.js';

type Json = Record<string, any>;

/** Go 1.26's `base64.StdEncoding.DecodeString` on each input: nil, or the byte its CorruptInputError names. */
const GO_BASE64: Array<[string, number | null]> = [
  ['!!!', 0], ['abc', 0], ['ab', 0], ['a', 0], ['abcd', null], ['ab=', 3], ['ab==', null], ['abc=', null], ['ab=c', 2],
  ['abc==', 4], ['abcd=', 4], ['abcd==', 4], ['ab==cd', 4], ['a===', 1], ['YWJj', null], ['YW Jj', 2], ['', null],
];

function statusOf(action: () => unknown): { code: number; message: string } | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    const body = (error as { body?: { code: number; message: string } }).body;
    if (body === undefined) throw error;
    return { code: body.code, message: body.message };
  }
}

describe('built-in kinds in the test API server', () => {
  let server: TestApiServer;
  before(async () => {
    server = await startTestApiServer({ simulateWorkloads: false });
  });
  after(() => server.stop());

  test("a Secret's data decodes as Go's standard base64 does, the failing byte named as Go names it", () => {
    for (const [text, byte] of GO_BASE64) {
      const failure = statusOf(() => checkBase64Fields('/secrets', 'Secret', { data: { k: text } }));
      assert.equal(failure?.message, byte === null ? undefined : `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${byte}`, JSON.stringify(text));
      if (failure !== undefined) assert.equal(failure.code, 400);
    }
  });

  test('imagePullPolicy follows the tag: none or latest is Always, a tag or digest IfNotPresent, an unparsable name IfNotPresent', () => {
    const cases: Array<[string, string]> = [
      ['nginx', 'latest'], ['nginx:latest', 'latest'], ['nginx:1.27', '1.27'], ['registry.local:5000/team/app', 'latest'],
      ['registry.local:5000/team/app:v2', 'v2'], [`nginx@sha256:${'a'.repeat(64)}`, ''], ['Nginx', ''], ['', ''],
    ];
    for (const [image, tag] of cases) assert.equal(imageTag(image), tag, image);
    const pod = server.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'tags', namespace: 'default' }, spec: { containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'nginx:1.27' }] } });
    assert.deepEqual((pod['spec'] as Json).containers.map((c: Json) => c.imagePullPolicy), ['Always', 'IfNotPresent']);
  });

  test('the direct methods default and validate as HTTP writes do', () => {
    const deployment = server.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'direct', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'direct' } }, template: { metadata: { labels: { app: 'direct' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
    });
    assert.equal((deployment['spec'] as Json).replicas, 1);
    const refused = statusOf(() => server.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'no-selector', namespace: 'default' }, spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } } }));
    assert.equal(refused?.code, 422);
    assert.match(refused?.message ?? '', /^Deployment\.apps "no-selector" is invalid: \[spec\.selector: Required value, spec\.template\.metadata\.labels: Invalid value/);
    assert.equal(server.get('apps/v1', 'Deployment', 'no-selector', 'default'), undefined);
  });

  test('a cluster IP or node port another Service holds is refused; a freed one can be had again', () => {
    const service = (name: string, spec: Json): Json => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { ports: [{ port: 80 }], ...spec } });
    const first = server.create(service('first', { clusterIP: '10.0.0.5', type: 'NodePort', ports: [{ port: 80, nodePort: 30005 }] }));
    assert.equal((first['spec'] as Json).clusterIP, '10.0.0.5');
    assert.equal(statusOf(() => server.create(service('second', { clusterIP: '10.0.0.5' })))?.message, 'Service "second" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: provided IP is already allocated');
    assert.equal(
      statusOf(() => server.create(service('third', { type: 'NodePort', ports: [{ port: 80, nodePort: 30005 }] })))?.message,
      'Service "third" is invalid: spec.ports[0].nodePort: Invalid value: 30005: provided port is already allocated',
    );
    assert.equal(statusOf(() => server.create(service('kubernetes-ip', { clusterIP: '10.0.0.1' })))?.code, 422, '10.0.0.1 is kept for the kubernetes Service');
    server.delete('v1', 'Service', 'first', 'default');
    assert.equal((server.create(service('fourth', { clusterIP: '10.0.0.5' }))['spec'] as Json).clusterIP, '10.0.0.5');
  });

  test('a deleted claim goes at once when no Pod mounts it, and once its last running Pod is gone when one does', async () => {
    const claim = (name: string): Json => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    assert.deepEqual((server.create(claim('free'))['metadata'] as Json).finalizers, ['kubernetes.io/pvc-protection']);
    server.delete('v1', 'PersistentVolumeClaim', 'free', 'default');
    await server.settled();
    assert.equal(server.get('v1', 'PersistentVolumeClaim', 'free', 'default'), undefined);

    server.create(claim('mounted'));
    server.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'user', namespace: 'default' },
      spec: { containers: [{ name: 'a', image: 'nginx:1.27', volumeMounts: [{ name: 'data', mountPath: '/data' }] }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'mounted' } }] },
    });
    server.delete('v1', 'PersistentVolumeClaim', 'mounted', 'default');
    await server.settled();
    const terminating = server.get('v1', 'PersistentVolumeClaim', 'mounted', 'default');
    assert.ok(terminating !== undefined && (terminating['metadata'] as Json).deletionTimestamp !== undefined, 'Terminating while the Pod mounts it');
    server.delete('v1', 'Pod', 'user', 'default');
    await server.settled();
    assert.equal(server.get('v1', 'PersistentVolumeClaim', 'mounted', 'default'), undefined);
  });

  test('a Pod gets its QoS class and its PriorityClass value; an unknown PriorityClass is 403', () => {
    const pod = (name: string, spec: Json): Json => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'a', image: 'nginx:1.27' }], ...spec } });
    const guaranteed = server.create(pod('guaranteed', { containers: [{ name: 'a', image: 'nginx:1.27', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m' } } }] }));
    assert.equal((guaranteed['status'] as Json).qosClass, 'Guaranteed');
    server.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' });
    const high = server.create(pod('high', { priorityClassName: 'high' }));
    assert.deepEqual([(high['spec'] as Json).priority, (high['spec'] as Json).preemptionPolicy], [1000, 'Never']);
    assert.equal((server.create(pod('critical', { priorityClassName: 'system-cluster-critical' }))['spec'] as Json).priority, 2_000_000_000);
    assert.deepEqual(statusOf(() => server.create(pod('missing', { priorityClassName: 'nope' }))), { code: 403, message: 'pods "missing" is forbidden: no PriorityClass with name nope was found' });
  });

  test("a DaemonSet's template generation annotation moves with its template only", () => {
    const spec = (image: string): Json => ({ selector: { matchLabels: { app: 'ds' } }, template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'a', image }] } } });
    const generation = (o: Json): string => o['metadata']['annotations']['deprecated.daemonset.template.generation'];
    const created = server.create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds', namespace: 'default' }, spec: spec('nginx:1.27') });
    assert.equal(generation(created), '1');
    const labelled = server.update({ ...created, metadata: { ...(created['metadata'] as Json), labels: { a: 'b' } } });
    assert.equal(generation(labelled), '1');
    const changed = server.update({ ...labelled, spec: spec('nginx:1.28') });
    assert.equal(generation(changed), '2');
  });
});
