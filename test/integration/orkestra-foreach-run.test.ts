// forEach end to end against the test API server (real client-node over HTTP): one child per item of a list (with
// `as`, a per-item `when`) and of a map (`.value`, keys sorted for `.index`); growing and shrinking the list adds
// and prunes exactly those children, the owner's other children untouched; a child edited by hand is put back; the
// status reads the children as Orkestra keys them (.children.configMaps by name).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuntime } from '../../src/create-runtime.js';
import { parseDefinition } from '../../src/definition/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { crdManifest, startTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { FAST_WATCH, waitFor } from '../support/cluster.js';

type Obj = Record<string, unknown> & { metadata?: { uid?: string; name?: string }; data?: Record<string, string>; status?: Record<string, unknown> };

const GROUP = 'fleet.orkestra.io';
const API = `${GROUP}/v1alpha1`;
const WAIT = 30_000;

const DEFINITION = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: fleet }
spec:
  crds:
    fleet:
      apiTypes: { group: ${GROUP}, version: v1alpha1, kind: Fleet, plural: fleets }
      operatorBox:
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-{{ .region }}"
              forEach: { field: spec.regions, as: region }
              when: [{ field: region, notEquals: skip }]
              data:
                region: "{{ .region }}"
                same: "{{ .item }}"
                index: "{{ .index }}"
                image: "{{ .spec.image }}"
            - name: "{{ .metadata.name }}-tier-{{ .item }}"
              forEach: { field: spec.tiers }
              data:
                replicas: "{{ .value.replicas }}"
                index: "{{ .index }}"
            - name: "{{ .metadata.name }}-shared"
              data: { image: "{{ .spec.image }}" }
        status:
          fields:
            - { path: children, value: "{{ len .children.configMaps }}" }
            - { path: euRegion, value: '{{ (index .children.configMaps "f-eu").data.region }}' }
`;

describe('forEach, run', () => {
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(DEFINITION, { source: 'fleet.yaml' });
    for (const entry of definition.crds.values()) {
      const { group, kind, plural, scope, version } = entry.apiTypes;
      server.create(crdManifest({ group, kind, plural, scope, versions: [{ name: version, served: true, storage: true, status: true }] }));
    }
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });

  const api = (): TestApiServer => server ?? assert.fail('no test API server');
  const configMap = (name: string): Obj | undefined => api().get('v1', 'ConfigMap', name, 'default') as Obj | undefined;
  const names = (): string[] =>
    api()
      .objects({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default' })
      .map((object) => (object as Obj).metadata?.name ?? '')
      .filter((name) => name.startsWith('f-'))
      .sort();
  const fleet = (): Obj | undefined => api().get(API, 'Fleet', 'f', 'default') as Obj | undefined;
  const sameNames = (expected: string[]) => () => JSON.stringify(names()) === JSON.stringify(expected);

  test('one child per item; the list grows and shrinks, only the items that went are pruned', async () => {
    api().create({ apiVersion: API, kind: 'Fleet', metadata: { name: 'f', namespace: 'default' }, spec: { image: 'web:1', regions: ['us', 'skip', 'eu'], tiers: { silver: { replicas: 2 }, gold: { replicas: 5 } } } });
    await waitFor('the children of three items and two tiers', sameNames(['f-eu', 'f-shared', 'f-tier-gold', 'f-tier-silver', 'f-us']), WAIT);
    assert.deepEqual(configMap('f-eu')?.data, { region: 'eu', same: 'eu', index: '2', image: 'web:1' });
    assert.deepEqual(configMap('f-tier-gold')?.data, { replicas: '5', index: '0' });
    assert.deepEqual(configMap('f-tier-silver')?.data, { replicas: '2', index: '1' });
    const status = await waitFor('the status', () => (fleet()?.status?.['children'] === '5' ? fleet()?.status : undefined), WAIT);
    assert.equal(status['euRegion'], 'eu');

    const kept = { eu: configMap('f-eu')?.metadata?.uid, shared: configMap('f-shared')?.metadata?.uid, gold: configMap('f-tier-gold')?.metadata?.uid };
    api().patch(API, 'Fleet', 'f', { spec: { regions: ['eu', 'ap'], tiers: { silver: null, gold: { replicas: 6 } } } }, { namespace: 'default' });
    await waitFor('us and silver pruned, ap added', sameNames(['f-ap', 'f-eu', 'f-shared', 'f-tier-gold']), WAIT);
    await waitFor('eu re-indexed, gold updated', () => configMap('f-eu')?.data?.['index'] === '0' && configMap('f-tier-gold')?.data?.['replicas'] === '6', WAIT);
    assert.deepEqual(configMap('f-ap')?.data, { region: 'ap', same: 'ap', index: '1', image: 'web:1' });
    // The children that stayed are the same objects (updated in place), the owner's other child untouched.
    assert.equal(configMap('f-eu')?.metadata?.uid, kept.eu);
    assert.equal(configMap('f-tier-gold')?.metadata?.uid, kept.gold);
    assert.equal(configMap('f-shared')?.metadata?.uid, kept.shared);
    await waitFor('the status counts four', () => fleet()?.status?.['children'] === '4', WAIT);

    api().patch(API, 'Fleet', 'f', { spec: { regions: [] } }, { namespace: 'default' });
    await waitFor('every region child pruned', sameNames(['f-shared', 'f-tier-gold']), WAIT);
  });

  test('a child of one item edited by hand is put back', async () => {
    api().patch(API, 'Fleet', 'f', { spec: { regions: ['eu'] } }, { namespace: 'default' });
    await waitFor('f-eu back', () => configMap('f-eu')?.data?.['region'] === 'eu', WAIT);
    api().patch('v1', 'ConfigMap', 'f-eu', { data: { region: 'tampered' } }, { namespace: 'default' });
    await waitFor('drift corrected', () => configMap('f-eu')?.data?.['region'] === 'eu', WAIT);
  });
});

// Orkestra's own forEach example (its guide "05 — forEach Sharding", advanced/16-custom-resources): a ShardedStore
// makes one Shard custom resource per element of spec.shards (a list of maps bound `as: shard`), through the
// `custom` kind; removing an element deletes its Shard, as the guide says.
const SHARDS = `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: sharding }
spec:
  crds:
    shardedstore:
      apiTypes: { group: storage.example.io, version: v1alpha1, kind: ShardedStore, plural: shardedstores }
      operatorBox:
        onCreate:
          custom:
            - apiVersion: storage.example.io/v1alpha1
              kind: Shard
              reconcile: true
              forEach:
                field: spec.shards
                as: shard
              metadata:
                name: "{{ .metadata.name }}-{{ .shard.name }}"
                namespace: "{{ .metadata.namespace }}"
                namespaced: true
              spec:
                shardName: "{{ .shard.name }}"
                region: "{{ .shard.region }}"
                size: "{{ .shard.size }}"
                replicationFactor: "{{ .spec.replicationFactor }}"
              hasStatus: false
