// Orkestra's `enrich: [pods]` end to end against the test API server (the runtime talks to it through the real
// client-node over HTTP): the runtime lists the pods of its StatefulSet child with the child's selector, keeps the
// ones the StatefulSet controls, and status fields read them through Orkestra's pod notes (the Memcached example of
// orkspace/orkestra pkg/note/catalog_generated.go @ eacb2604, podContainerState row). The test plays the StatefulSet
// controller and the kubelet: it creates the pods and their status, as they would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> };

const GROUP = 'demo.orkestra.io';
const API = `${GROUP}/v1alpha1`;

const KATALOG = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: caches }
spec:
  crds:
    memcached:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Memcached, plural: memcacheds }
      enrich: [pods]
      operatorBox:
        onCreate:
          statefulSets:
            - name: "{{ .metadata.name }}"
              image: "memcached:{{ .spec.version }}"
              replicas: "{{ .spec.size }}"
        status:
          fields:
            - { path: pods, value: "{{ podNames .children.statefulset }}" }
            - { path: podIPs, value: "{{ podIPs .children.statefulset }}" }
            - { path: size, value: "{{ podCount .children.statefulset }}", type: int }
            - { path: ready, value: "{{ readyPodCount .children.statefulset }}", type: int }
            - { path: primary, value: "{{ (podByOrdinal .children.statefulset 0).name }}" }
            - { path: crashLoop, value: "{{ podCrashLoopDetected .children.statefulset }}" }
`;

describe('Orkestra enrich (pods), run', () => {
  let server: TestApiServer;
  let runtime: Runtime;
  before(async () => {
    server = await startTestApiServer();
    server.create(crdManifest({ group: GROUP, kind: 'Memcached', plural: 'memcacheds', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(parseDefinition(KATALOG), { kubeConfig: server.kubeConfig, watch: FAST_WATCH, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime.stop();
    await server.stop();
  });
  const cache = (): Obj | undefined => server.get(API, 'Memcached', 'cache', 'default') as Obj | undefined;

  /** A pod of `owner` as the StatefulSet controller and the kubelet would write it. */
  function pod(owner: Obj, name: string, labels: Record<string, unknown>, status: Record<string, unknown>): void {
    const meta = owner.metadata ?? {};
    server.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', labels, ownerReferences: [{ apiVersion: 'apps/v1', kind: String(owner['kind']), name: String(meta['name']), uid: String(meta['uid']), controller: true }] },
      spec: { containers: [{ name: 'memcached', image: 'memcached:1.6' }] },
      status,
    });
  }

  test('status fields read the pods of the StatefulSet child; pods of others with the same labels are left out', async () => {
    server.create({ apiVersion: API, kind: 'Memcached', metadata: { name: 'cache', namespace: 'default' }, spec: { version: '1.6', size: 2 } });
    const sts = await waitFor('the StatefulSet child', () => server.get('apps/v1', 'StatefulSet', 'cache', 'default') as Obj | undefined);
    const labels = ((sts.spec?.['selector'] as { matchLabels?: Record<string, unknown> } | undefined)?.matchLabels ?? {}) as Record<string, unknown>;
    assert.ok(Object.keys(labels).length > 0, 'the StatefulSet selects its pods by labels');
    // Same labels, another controller: not the child's.
    pod({ kind: 'StatefulSet', metadata: { name: 'other', uid: 'not-the-child' } }, 'other-0', labels, { phase: 'Running', podIP: '10.9.9.9', conditions: [{ type: 'Ready', status: 'True' }] });

    // The test server's StatefulSet controller creates cache-0 and cache-1, then runs them; the StatefulSet's status
    // change reconciles the Memcached again, whose status reads the pods.
    const status = await waitFor('the enriched status', () => (cache()?.status?.['ready'] === 2 ? cache()?.status : undefined), 30_000);
    assert.equal(status['pods'], 'cache-0, cache-1');
    assert.equal(status['size'], 2);
    assert.match(String(status['podIPs']), /^\d+\.\d+\.\d+\.\d+, \d+\.\d+\.\d+\.\d+$/);
    assert.doesNotMatch(String(status['podIPs']), /10\.9\.9\.9/);
    assert.equal(status['primary'], 'cache-0');
    assert.equal(status['crashLoop'], 'false');

    // The kubelet reports a crash loop in cache-1. Pods are not watched (Orkestra re-reads them at the next
    // reconcile): a change of the custom resource brings one.
    server.patch(
      'v1',
      'Pod',
      'cache-1',
      { status: { conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: [{ name: 'memcached', image: 'memcached:1.6', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } }] } },
      { namespace: 'default', subresource: 'status' },
    );
    server.patch(API, 'Memcached', 'cache', { metadata: { labels: { touched: 'yes' } } }, { namespace: 'default' });
    const crashed = await waitFor('the crash loop seen', () => (cache()?.status?.['crashLoop'] === 'true' ? cache()?.status : undefined), 30_000);
    assert.equal(crashed['ready'], 1);
  });
});
