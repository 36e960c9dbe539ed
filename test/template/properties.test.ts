import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { TemplateError } from '../../src/errors.js';
import { lookupFunction } from '../../src/template/functions.js';
import { compileTemplate, compileValue, TEMPLATE_FUNCTION_NAMES, type TemplateData, type TemplateLimits } from '../../src/template/index.js';

const limits: TemplateLimits = { maxOutputBytes: 4096, maxRangeIterations: 200, maxDepth: 8, maxSteps: 5000, maxRenderMs: Number.POSITIVE_INFINITY };

const data: TemplateData = {
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: { replicas: 3, ratio: 0.5, tls: true, tier: 'gold', ports: [{ port: 80 }, { port: 443 }], list: [1, 'two', null], map: { b: 2, a: 1 }, empty: '' },
  a: 'x'.repeat(50),
  b: [[[[[[[[[['deep']]]]]]]]]],
  n: 1000,
};

/** Pieces that make random text look like templates often enough to reach deep into the parser and evaluator. */
const fragment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('{{', '}}', '{{ ', ' }}', '{{- ', ' -}}', '{{/*', '*/}}', ' ', '\n') },
  { weight: 3, arbitrary: fc.constantFrom('.', '.spec', '.spec.ports', '.metadata.name', '.a', '.b', '.n', '.spec.map', '$', '$x', '$y', '$i', '$.spec') },
  { weight: 2, arbitrary: fc.constantFrom('if', 'else', 'end', 'range', 'with', 'break', 'continue', 'nil', 'true', 'false', 'define') },
  { weight: 2, arbitrary: fc.constantFrom(':=', '=', ',', '|', '(', ')', '"', '`', "'", '-', '%') },
  { weight: 3, arbitrary: fc.constantFrom(...TEMPLATE_FUNCTION_NAMES) },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '-1', '3', '1e3', '0x1f', '2.5', '"s"', '"%s"', '"%d"', '"%99d"', '","', '`raw`', "'c'", '"\\n"') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const templateText = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

/** Mostly valid templates from the grammar, so that the evaluator and functions get exercised. */
const grammar = fc.letrec((tie) => ({
  operand: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('.', '$', '$x', '.spec', '.spec.ports', '.spec.map', '.spec.list', '.metadata.name', '.a', '.b', '.n', '.missing', '$.spec.tier', '.spec.replicas'),
    fc.constantFrom('0', '1', '-2', '3', '2.5', '1e3', '10000', '"s"', '"%s"', '"%v-%d"', '"%099d"', '","', '""', 'true', 'false', 'nil', "'c'", '`r`', '"e30="'),
    tie('call').map((call) => `(${call as string})`),
  ),
  call: fc
    .tuple(fc.constantFrom(...TEMPLATE_FUNCTION_NAMES), fc.array(tie('operand'), { maxLength: 3 }))
    .map(([name, args]) => {
      const fn = lookupFunction(name);
      const min = fn?.minArgs ?? 0;
      const list = [...(args as string[])];
      while (list.length < min) list.push('1');
      return [name, ...list.slice(0, Math.min(fn?.maxArgs ?? 3, Math.max(min, list.length)))].join(' ');
    }),
  pipeline: fc.oneof(
    tie('operand'),
    tie('call'),
    fc.tuple(tie('operand'), fc.constantFrom('upper', 'len', 'toJson', 'quote', 'default 1', 'add 1', 'printf "%v"', 'toString', 'not', 'empty')).map(([a, f]) => `${a as string} | ${f}`),
  ),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('text', ' ', '\n', '-'),
    tie('pipeline').map((p) => `{{ ${p as string} }}`),
    tie('pipeline').map((p) => `{{- $x = ${p as string} -}}`),
    fc.tuple(tie('pipeline'), tie('list'), tie('list')).map(([p, a, b]) => `{{ if ${p as string} }}${a as string}{{ else }}${b as string}{{ end }}`),
    fc.tuple(tie('pipeline'), tie('list')).map(([p, a]) => `{{ with ${p as string} }}${a as string}{{ end }}`),
    fc.tuple(tie('pipeline'), tie('list'), fc.constantFrom('', '{{ break }}', '{{ continue }}', '{{ if $i }}{{ break }}{{ end }}')).map(
      ([p, a, c]) => `{{ range $i, $v := ${p as string} }}${c}${a as string}{{ else }}empty{{ end }}`,
    ),
  ),
  list: fc.array(tie('node'), { maxLength: 3 }).map((nodes) => (nodes as string[]).join('')),
}));
const validish = grammar.list.map((body) => `{{ $x := 0 }}${body as string}`);
const anyText = fc.oneof(templateText, validish, grammar.pipeline.map((p) => `{{ ${p as string} }}`), fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 }));

