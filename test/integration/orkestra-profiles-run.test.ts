// Orkestra profiles end to end: a Katalog with its own profiles: block, built-in presets and a CRD-level Motif that
// brings profiles of its own runs against the test API server (the runtime talks to it through the real
// client-node over HTTP); the children carry the presets' fields as Orkestra's builders set them
// (orkspace/orkestra pkg/resources/shared/{resource,probes,security,rolling_update}.go, pkg/profiles/*.go).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../../src/create-runtime.js';
import { loadDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, crdManifest, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { spec?: Record<string, unknown> };
type Map = Record<string, unknown>;

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: profiled }
profiles:
  resources:
    - name: org-web
      requests: { cpu: 150m, memory: 200Mi }
      limits: { cpu: 300m, memory: 400Mi }
  pdb:
    - name: org-one
      minAvailable: "1"
spec:
  crds:
    site:
      apiTypes: { group: example.io, version: v1, kind: Site, plural: sites }
      imports:
        - motif: ./cache-motif.yaml
      operatorBox:
        reconciler:
          profile: development
        onReconcile:
          deployments:
            - name: "{{ .metadata.name }}-web"
              image: "{{ .spec.image }}"
              port: 8080
              resources: { profile: org-web }
              securityContext: { profile: hardened }
              podSecurity: { profile: restricted }
              probes:
                startup: { path: /healthz, profile: slow-start }
                readiness: { path: /ready, profile: fast }
                liveness: { type: tcp }
              rollingUpdate: { profile: safe }
          hpa:
            - name: "{{ .metadata.name }}-hpa"
              deploymentRef: "{{ .metadata.name }}-web"
              maxReplicas: 4
              behavior: { profile: api }
          pdb:
            - name: "{{ .metadata.name }}-pdb"
              behavior: { profile: org-one }
          networkPolicies:
            - name: "{{ .metadata.name }}-dns"
              podSelector: { app: "{{ .metadata.name }}" }
              profile: allow-dns-egress
          resourceQuotas:
            - name: "{{ .metadata.name }}-quota"
              profile: small
`;

// A Motif with profiles of its own, used by its resources (the Katalog's and the built-ins resolve there too).
const MOTIF = `apiVersion: orkestra.orkspace.io/v1
kind: Motif
metadata: { name: cache }
profiles:
  limitRanges:
    - name: cache-defaults
      limits:
        - type: Container
          default: { cpu: 200m }
          defaultRequest: { cpu: 50m }
resources:
  statefulSets:
    - name: "{{ .metadata.name }}-cache"
      image: redis:7
      port: 6379
      resources: { profile: tiny }
      rollingUpdate: { profile: fast }
  limitRanges:
    - name: "{{ .metadata.name }}-limits"
      profile: cache-defaults
`;

describe('Orkestra profiles, run', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    const root = mkdtempSync(join(tmpdir(), 'katalog-profiles-run-'));
    writeFileSync(join(root, 'katalog.yaml'), KATALOG);
    writeFileSync(join(root, 'cache-motif.yaml'), MOTIF);
    server = await startTestApiServer();
    server.create(crdManifest({ kind: 'Site', plural: 'sites' }));
    runtime = createRuntime(await loadDefinition(join(root, 'katalog.yaml')), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });
  const child = (apiVersion: string, kind: string, name: string): Promise<Obj> =>
    waitFor(`${kind} ${name}`, () => server.get(apiVersion, kind, name, 'default') as Obj | undefined);

  test('the children carry the presets: resources, security contexts, probes, strategies, budgets, policies', async () => {
    server.create({ apiVersion: 'example.io/v1', kind: 'Site', metadata: { name: 'shop', namespace: 'default' }, spec: { image: 'nginx:1.27' } });

    const deployment = await child('apps/v1', 'Deployment', 'shop-web');
    const deploymentSpec = deployment.spec as Map;
    assert.deepEqual(deploymentSpec['strategy'], { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    const pod = (deploymentSpec['template'] as Map)['spec'] as Map;
    assert.deepEqual(pod['securityContext'], { runAsNonRoot: true, runAsUser: 1000 });
    const container = (pod['containers'] as Map[])[0] ?? {};
    assert.equal(container['image'], 'nginx:1.27');
    assert.deepEqual(container['resources'], { requests: { cpu: '150m', memory: '200Mi' }, limits: { cpu: '300m', memory: '400Mi' } });
    assert.deepEqual(container['securityContext'], { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
    // The preset's `initialDelaySeconds: 0` is left out once stored (omitempty), as a cluster writes the Deployment back.
    assert.deepEqual(container['startupProbe'], { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, periodSeconds: 10, failureThreshold: 30, successThreshold: 1, timeoutSeconds: 10 });
    assert.deepEqual(container['readinessProbe'], { httpGet: { path: '/ready', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 5, periodSeconds: 10, failureThreshold: 2, successThreshold: 1, timeoutSeconds: 5 });
    assert.deepEqual(container['livenessProbe'], { tcpSocket: { port: 8080 }, initialDelaySeconds: 15, periodSeconds: 20, failureThreshold: 3, successThreshold: 1, timeoutSeconds: 10 });

    const hpa = (await child('autoscaling/v2', 'HorizontalPodAutoscaler', 'shop-hpa')).spec as Map;
    assert.deepEqual(hpa['metrics'], [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
    assert.equal(((hpa['behavior'] as Map)['scaleDown'] as Map)['stabilizationWindowSeconds'], 600);
    assert.equal((await child('policy/v1', 'PodDisruptionBudget', 'shop-pdb')).spec?.['minAvailable'], 1);
    const policy = (await child('networking.k8s.io/v1', 'NetworkPolicy', 'shop-dns')).spec as Map;
    assert.deepEqual(policy['policyTypes'], ['Egress']);
    assert.deepEqual(policy['egress'], [{ ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] }]);
    assert.equal(((await child('v1', 'ResourceQuota', 'shop-quota')).spec?.['hard'] as Map)['requests.memory'], '2Gi');

    const cache = (await child('apps/v1', 'StatefulSet', 'shop-cache')).spec as Map;
    // The server adds the rolling update's partition (0), as kube-apiserver does.
    assert.deepEqual(cache['updateStrategy'], { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', partition: 0 } });
    const cacheContainer = ((((cache['template'] as Map)['spec'] as Map)['containers'] as Map[])[0] ?? {});
    assert.deepEqual(cacheContainer['resources'], { requests: { cpu: '25m', memory: '64Mi' }, limits: { cpu: '100m', memory: '128Mi' } });
    const limits = (await child('v1', 'LimitRange', 'shop-limits')).spec as Map;
    assert.deepEqual(limits['limits'], [{ type: 'Container', default: { cpu: '200m' }, defaultRequest: { cpu: '50m' } }]);
  });

  test("the reconciler profile sets the CRD's workers, resync and queue bound", () => {
    const settings = runtime.definition.crds.get('site')?.settings;
    assert.deepEqual([settings?.workers?.value, settings?.resync?.value, settings?.maxDepth?.value], [1, 30_000, 50]);
  });
});
