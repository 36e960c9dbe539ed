// Quantities as apimachinery reads and writes them: each text below was given to Go 1.26 with
// k8s.io/apimachinery v0.37.2 (resource.ParseQuantity, then String(), then RoundUp(-3) and String(): what a container's
// requests and limits become). null: Go refuses the text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareQuantities, formatQuantity, parseQuantity, roundUpQuantity } from '../../src/util/quantity.js';

const GO: Array<[text: string, written: string | null, milli: string | null]> = [
  ['.6002e-9', '1e-9', '1e-3'], ['-.8468e-12', '-1e-9', '-1e-3'], ['+e-12', null, null],
  ['.8064Ti', '886646176638566400u', '886646176638567m'], ['-e3', '0', '0'], ['+e-9', '0', '0'], ['.e3', '0', '0'],
  ['e-3', '0', '0'], ['.4086G', '408600k', '408600k'], ['-.6464E', '-646400T', '-646400T'],
  ['.64468022m', '644681n', '1m'], ['+.6820Mi', '715128832m', '715128832m'], ['.0242u', '25n', '1m'],
  ['.22848648P', '228486480M', '228486480M'], ['.6484G', '648400k', '648400k'], ['e-9', '0', '0'],
  ['e-12', null, null], ['+.2664k', '266400m', '266400m'], ['.8086u', '809n', '1m'],
  ['-.4484Mi', '-470181478400u', '-470181479m'], ['.8464E6', '846400', '846400'],
  ['.88888620k', '888886200u', '888887m'], ['-e12', '0', '0'], ['+.8008M', '800800', '800800'], ['e3', '0', '0'],
  ['.0808E', '80800T', '80800T'], ['+E6', '0', '0'], ['.6204Pi', '698508302205163929600u', '698508302205163930m'],
  ['+.2644k', '264400m', '264400m'], ['.84462844e-12', '1e-9', '1e-3'], ['-.0048k', '-4800m', '-4800m'],
  ['+e3', '0', '0'], ['.20264402e-12', '1e-9', '1e-3'], ['e12', '0', '0'], ['.4462P', '446200G', '446200G'],
  ['.e-9', '0', '0'], ['-.86664820G', '-866648200', '-866648200'],
  ['.8068Ei', '930177069916804140236800u', '930177069916804140237m'], ['.e12', '0', '0'], ['+.e-9', '0', '0'],
  ['-.04024448E', '-40244480G', '-40244480G'], ['e0', '0', '0'], ['E6', '0', '0'],
  ['+.22248286Mi', '233290187407360n', '233290188m'], ['.24824668e-3', '248247e-9', '1e-3'], ['1', '1', '1'],
  ['0.5', '500m', '500m'], ['1000m', '1', '1'], ['1500m', '1500m', '1500m'], ['1.5', '1500m', '1500m'],
  ['0.1', '100m', '100m'], ['100m', '100m', '100m'], ['1k', '1k', '1k'], ['1000', '1k', '1k'],
  ['1500', '1500', '1500'], ['1500000', '1500k', '1500k'], ['1e3', '1e3', '1e3'], ['1.5e3', '1500', '1500'],
  ['1E6', '1E6', '1E6'], ['1Gi', '1Gi', '1Gi'], ['1024Mi', '1Gi', '1Gi'], ['1536Mi', '1536Mi', '1536Mi'],
  ['1048576Ki', '1Gi', '1Gi'], ['1023Ki', '1023Ki', '1023Ki'], ['512', '512', '512'], ['0', '0', '0'],
  ['0.0001', '100u', '1m'], ['0.0000000001', '1n', '1m'], ['2Mi', '2Mi', '2Mi'], ['3e-3', '3e-3', '3e-3'],
  ['12345678901234567890', '12345678901234567890', '12345678901234567890'], ['-1', '-1', '-1'], ['+2', '+2', '+2'],
  ['1.0', '1', '1'], ['01', '01', '01'], ['.5', '500m', '500m'], ['5.', '5.', '5.'], ['1Ki', '1Ki', '1Ki'],
  ['1024', '1024', '1024'], ['1025Ki', '1025Ki', '1025Ki'], ['1.5Gi', '1536Mi', '1536Mi'],
  ['0.5Gi', '512Mi', '512Mi'], ['100Mi', '100Mi', '100Mi'], ['128974848', '128974848', '128974848'],
  ['129e6', '129e6', '129e6'], ['129M', '129M', '129M'], ['123Mi', '123Mi', '123Mi'], ['1e-9', '1e-9', '1e-3'],
  ['1n', '1n', '1m'], ['1u', '1u', '1m'], ['1.5m', '1500u', '2m'], ['0.5Ki', '512', '512'],
  ['0.001Ki', '1024m', '1024m'], ['2048', '2048', '2048'], ['2048Ki', '2Mi', '2Mi'], ['8Ki', '8Ki', '8Ki'],
  ['16Ki', '16Ki', '16Ki'], ['1000Ki', '1000Ki', '1000Ki'], ['7Ki', '7Ki', '7Ki'], ['9Ki', '9Ki', '9Ki'],
  ['0m', '0', '0'], ['000', '0', '0'], ['1e', null, null], ['1E', '1E', '1E'], ['1k5', null, null],
  ['1.2.3', null, null], ['--1', null, null], ['1Kb', null, null], [' 1', null, null], ['1 ', null, null],
  ['999999999999999999', '999999999999999999', '999999999999999999'],
  ['9999999999999999999', '9999999999999999999', '9999999999999999999'],
  ['8Ei', '9223372036854775807', '9223372036854775807'], ['9Ei', '9223372036854775807', '9223372036854775807'],
  ['100Ei', '9223372036854775807', '9223372036854775807'], ['1e100', '10e99', '10e99'], ['1e-100', '1e-9', '1e-3'],
  ['-0.5', '-500m', '-500m'], ['-1.5Gi', '-1536Mi', '-1536Mi'], ['1.5e-3', '1500e-6', '2e-3'], ['.', '0', '0'],
  ['5.e3', '5.e3', '5.e3'],
];

