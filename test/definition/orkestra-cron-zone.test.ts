// A cron autoscale window with robfig/cron's TZ=/CRON_TZ= prefix (orkspace/orkestra pkg/runtime/autoscaler reads its
// cron conditions with robfig/cron, whose parser.go takes the prefix): it loads, writes back as written, and opens
// at the fire in that zone whatever the zone of the process; an unknown zone is an error at its line and column.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { compileWindow } from '../../src/controller/autoscale-windows.js';
import { loadProblems } from '../support/definition-problems.js';

const orkestra = (cron: string): string => `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: w }
spec:
  crds:
    processor:
      apiTypes: { group: autoscale.orkestra.io, version: v1alpha1, kind: Processor, plural: processors }
      operatorBox:
        autoscale:
          conditions:
            or:
              - cron: "${cron}"
                duration: 1h
          do: { workers: 8 }
`;

describe('autoscale cron windows with a time zone prefix', () => {
  test('load, write back equal, and open at the fire in that zone', () => {
    const definition = parseDefinition(orkestra('CRON_TZ=America/New_York 0 9 * * 1-5'));
    const rule = definition.crds.get('processor')?.operatorBox.autoscale;
    const [window] = rule?.windows?.anyOf ?? [];
    assert.deepEqual(window, { kind: 'cron', cron: 'CRON_TZ=America/New_York 0 9 * * 1-5', durationMs: 3_600_000, negate: false });
    assert.deepEqual(parseDefinition(stringify(definitionToInput(definition))).crds.get('processor')?.operatorBox.autoscale, rule);
    assert.ok(window);
    const compiled = compileWindow(window, 15_000);
    // Monday 9 March 2026, the first weekday after New York's clocks went forward: 09:00 EDT is 13:00 UTC.
    assert.equal(compiled.open(Date.parse('2026-03-09T12:59:59Z')), false);
    assert.equal(compiled.open(Date.parse('2026-03-09T13:00:00Z')), true);
    assert.equal(compiled.open(Date.parse('2026-03-09T13:59:59Z')), true);
    assert.equal(compiled.open(Date.parse('2026-03-09T14:00:00Z')), false);
    assert.equal(compiled.nextChange(Date.parse('2026-03-09T12:00:00Z')), Date.parse('2026-03-09T13:00:00Z'));
  });

  test('an unknown zone, or a prefix without a schedule, is an error at the cron\'s line and column', () => {
    const found = loadProblems(orkestra('TZ=Mars/Olympus 0 9 * * *'));
    assert.deepEqual(
      found.map((p) => [p.line, p.column, p.message]),
      [[12, 23, 'cron "TZ=Mars/Olympus 0 9 * * *": unknown time zone "Mars/Olympus" (an IANA name such as UTC, Europe/Berlin or America/New_York)']],
    );
    const bare = loadProblems(orkestra('CRON_TZ=UTC'));
    assert.match(bare[0]?.message ?? '', /names a time zone but no schedule after it/);
  });
});
