// Orkestra's `enrich` / `enrichAll` at load (orkspace/orkestra pkg/types/types_crd_entry.go @ eacb2604: the
// shorthand `enrich: [pods]`, the struct form with conditions, and "only one of EnrichAll or Enrich"): the one model
// for both dialects, targets katalog does not fetch refused by name at file:line:column, and the Pods rule
// `katalog rbac` prints for a CRD that declares it.
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

  test('a target katalog does not fetch is refused by name at its place; enrich with enrichAll is an error', () => {
    const refused = problems(katalog('orkestra.orkspace.io/v1', '      enrich: [pods, events]'));
    assert.equal(refused.length, 1);
    assert.match(refused[0]?.message ?? '', /enrich target "events" is not supported by katalog.*orkestra-compatibility\.md#enrich/);
    assert.equal(refused[0]?.line, 8);
    assert.match(problems(katalog('orkestra.orkspace.io/v1', '      enrich: [{replicasets: {}}]'))[0]?.message ?? '', /"replicasets"/);
    assert.match(problems(katalog('orkestra.orkspace.io/v1', '      enrich: [pods]\n      enrichAll: true'))[0]?.message ?? '', /enrich and enrichAll/);
  });

  test('a note over data enrich does not fetch still fails to compile, naming enrich', () => {
    const text = katalog('orkestra.orkspace.io/v1', '      enrich: [pods]').replace('podNames', 'warningCount');
    assert.ok(problems(text).some((problem) => /warningCount/.test(problem.message) && /enrich/.test(problem.message)));
  });
});

describe('enrich: katalog rbac', () => {
  test('list on pods only for a CRD that declares enrich', () => {
    const pods = (yaml: string): string[] =>
      rbacRequirements(parseDefinition(yaml))
        .cluster.filter((rule) => rule.apiGroups.includes('') && rule.resources.includes('pods'))
        .flatMap((rule) => rule.verbs);
    assert.deepEqual(pods(katalog('orkestra.orkspace.io/v1', '      enrich: [pods]')), ['list']);
    assert.deepEqual(pods(katalog('orkestra.orkspace.io/v1', '')), []);
  });
});
