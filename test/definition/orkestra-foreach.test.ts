// A template entry's forEach (orkspace/orkestra pkg/types ForEachSpec {field, as}; pkg/children/foreach.go) loads
// into the one model as TemplateEntry.forEach, in both dialects, and is written back; what the loader can see is
// checked at file:line:column: the shape, `as` hiding a data root, and a child name that would be the same for
// every item.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import type { DefinitionProblem } from '../../src/errors.js';
import { forEachScopes } from '../../src/template/index.js';
import { loadProblems } from '../support/definition-problems.js';

function orkestra(entries: string, apiVersion = 'orkestra.orkspace.io/v1'): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Widget, plural: widgets }
      operatorBox:
        onReconcile:
${entries}`;
}

const problems = (text: string): DefinitionProblem[] => loadProblems(text);

describe('forEach at load', () => {
  test('an Orkestra entry keeps field and as (as defaults to item), leaves the body, and is written back', () => {
    const definition = parseDefinition(
      orkestra(`          configMaps:
            - name: "{{ .metadata.name }}-{{ .region }}"
              data: { region: "{{ .region }}" }
              forEach: { field: spec.regions, as: region }
          deployments:
            - name: "{{ .metadata.name }}-{{ .item }}"
              image: nginx
              forEach:
                field: spec.zones
`),
      { source: 'k.yaml' },
    );
    const box = definition.crds.get('widget')?.operatorBox;
    const configMap = box?.onReconcile.configMaps?.[0];
    assert.deepEqual(configMap?.forEach, { field: 'spec.regions', as: 'region' });
    assert.equal(Object.hasOwn(configMap?.body ?? {}, 'forEach'), false);
    assert.deepEqual(box?.onReconcile.deployments?.[0]?.forEach, { field: 'spec.zones', as: 'item' });
    const back = JSON.stringify(definitionToInput(definition));
    assert.match(back, /"forEach":\{"field":"spec.regions","as":"region"\}/);
  });

  test('katalog.dev/v1 documents have forEach too (one model)', () => {
    const definition = parseDefinition(
      `apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    widget:
      apiTypes: { group: demo.katalog.dev, version: v1, kind: Widget, plural: widgets }
      operatorBox:
        onReconcile:
          configMaps:
            - name: "{{ .metadata.name }}-{{ .index }}"
              forEach: { field: .spec.items }
`,
      { source: 'k.yaml' },
    );
    assert.deepEqual(definition.crds.get('widget')?.operatorBox.onReconcile.configMaps?.[0]?.forEach, { field: '.spec.items', as: 'item' });
  });

  test('errors at their line: not a map, an unknown key, a bad field, as hiding .spec, a name that is the same for every item', () => {
    const found = problems(
      orkestra(`          configMaps:
            - name: "{{ .item }}"
              forEach: spec.regions
            - name: "{{ .item }}"
              forEach: { field: spec.regions, over: x }
            - name: "{{ .item }}"
              forEach: { field: "spec..regions" }
            - name: "{{ .item }}"
              forEach: { field: spec.regions, as: spec }
            - name: fixed
              forEach: { field: spec.regions }
            - forEach: { field: spec.regions }
`),
    );
    const at = (line: number): DefinitionProblem | undefined => found.find((problem) => problem.line === line);
    assert.match(at(12)?.message ?? '', /forEach must be a map/);
    assert.match(at(14)?.message ?? '', /unknown field "over" in forEach/);
    assert.match(at(16)?.message ?? '', /forEach.field must be a dot path/);
    assert.match(at(18)?.message ?? '', /forEach.as "spec" would hide .spec/);
    assert.match(at(19)?.message ?? '', /needs a name \(or namespace\) that differs per item/);
    assert.match(at(21)?.message ?? '', /needs a name \(or namespace\) that differs per item/);
    assert.ok(found.every((problem) => problem.file?.endsWith('k.yaml') === true && problem.column !== undefined));
    assert.equal(found.length, 6);
  });

  test('a literal name is fine when the namespace differs per item', () => {
    const definition = parseDefinition(
      orkestra(`          configMaps:
            - name: shared-config
              namespace: "{{ .item }}"
              forEach: { field: spec.namespaces }
`),
      { source: 'k.yaml' },
    );
    assert.equal(definition.crds.get('widget')?.operatorBox.onReconcile.configMaps?.[0]?.forEach?.field, 'spec.namespaces');
  });
});

// The items (pkg/children/foreach.go resolveForEachItems; pkg/template/resolver.go WithItem, WithItemAndValue).
describe('forEach items', () => {
  const data = { spec: { regions: ['us', 'eu'], sizes: { b: { n: 2 }, a: { n: 1 } }, name: 'x' } };

  test('a list: .item and .<as> the element, .index its position, no .value', () => {
    assert.deepEqual(forEachScopes(data, { field: 'spec.regions', as: 'region' }), [
      { item: 'us', region: 'us', index: 0 },
      { item: 'eu', region: 'eu', index: 1 },
    ]);
  });

  test('a map: keys sorted, .item the key, .value the value', () => {
    assert.deepEqual(forEachScopes(data, { field: 'spec.sizes', as: 'item' }), [
      { item: 'a', value: { n: 1 }, index: 0 },
      { item: 'b', value: { n: 2 }, index: 1 },
    ]);
  });

  test('missing, a text, or a path through a text: no items', () => {
    assert.deepEqual(forEachScopes(data, { field: 'spec.missing', as: 'item' }), []);
    assert.deepEqual(forEachScopes(data, { field: 'spec.name', as: 'item' }), []);
    assert.deepEqual(forEachScopes(data, { field: 'spec.name.x', as: 'item' }), []);
  });
});
