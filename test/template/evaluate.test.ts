import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, type TemplateData } from '../../src/template/index.js';

const data: TemplateData = {
  metadata: { name: 'web', namespace: 'shop', labels: { app: 'web', 'app.kubernetes.io/name': 'site' } },
  spec: {
    replicas: 3,
    zero: 0,
    ratio: 1.5,
    tls: true,
    off: false,
    empty: '',
    none: null,
    tier: 'gold',
    ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }],
    noPorts: [],
    env: { B: '2', A: '1', C: '3' },
    emptyMap: {},
    nested: { deep: { value: 'found' } },
  },
};

function render(source: string, input: TemplateData = data): unknown {
  return compileTemplate(source, { name: 'test' }).render(input);
}

function text(source: string, input: TemplateData = data): string {
  return compileTemplate(source, { name: 'test' }).renderString(input);
}

describe('text and fields', () => {
  const cases: [string, string][] = [
    ['plain text', 'plain text'],
    ['', ''],
    ['name={{ .metadata.name }}', 'name=web'],
    ['{{.metadata.name}}-{{.metadata.namespace}}', 'web-shop'],
    ['{{ .spec.nested.deep.value }}', 'found'],
    ['[{{ .spec.missing }}]', '[]'],
    ['[{{ .spec.missing.deeper.still }}]', '[]'],
    ['[{{ .spec.none }}]', '[]'],
    ['[{{ .spec.replicas.nothing }}]', '[]'],
    ['[{{ .spec.ports.name }}]', '[]'],
    ['{{ .spec.ratio }}', '1.5'],
    ['{{ .spec.tls }}/{{ .spec.off }}', 'true/false'],
    ['{{ .spec.ports }}', '[{"name":"http","port":80},{"name":"https","port":443}]'],
    ['{{ .spec.env }}', '{"A":"1","B":"2","C":"3"}'],
    ['{{ $.metadata.name }}', 'web'],
    ['{{ with .spec }}{{ $.metadata.name }}/{{ .tier }}{{ end }}', 'web/gold'],
    ['{{ (index .spec.ports 1).name }}', 'https'],
    ['{{ "quoted \\"x\\" \\t \\u00e9 \\x41 \\101" }}', 'quoted "x" \t é A A'],
    ['{{ `raw \\n {{ not an action` }}', 'raw \\n {{ not an action'],
    ['{{ 42 }} {{ -7 }} {{ 0x1F }} {{ 0o17 }} {{ 0b101 }} {{ 1_000 }} {{ 017 }}', '42 -7 31 15 5 1000 15'],
    ['{{ 1.5 }} {{ 1e3 }} {{ .25 }}', '1.5 1000 0.25'],
    ["{{ 'a' }} {{ '\\n' }}", '97 10'],
    ['{{ true }} {{ false }}', 'true false'],
    ['{{ . | len }}', '2'],
  ];
  for (const [source, expected] of cases) {
    test(JSON.stringify(source), () => assert.equal(text(source), expected));
  }
  test('<no value> never appears for missing fields', () => {
    assert.doesNotMatch(text('{{ .nope }}{{ .spec.nope }}{{ index .spec "nope" }}{{ printf "%v" .nope }}'), /no value|nil/);
  });
});

describe('trimming and comments', () => {
  const cases: [string, string][] = [
    ['a  {{- "b" }}  c', 'ab  c'],
    ['a  {{ "b" -}}  c', 'a  bc'],
    ['a \n\t {{- "b" -}} \n\t c', 'abc'],
    ['{{- "x" -}}', 'x'],
    ['{{-3}}', '-3'],
    ['{{ 3 -}} x', '3x'],
    ['a{{/* a comment */}}b', 'ab'],
    ['a {{- /* trimmed */ -}} b', 'ab'],
    ['a{{/* multi\nline {{ }} */}}b', 'ab'],
    ['items:\n{{- range .spec.ports }}\n  - {{ .port }}\n{{- end }}\n', 'items:\n  - 80\n  - 443\n'],
  ];
  for (const [source, expected] of cases) {
    test(JSON.stringify(source), () => assert.equal(text(source), expected));
  }
});

