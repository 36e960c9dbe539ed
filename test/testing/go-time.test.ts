// Go's reading and writing of Kubernetes times (go/go-time.ts). Every expected text below is what Go 1.26's
// time.Parse and Format answered for the same input (a Go program run once, side by side).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goTimeText, parseGoTime } from '../../src/testing/go/go-time.js';

const errorOf = (text: string, precision: 'time' | 'micro'): string | undefined => {
  const parsed = parseGoTime(text, precision);
  return 'error' in parsed ? parsed.error : undefined;
};

test('a time is written in seconds in UTC: a fraction and an offset are read, the zero time is null', () => {
  assert.equal(goTimeText('2024-01-01T00:00:00.123Z', 'time'), '2024-01-01T00:00:00Z');
  assert.equal(goTimeText('2024-01-01T01:00:00+02:00', 'time'), '2023-12-31T23:00:00Z');
  assert.equal(goTimeText('2024-01-01T00:00:00,5Z', 'time'), '2024-01-01T00:00:00Z');
  assert.equal(goTimeText('2024-01-01T1:00:00Z', 'time'), '2024-01-01T01:00:00Z');
  assert.equal(goTimeText('2024-02-29T23:59:59Z', 'time'), '2024-02-29T23:59:59Z');
  assert.equal(goTimeText('0001-01-01T00:00:00Z', 'time'), null);
  // A time already as Go writes it is read without the parser's walk, to the same time.
  assert.deepEqual(parseGoTime('2024-01-01T00:00:00Z', 'time'), { seconds: 1704067200, nanos: 0 });
  assert.deepEqual(parseGoTime('2024-01-01T00:00:00.000001Z', 'micro'), { seconds: 1704067200, nanos: 1000 });
  assert.deepEqual(parseGoTime('2024-01-01T00:00:00+00:00', 'time'), { seconds: 1704067200, nanos: 0 });
  // What Go cannot read is left as it is (the decoder refuses it on a create or update).
  assert.equal(goTimeText('yesterday', 'time'), 'yesterday');
});

test('a MicroTime takes exactly six digits of a second and is written in microseconds, in UTC', () => {
  assert.equal(goTimeText('2024-01-01T00:00:00.123456+01:00', 'micro'), '2023-12-31T23:00:00.123456Z');
  assert.equal(errorOf('2024-01-01T00:00:00Z', 'micro'), 'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
  assert.equal(errorOf('2024-01-01T00:00:00.1234567Z', 'micro'), 'parsing time "2024-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"');
  assert.equal(errorOf('2024-01-01T00:00:00.-12345Z', 'micro'), 'parsing time "2024-01-01T00:00:00.-12345Z": fractional second out of range');
});

test("time.Parse's errors: the element that does not fit, a value out of range, extra text", () => {
  const layout = '"2006-01-02T15:04:05Z07:00"';
  assert.equal(errorOf('2024-01-01', 'time'), `parsing time "2024-01-01" as ${layout}: cannot parse "" as "T"`);
  assert.equal(errorOf('yesterday', 'time'), `parsing time "yesterday" as ${layout}: cannot parse "yesterday" as "2006"`);
  assert.equal(errorOf('2024-1-01T00:00:00Z', 'time'), `parsing time "2024-1-01T00:00:00Z" as ${layout}: cannot parse "1-01T00:00:00Z" as "01"`);
  assert.equal(errorOf('2024-01-01t00:00:00Z', 'time'), `parsing time "2024-01-01t00:00:00Z" as ${layout}: cannot parse "t00:00:00Z" as "T"`);
  assert.equal(errorOf('2024-01-01T00:00:00z', 'time'), `parsing time "2024-01-01T00:00:00z" as ${layout}: cannot parse "z" as "Z07:00"`);
  assert.equal(errorOf('2024-01-01T00:00:00.5', 'time'), `parsing time "2024-01-01T00:00:00.5" as ${layout}: cannot parse "" as "Z07:00"`);
  assert.equal(errorOf('é2024', 'time'), `parsing time "\\xc3\\xa92024" as ${layout}: cannot parse "\\xc3\\xa92024" as "2006"`);
  assert.equal(errorOf('2024-13-01T00:00:00Z', 'time'), 'parsing time "2024-13-01T00:00:00Z": month out of range');
  assert.equal(errorOf('2024-02-30T00:00:00Z', 'time'), 'parsing time "2024-02-30T00:00:00Z": day out of range');
  assert.equal(errorOf('2024-01-01T25:00:00Z', 'time'), 'parsing time "2024-01-01T25:00:00Z": hour out of range');
  assert.equal(errorOf('2024-01-01T00:00:00+25:00', 'time'), 'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range');
  assert.equal(errorOf('2024-01-01T00:00:00Zabc', 'time'), 'parsing time "2024-01-01T00:00:00Zabc": extra text: "abc"');
});
