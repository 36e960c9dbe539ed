import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { compileTemplate, TEMPLATE_FUNCTION_NAMES, type TemplateData } from '../../src/template/index.js';

const data: TemplateData = {
  s: 'Hello World',
  n: 7,
  f: 2.5,
  z: 0,
  t: true,
  e: '',
  list: ['a', 'b', 'c'],
  nums: [3, 1, 2],
  map: { k: 'v', nested: { x: 1 } },
  emptyList: [],
  emptyMap: {},
  numeric: '42',
  json: '{"b":[1,2],"a":"x"}',
};

/** Renders with type preservation (single actions return values). */
function value(source: string): unknown {
  return compileTemplate(source, { name: 'fn' }).render(data);
}

type Row = [source: string, expected: unknown];

function table(name: string, rows: Row[]): void {
  describe(name, () => {
    for (const [source, expected] of rows) {
      test(source, () => assert.deepEqual(value(source), expected));
    }
  });
}

function failing(name: string, rows: [source: string, code: string, reason?: RegExp][]): void {
  describe(name, () => {
    for (const [source, code, reason] of rows) {
      test(source, () => {
        assert.throws(() => value(source), (error: { code?: string; reason?: string }) => {
          assert.equal(error.code, code);
          if (reason !== undefined) assert.match(error.reason ?? '', reason);
          return true;
        });
      });
    }
  });
}

table('default / coalesce / ternary / empty', [
  ['{{ default "x" .missing }}', 'x'],
  ['{{ .missing | default "x" }}', 'x'],
  ['{{ .s | default "x" }}', 'Hello World'],
  ['{{ .z | default 5 }}', 5],
  ['{{ .e | default "x" }}', 'x'],
  ['{{ .t | default "x" }}', true],
  ['{{ .emptyList | default "x" }}', 'x'],
  ['{{ .emptyMap | default "x" }}', 'x'],
  ['{{ default "only" }}', 'only'],
  ['{{ coalesce .missing .e .z .s }}', 'Hello World'],
  ['{{ coalesce .missing .e }}', undefined],
  ['{{ ternary "yes" "no" .t }}', 'yes'],
  ['{{ ternary "yes" "no" .z }}', 'no'],
  ['{{ .t | ternary 1 2 }}', 1],
  ['{{ empty .e }}', true],
  ['{{ empty .emptyList }}', true],
  ['{{ empty .missing }}', true],
  ['{{ empty .z }}', true],
  ['{{ empty .s }}', false],
  ['{{ empty .map }}', false],
]);

table('and / or / not return the deciding value', [
  ['{{ and 1 "a" .s }}', 'Hello World'],
  ['{{ and 1 0 "a" }}', 0],
  ['{{ and .e (div 1 0) }}', ''],
  ['{{ or 0 "" "x" "y" }}', 'x'],
  ['{{ or 0 "" }}', ''],
  ['{{ or .s (div 1 0) }}', 'Hello World'],
  ['{{ .z | or "" }}', 0],
  ['{{ .n | and 1 }}', 7],
  ['{{ not .t }}', false],
  ['{{ not .e }}', true],
]);

table('comparisons', [
  ['{{ eq 1 1 }}', true],
  ['{{ eq 1 1.0 }}', true],
  ['{{ eq .n 7.0 }}', true],
  ['{{ eq "a" "a" }}', true],
  ['{{ eq "1" 1 }}', false],
  ['{{ eq .missing "" }}', false],
  ['{{ eq .missing nil }}', true],
  ['{{ eq .s "x" "y" "Hello World" }}', true],
  ['{{ eq .s "x" "y" }}', false],
  ['{{ eq .list .list }}', true],
  ['{{ eq .map .map }}', true],
  ['{{ ne 1 2 }}', true],
  ['{{ ne "a" "a" }}', false],
  ['{{ lt 1 2 }}', true],
  ['{{ lt 2.5 2 }}', false],
  ['{{ le 2 2 }}', true],
  ['{{ gt .n 3 }}', true],
  ['{{ ge .f 2.5 }}', true],
  ['{{ lt "a" "b" }}', true],
  ['{{ gt "b" "a" }}', true],
]);

failing('comparisons that cannot be made', [
  ['{{ lt 1 "2" }}', 'E_TEMPLATE_EXEC', /lt: cannot compare a number with a string/],
  ['{{ gt .missing 1 }}', 'E_TEMPLATE_EXEC', /missing value/],
  ['{{ ge .list 1 }}', 'E_TEMPLATE_EXEC'],
]);