describe('if / else if / else', () => {
  const cases: [string, string][] = [
    ['{{ if .spec.tls }}yes{{ end }}', 'yes'],
    ['{{ if .spec.off }}yes{{ else }}no{{ end }}', 'no'],
    ['{{ if .spec.missing }}a{{ else if .spec.zero }}b{{ else if .spec.tier }}c{{ else }}d{{ end }}', 'c'],
    ['{{ if eq .spec.tier "silver" }}s{{ else if eq .spec.tier "gold" }}g{{ end }}', 'g'],
    ['{{ if and .spec.tls (gt .spec.replicas 2) }}big{{ end }}', 'big'],
    ['{{ if not .spec.empty }}empty{{ end }}', 'empty'],
  ];
  for (const [source, expected] of cases) {
    test(JSON.stringify(source), () => assert.equal(text(source), expected));
  }

  test('truthiness follows Go', () => {
    const values: [unknown, boolean][] = [
      [false, false], [0, false], [null, false], [undefined, false], ['', false], [[], false], [{}, false],
      [true, true], [1, true], [-1, true], [0.5, true], ['0', true], ['false', true], [[0], true], [{ a: 0 }, true],
    ];
    for (const [value, truthy] of values) {
      assert.equal(text('{{ if .v }}T{{ else }}F{{ end }}', { v: value }), truthy ? 'T' : 'F', `value ${JSON.stringify(value)}`);
    }
  });
});

describe('with', () => {
  test('sets dot when truthy, else branch otherwise', () => {
    assert.equal(text('{{ with .spec.nested.deep }}{{ .value }}{{ end }}'), 'found');
    assert.equal(text('{{ with .spec.missing }}x{{ else }}none{{ end }}'), 'none');
    assert.equal(text('{{ with .spec.missing }}x{{ else with .spec.tier }}{{ . }}{{ end }}'), 'gold');
    assert.equal(text('{{ with $x := .spec.tier }}{{ $x }}{{ . }}{{ end }}'), 'goldgold');
  });
});

describe('range', () => {
  const cases: [string, string][] = [
    ['{{ range .spec.ports }}{{ .name }}:{{ .port }};{{ end }}', 'http:80;https:443;'],
    ['{{ range $i, $p := .spec.ports }}{{ $i }}={{ $p.port }} {{ end }}', '0=80 1=443 '],
    ['{{ range $p := .spec.ports }}{{ $p.name }} {{ end }}', 'http https '],
    ['{{ range $k, $v := .spec.env }}{{ $k }}={{ $v }};{{ end }}', 'A=1;B=2;C=3;'],
    ['{{ range .spec.env }}{{ . }}{{ end }}', '123'],
    ['{{ range .spec.noPorts }}x{{ else }}no ports{{ end }}', 'no ports'],
    ['{{ range .spec.emptyMap }}x{{ else }}empty{{ end }}', 'empty'],
    ['{{ range .spec.missing }}x{{ else }}missing{{ end }}', 'missing'],
    ['{{ range 3 }}{{ . }}{{ end }}', '012'],
    ['{{ range $i := 3 }}{{ $i }}{{ end }}', '012'],
    ['{{ range 0 }}x{{ else }}zero{{ end }}', 'zero'],
    ['{{ range .spec.ports }}{{ if eq .port 80 }}{{ continue }}{{ end }}{{ .name }}{{ end }}', 'https'],
    ['{{ range .spec.ports }}{{ .name }}{{ break }}{{ end }}', 'http'],
    ['{{ range 5 }}{{ if eq . 3 }}{{ break }}{{ end }}{{ with . }}{{ . }}{{ end }}{{ end }}', '12'],
    ['{{ range $i, $p := .spec.ports }}{{ range $.spec.ports }}{{ $i }}{{ end }}{{ end }}', '0011'],
  ];
  for (const [source, expected] of cases) {
    test(JSON.stringify(source), () => assert.equal(text(source), expected));
  }
  test('a string or boolean cannot be ranged over', () => {
    assert.throws(() => text('{{ range .spec.tier }}{{ end }}'), { code: 'E_TEMPLATE_EXEC' });
    assert.throws(() => text('{{ range .spec.tls }}{{ end }}'), { code: 'E_TEMPLATE_EXEC' });
    assert.throws(() => text('{{ range 1.5 }}{{ end }}'), { code: 'E_TEMPLATE_EXEC' });
  });
});

