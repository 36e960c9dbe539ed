// The tls field of secrets entries (Orkestra's tls-cert Motif: commonName, dnsNames, validFor), in both dialects:
// normalised into TemplateEntry.tls, serialised back as written, and mistakes reported at file:line:column.
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
    certs:
      apiTypes: { group: demo.io, version: v1, kind: Cert, plural: certs }
      operatorBox:
        onCreate:
${phase}`;
}

const problems = loadProblems;

describe('tls', () => {
  for (const apiVersion of ['orkestra.orkspace.io/v1', 'katalog.dev/v1']) {
    test(`${apiVersion}: tls becomes entry.tls and serialises back`, () => {
      const definition = parseDefinition(
        katalog(
          apiVersion,
          `          secrets:
            - name: "{{ .metadata.name }}-tls"
              tls:
                commonName: "{{ .spec.host }}"
                dnsNames: ["{{ .metadata.name }}", "{{ .metadata.name }}.{{ .metadata.namespace }}.svc"]
                validFor: 90d
`,
        ),
      );
      const entry = definition.crds.get('certs')?.operatorBox.onCreate.secrets?.[0];
      assert.deepEqual(entry?.tls, { commonName: '{{ .spec.host }}', dnsNames: ['{{ .metadata.name }}', '{{ .metadata.name }}.{{ .metadata.namespace }}.svc'], validFor: '90d' });
      assert.deepEqual(entry?.body, { name: '{{ .metadata.name }}-tls' });
      const input = definitionToInput(definition) as { spec: { crds: Record<string, { operatorBox: { onCreate: { secrets: Array<Record<string, unknown>> } } }> } };
      assert.deepEqual(input.spec.crds['certs']?.operatorBox.onCreate.secrets[0]?.['tls'], entry?.tls);
    });
  }

  test('an empty tls block generates with the defaults', () => {
    const definition = parseDefinition(katalog('orkestra.orkspace.io/v1', '          secrets:\n            - name: web-tls\n              tls: {}\n'));
    assert.deepEqual(definition.crds.get('certs')?.operatorBox.onCreate.secrets?.[0]?.tls, { dnsNames: [] });
  });

  const rows: Array<[string, string, RegExp, number]> = [
    ['on a configMaps entry', '          configMaps:\n            - name: c\n              tls: {}\n', /tls is a field of secrets entries, not of configMaps/, 12],
    ['beside data', '          secrets:\n            - name: s\n              data: { a: b }\n              tls: {}\n', /data cannot be combined with tls/, 12],
    ['an unknown field', '          secrets:\n            - name: s\n              tls: { commonName: x, keySize: 4096 }\n', /unknown field "keySize" in tls/, 12],
    ['dnsNames not a list of texts', '          secrets:\n            - name: s\n              tls: { dnsNames: [1, 2] }\n', /tls\.dnsNames must be a list of texts/, 12],
    ['validFor not a duration', '          secrets:\n            - name: s\n              tls: { validFor: forever }\n', /tls\.validFor must be a duration/, 12],
  ];
  for (const [name, phase, message, line] of rows) {
    test(`refused: ${name}, at its place`, () => {
      const found = problems(katalog('orkestra.orkspace.io/v1', phase)).find((p) => message.test(p.message));
      assert.ok(found, `a problem matching ${message}`);
      assert.equal(found.file, 'k.yaml');
      assert.equal(found.line, line, JSON.stringify(found));
      assert.ok(found.column !== undefined && found.column > 1);
    });
  }
});
