import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate } from '../../src/template/index.js';

function printf(args: string, data: Record<string, unknown> = {}): unknown {
  return compileTemplate(`{{ printf ${args} }}`, { name: 'p' }).render(data);
}

describe('printf verbs', () => {
  const rows: [args: string, expected: string][] = [
    ['"%s-%s" "a" "b"', 'a-b'],
    ['"%s" 42', '42'],
    ['"%s" .missing', ''],
    ['"%v" 1.5', '1.5'],
    ['"%v" true', 'true'],
    ['"%v" .list', '["x",1]'],
    ['"%v" .map', '{"a":1,"b":2}'],
    ['"%d" 42', '42'],
    ['"%d" -42', '-42'],
    ['"%5d|%-5d|%05d" 42 42 -42', '   42|42   |-0042'],
    ['"%+d % d" 5 5', '+5  5'],
    ['"%.3d" 7', '007'],
    ['"%q" "hi \\"there\\"\\n"', '"hi \\"there\\"\\n"'],
    ['"%q" 65', "'A'"],
    ['"%f" 3.14159', '3.141590'],
    ['"%.2f" 3.14159', '3.14'],
    ['"%8.3f|%-8.1f|%08.2f" 3.14159 2.0 -1.5', '   3.142|2.0     |-0001.50'],
    ['"%.0f" 2.5', '3'],
    ['"%F" 1.5', '1.500000'],
    ['"%T %T %T %T" 1 "s" .list .missing', 'number string list <nil>'],
    ['"%e" 1234.5678', '1.234568e+03'],
    ['"%.2E" 0.000123', '1.23E-04'],
    ['"%g" 1000000.0', '1e+06'],
    ['"%g" 123456.0', '123456'],
    ['"%g" 0.0001', '0.0001'],
    ['"%g" 0.00001', '1e-05'],
    ['"%g" 1.5', '1.5'],
    ['"%.3g" 1234.5678', '1.23e+03'],
    ['"%.3g" 1.0', '1'],
    ['"%t %t" true false', 'true false'],
    ['"%x %X %#x" 255 255 255', 'ff FF 0xff'],
    ['"%x" "hi"', '6869'],
    ['"%o %b" 8 5', '10 101'],
    ['"%c%c" 72 105', 'Hi'],
    ['"%U" 233', 'U+00E9'],
    ['"100%%"', '100%'],
    ['"%5s|%-5s|%.2s" "ab" "ab" "abcdef"', '   ab|ab   |ab'],
    ['"%3s" "é"', '  é'],
    ['"%d" 12345678901234567890', '12345678901234567168'],
  ];
  for (const [args, expected] of rows) {
    test(`printf ${args}`, () => assert.equal(printf(args, { list: ['x', 1], map: { b: 2, a: 1 } }), expected));
  }
});

describe('printf errors', () => {
  test('a literal format is checked at compile time', () => {
    assert.throws(() => compileTemplate('{{ printf "%s %s" "a" }}'), { code: 'E_TEMPLATE_FUNCTION', reason: /2 verbs but 1 arguments/ });
    assert.throws(() => compileTemplate('{{ printf "%s" "a" "b" }}'), { code: 'E_TEMPLATE_FUNCTION' });
    assert.throws(() => compileTemplate('{{ printf "%y" 1 }}'), { code: 'E_TEMPLATE_FUNCTION', reason: /unsupported verb %y/ });
    assert.throws(() => compileTemplate('{{ printf "%[1]d" 1 }}'), { code: 'E_TEMPLATE_FUNCTION' });
    assert.throws(() => compileTemplate('{{ printf "abc %" }}'), { code: 'E_TEMPLATE_FUNCTION' });
  });
  test('a piped value counts as the last argument', () => {
    assert.equal(compileTemplate('{{ "b" | printf "%s-%s" "a" }}').render({}), 'a-b');
  });
  test('wrong argument types fail the render', () => {
    const rows: [string, RegExp][] = [
      ['"%d" "x"', /%d needs an integer, got a string/],
      ['"%d" 1.5', /%d needs an integer/],
      ['"%d" .missing', /got a missing value/],
      ['"%t" 1', /%t needs a boolean/],
      ['"%f" "x"', /%f needs a number/],
    ];
    for (const [args, reason] of rows) {
      assert.throws(() => printf(args), { code: 'E_TEMPLATE_EXEC', reason }, args);
    }
  });
  test('a format from data is parsed at render time', () => {
    assert.equal(compileTemplate('{{ printf .f .v }}').render({ f: '<%s>', v: 'x' }), '<x>');
    assert.throws(() => compileTemplate('{{ printf .f }}').render({ f: '%s' }), { code: 'E_TEMPLATE_EXEC' });
    assert.throws(() => compileTemplate('{{ printf .f }}').render({ f: 3 }), { code: 'E_TEMPLATE_EXEC', reason: /format must be a string/ });
  });
  test('a huge width is a limit error', () => {
    assert.throws(() => compileTemplate('{{ printf "%99999999d" 1 }}'), { code: 'E_TEMPLATE_LIMIT', reason: /larger than the limit/, column: 11 });
    assert.throws(() => compileTemplate('{{ printf .f 1 }}', { limits: { maxOutputBytes: 100 } }).render({ f: '%200d' }), { code: 'E_TEMPLATE_LIMIT' });
  });
});