describe('variables', () => {
  const cases: [string, string][] = [
    ['{{ $x := .spec.tier }}{{ $x }}', 'gold'],
    ['{{ $x := 1 }}{{ $x = 2 }}{{ $x }}', '2'],
    ['{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}', '2'],
    ['{{ $x := 1 }}{{ if true }}{{ $x := 2 }}{{ $x }}{{ end }}{{ $x }}', '21'],
    ['{{ $n := 0 }}{{ range .spec.ports }}{{ $n = add $n 1 }}{{ end }}{{ $n }}', '2'],
    ['{{ $x := "a" }}{{ $x := "b" }}{{ $x }}', 'b'],
    ['{{ if $t := .spec.tier }}{{ $t }}{{ else }}{{ $t }}none{{ end }}', 'gold'],
    ['{{ $p := index .spec.ports 0 }}{{ $p.name }}', 'http'],
    ['{{ ($x := 5) }}{{ $x }}', '55'],
  ];
  for (const [source, expected] of cases) {
    test(JSON.stringify(source), () => assert.equal(text(source), expected));
  }
  test('a variable declared inside a block is not visible after it', () => {
    assert.throws(() => compileTemplate('{{ if true }}{{ $y := 1 }}{{ end }}{{ $y }}'), { code: 'E_TEMPLATE_SYNTAX' });
    assert.throws(() => compileTemplate('{{ range .a }}{{ $y := 1 }}{{ end }}{{ $y }}'), { code: 'E_TEMPLATE_SYNTAX' });
    assert.throws(() => compileTemplate('{{ if true }}{{ $y := 1 }}{{ else }}{{ $y }}{{ end }}'), { code: 'E_TEMPLATE_SYNTAX' });
  });
  test('assigning an undeclared variable is a syntax error', () => {
    assert.throws(() => compileTemplate('{{ $z = 1 }}'), { code: 'E_TEMPLATE_SYNTAX', reason: 'undefined variable "$z"' });
  });
});

describe('pipelines and parentheses', () => {
  const cases: [string, string][] = [
    ['{{ .spec.tier | upper }}', 'GOLD'],
    ['{{ .spec.tier | printf "%s-%s" "x" }}', 'x-gold'],
    ['{{ .metadata.name | printf "%s-web" | upper | quote }}', '"WEB-WEB"'],
    ['{{ printf "%d" (add 1 (mul 2 3)) }}', '7'],
    ['{{ (.spec.tier) }}', 'gold'],
    ['{{ .spec.missing | default "fallback" }}', 'fallback'],
  ];
  for (const [source, expected] of cases) {
    test(JSON.stringify(source), () => assert.equal(text(source), expected));
  }
});

