// operatorBox.autoscale (Orkestra's autoscaler): the rule normalises into the model (interval 15s and cooldown 2m
// by default as in Orkestra, `or` → anyOf, condition shorthand, do.queueDepth → maxDepth) and writes back equal;
// conditions read the CRD's own figures or those of another CRD of the definition (a condition's own source is
// orkestra-autoscale-source.test.ts).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

const problems = loadProblems;

function orkestra(autoscale: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    processor:
      apiTypes: { group: autoscale.orkestra.io, version: v1alpha1, kind: Processor, plural: processors }
      operatorBox:
        autoscale:
${autoscale}`;
}

describe('autoscale', () => {
  test('Orkestra rule → model, defaults as Orkestra, and back', () => {
    const definition = parseDefinition(
      orkestra(`          conditions:
            or:
              - field: metrics.queueDepth
                greaterThan: "60"
              - field: metrics.workersBusyPercent
                greaterThan: "90"
          do: { workers: 8, queueDepth: 800, resync: 10s }
`),
    );
    const rule = definition.crds.get('processor')?.operatorBox.autoscale;
    assert.deepEqual(rule, {
      intervalMs: 15_000,
      cooldownMs: 120_000,
      when: [],
      anyOf: [
        { field: 'metrics.queueDepth', operator: 'gt', value: '60' },
        { field: 'metrics.workersBusyPercent', operator: 'gt', value: '90' },
      ],
      do: { workers: 8, maxDepth: 800, resyncMs: 10_000 },
    });
    const again = parseDefinition(stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('processor')?.operatorBox.autoscale, rule);
  });

  test('a figure the autoscaler does not have and a bad duration are errors at their line', () => {
    const found = problems(orkestra(`          interval: soon
          conditions:
            when: [{ field: metrics.cpu, greaterThan: "1" }]
          do: { workers: 4 }
`));
    assert.ok(found.some((p) => p.line === 10 && p.message.includes('autoscale interval "soon" is not a positive duration')), JSON.stringify(found));
    assert.ok(found.some((p) => p.line === 12 && p.message.includes('"metrics.cpu" is not one')), JSON.stringify(found));
  });

  test("another CRD's figures: a CRD of this definition loads (a source of its own beside it too), another is an error at its line", () => {
    const found = problems(orkestra(`          conditions:
            or:
              - cron: "0 9 * * 1-5"
                duration: 9h
            when:
              - field: cross.procesor.metrics.queueDepth
                greaterThan: "60"
              - field: cross.processor.metrics.errorRatePercent
                lessThan: "5"
                source: { endpoint: "http://elsewhere:8080/katalog/processor" }
          do: { workers: 4 }
`));
    const at = (line: number, text: string): boolean => found.some((p) => p.line === line && p.message.includes(text));
    assert.ok(at(15, 'autoscale reads the figures of "procesor", which is not a CRD of this definition') && at(15, 'processor'), JSON.stringify(found));
    assert.equal(found.length, 1, JSON.stringify(found));
    const rule = parseDefinition(orkestra(`          conditions:
            when: [{ field: cross.processor.metrics.queueDepth, greaterThan: "60" }]
          do: { workers: 4 }
`)).crds.get('processor')?.operatorBox.autoscale;
    assert.deepEqual(rule?.when, [{ field: 'cross.processor.metrics.queueDepth', operator: 'gt', value: '60' }]);
  });
});
