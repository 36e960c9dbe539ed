// Go's strconv.Atoi (go/go-strconv.ts), which kube-apiserver's JSON patch library reads array indices with. Every
// expected answer below is what Go 1.26's strconv.Atoi answered for the same input (a Go program run once).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goAtoi } from '../../src/testing/go/go-strconv.js';

test('Atoi: a sign and leading zeros are read; anything else, or an int64 overflow, is its error', () => {
  const cases: Array<[string, bigint | string]> = [
    ['0', 0n],
    ['-0', 0n],
    ['+5', 5n],
    ['007', 7n],
    ['-', 'strconv.Atoi: parsing "-": invalid syntax'],
    ['+', 'strconv.Atoi: parsing "+": invalid syntax'],
    ['', 'strconv.Atoi: parsing "": invalid syntax'],
    ['1_0', 'strconv.Atoi: parsing "1_0": invalid syntax'],
    ['x', 'strconv.Atoi: parsing "x": invalid syntax'],
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775808', 'strconv.Atoi: parsing "9223372036854775808": value out of range'],
    ['-9223372036854775808', -9223372036854775808n],
    ['-9223372036854775809', 'strconv.Atoi: parsing "-9223372036854775809": value out of range'],
    ['99999999999999999999', 'strconv.Atoi: parsing "99999999999999999999": value out of range'],
    // The overflow is seen before the character that is not a digit; a character that comes first is the error.
    ['99999999999999999999x', 'strconv.Atoi: parsing "99999999999999999999x": value out of range'],
    ['1x99999999999999999999', 'strconv.Atoi: parsing "1x99999999999999999999": invalid syntax'],
    ['é', 'strconv.Atoi: parsing "é": invalid syntax'],
  ];
  for (const [text, expected] of cases) {
    const parsed = goAtoi(text);
    assert.deepEqual('error' in parsed ? parsed.error : parsed.value, expected, text);
  }
});