table('strings', [
  ['{{ quote .s }}', '"Hello World"'],
  ['{{ quote "a\\"b\\n" }}', '"a\\"b\\n"'],
  ['{{ quote 1 "x" }}', '"1" "x"'],
  ['{{ quote .missing }}', ''],
  ['{{ upper .s }}', 'HELLO WORLD'],
  ['{{ lower .s }}', 'hello world'],
  ['{{ toUpper "abc" }}', 'ABC'],
  ['{{ toLower "ABC" }}', 'abc'],
  ['{{ trim "  x y \\n\\t" }}', 'x y'],
  ['{{ trimPrefix "Hello " .s }}', 'World'],
  ['{{ trimPrefix "nope" .s }}', 'Hello World'],
  ['{{ trimSuffix " World" .s }}', 'Hello'],
  ['{{ replace "o" "0" .s }}', 'Hell0 W0rld'],
  ['{{ .s | replace " " "-" }}', 'Hello-World'],
  ['{{ replace "" "-" "ab" }}', '-a-b-'],
  ['{{ split "," "a,b,,c" }}', ['a', 'b', '', 'c']],
  ['{{ split "" "ab" }}', ['a', 'b']],
  ['{{ split "," "" }}', ['']],
  ['{{ join "," .list }}', 'a,b,c'],
  ['{{ join "-" .nums }}', '3-1-2'],
  ['{{ join "," .missing }}', ''],
  ['{{ .list | join "+" }}', 'a+b+c'],
  ['{{ contains "World" .s }}', true],
  ['{{ .s | contains "xyz" }}', false],
  ['{{ hasPrefix "Hell" .s }}', true],
  ['{{ hasSuffix "Hell" .s }}', false],
  ['{{ upper .missing }}', ''],
  ['{{ print "a" 1 2 "b" }}', 'a1 2b'],
  ['{{ println "a" 1 }}', 'a 1\n'],
]);

table('arithmetic', [
  ['{{ add 1 2 }}', 3],
  ['{{ add 1 2 3 4 }}', 10],
  ['{{ add .n 0.5 }}', 7.5],
  ['{{ add "40" 2 }}', 42],
  ['{{ add .missing 1 }}', 1],
  ['{{ sub 10 4 }}', 6],
  ['{{ mul 2 3 4 }}', 24],
  ['{{ div 7 2 }}', 3],
  ['{{ div -7 2 }}', -3],
  ['{{ div 7.5 2 }}', 3.75],
  ['{{ mod 7 3 }}', 1],
  ['{{ mod -7 3 }}', -1],
  ['{{ min 3 1 2 }}', 1],
  ['{{ max 3 1 2 }}', 3],
  ['{{ .n | add 1 | mul 2 }}', 16],
]);

failing('arithmetic errors', [
  ['{{ div 1 0 }}', 'E_TEMPLATE_EXEC', /division by zero/],
  ['{{ mod 1 0 }}', 'E_TEMPLATE_EXEC', /division by zero/],
  ['{{ add 1 "x" }}', 'E_TEMPLATE_EXEC', /add: argument 2 is a text \(1 characters\) that is not a number/],
  ['{{ add 1 .list }}', 'E_TEMPLATE_EXEC', /argument 2 is a list/],
  ['{{ mul 1e200 1e200 }}', 'E_TEMPLATE_EXEC', /not a finite number/],
]);

table('conversions', [
  ['{{ toInt "42" }}', 42],
  ['{{ toInt 3.9 }}', 3],
  ['{{ toInt -3.9 }}', -3],
  ['{{ toInt "3.9" }}', 3],
  ['{{ toInt .missing }}', 0],
  ['{{ toInt true }}', 1],
  ['{{ toFloat "2.5" }}', 2.5],
  ['{{ toFloat 3 }}', 3],
  ['{{ toBool "true" }}', true],
  ['{{ toBool "0" }}', false],
  ['{{ toBool "T" }}', true],
  ['{{ toBool 1 }}', true],
  ['{{ toBool .missing }}', false],
  ['{{ toString 42 }}', '42'],
  ['{{ toString .t }}', 'true'],
  ['{{ toString .missing }}', ''],
  ['{{ toString .map }}', '{"k":"v","nested":{"x":1}}'],
  ['{{ toJson .map }}', '{"k":"v","nested":{"x":1}}'],
  ['{{ toJson .s }}', '"Hello World"'],
  ['{{ toJson .missing }}', 'null'],
  ['{{ toJson "<&>" }}', '"<&>"'],
  ['{{ fromJson .json }}', { a: 'x', b: [1, 2] }],
  ['{{ (fromJson .json).a }}', 'x'],
  ['{{ fromJson "3" }}', 3],
  ['{{ .map | toJson | fromJson }}', { k: 'v', nested: { x: 1 } }],
]);