describe('quantities', () => {
  test(`written as apimachinery writes them, and rounded up to milli as a container's resources are (${GO.length} texts from Go)`, () => {
    for (const [text, written, milli] of GO) {
      const quantity = parseQuantity(text);
      if (written === null) {
        assert.equal(quantity, undefined, `Go refuses ${JSON.stringify(text)}`);
        continue;
      }
      assert.ok(quantity !== undefined, `Go reads ${JSON.stringify(text)}`);
      assert.deepEqual([formatQuantity(quantity), formatQuantity(roundUpQuantity(quantity, -3))], [written, milli], JSON.stringify(text));
    }
  });

  test('the same value in other words is the same quantity; numbers are read as their JSON text; what is not a quantity is never the same; order by value', () => {
    const same: Array<[unknown, unknown]> = [['0.5', '500m'], ['1Gi', '1024Mi'], [1, '1'], [0.25, '250m'], ['1e3', '1k'], ['1.5Gi', '1536Mi'], ['01', '1']];
    for (const [a, b] of same) assert.equal(compareQuantities(a, b), 0, `${JSON.stringify(a)} = ${JSON.stringify(b)}`);
    const different: Array<[unknown, unknown]> = [['1', '2'], ['1Gi', '1G'], ['abc', 'abc'], [true, true], ['1m', '1']];
    for (const [a, b] of different) assert.notEqual(compareQuantities(a, b), 0, `${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
    assert.deepEqual([compareQuantities('200m', '100m'), compareQuantities('1Gi', '1G'), compareQuantities('-1', 0), compareQuantities('abc', 1)], [1, 1, -1, undefined]);
  });
});
