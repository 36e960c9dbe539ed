import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatDuration, parseDuration } from '../../src/util/duration.js';

test('parses Go durations to milliseconds', () => {
  const cases: Array<[string, number | undefined]> = [
    ['30s', 30_000],
    ['1m30s', 90_000],
    ['2h', 7_200_000],
    ['1h2m3s', 3_723_000],
    ['500ms', 500],
    ['1.5s', 1500],
    ['.5s', 500],
    ['0', 0],
    ['10us', 0.01],
    ['', undefined],
    ['30', undefined],
    ['1d', undefined],
    ['-5s', undefined],
    ['5 s', undefined],
    ['s', undefined],
  ];
  for (const [text, expected] of cases) assert.equal(parseDuration(text), expected, text);
});

test('prints durations as Go does', () => {
  const cases: Array<[number, string]> = [
    [0, '0s'],
    [90_000, '1m30s'],
    [300_000, '5m0s'],
    [7_200_000, '2h0m0s'],
    [303_000, '5m3s'],
    [1500, '1.5s'],
    [500, '500ms'],
    [0.5, '500µs'],
    [0.000_5, '500ns'],
    [600_000, '10m0s'],
  ];
  for (const [ms, expected] of cases) assert.equal(formatDuration(ms), expected, String(ms));
});

test('printing then parsing gives the same whole-millisecond duration back', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10 * 24 * 3600 * 1000 }), (ms) => {
      assert.equal(parseDuration(formatDuration(ms)), ms);
    }),
  );
});
