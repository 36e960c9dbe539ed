// constructor.external in the definition (a katalog extension; docs/orkestra-compatibility.md#constructor-external-calls):
// Orkestra's and katalog.dev/v1's forms load into the constructor's `external`, lifted as every external list;
// bad calls are errors at file:line:column; a normalised definition writes back to input that loads the same.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

const TYPES = 'apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Website, plural: websites }';

function doc(apiVersion: string, box: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      operatorBox:
${box}`;
}

const problems = loadProblems;

describe('constructor.external in the definition', () => {
  test('Orkestra (current form): the calls load on the constructor, or → anyOf, method upper-cased, protocol http dropped', () => {
    const definition = parseDefinition(
      doc(
        'orkestra.orkspace.io/v1',
        `        reconciler:
          default: false
          constructor:
            location: github.com/example/site
            function: NewSite
            args: { tier: gold }
            external:
              - name: quota
                protocol: http
                url: "http://quota/{{ .metadata.namespace }}"
                method: post
                timeout: 2s
                cacheFor: 10s
                continueOnError: true
                or:
                  - field: spec.metered
                    equals: "true"
`,
      ),
    );
    const ctor = definition.crds.get('website')?.operatorBox.constructor;
    assert.equal(ctor?.function, 'NewSite');
    assert.deepEqual(ctor?.args, { tier: 'gold' });
    assert.deepEqual(
      ctor?.external?.map((call) => [call.name, call.method, call.timeoutMs, call.cacheForMs, call.continueOnError, call.anyOf.length, call.protocol]),
      [['quota', 'POST', 2000, 10_000, true, 1, 'http']],
    );
    assert.equal(definition.crds.get('website')?.operatorBox.external, undefined, 'the constructor keeps its own calls');
    const again = parseDefinition(JSON.stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('website')?.operatorBox.constructor, ctor);
  });

  test('katalog.dev/v1 writes the same field', () => {
    const definition = parseDefinition(
      doc(
        'katalog.dev/v1',
        `        default: false
        constructor:
          function: NewSite
          external:
            - { name: flags, url: "http://flags/{{ .metadata.name }}" }
`,
      ),
    );
    assert.deepEqual(definition.crds.get('website')?.operatorBox.constructor?.external?.map((call) => [call.name, call.method]), [['flags', 'GET']]);
  });

  test('a bad call is an error at its place; Orkestra refusals inside the list still name the feature', () => {
    const found = problems(
      doc(
        'orkestra.orkspace.io/v1',
        `        reconciler:
          default: false
          constructor:
            function: NewSite
            external:
              - { name: a, url: "ftp://files" }
              - { name: b, url: "http://x", timeout: soon }
              - { name: c, protocol: mqtt, url: "mqtt://r:1883", query: "t" }
`,
      ),
    );
    const at = (line: number): string => found.filter((p) => p.line === line).map((p) => p.message).join(' | ');
    assert.match(at(14), /scheme|http/i);
    assert.match(at(15), /duration|timeout/i);
    assert.match(at(16), /external protocol mqtt.*docs\/orkestra-compatibility\.md#/);
  });
});
