// Orkestra's `enrich` / `enrichAll` at load (orkspace/orkestra pkg/types/types_crd_entry.go @ eacb2604: the
// shorthand `enrich: [pods]`, the struct form with conditions, and "only one of EnrichAll or Enrich"): the one model
// for both dialects, every target of Orkestra's (pkg/children docs/04-enrichment-layers.md) and the other names it
// resolves to them, an unknown name refused at file:line:column, and the rules `katalog rbac` prints for each target.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { DefinitionError } from '../../src/errors.js';
import { rbacRequirements } from '../../src/cli/rbac-rules.js';
import { definitionToInput } from '../../src/definition/serialize.js';

function katalog(apiVersion: string, enrich: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: e }
spec:
  crds:
    cache:
      apiTypes: { group: demo.io, version: v1, kind: Cache, plural: caches }
${enrich}
      operatorBox:
        onCreate:
          deployments:
            - name: "{{ .metadata.name }}"
              image: memcached
        status:
          fields:
            - { path: pods, value: "{{ podNames .children.deployment }}" }
`;
}

function problems(text: string): DefinitionError['problems'] {
  try {
    parseDefinition(text, { source: 'k.yaml' });
  } catch (error) {
    assert.ok(error instanceof DefinitionError);
    return error.problems;
  }
  return [];
}

describe('enrich: loading', () => {
  test('the shorthand, the struct form (Orkestra `or` and shorthand conditions) and enrichAll load into one model', () => {
    const short = parseDefinition(katalog('orkestra.orkspace.io/v1', '      enrich: [pods]')).crds.get('cache');
    assert.deepEqual(short?.enrich, { all: false, targets: [{ name: 'pods', when: [], anyOf: [] }] });
    const struct = parseDefinition(
      katalog(
        'orkestra.orkspace.io/v1',
        `      enrich:
        - pods:
            or:
              - field: "{{ allReplicasReady .children.deployment }}"
                equals: "false"`,
      ),
    ).crds.get('cache');
    assert.deepEqual(struct?.enrich?.targets[0]?.anyOf.map((c) => [c.operator, c.value]), [['eq', 'false']]);
    assert.equal(parseDefinition(katalog('orkestra.orkspace.io/v1', '      enrichAll: true')).crds.get('cache')?.enrich?.all, true);
    // katalog.dev/v1 has no pod notes: its templates read the summaries themselves (`._pods`).
    const native = parseDefinition(katalog('katalog.dev/v1', '      enrich: [pods]').replace('podNames .children.deployment', 'len .children.deployments'));
    assert.deepEqual(native.crds.get('cache')?.enrich, short?.enrich);
    assert.deepEqual(parseDefinition(JSON.stringify(definitionToInput(native))).crds.get('cache')?.enrich, short?.enrich, 'written back and read again');
  });

  test('every Orkestra target loads, other names Orkestra resolves load as the target, an unknown name is an error at its place', () => {
    const all = 'pods, events, endpoints, backingpods, replicasets, owner, node, pvc, pv, pvcs, storageclass, ingress, hpa, cronjob';
    const loaded = parseDefinition(katalog('orkestra.orkspace.io/v1', `      enrich: [${all}]`)).crds.get('cache');
    assert.deepEqual(loaded?.enrich?.targets.map((t) => t.name), all.split(', '));
    const aliases = parseDefinition(katalog('orkestra.orkspace.io/v1', '      enrich: [cj, hpas, persistentvolumeclaim, {rs: {}}]')).crds.get('cache');
    assert.deepEqual(aliases?.enrich?.targets.map((t) => t.name), ['cronjob', 'hpa', 'pvc', 'replicasets']);
    assert.deepEqual(parseDefinition(katalog('orkestra.orkspace.io/v1', '      enrichAll: true')).crds.get('cache')?.enrich?.targets.map((t) => t.name), all.split(', '));
    const refused = problems(katalog('orkestra.orkspace.io/v1', '      enrich: [pods, gossip]'));
    assert.equal(refused.length, 1);
    assert.match(refused[0]?.message ?? '', /"gossip" is not an enrich target: the targets are pods, events.*orkestra-compatibility\.md#enrich/);
    assert.equal(refused[0]?.line, 8);
    assert.match(problems(katalog('orkestra.orkspace.io/v1', '      enrich: [events, {cj: {}}, cronjob]'))[0]?.message ?? '', /"cronjob" is given twice/);
    assert.match(problems(katalog('orkestra.orkspace.io/v1', '      enrich: [pods]\n      enrichAll: true'))[0]?.message ?? '', /enrich and enrichAll/);
  });

  test('the notes over the other targets compile in an Orkestra document', () => {
    const text = katalog('orkestra.orkspace.io/v1', '      enrich: [events]').replace('podNames', 'warningCount');
    assert.equal(parseDefinition(text).crds.get('cache')?.operatorBox.status.fields.length, 1);
  });
});

describe('enrich: katalog rbac', () => {
  test('exactly the reads of the declared targets', () => {
    const reads = (enrich: string): string[] =>
      rbacRequirements(parseDefinition(katalog('orkestra.orkspace.io/v1', enrich)))
        .cluster.flatMap((rule) => rule.resources.flatMap((resource) => rule.verbs.map((verb) => `${rule.apiGroups.join()}/${resource}:${verb}`)))
        .filter((grant) => grant !== '/events:create' && /\/(pods|events|endpointslices|nodes|persistentvolumes|persistentvolumeclaims|storageclasses|secrets|jobs|replicasets):/.test(grant))
        .sort();
    assert.deepEqual(reads('      enrich: [pods]'), ['/pods:list']);
    assert.deepEqual(reads(''), []);
    assert.deepEqual(reads('      enrich: [owner, hpa]'), [], 'owner and hpa read the child itself');
    assert.deepEqual(reads('      enrich: [events, node, pvc, storageclass]'), ['/events:list', '/nodes:get', '/persistentvolumes:get', '/pods:list', 'storage.k8s.io/storageclasses:get']);
    assert.deepEqual(reads('      enrich: [endpoints, cronjob, replicasets, ingress, pvcs]'), ['/persistentvolumeclaims:get', '/secrets:get', 'apps/replicasets:list', 'batch/jobs:list', 'discovery.k8s.io/endpointslices:list']);
  });
});