failing('conversion errors', [
  ['{{ toInt "abc" }}', 'E_TEMPLATE_EXEC', /toInt: the text \(3 characters\) is not a number/],
  ['{{ toFloat .list }}', 'E_TEMPLATE_EXEC'],
  ['{{ toBool "maybe" }}', 'E_TEMPLATE_EXEC', /not a boolean/],
  ['{{ fromJson "{nope" }}', 'E_TEMPLATE_EXEC', /fromJson: the text \(5 characters\) is not valid JSON/],
]);

table('encodings', [
  ['{{ b64enc "hello" }}', 'aGVsbG8='],
  ['{{ b64enc "é" }}', 'w6k='],
  ['{{ b64dec "aGVsbG8=" }}', 'hello'],
  ['{{ "round trip ✓" | b64enc | b64dec }}', 'round trip ✓'],
  ['{{ sha256sum "" }}', createHash('sha256').update('').digest('hex')],
  ['{{ sha256sum .s }}', createHash('sha256').update('Hello World').digest('hex')],
]);

failing('encoding errors', [['{{ b64dec "not base64!" }}', 'E_TEMPLATE_EXEC', /b64dec/]]);

table('index and len', [
  ['{{ index .list 1 }}', 'b'],
  ['{{ index .list 5 }}', undefined],
  ['{{ index .list -1 }}', undefined],
  ['{{ index .map "k" }}', 'v'],
  ['{{ index .map "nested" "x" }}', 1],
  ['{{ index .map "missing" "x" }}', undefined],
  ['{{ index . "list" 0 }}', 'a'],
  ['{{ index .map }}', { k: 'v', nested: { x: 1 } }],
  ['{{ index .missing 0 }}', undefined],
  ['{{ len .list }}', 3],
  ['{{ len .map }}', 2],
  ['{{ len .s }}', 11],
  ['{{ len "héllo" }}', 5],
  ['{{ len .missing }}', 0],
  ['{{ len .emptyList }}', 0],
]);

failing('index and len errors', [
  ['{{ index .list "x" }}', 'E_TEMPLATE_EXEC', /integer position/],
  ['{{ len 3 }}', 'E_TEMPLATE_EXEC', /has no length/],
]);

describe('compile-time checks of functions', () => {
  test('an unknown function is E_TEMPLATE_FUNCTION at its position, with a suggestion', () => {
    assert.throws(() => compileTemplate('ab\n  {{ toJSON . }}', { name: 'x.y' }), {
      code: 'E_TEMPLATE_FUNCTION',
      template: 'x.y',
      line: 2,
      column: 6,
      reason: 'function "toJSON" not defined (did you mean "toJson"?)',
    });
    assert.throws(() => compileTemplate('{{ constructor }}'), { code: 'E_TEMPLATE_FUNCTION' });
    assert.throws(() => compileTemplate('{{ __proto__ 1 }}'), { code: 'E_TEMPLATE_FUNCTION' });
    assert.throws(() => compileTemplate('{{ call .f }}'), { code: 'E_TEMPLATE_FUNCTION' });
  });
  test('a wrong number of arguments is E_TEMPLATE_FUNCTION, counting the piped value', () => {
    assert.throws(() => compileTemplate('{{ upper "a" "b" }}'), { code: 'E_TEMPLATE_FUNCTION', reason: /want 1, got 2/ });
    assert.throws(() => compileTemplate('{{ "a" | upper "b" }}'), { code: 'E_TEMPLATE_FUNCTION' });
    assert.throws(() => compileTemplate('{{ ternary 1 2 }}'), { code: 'E_TEMPLATE_FUNCTION' });
    assert.throws(() => compileTemplate('{{ eq 1 }}'), { code: 'E_TEMPLATE_FUNCTION', reason: /at least 2/ });
    assert.doesNotThrow(() => compileTemplate('{{ 1 | eq 1 }}'));
  });
  test('every documented function exists', () => {
    const documented = `default coalesce ternary empty eq ne lt le gt ge and or not printf print println quote upper lower toUpper
      toLower trim trimPrefix trimSuffix replace split join contains hasPrefix hasSuffix add sub mul div mod min max toInt
      toFloat toBool toString toJson fromJson b64enc b64dec sha256sum index len`.split(/\s+/);
    assert.deepEqual([...documented].sort(), [...TEMPLATE_FUNCTION_NAMES]);
  });
});