`;

describe('forEach over custom resources (Orkestra sharding guide), run', () => {
  let server: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  const STORE = 'storage.example.io/v1alpha1';
  before(async () => {
    server = await startTestApiServer();
    const definition = parseDefinition(SHARDS, { source: 'sharding.yaml' });
    server.create(crdManifest({ group: 'storage.example.io', kind: 'ShardedStore', plural: 'shardedstores', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    server.create(crdManifest({ group: 'storage.example.io', kind: 'Shard', plural: 'shards', scope: 'Namespaced', versions: [{ name: 'v1alpha1', served: true, storage: true, status: true }] }));
    runtime = createRuntime(definition, { kubeConfig: server.kubeConfig, watch: FAST_WATCH, installCrds: true, rateLimiter: { baseDelay: 5, maxDelay: 200 } });
    await runtime.start();
  });
  after(async () => {
    await runtime?.stop();
    await server?.stop();
  });
  const api = (): TestApiServer => server ?? assert.fail('no test API server');
  const shards = (): string[] =>
    api()
      .objects({ apiVersion: STORE, kind: 'Shard', namespace: 'default' })
      .map((object) => (object as Obj).metadata?.name ?? '')
      .sort();

  test('one Shard per element of spec.shards; removing an element deletes its Shard', async () => {
    const shard = (name: string, region: string): Record<string, string> => ({ name, region, size: '50Gi' });
    api().create({ apiVersion: STORE, kind: 'ShardedStore', metadata: { name: 'global-store', namespace: 'default' }, spec: { replicationFactor: 3, shards: [shard('us-east', 'us-east-1'), shard('eu-west', 'eu-west-1')] } });
    await waitFor('two Shards', () => JSON.stringify(shards()) === JSON.stringify(['global-store-eu-west', 'global-store-us-east']), WAIT);
    const east = api().get(STORE, 'Shard', 'global-store-us-east', 'default') as Obj & { spec?: Record<string, unknown> };
    assert.deepEqual(east.spec, { shardName: 'us-east', region: 'us-east-1', size: '50Gi', replicationFactor: 3 });

    api().patch(STORE, 'ShardedStore', 'global-store', { spec: { shards: [shard('eu-west', 'eu-west-1'), shard('ap-south', 'ap-south-1')] } }, { namespace: 'default' });
    await waitFor('us-east deleted, ap-south created', () => JSON.stringify(shards()) === JSON.stringify(['global-store-ap-south', 'global-store-eu-west']), WAIT);
  });
});
