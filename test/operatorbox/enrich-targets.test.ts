// The enricher over reads that answer from a table (the runtime's reads go through the client; the integration test
// test/integration/orkestra-enrich-targets-run.test.ts runs them against the test API server): which calls each
// target makes, that a target whose conditions do not hold makes none (Orkestra's second phase), that a failed read
// fails the pass instead of leaving the data out, and that the input view is never changed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import type { EnrichRule } from '../../src/definition/types.js';
import type { KubeObject, ResourceRef } from '../../src/kube/resource.js';
import { silentLogger } from '../../src/observe/logger.js';
import { createEnricher } from '../../src/operatorbox/enrich.js';
import type { EnrichReads, Selectors } from '../../src/operatorbox/enrich-reads.js';
import type { ChildrenView } from '../../src/operatorbox/template-data.js';

function rule(enrich: string): EnrichRule {
  const definition = parseDefinition(`apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: e }
spec:
  crds:
    site:
      apiTypes: { group: demo.io, version: v1, kind: Site, plural: sites }
${enrich}
      operatorBox:
        onCreate:
          deployments: [{ name: web, image: nginx }]
`);
  const found = definition.crds.get('site')?.enrich;
  assert.ok(found);
  return found;
}

interface Call {
  readonly verb: 'list' | 'get';
  readonly kind: string;
  readonly what: string;
}

function tableReads(objects: Readonly<Record<string, readonly KubeObject[]>>, calls: Call[], fail?: string): EnrichReads {
  return {
    list: async (ref: ResourceRef, namespace: string, selectors: Selectors) => {
      calls.push({ verb: 'list', kind: ref.kind, what: `${namespace} ${selectors.labelSelector ?? ''}${selectors.fieldSelector ?? ''}` });
      if (fail === ref.kind) throw new Error(`list ${ref.kind}: 503`);
      return objects[ref.kind] ?? [];
    },
    get: async (ref: ResourceRef, name: string) => {
      calls.push({ verb: 'get', kind: ref.kind, what: name });
      if (fail === ref.kind) throw new Error(`get ${ref.kind}: 503`);
      return (objects[ref.kind] ?? []).find((object) => object.metadata?.name === name);
    },
  };
}

const site: KubeObject = { apiVersion: 'demo.io/v1', kind: 'Site', metadata: { name: 'site', namespace: 'default', uid: 's' }, spec: { degraded: false } };
const pod = (name: string, nodeName: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName } });
const children = (): ChildrenView => ({
  pods: { a: pod('a', 'node-1'), b: pod('b', 'node-1') },
  deployments: { web: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', uid: 'd' }, spec: { selector: { matchLabels: { app: 'web' } } } } },
});

describe('enrich targets beside pods: the reads', () => {
  test('node reads each Node once per pass; events reads the child and, for a workload, its pods; the input view is unchanged', async () => {
    const calls: Call[] = [];
    const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'z1' } } };
    const warning: KubeObject = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, type: 'Warning', reason: 'BackOff', message: 'm', involvedObject: { kind: 'Pod', name: 'web-1' } };
    const webPod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1' } };
    const enricher = createEnricher({ crd: 'site', rule: rule('      enrich: [node, events]'), reads: tableReads({ Node: [node], Event: [warning], Pod: [webPod] }, calls), logger: silentLogger });
    const input = children();
    const before = structuredClone(input);
    const out = await enricher.run(site, input, new AbortController().signal);
    assert.deepEqual(input, before, 'the input view is not changed');
    assert.deepEqual(out['pods']?.['a']?.['_node'], { name: 'node-1', zone: 'z1', region: '', instanceType: '' });
    assert.equal(calls.filter((call) => call.kind === 'Node').length, 1, 'one get for two pods on the same Node');
    assert.ok(calls.some((call) => call.kind === 'Event' && call.what === 'default involvedObject.name=web,involvedObject.kind=Deployment,type=Warning'));
    assert.ok(calls.some((call) => call.kind === 'Pod' && call.what === 'default app=web'), 'the workload pods, by its selector');
    // The Event table answers every list; the pod Warning is kept for the Deployment (its pod) and for the Pods (their own list).
    assert.deepEqual(out['deployments']?.['web']?.['_warnings'], [
      { reason: 'BackOff', message: 'm', count: 0, lastTimestamp: '' },
      { reason: 'BackOff', message: 'm', count: 0, lastTimestamp: '' },
    ]);
  });

  test('a target whose conditions do not hold makes no call; when they hold it does', async () => {
    const calls: Call[] = [];
    const gated = rule(`      enrich:
        - events:
            when:
              - field: spec.degraded
                equals: "true"`);
    const enricher = createEnricher({ crd: 'site', rule: gated, reads: tableReads({}, calls), logger: silentLogger });
    const out = await enricher.run(site, children(), new AbortController().signal);
    assert.deepEqual(calls, []);
    assert.equal(out['deployments']?.['web']?.['_warnings'], undefined);
    await enricher.run({ ...site, spec: { degraded: true } }, children(), new AbortController().signal);
    assert.ok(calls.length > 0);
  });

  test('a failed read fails the pass (the status write is retried), a missing object leaves the key out', async () => {
    const enricher = (fail?: string): ReturnType<typeof createEnricher> => createEnricher({ crd: 'site', rule: rule('      enrich: [node, replicasets]'), reads: tableReads({}, [], fail), logger: silentLogger });
    await assert.rejects(enricher('Node').run(site, children(), new AbortController().signal), /get Node: 503/);
    await assert.rejects(enricher('ReplicaSet').run(site, children(), new AbortController().signal), /list ReplicaSet: 503/);
    const out = await enricher().run(site, children(), new AbortController().signal);
    assert.equal(Object.hasOwn(out['pods']?.['a'] ?? {}, '_node'), false, 'no Node: no _node');
  });

  test('replicasets: the owned ones with _owner, and the one with the most replicas as the ReplicaSet child when none is declared', async () => {
    const rs = (name: string, replicas: number, uid: string): KubeObject => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid, controller: true }] }, spec: { replicas } });
    const enricher = createEnricher({ crd: 'site', rule: rule('      enrich: [replicasets]'), reads: tableReads({ ReplicaSet: [rs('web-1', 0, 'd'), rs('web-2', 2, 'd'), rs('other-1', 5, 'x')] }, []), logger: silentLogger });
    const out = await enricher.run(site, children(), new AbortController().signal);
    const owned = out['deployments']?.['web']?.['_replicaSets'] as KubeObject[];
    assert.deepEqual(owned.map((item) => item.metadata?.name), ['web-1', 'web-2']);
    assert.deepEqual(owned[0]?.['_owner'], { name: 'web', kind: 'Deployment', uid: 'd' });
    assert.deepEqual(Object.keys(out['replicaSets'] ?? {}), ['web-2']);
  });
});
