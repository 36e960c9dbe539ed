// The template kinds taken from Orkestra, through the real client-node against the test API server, written as
// current Orkestra writes them (`hpa`, `pdb` and `custom` are its keys): every child is created, put back after a
// hand edit (drift), and, when its name changes, the new one made and the old one left to the garbage collector as
// Orkestra does (docs/operatorbox.md#pruning) — the cluster-scoped PersistentVolume and PriorityClass too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, waitFor, type CrdSpec } from '../support/cluster.js';

const SHOP: CrdSpec = { kind: 'Shop', plural: 'shops' };
const CACHE: CrdSpec = { kind: 'Cache', plural: 'caches', group: 'cache.example.io' };
type Obj = Record<string, unknown> & { metadata?: { labels?: Record<string, string> }; spec?: Record<string, unknown> };

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: kinds }
spec:
  crds:
    shop:
      apiTypes: { group: example.io, version: v1, kind: Shop, plural: shops }
      operatorBox:
        onReconcile:
          pods:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-worker"
              image: "{{ .spec.image }}"
              port: "9090"
          persistentVolumes:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-pv"
              capacity: 5Gi
              hostPath: /mnt/data
          persistentVolumeClaims:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-data"
              storage: "{{ .spec.storage }}"
          networkPolicies:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-deny"
              podSelector: { app: "{{ .metadata.name }}" }
              ingress: []
          pdb:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-pdb"
              minAvailable: "1"
          limitRanges:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-limits"
              limits:
                - type: Container
                  default: { cpu: 500m }
          resourceQuotas:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-quota"
              hard: { cpu: "4", pods: "20" }
          priorityClasses:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-priority"
              value: "1000"
              description: batch
          hpa:
            - name: "{{ .metadata.name }}-{{ .spec.gen }}-hpa"
              deploymentRef: "{{ .metadata.name }}"
              maxReplicas: "{{ .spec.maxReplicas }}"
              targetCPUUtilizationPercentage: "80"
          custom:
            - apiVersion: cache.example.io/v1
              kind: Cache
              metadata: { name: "{{ .metadata.name }}-{{ .spec.gen }}-cache" }
              spec: { size: "{{ .spec.size }}" }
`;

/** Each child: how to find it, a hand edit, and how to tell the edit was put back. */
interface Child {
  readonly apiVersion: string;
  readonly kind: string;
  readonly suffix: string;
  readonly clusterScoped?: boolean;
  /** A hand edit to put back; none for a claim, whose spec cannot change once created (kube-apiserver refuses the edit). */
  readonly edit?: Record<string, unknown>;
  readonly restored: (object: Obj) => boolean;
}

const spec = (object: Obj): Record<string, unknown> => object.spec ?? {};
const CHILDREN: readonly Child[] = [
  { apiVersion: 'v1', kind: 'Pod', suffix: 'worker', edit: { metadata: { labels: { 'app.kubernetes.io/name': 'edited' } } }, restored: (o) => o.metadata?.labels?.['app.kubernetes.io/name'] === 'shop-a-worker' },
  { apiVersion: 'v1', kind: 'PersistentVolume', suffix: 'pv', clusterScoped: true, edit: { spec: { persistentVolumeReclaimPolicy: 'Delete' } }, restored: (o) => spec(o)['persistentVolumeReclaimPolicy'] === 'Retain' },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', suffix: 'data', restored: (o) => JSON.stringify(spec(o)['resources']) === '{"requests":{"storage":"2Gi"}}' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', suffix: 'deny', edit: { spec: { podSelector: { matchLabels: { app: 'other' } } } }, restored: (o) => JSON.stringify(spec(o)['podSelector']) === '{"matchLabels":{"app":"shop"}}' },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', suffix: 'pdb', edit: { spec: { minAvailable: 3 } }, restored: (o) => spec(o)['minAvailable'] === 1 },
  { apiVersion: 'v1', kind: 'LimitRange', suffix: 'limits', edit: { spec: { limits: [{ type: 'Container', default: { cpu: '9' } }] } }, restored: (o) => JSON.stringify(spec(o)['limits']) === '[{"type":"Container","default":{"cpu":"500m"},"defaultRequest":{"cpu":"500m"}}]' },
  { apiVersion: 'v1', kind: 'ResourceQuota', suffix: 'quota', edit: { spec: { hard: { cpu: '64' } } }, restored: (o) => (spec(o)['hard'] as Record<string, string>)['cpu'] === '4' },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', suffix: 'priority', clusterScoped: true, edit: { description: 'edited' }, restored: (o) => o['description'] === 'batch' },
  { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', suffix: 'hpa', edit: { spec: { maxReplicas: 99 } }, restored: (o) => spec(o)['maxReplicas'] === 5 },
  { apiVersion: 'cache.example.io/v1', kind: 'Cache', suffix: 'cache', edit: { spec: { size: 99 } }, restored: (o) => spec(o)['size'] === 3 },
];

describe('Orkestra template kinds through the test API server', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    server.applyCrd(crdManifest(SHOP));
    server.applyCrd(crdManifest(CACHE));
    await server.settled();
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });

  const get = (child: Child, gen: string): Obj | undefined =>
    server.get(child.apiVersion, child.kind, `shop-${gen}-${child.suffix}`, child.clusterScoped === true ? undefined : 'default') as Obj | undefined;

  test('each kind is created, drift-corrected, and renamed without deleting the old child', async () => {
    server.create({ apiVersion: 'example.io/v1', kind: 'Shop', metadata: { name: 'shop', namespace: 'default' }, spec: { gen: 'a', image: 'busybox:1.36', storage: '2Gi', maxReplicas: 5, size: 3 } });
    for (const child of CHILDREN) {
      const object = await waitFor(`the ${child.kind}`, () => get(child, 'a'));
      assert.ok(child.restored(object), `${child.kind} as declared`);
    }
    const hpa = get(CHILDREN[8] as Child, 'a');
    assert.deepEqual(spec(hpa ?? {})['scaleTargetRef'], { apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop' });

    const edited = CHILDREN.filter((child) => child.edit !== undefined);
    for (const child of edited) server.patch(child.apiVersion, child.kind, `shop-a-${child.suffix}`, child.edit, child.clusterScoped === true ? {} : { namespace: 'default' });
    for (const child of edited) {
      await waitFor(`the ${child.kind} put back`, () => {
        const object = get(child, 'a');
        return object !== undefined && child.restored(object);
      });
    }

    server.patch('example.io/v1', 'Shop', 'shop', { spec: { gen: 'b' } }, { namespace: 'default' });
    for (const child of CHILDREN) {
      await waitFor(`the new ${child.kind}`, () => get(child, 'b'));
    }
    // An Orkestra document prunes conditionally: no entry's condition stopped holding, so nothing is deleted.
    for (const child of CHILDREN) assert.ok(get(child, 'a'), `the old ${child.kind} is kept`);
  });
});
