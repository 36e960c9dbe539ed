// operatorBox.cross (Orkestra's cross-CRD observation): entries normalise into the model with the other CRD's
// apiVersion and kind; Orkestra's older `kind:` key reads as `crd:`; a target that is not a CRD of the definition,
// a missing or double selector and two entries on one `.cross` key are errors at file:line; `labelSelector` is
// orkestra-cross-label-selector.test.ts (reading another process over HTTP is orkestra-cross-source.test.ts); the definition writes back
// and loads equal.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { stringify } from 'yaml';
import { loadProblems } from '../support/definition-problems.js';

const problems = loadProblems;

function orkestra(cross: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    database:
      apiTypes: { group: data.orkestra.io, version: v1, kind: Database, plural: databases }
    application:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Application, plural: applications }
      operatorBox:
        cross:
${cross}`;
}

describe('cross', () => {
  test('by name and by labels, with the target kind resolved; `as` defaults to the CRD name; older `kind:` reads as `crd:`', () => {
    const definition = parseDefinition(
      orkestra(`          - crd: database
            selector: { name: "{{ .metadata.name }}-db" }
            as: db
          - kind: database
            selector: { matchLabels: { tenant: "{{ .spec.tenant }}" } }
            strategy: all
`),
    );
    assert.deepEqual(definition.crds.get('application')?.operatorBox.cross, [
      { crd: 'database', apiVersion: 'data.orkestra.io/v1', kind: 'Database', as: 'db', name: '{{ .metadata.name }}-db', namespace: undefined, matchLabels: undefined, strategy: 'first', path: 'spec.crds.application.operatorBox.cross[0]' },
      { crd: 'database', apiVersion: 'data.orkestra.io/v1', kind: 'Database', as: 'database', name: undefined, namespace: undefined, matchLabels: { tenant: '{{ .spec.tenant }}' }, strategy: 'all', path: 'spec.crds.application.operatorBox.cross[1]' },
    ]);
    const again = parseDefinition(stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('application')?.operatorBox.cross, definition.crds.get('application')?.operatorBox.cross);
  });

  test('a target that is not a CRD of the definition is an error at its line, with a suggestion', () => {
    const found = problems(orkestra(`          - crd: databse
            selector: { name: main }
`));
    assert.ok(found.some((p) => p.line === 12 && p.message.includes('cross reads "databse", which is not a CRD of this definition') && p.message.includes('database')), JSON.stringify(found));
  });

  test('exactly one of selector.name and selector.matchLabels; one entry per .cross key', () => {
    const none = problems(orkestra(`          - crd: database
`));
    assert.ok(none.some((p) => p.line === 12 && p.message.includes('exactly one of selector.name and selector.matchLabels')), JSON.stringify(none));
    const both = problems(orkestra(`          - crd: database
            selector: { name: a, matchLabels: { x: y } }
`));
    assert.ok(both.some((p) => p.line === 13 && p.message.includes('exactly one of')), JSON.stringify(both));
    const twice = problems(orkestra(`          - crd: database
            selector: { name: a }
          - crd: database
            selector: { name: b }
`));
    assert.ok(twice.some((p) => p.line === 14 && p.message.includes('two cross entries read into .cross.database')), JSON.stringify(twice));
  });

  test('labelSelector beside crd is an error at its line (one or the other, as Orkestra), never "unknown field"; a source beside a CRD of this definition is not used (its informer answers)', () => {
    const found = problems(orkestra(`          - crd: database
            selector: { name: a }
            source: { host: "http://localhost:8080", protocol: cr }
          - labelSelector: { tier: platform }
            crd: database
            selector: { name: b }
            as: other
`));
    const both = found.map((p) => `${p.line}: ${p.message}`);
    assert.deepEqual(both, ['15: a cross entry names its CRD by crd or by labelSelector, not both']);
    assert.ok(!found.some((p) => p.code === 'unknown-field'), JSON.stringify(found));
    const definition = parseDefinition(orkestra(`          - crd: database
            selector: { name: a }
            source: { host: "http://localhost:8080", protocol: cr }
`), { source: 'k.yaml' });
    const [entry] = definition.crds.get('application')?.operatorBox.cross ?? [];
    assert.equal(entry?.kind, 'Database');
    assert.equal(entry?.source, undefined);
  });

  test('katalog.dev/v1 documents take the same block', () => {
    const definition = parseDefinition(`apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: k }
spec:
  crds:
    database:
      apiTypes: { group: data.example.io, version: v1, kind: Database, plural: databases }
    app:
      apiTypes: { group: demo.example.io, version: v1, kind: App, plural: apps }
      operatorBox:
        cross: [{ crd: database, selector: { name: main, namespace: shared } }]
`);
    assert.equal(definition.crds.get('app')?.operatorBox.cross?.[0]?.namespace, 'shared');
  });
});
