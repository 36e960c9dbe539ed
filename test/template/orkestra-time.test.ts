// cronDescribe and timeFormat in the Orkestra dialect, pinned row by row against the Orkestra file each comes
// from. Both are functions of their arguments: the same input renders the same text whenever it is rendered.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { compileTemplate, type TemplateData } from '../../src/template/index.js';

const CRON = 'iAlexeze/orkestra pkg/note/cron.go @ 53d7eff4148116928843f162b8572260ac03a45d (cronDescribe, cronNormalize)';
const CRON_TEST = 'iAlexeze/orkestra pkg/note/cron_test.go @ 6b237e6b05359141de64921a7ca5b160dae3b070 (TestCronDescribe)';
const TIME = 'iAlexeze/orkestra pkg/note/time.go @ 24feabff7bc2895377559d33fdaffa3b2889693b (noteTimeFormat, parseTime)';
const TIME_DOC = 'iAlexeze/orkestra pkg/note/docs/26-time.md @ 1057f31a1cff187783e687eb20b6676376252aa5 (timeFormat)';

const data: TemplateData = {
  metadata: { name: 'job', creationTimestamp: '2026-04-13T09:05:07Z' },
  spec: { schedule: '0 2 * * 1', macro: '@daily', expires: '2026-12-31T23:30:00-02:00', day: '2026-02-28', count: 3 },
};

function render(source: string, dialect: 'orkestra' | 'katalog' = 'orkestra'): unknown {
  return compileTemplate(source, { name: 't', dialect }).render(data);
}

describe('cronDescribe', () => {
  const rows: Array<[string, string, string]> = [
    ['{{ cronDescribe "*/5 * * * *" }}', 'Every 5 minutes', CRON_TEST],
    ['{{ cronDescribe "0 * * * *" }}', 'Every hour', CRON_TEST],
    ['{{ cronDescribe "30 2 * * *" }}', 'At 2:30 every day', CRON_TEST],
    ['{{ cronDescribe "0 2 * * 1" }}', 'At 2:0 on day-of-week 1', CRON_TEST],
    ['{{ cronDescribe "0 2 15 * *" }}', 'At 2:0 on day 15 of every month', CRON_TEST],
    ['{{ cronDescribe .spec.schedule }}', 'At 2:0 on day-of-week 1', CRON],
    ['{{ cronDescribe .spec.macro }}', 'At 0:0 every day', `${CRON} (@daily expanded first)`],
    ['{{ cronDescribe "@hourly" }}', 'Every hour', CRON],
    ['{{ cronDescribe "0 0 1 6 *" }}', 'Cron: 0 0 1 6 *', `${CRON} (no rule fits: the fallback)`],
    ['{{ cronDescribe "* * * * *" }}', 'Cron: * * * * *', CRON],
    // Orkestra's own test expects "Invalid cron expression" here, but its cronDescribe normalises first, and
    // cronNormalize turns a text without five fields into "* * * * *": what Orkestra renders is the fallback.
    ['{{ cronDescribe "invalid" }}', 'Cron: * * * * *', `${CRON} (cronNormalize before the rules)`],
    ['{{ cronDescribe .spec.missing }}', 'Cron: * * * * *', `${CRON} (empty → "* * * * *")`],
  ];
  for (const [source, expected, from] of rows) test(`${source} → ${expected} (${from})`, () => assert.equal(render(source), expected));
});

describe('timeFormat', () => {
  const rows: Array<[string, string, string]> = [
    ['{{ timeFormat .metadata.creationTimestamp "Jan 2, 2006" }}', 'Apr 13, 2026', TIME_DOC],
    ['{{ timeFormat .metadata.creationTimestamp "2006-01-02" }}', '2026-04-13', TIME_DOC],
    ['{{ timeFormat .metadata.creationTimestamp "15:04" }}', '09:05', TIME],
    ['{{ timeFormat .metadata.creationTimestamp "Monday, January 2 2006 3:04:05 PM MST" }}', 'Monday, April 13 2026 9:05:07 AM UTC', `${TIME} (Go's layout elements)`],
    ['{{ timeFormat .metadata.creationTimestamp "Mon 02/01/06 03pm _2 __2 002 Z07:00 -0700" }}', 'Mon 13/04/26 09am 13 103 103 Z +0000', `${TIME} (padded forms, year day, zones in UTC)`],
    ['{{ timeFormat .spec.expires "2006-01-02T15:04:05Z07:00" }}', '2027-01-01T01:30:00Z', `${TIME} (t.UTC(): the offset is applied)`],
    ['{{ timeFormat .spec.day "Jan _2 2006" }}', 'Feb 28 2026', `${TIME} (parseTime takes YYYY-MM-DD)`],
    ['{{ timeFormat "2026-04-13T09:05:07.120Z" "15:04:05.000 15:04:05.999 .00" }}', '09:05:07.120 09:05:07.12 .12', `${TIME} (RFC3339Nano, fractions)`],
    ['{{ timeFormat "2026-04-13T09:05:07Z" "05.999|" }}', '07|', `${TIME} (a .999 fraction of zero disappears)`],
    ['{{ timeFormat "13/04/2026" "2006" }}', '', `${TIME} (unparseable → "")`],
    ['{{ timeFormat "2026-02-30" "2006" }}', '', `${TIME} (no such day → "")`],
    ['{{ timeFormat .spec.missing "2006" }}', '', TIME],
    ['{{ timeFormat .spec.count "2006" }}', '', TIME],
  ];
  for (const [source, expected, from] of rows) test(`${source} → ${expected} (${from})`, () => assert.equal(render(source), expected));

  test('a layout that is not a text is an error, as a Go template call with a wrong argument type', () => {
    assert.throws(() => render('{{ timeFormat .metadata.creationTimestamp 2006 }}'), TemplateError);
  });

  test('both are Orkestra functions only: not defined in the katalog dialect', () => {
    assert.throws(() => render('{{ cronDescribe "* * * * *" }}', 'katalog'), /not defined/);
    assert.throws(() => render('{{ timeFormat "2026-01-01" "2006" }}', 'katalog'), /not defined/);
  });
});
