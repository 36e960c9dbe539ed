// Autoscale time windows at load: Orkestra's time/dayOfWeek/cron conditions (under `or` or `when`) move to the
// model's windows of the same block and write back equal (katalog's `windows` form); what Orkestra would accept and
// never open, and what is not a time, a day or a schedule, is an error at its line.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

const orkestra = (conditions: string): string => `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    processor:
      apiTypes: { group: autoscale.orkestra.io, version: v1alpha1, kind: Processor, plural: processors }
      operatorBox:
        autoscale:
          conditions:
${conditions}          do: { workers: 8 }
`;

const problems = loadProblems;

describe('autoscale windows at load', () => {
  test('Orkestra time, dayOfWeek and cron conditions → windows of their block, and back', () => {
    const definition = parseDefinition(
      orkestra(`            or:
              - time: { after: "08:00", before: "20:00" }
              - cron: "0 20 * * 1-5"
                duration: 4h
              - field: metrics.queueDepth
                greaterThan: "200"
            when:
              - dayOfWeek: { notIn: [Saturday, sunday] }
              - dayOfWeek: { weekend: true }
                negate: true
`),
    );
    const rule = definition.crds.get('processor')?.operatorBox.autoscale;
    assert.deepEqual(rule?.anyOf, [{ field: 'metrics.queueDepth', operator: 'gt', value: '200' }]);
    assert.deepEqual(rule?.windows, {
      when: [
        { kind: 'days', days: [1, 2, 3, 4, 5], negate: false },
        { kind: 'days', days: [0, 6], negate: true },
      ],
      anyOf: [
        { kind: 'time', after: '08:00', before: '20:00', negate: false },
        { kind: 'cron', cron: '0 20 * * 1-5', durationMs: 4 * 3_600_000, negate: false },
      ],
    });
    const again = parseDefinition(stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('processor')?.operatorBox.autoscale, rule);
  });

  test('bad windows are errors at their line, saying what is wrong', () => {
    const found = problems(
      orkestra(`            or:
              - time: { after: "22:00", before: "06:00" }
              - time: { after: "8am" }
              - dayOfWeek: { in: [Funday] }
              - cron: "0 9 * *"
              - cron: "@every 1h"
              - dayOfWeek: { in: [Monday] }
                duration: 1h
`),
    );
    const at = (line: number, text: string): boolean => found.some((p) => p.line === line && p.message.includes(text));
    assert.ok(at(12, "does not wrap past midnight and would never open"), JSON.stringify(found));
    assert.ok(at(13, '"8am" is not a time of day'), JSON.stringify(found));
    assert.ok(at(14, '"Funday" is not a day of the week'), JSON.stringify(found));
    assert.ok(at(15, 'five fields'), JSON.stringify(found));
    assert.ok(at(16, '"@every" is not read'), JSON.stringify(found));
    assert.ok(at(18, 'duration belongs to a cron window'), JSON.stringify(found));
    assert.ok(!found.some((p) => p.code === 'unknown-field' || p.code === 'orkestra-unsupported'), JSON.stringify(found));
  });
});