describe('type preservation', () => {
  test('a single action returns the value itself', () => {
    assert.equal(render('{{ .spec.replicas }}'), 3);
    assert.equal(render('{{ .spec.ratio }}'), 1.5);
    assert.equal(render('{{ .spec.tls }}'), true);
    assert.equal(render('{{ .spec.tier }}'), 'gold');
    assert.equal(render('{{- .spec.replicas -}}'), 3);
    assert.equal(render('{{ .spec.replicas | add 1 }}'), 4);
    assert.equal(render('{{ .spec.none }}'), null);
    assert.equal(render('{{ .spec.missing }}'), undefined);
    assert.deepEqual(render('{{ .spec.ports }}'), [{ name: 'http', port: 80 }, { name: 'https', port: 443 }]);
    assert.deepEqual(render('{{ "a,b" | split "," }}'), ['a', 'b']);
  });
  test('lists and maps are copies, never the data itself', () => {
    const input = { spec: { list: [{ a: 1 }] } };
    const out = render('{{ .spec.list }}', input) as { a: number }[];
    assert.notEqual(out, input.spec.list);
    (out[0] as { a: number }).a = 2;
    assert.equal(input.spec.list[0]?.a, 1);
  });
  test('anything but exactly one action is a string', () => {
    const cases: [string, boolean][] = [
      ['{{ .spec.replicas }}', true],
      [' {{ .spec.replicas }}', false],
      ['{{ .spec.replicas }} ', false],
      ['{{ .spec.replicas }}{{ .spec.replicas }}', false],
      ['{{ if .spec.tls }}{{ .spec.replicas }}{{ end }}', false],
      ['{{ $x := 1 }}', false],
      ['{{/* c */}}{{ .spec.replicas }}', false],
      ['replicas', false],
    ];
    for (const [source, single] of cases) {
      const template = compileTemplate(source);
      assert.equal(template.isSingleAction, single, source);
      if (!single) assert.equal(typeof template.render(data), 'string', source);
    }
    assert.equal(render(' {{ .spec.replicas }}'), ' 3');
  });
  test('renderString prints single actions as text output does', () => {
    const t = (s: string): string => compileTemplate(s).renderString(data);
    assert.equal(t('{{ .spec.replicas }}'), '3');
    assert.equal(t('{{ .spec.missing }}'), '');
    assert.equal(t('{{ .spec.env }}'), '{"A":"1","B":"2","C":"3"}');
  });
  test('source and name are kept', () => {
    const template = compileTemplate('{{ .a }}', { name: 'spec.x' });
    assert.equal(template.source, '{{ .a }}');
    assert.equal(template.name, 'spec.x');
    assert.equal(compileTemplate('x').name, undefined);
  });
});

describe('safety: prototype keys', () => {
  const hostile = JSON.parse('{"__proto__": {"polluted": "yes"}, "spec": {"constructor": "c", "prototype": "p", "ok": "fine"}}') as TemplateData;
  const cases: string[] = [
    '{{ .__proto__ }}', '{{ .__proto__.polluted }}', '{{ .constructor }}', '{{ .constructor.name }}', '{{ .spec.constructor }}',
    '{{ .spec.prototype }}', '{{ .toString }}', '{{ .hasOwnProperty }}', '{{ .spec.ok.length }}', '{{ .spec.ok.constructor }}',
    '{{ index . "__proto__" }}', '{{ index .spec "constructor" }}', '{{ index . "toString" }}', '{{ $.constructor }}',
    '{{ (index .spec "ok").constructor }}', '{{ .valueOf }}', '{{ index .spec.list "length" }}',
  ];
  for (const source of cases) {
    test(`${source} resolves as missing`, () => {
      assert.equal(render(source, hostile), undefined);
      assert.equal(text(source, hostile), '');
    });
  }
  test('inherited properties are not read', () => {
    const inherited = Object.create({ secret: 'inherited' }) as Record<string, unknown>;
    inherited['own'] = 'own';
    assert.equal(render('{{ .secret }}', inherited), undefined);
    assert.equal(render('{{ .own }}', inherited), 'own');
  });
  test('prototype keys are left out of printed maps and range', () => {
    assert.equal(text('{{ .spec }}', hostile), '{"ok":"fine"}');
    assert.equal(text('{{ range $k, $v := .spec }}{{ $k }}{{ end }}', hostile), 'ok');
    assert.equal(render('{{ len .spec }}', hostile), 1);
  });
  test('rendering never mutates Object.prototype', () => {
    text('{{ toJson . }}{{ fromJson "{\\"__proto__\\":{\\"x\\":1}}" }}', hostile);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(({} as Record<string, unknown>)['x'], undefined);
  });
});

describe('hostile data', () => {
  test('a throwing getter in the data becomes E_TEMPLATE_EXEC', () => {
    const input = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw Object.assign(Object.create(null) as object, { toString: () => { throw new Error('nope'); } });
      },
    }) as TemplateData;
    assert.throws(() => render('{{ .boom }}', input), { code: 'E_TEMPLATE_EXEC' });
    assert.throws(() => render('x{{ toJson . }}', input), { code: 'E_TEMPLATE_EXEC' });
  });
});
