// Orkestra's Prometheus notes over what a `protocol: prometheus` call leaves under `.external.<name>`, row by row
// against Orkestra's catalog (orkspace/orkestra pkg/note/catalog_generated.go @ eacb2604, domain "prometheus":
// "first-series value", "strictly greater/less", "integer when no decimals, float otherwise", "false on parse
// errors or empty results") and the result maps of pkg/external/docs/02-result-maps.md @ eacb2604.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { compileTemplate, type TemplateData } from '../../src/template/index.js';
import { formatPromNumber, parseGoFloat } from '../../src/template/functions-orkestra-prom.js';

const CATALOG = 'pkg/note/catalog_generated.go @ eacb2604 (prometheus)';

const series = (value: string, metric: Record<string, string> = {}): Record<string, unknown> => ({ metric, value: [1753228800, value] });
const vector = (...list: Array<Record<string, unknown>>): Record<string, unknown> => ({
  result: typeof (list[0]?.['value'] as unknown[] | undefined)?.[1] === 'string' ? (list[0]?.['value'] as string[])[1] : '',
  raw: { status: 'success', data: { resultType: 'vector', result: list } },
  error: '',
  called: 'true',
});
const scalar = (value: string): Record<string, unknown> => ({ result: value, raw: { status: 'success', data: { resultType: 'scalar', result: [1753228800, value] } }, error: '', called: 'true' });
const skipped = { result: '', raw: {}, error: '', called: 'false' };

function render(source: string, external: Record<string, unknown>): unknown {
  const data: TemplateData = { metadata: { name: 'q' }, spec: {}, status: {}, inputs: {}, external };
  return compileTemplate(source, { name: 't', dialect: 'orkestra' }).render(data);
}

describe(`Prometheus notes (${CATALOG})`, () => {
  const three = vector(series('10', { pod: 'a', namespace: 'default' }), series('20', { pod: 'b' }), series('30.5', { pod: 'c', namespace: 'kube-system' }));
  const rows: Array<[string, Record<string, unknown>, string]> = [
    // promValue: the canonical scalar (a vector's first series), "" when the call was skipped or is missing
    ['{{ promValue .external.q }}', { q: vector(series('42')) }, '42'],
    ['{{ promValue .external.q }}', { q: scalar('3.14') }, '3.14'],
    ['{{ promValue .external.q }}', { q: skipped }, ''],
    ['{{ promValue .external.missing }}', {}, ''],
    // promSum / promMax: every series; integer text when whole, plain decimals otherwise
    ['{{ promSum .external.q }}', { q: vector(series('10'), series('20'), series('30')) }, '60'],
    ['{{ promSum .external.q }}', { q: three }, '60.5'],
    ['{{ promSum .external.q }}', { q: scalar('2.5') }, '2.5'],
    ['{{ promSum .external.q }}', { q: vector() }, ''],
    ['{{ promSum .external.q }}', { q: vector(series('1'), series('oops')) }, ''],
    ['{{ promSum .external.q.raw }}', { q: three }, '60.5'],
    ['{{ promMax .external.q }}', { q: vector(series('5'), series('99'), series('12')) }, '99'],
    ['{{ promMax .external.q }}', { q: vector(series('-3'), series('-1.25')) }, '-1.25'],
    ['{{ promMax .external.q }}', { q: skipped }, ''],
    // promSeriesCount: series with a value, as text
    ['{{ promSeriesCount .external.q }}', { q: three }, '3'],
    ['{{ promSeriesCount .external.q }}', { q: scalar('1') }, '1'],
    ['{{ promSeriesCount .external.q }}', { q: vector() }, '0'],
    ['{{ promSeriesCount .external.missing }}', {}, '0'],
    // promLabelValues: the label of each series that has it, joined with ","
    ['{{ promLabelValues .external.q "namespace" }}', { q: three }, 'default,kube-system'],
    ['{{ promLabelValues .external.q "pod" }}', { q: three }, 'a,b,c'],
    ['{{ promLabelValues .external.q "missing" }}', { q: three }, ''],
    ['{{ promLabelValues .external.q "pod" }}', { q: skipped }, ''],
    // thresholds: strict, a number or numeric text; "false" on parse errors or empty results
    ['{{ promAboveThreshold .external.q 10 }}', { q: vector(series('42')) }, 'true'],
    ['{{ promAboveThreshold .external.q 100 }}', { q: vector(series('42')) }, 'false'],
    ['{{ promAboveThreshold .external.q "42" }}', { q: vector(series('42')) }, 'false'],
    ['{{ promAboveThreshold .external.q 42.0 }}', { q: vector(series('42')) }, 'false'],
    ['{{ promAboveThreshold .external.q "41.5" }}', { q: vector(series('42')) }, 'true'],
    ['{{ promAboveThreshold .external.q "lots" }}', { q: vector(series('42')) }, 'false'],
    ['{{ promAboveThreshold .external.q 0 }}', { q: skipped }, 'false'],
    ['{{ promAboveThreshold .external.q 0 }}', { q: vector() }, 'false'],
    ['{{ promAboveThreshold .external.q 1000 }}', { q: vector(series('+Inf')) }, 'true'],
    ['{{ promAboveThreshold .external.q 0 }}', { q: vector(series('NaN')) }, 'false'],
    ['{{ promBelowThreshold .external.q 10 }}', { q: vector(series('5')) }, 'true'],
    ['{{ promBelowThreshold .external.q 1 }}', { q: vector(series('5')) }, 'false'],
    ['{{ promBelowThreshold .external.q "5" }}', { q: vector(series('5')) }, 'false'],
    ['{{ promBelowThreshold .external.q 0 }}', { q: skipped }, 'false'],
  ];
  for (const [source, external, expected] of rows) {
    test(`${source} over ${JSON.stringify(external).slice(0, 60)} → ${JSON.stringify(expected)}`, () => assert.equal(render(source, external), expected));
  }

  test('numbers read and print as Go reads and prints them (strconv.ParseFloat; FormatInt when whole, else FormatFloat f -1)', () => {
    assert.equal(parseGoFloat('1e3'), 1000);
    assert.equal(parseGoFloat('-Inf'), -Infinity);
    assert.ok(Number.isNaN(parseGoFloat('NaN')));
    assert.equal(parseGoFloat(''), undefined);
    assert.equal(parseGoFloat(' 1'), undefined);
    assert.equal(formatPromNumber(60), '60');
    assert.equal(formatPromNumber(-0), '0');
    assert.equal(formatPromNumber(0.1 + 0.2), '0.30000000000000004');
    assert.equal(formatPromNumber(1e-7), '0.0000001');
    assert.equal(formatPromNumber(1.5e21), '1500000000000000000000');
    assert.equal(formatPromNumber(Infinity), '+Inf');
    assert.equal(formatPromNumber(NaN), 'NaN');
  });

  test('the notes need their arguments (an error at load, as for any function)', () => {
    assert.throws(() => compileTemplate('{{ promAboveThreshold .external.q }}', { name: 't', dialect: 'orkestra' }), TemplateError);
  });
});
