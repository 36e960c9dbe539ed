/**
 * Orkestra's Prometheus notes: they read what a `protocol: prometheus` external call leaves under
 * `.external.<name>` (`{result, raw, error, called}`, operatorbox/prometheus-query.ts) and answer text, never
 * an error, so they can sit in conditions and status fields whatever the call returned:
 *
 * - `promValue R`: R.result (the scalar, or the first series' value), "" when R is not a result.
 * - `promSum R`, `promMax R`: over every series value of R.raw (a scalar counts as one); "" when there is none
 *   or one is not a number. Whole numbers print without a decimal point, others in plain decimals.
 * - `promSeriesCount R`: how many series values R.raw holds, as text ("0" when none).
 * - `promLabelValues R LABEL`: the LABEL of each series that has it, joined with ",".
 * - `promAboveThreshold R T`, `promBelowThreshold R T`: "true" when promValue is strictly above / below T (a
 *   number or numeric text), else "false" (also when either is not a number).
 *
 * Numbers are read as Go's strconv.ParseFloat reads Prometheus's values (decimals, exponents, `NaN`, `+Inf`,
 * `-Inf`). katalog also accepts R.raw itself (Orkestra's docs write `promSum .external.q.raw`, which Orkestra's
 * code answers with "").
 */
import { fixed, type TemplateFunction } from './function-type.js';
import { getKey, isMap, printValue } from './values.js';

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A float as Go's strconv.ParseFloat reads it (without hexadecimal and underscores); undefined otherwise. */
export function parseGoFloat(text: string): number | undefined {
  if (DECIMAL.test(text)) return Number(text);
  const lower = text.toLowerCase();
  if (/^[+-]?(?:inf|infinity)$/.test(lower)) return lower.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(lower)) return NaN;
  return undefined;
}

const INT64 = 2 ** 63;

/** Orkestra's number text: a whole number in int64 range as an integer, else plain decimals (`'f'`, shortest). */
export function formatPromNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  if (Number.isInteger(value) && value >= -INT64 && value < INT64) return BigInt(value).toString();
  return plainDecimal(value);
}

/** The shortest round-trip digits of `value`, written without an exponent. */
function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const [, sign = '', head = '', tail = '', exponentText = '0'] = match;
  const digits = head + tail;
  const point = 1 + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The Prometheus API answer inside `value`: its `raw`, or `value` itself when it is one. */
function answerOf(value: unknown): unknown {
  if (!isMap(value)) return undefined;
  const raw = getKey(value, 'raw');
  if (isMap(raw)) return raw;
  return getKey(value, 'data') === undefined ? undefined : value;
}

function sampleText(sample: unknown): string | undefined {
  return Array.isArray(sample) && typeof sample[1] === 'string' ? sample[1] : undefined;
}

/** Every series value of the answer (a scalar's one); for a bare result without `raw`, its `result`. */
function seriesValues(value: unknown): string[] {
  const answer = answerOf(value);
  if (answer === undefined) {
    const result = isMap(value) ? getKey(value, 'result') : undefined;
    return typeof result === 'string' && result !== '' ? [result] : [];
  }
  const data = getKey(answer, 'data');
  if (!isMap(data)) return [];
  const result = getKey(data, 'result');
  const type = getKey(data, 'resultType');
  if (type === 'scalar') {
    const one = sampleText(result);
    return one === undefined ? [] : [one];
  }
  if (type !== 'vector' || !Array.isArray(result)) return [];
  const values: string[] = [];
  for (const series of result) {
    const one = isMap(series) ? sampleText(getKey(series, 'value')) : undefined;
    if (one !== undefined) values.push(one);
  }
  return values;
}

function promValue(value: unknown): string {
  const result = isMap(value) ? getKey(value, 'result') : undefined;
  return typeof result === 'string' ? result : '';
}

function aggregate(value: unknown, fold: (a: number, b: number) => number): string {
  const values = seriesValues(value);
  let total: number | undefined;
  for (const text of values) {
    const number = parseGoFloat(text);
    if (number === undefined) return '';
    total = total === undefined ? number : fold(total, number);
  }
  return total === undefined ? '' : formatPromNumber(total);
}

function threshold(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return parseGoFloat(typeof value === 'string' ? value : printValue(value, 64, 2));
}

function compare(result: unknown, limit: unknown, holds: (value: number, limit: number) => boolean): string {
  const value = parseGoFloat(promValue(result));
  const bound = threshold(limit);
  return value !== undefined && bound !== undefined && holds(value, bound) ? 'true' : 'false';
}

function labelValues(value: unknown, label: unknown): string {
  const answer = answerOf(value);
  const data = answer === undefined ? undefined : getKey(answer, 'data');
  const result = isMap(data) ? getKey(data, 'result') : undefined;
  if (!Array.isArray(result)) return '';
  const name = typeof label === 'string' ? label : printValue(label, 256, 2);
  const values: string[] = [];
  for (const series of result) {
    const metric = isMap(series) ? getKey(series, 'metric') : undefined;
    const one = isMap(metric) ? getKey(metric, name) : undefined;
    if (typeof one === 'string') values.push(one);
  }
  return values.join(',');
}

export const ORKESTRA_PROM_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  promValue: fixed(1, ([result]) => promValue(result)),
  promSum: fixed(1, ([result]) => aggregate(result, (a, b) => a + b)),
  promMax: fixed(1, ([result]) => aggregate(result, (a, b) => (b > a ? b : a))),
  promSeriesCount: fixed(1, ([result]) => String(seriesValues(result).length)),
  promLabelValues: fixed(2, ([result, label]) => labelValues(result, label)),
  promAboveThreshold: fixed(2, ([result, limit]) => compare(result, limit, (value, bound) => value > bound)),
  promBelowThreshold: fixed(2, ([result, limit]) => compare(result, limit, (value, bound) => value < bound)),
};
