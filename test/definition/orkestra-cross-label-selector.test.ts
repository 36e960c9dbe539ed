// Orkestra's cross[].labelSelector: the target CRD is the one whose own labelSelector has one of the written pairs
// (key and value case aside), resolved when the definition loads; with no selector, the custom resources read are
// those labelled with the pairs. None or several CRDs, crd beside it, no `as`, and pairs that are not label syntax
// are errors at file:line:column.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';
import { stringify } from 'yaml';

function problems(text: string): Array<{ line: number | undefined; column: number | undefined; message: string }> {
  return loadProblems(text).map((p) => ({ line: p.line, column: p.column, message: p.message }));
}

function orkestra(cross: string, platform = 'tier: Platform'): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    database:
      apiTypes: { group: data.orkestra.io, version: v1, kind: Database, plural: databases }
      labelSelector: { ${platform} }
    cache:
      apiTypes: { group: data.orkestra.io, version: v1, kind: Cache, plural: caches }
      labelSelector: "tier=edge,team=web"
    application:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Application, plural: applications }
      operatorBox:
        cross:
${cross}`;
}

describe('cross labelSelector', () => {
  test('finds the CRD whose labelSelector has one of the pairs (case aside); a selector reads as written, none reads the labelled custom resources', () => {
    const definition = parseDefinition(
      orkestra(`          - labelSelector: { tier: platform }
            selector: { name: "{{ .metadata.name }}-db" }
            as: platform
          - labelSelector: { team: web, zone: eu }
            as: web
`),
    );
    const cross = definition.crds.get('application')?.operatorBox.cross;
    assert.deepEqual(cross, [
      { crd: 'database', apiVersion: 'data.orkestra.io/v1', kind: 'Database', as: 'platform', name: '{{ .metadata.name }}-db', namespace: undefined, matchLabels: undefined, strategy: 'first', path: 'spec.crds.application.operatorBox.cross[0]' },
      { crd: 'cache', apiVersion: 'data.orkestra.io/v1', kind: 'Cache', as: 'web', name: undefined, namespace: undefined, matchLabels: { team: 'web', zone: 'eu' }, strategy: 'first', path: 'spec.crds.application.operatorBox.cross[1]' },
    ]);
    const again = parseDefinition(stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('application')?.operatorBox.cross, cross);
  });

  test('no CRD, or several, with such a labelSelector is an error at the labelSelector', () => {
    assert.deepEqual(
      problems(orkestra(`          - labelSelector: { tier: backend }
            as: x
`)),
      [{ line: 16, column: 28, message: 'cross labelSelector tier=backend matches the labelSelector of no CRD of this definition; declared: database (tier=Platform), cache (tier=edge,team=web)' }],
    );
    const several = problems(orkestra(`          - labelSelector: { tier: edge }
            as: x
`, 'tier: edge'));
    assert.equal(several.length, 1);
    assert.match(several[0]?.message ?? '', /matches the labelSelector of several CRDs \(database, cache\); name the one to read with crd/);
    assert.equal(several[0]?.line, 16);
  });

  test('labelSelector needs as, and label syntax (no template); each problem at its place', () => {
    const found = problems(orkestra(`          - labelSelector: { tier: platform }
          - labelSelector: { "Bad Key": x, tier: "{{ .spec.tier }}", "example.com/ok": "-no" }
            as: y
          - labelSelector: {}
            as: z
`));
    const lines = found.map((p) => `${p.line}:${p.column} ${p.message}`);
    assert.deepEqual(lines, [
      '16:13 a cross entry found by labelSelector needs as (the key under .cross), as in Orkestra',
      '17:30 cross labelSelector key "Bad Key": "Bad Key" is not a label name (at most 63 letters, digits, "-", "_" or ".", beginning and ending with a letter or digit)',
      '17:50 cross labelSelector tier: "{{ .spec.tier }}" is not a label value (at most 63 letters, digits, "-", "_" or ".", beginning and ending with a letter or digit; no template)',
      '17:88 cross labelSelector example.com/ok: "-no" is not a label value (at most 63 letters, digits, "-", "_" or ".", beginning and ending with a letter or digit; no template)',
      '19:28 cross labelSelector needs at least one label (key: value)',
    ]);
  });

  test('a cross entry with neither crd nor labelSelector says so', () => {
    const found = problems(orkestra(`          - selector: { name: a }
            as: x
`));
    assert.deepEqual(found.map((p) => p.message), ["a cross entry needs crd (the other CRD's name), or labelSelector to find it"]);
  });
});
