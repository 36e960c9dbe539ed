import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { compileTemplate, hasTemplateActions } from '../../src/template/index.js';

function syntaxError(source: string): TemplateError {
  try {
    compileTemplate(source, { name: 'spec.crds.web.operatorBox.onCreate.deployments[0].image' });
  } catch (error) {
    assert.ok(error instanceof TemplateError, `not a TemplateError: ${String(error)}`);
    return error;
  }
  assert.fail(`no error for ${JSON.stringify(source)}`);
}

describe('syntax errors name the template, line and column', () => {
  const rows: [source: string, line: number, column: number, reason: RegExp][] = [
    ['{{ .a', 1, 6, /unclosed action/],
    ['ok\n{{ .a }}\n  {{ if .b }}x', 3, 6, /{{if}} has no {{end}}/],
    ['{{ end }}', 1, 4, /unexpected {{end}}/],
    ['{{ else }}', 1, 4, /unexpected {{else}}/],
    ['{{ if .a }}{{ else }}{{ else }}{{ end }}', 1, 25, /second {{else}}/],
    ['{{ }}', 1, 4, /missing command/],
    ['{{ if }}{{ end }}', 1, 7, /missing value for if/],
    ['{{ .a | }}', 1, 9, /missing command/],
    ['{{ .a | 3 }}', 1, 9, /non executable command in pipeline stage 2/],
    ['{{ "abc }}', 1, 4, /unterminated quoted string/],
    ['{{ `abc }}', 1, 4, /unterminated raw quoted string/],
    ['{{ "\\q" }}', 1, 5, /unknown escape sequence/],
    ['{{ 1x }}', 1, 4, /bad number syntax/],
    ['{{ 3i }}', 1, 4, /bad number syntax/],
    ['{{ 0x1p3 }}', 1, 4, /bad number syntax/],
    ['{{ ( .a }}', 1, 9, /unclosed left paren/],
    ['{{ .a ) }}', 1, 7, /unexpected right paren/],
    ['{{ # }}', 1, 4, /unrecognized character in action/],
    ['{{ .a# }}', 1, 6, /bad character "#"/],
    ['{{ "a""b" }}', 1, 7, /missing space/],
    ['{{ $x }}', 1, 4, /undefined variable "\$x"/],
    ['{{ break }}', 1, 4, /{{break}} outside {{range}}/],
    ['{{ if .a }}{{ continue }}{{ end }}', 1, 15, /{{continue}} outside {{range}}/],
    ['{{ define "x" }}{{ end }}', 1, 4, /{{define}} is not supported/],
    ['{{ template "x" }}', 1, 4, /{{template}} is not supported/],
    ['{{/* open', 1, 1, /unclosed comment/],
    ['{{/* c */ .a }}', 1, 10, /comment ends before closing delimiter/],
    ['{{ 1 2 }}', 1, 6, /can't give an argument to a non-function 1/],
    ['{{ .a .b }}', 1, 7, /non-function/],
    ['{{ nil }}', 1, 4, /nil is not a command/],
    ['{{ $x, $y := .a }}', 1, 6, /too many declarations/],
    ['{{ $ := 1 }}', 1, 4, /cannot declare \$/],
    ['{{ "x".a }}', 1, 7, /unexpected \. after term/],
    ['{{ if .a }}{{ else with .b }}{{ end }}', 1, 20, /{{else with}} is not allowed in {{if}}/],
    ['{{ : }}', 1, 4, /expected :=/],
    ['{{ (if) }}', 1, 5, /unexpected {{if}} in operand/],
  ];
  for (const [source, line, column, reason] of rows) {
    test(JSON.stringify(source), () => {
      const error = syntaxError(source);
      assert.equal(error.code, 'E_TEMPLATE_SYNTAX');
      assert.equal(error.template, 'spec.crds.web.operatorBox.onCreate.deployments[0].image');
      assert.match(error.reason, reason);
      assert.deepEqual([error.line, error.column], [line, column], error.message);
      assert.ok(error.message.startsWith(`${error.template}:${line}:${column}: `));
    });
  }
});

describe('accepted syntax', () => {
  const ok = [
    '{{ .a }}{{- .b -}}{{ .c -}} x {{- .d }}',
    '{{ if .a }}{{ else if .b }}{{ else if .c }}{{ else }}{{ end }}',
    '{{ with .a }}{{ else with .b }}{{ else }}{{ end }}',
    '{{ range $i, $v := .a }}{{ break }}{{ continue }}{{ else }}{{ end }}',
    '{{ range $v = .a }}{{ end }}'.replace('$v =', '$v :='),
    '{{\n  .a\n  | default "x"\n}}',
    '{{ $x := 1 }}{{ $x = 2 }}',
    '{{ (.a).b }}{{ $.a.b }}{{ (index .a 0).b.c }}',
    '{{ printf "%s" (printf "%d" 1) }}',
    '{{ 1 }}{{ -1 }}{{ +1 }}{{ 1.5e3 }}{{ 0X1f }}{{ 0B1 }}{{ 0O7 }}{{ \'x\' }}{{ "\\u00e9\\U0001F600" }}',
  ];
  for (const source of ok) test(JSON.stringify(source), () => assert.doesNotThrow(() => compileTemplate(source)));
});

describe('hasTemplateActions', () => {
  test('detects {{', () => {
    assert.equal(hasTemplateActions('plain'), false);
    assert.equal(hasTemplateActions('{ not } { {'), false);
    assert.equal(hasTemplateActions('a {{ .b }}'), true);
    assert.equal(hasTemplateActions('{{'), true);
  });
  test('text without actions renders as itself, even with stray braces', () => {
    assert.equal(compileTemplate('a } }} b').render({}), 'a } }} b');
  });
});
