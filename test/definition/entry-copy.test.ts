// The copy fields of secrets/configMaps entries (fromSecret, fromConfigMap, fromNamespace, toNamespaces), in both
// dialects: normalised into TemplateEntry.copy, serialised back as written, and misplaced or mistyped copy fields
// reported where they were written (never dropped, never "unknown field").
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

function katalog(apiVersion: string, phase: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: k }
spec:
  crds:
    dist:
      apiTypes: { group: demo.io, version: v1, kind: Dist, plural: dists }
      operatorBox:
        onCreate:
${phase}`;
}

const problems = loadProblems;

describe('copy fields', () => {
  for (const apiVersion of ['orkestra.orkspace.io/v1', 'katalog.dev/v1']) {
    test(`${apiVersion}: a secrets entry's copy fields become entry.copy and serialise back`, () => {
      const definition = parseDefinition(
        katalog(
          apiVersion,
          `          secrets:
            - name: creds
              fromSecret: "{{ .spec.source }}"
              fromNamespace: platform
              toNamespaces: [a, "{{ .spec.targets }}"]
              data: { extra: x }
`,
        ),
      );
      const entry = definition.crds.get('dist')?.operatorBox.onCreate.secrets?.[0];
      assert.deepEqual(entry?.copy, { from: '{{ .spec.source }}', fromNamespace: 'platform', toNamespaces: ['a', '{{ .spec.targets }}'] });
      assert.equal(entry?.body['fromSecret'], undefined);
      assert.deepEqual(entry?.body['data'], { extra: 'x' });
      const input = definitionToInput(definition) as { spec: { crds: Record<string, { operatorBox: { onCreate: { secrets: Array<Record<string, unknown>> } } }> } };
      const written = input.spec.crds['dist']?.operatorBox.onCreate.secrets[0];
      assert.equal(written?.['fromSecret'], '{{ .spec.source }}');
      assert.deepEqual(written?.['toNamespaces'], ['a', '{{ .spec.targets }}']);
    });
  }

  test('misplaced and mistyped copy fields are errors at their place', () => {
    const found = problems(
      katalog(
        'orkestra.orkspace.io/v1',
        `          configMaps:
            - name: a
              fromSecret: s
            - name: b
              fromNamespace: platform
          secrets:
            - name: c
              fromSecret: s
              toNamespaces: team-a
          deployments:
            - image: nginx
              toNamespaces: [a]
`,
      ),
    );
    const messages = found.map((p) => `${p.line}:${p.message}`);
    assert.ok(messages.some((m) => /^12:fromSecret does not fit a configMaps entry; use fromConfigMap/.test(m)), messages.join('\n'));
    assert.ok(messages.some((m) => /^14:fromNamespace needs fromConfigMap/.test(m)), messages.join('\n'));
    assert.ok(messages.some((m) => /^18:toNamespaces must be a list of texts/.test(m)), messages.join('\n'));
    assert.ok(messages.some((m) => /^21:toNamespaces is a field of secrets, configMaps, networkPolicies, limitRanges, resourceQuotas entries, not of deployments/.test(m)), messages.join('\n'));
    assert.ok(!found.some((p) => p.code === 'unknown-field'));
  });

  test('rotateAfter: kept on secrets (literal durations checked at load), refused elsewhere', () => {
    const entry = parseDefinition(katalog('orkestra.orkspace.io/v1', `          secrets:
            - name: key
              once: true
              rotateAfter: 90d
`)).crds.get('dist')?.operatorBox.onCreate.secrets?.[0];
    assert.equal(entry?.rotateAfter, '90d');
    assert.equal(entry?.body['rotateAfter'], undefined);
    const found = problems(katalog('orkestra.orkspace.io/v1', `          secrets:
            - name: key
              rotateAfter: soon
          configMaps:
            - name: c
              rotateAfter: 1h
`)).map((p) => `${p.line}:${p.message}`);
    assert.ok(found.some((m) => /^12:rotateAfter must be a duration such as 90d/.test(m)), found.join('\n'));
    assert.ok(found.some((m) => /^15:rotateAfter is a field of secrets entries, not of configMaps/.test(m)), found.join('\n'));
  });
});
