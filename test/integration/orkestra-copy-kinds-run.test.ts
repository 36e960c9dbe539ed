// Copies of NetworkPolicies, LimitRanges and ResourceQuotas (fromNetworkPolicy / fromLimitRange / fromResourceQuota,
// fromNamespace, toNamespaces; orkspace/orkestra pkg/types/types_networkpolicy.go @ eacb2604: "reads this
// NetworkPolicy at reconcile time and copies its spec", its usage patterns 3 and 4) against the test API server
// through the real client-node: each copy carries the source's spec into its namespaces, and a missing source is
// Ready=False, retried with backoff until it appears, never skipped.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { spec?: Record<string, unknown>; status?: { conditions?: Array<{ type: string; status: string; message?: string }> } };

const GROUP = 'demo.orkestra.io';
const API = `${GROUP}/v1alpha1`;

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: tenancy }
spec:
  crds:
    tenant:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Tenant, plural: tenants }
      operatorBox:
        onCreate:
          networkPolicies:
            - name: deny-all
              fromNetworkPolicy: org-deny-all
              fromNamespace: platform
              toNamespaces: ["{{ .spec.namespace }}", team-b]
          limitRanges:
            - { name: "{{ .metadata.name }}-limits", fromLimitRange: org-limits, fromNamespace: platform }
          resourceQuotas:
            - { name: "{{ .metadata.name }}-quota", fromResourceQuota: "{{ .spec.quota }}", fromNamespace: platform }
`;

describe('copies of NetworkPolicies, LimitRanges and ResourceQuotas, run', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    server.create(crdManifest({ group: GROUP, kind: 'Tenant', plural: 'tenants', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    for (const name of ['platform', 'team-a', 'team-b']) server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });
  const ready = (): { status: string; message?: string } | undefined => (server.get(API, 'Tenant', 'acme', 'default') as Obj | undefined)?.status?.conditions?.find((c) => c.type === 'Ready');

  test('each copy takes the source spec in its namespaces; a missing source waits, Ready=False, until it exists', async () => {
    const denyAll = { podSelector: {}, policyTypes: ['Ingress', 'Egress'] };
    const limits = { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] };
    const quota = { hard: { pods: '10', 'requests.cpu': '4' } };
    server.create({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'org-deny-all', namespace: 'platform' }, spec: denyAll });
    server.create({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'org-limits', namespace: 'platform' }, spec: limits });
    server.create({ apiVersion: API, kind: 'Tenant', metadata: { name: 'acme', namespace: 'default' }, spec: { namespace: 'team-a', quota: 'org-quota' } });

    const waiting = await waitFor('Ready=False', () => (ready()?.status === 'False' ? ready() : undefined), 30_000);
    assert.match(waiting.message ?? '', /the ResourceQuota to copy \(fromResourceQuota, fromNamespace\) does not exist; retried with backoff/);
    assert.doesNotMatch(waiting.message ?? '', /org-quota|platform/);

    server.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'org-quota', namespace: 'platform' }, spec: quota });
    await waitFor('Ready=True', () => ready()?.status === 'True', 30_000);
    for (const namespace of ['team-a', 'team-b']) {
      const policy = server.get('networking.k8s.io/v1', 'NetworkPolicy', 'deny-all', namespace) as Obj | undefined;
      assert.deepEqual(policy?.spec, denyAll, `the policy in ${namespace}`);
    }
    assert.equal(server.get('networking.k8s.io/v1', 'NetworkPolicy', 'deny-all', 'default'), undefined, 'no copy where toNamespaces does not say');
    assert.deepEqual((server.get('v1', 'LimitRange', 'acme-limits', 'default') as Obj | undefined)?.spec, limits);
    assert.deepEqual((server.get('v1', 'ResourceQuota', 'acme-quota', 'default') as Obj | undefined)?.spec, quota);
  });
});