/** Runs `run`; passes when it returns or throws a TemplateError, fails on anything else. */
function onlyTemplateErrors<T>(run: () => T): { value?: T; error?: TemplateError } {
  try {
    return { value: run() };
  } catch (error) {
    assert.ok(error instanceof TemplateError, `escaped a non-TemplateError: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    assert.ok(['E_TEMPLATE_SYNTAX', 'E_TEMPLATE_FUNCTION', 'E_TEMPLATE_LIMIT', 'E_TEMPLATE_EXEC'].includes(error.code), error.code);
    assert.ok(error.line >= 1 && error.column >= 1);
    return { error };
  }
}

function outcome(result: { value?: unknown; error?: TemplateError }): string {
  return result.error !== undefined ? `error ${result.error.message}` : `value ${inspect(result.value, { depth: 20 })}`;
}

describe('property: random input text', () => {
  test('compile and render throw nothing but TemplateError, stay within limits, and are deterministic', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(anyText, (source) => {
        const compiled = onlyTemplateErrors(() => compileTemplate(source, { name: 'prop', limits }));
        const template = compiled.value;
        if (template === undefined) return;
        const first = onlyTemplateErrors(() => template.render(data));
        const second = onlyTemplateErrors(() => template.render(data));
        assert.equal(outcome(first), outcome(second));
        if (typeof first.value === 'string' && !template.isSingleAction) {
          assert.ok(Buffer.byteLength(first.value, 'utf8') <= limits.maxOutputBytes);
        }
        const text = onlyTemplateErrors(() => template.renderString(data));
        if (text.value !== undefined) assert.equal(typeof text.value, 'string');
      }),
      { numRuns: 3000 },
    );
  });

  test('compile errors carry a position inside the source', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(templateText, (source) => {
        const { error } = onlyTemplateErrors(() => compileTemplate(source, { limits }));
        if (error === undefined) return;
        const lines = source.split('\n');
        assert.ok(error.line <= lines.length, `line ${error.line} of ${lines.length}`);
        assert.ok(error.column <= (lines[error.line - 1] ?? '').length + 1, `column ${error.column}`);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('property: random data', () => {
  const templates = [
    '{{ .v }}', 'x{{ .v }}', '{{ toJson .v }}', '{{ printf "%v" .v }}', '{{ range .v }}{{ . }},{{ else }}none{{ end }}',
    '{{ if .v }}T{{ else }}F{{ end }}', '{{ default "d" .v }}', '{{ len .v }}', '{{ eq .v .v }}', '{{ index .v 0 }}',
    '{{ .v | quote }}', '{{ upper .v }}', '{{ add .v 1 }}', '{{ toInt .v }}', '{{ .v.a.b }}', '{{ with .v }}{{ . }}{{ end }}',
    '{{ join "," .v }}', '{{ sha256sum .v }}', '{{ b64enc .v }}', '{{ range $k, $v := .v }}{{ $k }}={{ $v }}{{ end }}',
  ].map((source) => compileTemplate(source, { limits }));
  const value = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.anything({ maxDepth: 3, withNullPrototype: true, withMap: true, withSet: true, withDate: true, withBigInt: true }));

  test('templates over arbitrary data throw nothing but TemplateError and are deterministic', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(value, (v) => {
        const input = { v };
        for (const template of templates) {
          const first = onlyTemplateErrors(() => template.render(input));
          const second = onlyTemplateErrors(() => template.render(input));
          assert.equal(outcome(first), outcome(second), template.source);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('rendering never changes the data', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const input = { v: structuredClone(v) };
        for (const template of templates) onlyTemplateErrors(() => template.render(input));
        assert.deepEqual(input.v, v);
      }),
      { numRuns: 200 },
    );
  });

  test('compileValue over arbitrary JSON trees of templates throws only TemplateError', { timeout: 60_000 }, () => {
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, templateText, fc.jsonValue({ maxDepth: 1 }), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 5 }), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(tree, (t) => {
        const compiled = onlyTemplateErrors(() => compileValue(t, { limits }));
        if (compiled.value === undefined) return;
        const value = compiled.value;
        assert.equal(outcome(onlyTemplateErrors(() => value.render(data))), outcome(onlyTemplateErrors(() => value.render(data))));
      }),
      { numRuns: 500 },
    );
  });
});
