import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { TemplateError } from '../../src/errors.js';
import { compileInternal, type Template } from '../../src/template/compile-template.js';
import { childPath } from '../../src/template/compile-value.js';
import { ReadTable } from '../../src/template/fast-operands.js';
import { lookupFunction } from '../../src/template/functions.js';
import { compileValue, TEMPLATE_FUNCTION_NAMES, type TemplateLimits } from '../../src/template/index.js';
import { resolveLimits } from '../../src/template/limits.js';
import { createState, type RenderState } from '../../src/template/state.js';

const limits = resolveLimits({ maxOutputBytes: 4096, maxRangeIterations: 200, maxDepth: 8, maxSteps: 5000 }, undefined);

function compile(source: string, over: Partial<TemplateLimits> = {}): Template {
  return compileInternal(source, 'fast', resolveLimits({ ...limits, ...over }, 'fast'));
}

/** The result of a render as comparable text: the value, or the error's code and full message. */
function attempt(render: () => unknown): string {
  try {
    return `value ${inspect(render(), { depth: 20, showHidden: false })}`;
  } catch (error) {
    assert.ok(error instanceof TemplateError, `escaped a non-TemplateError: ${String(error)}`);
    return `error ${error.code} ${error.message}`;
  }
}

/** Renders with the fast path and with the evaluator; both must agree on the result, the steps and the bytes. */
function assertSameAsEvaluator(template: Template, data: unknown): string {
  const fastState = template.newState();
  const generalState = template.newState();
  const fast = attempt(() => template.renderLeaf(fastState, data));
  const general = attempt(() => template.renderIn(generalState, data));
  assert.equal(fast, general, `${template.source} over ${inspect(data)}`);
  assert.equal(fastState.steps, generalState.steps, `steps of ${template.source}`);
  assert.equal(fastState.bytes, generalState.bytes, `bytes of ${template.source}`);
  return fast;
}

const withPrototype = Object.assign(Object.create({ inherited: 'from the prototype', name: 'proto-name' }) as Record<string, unknown>, { own: 'mine' });
const samples: unknown[] = [
  {},
  { a: 'x', b: { c: { d: 'deep' } }, n: 3, list: [1, 2], map: { k: 'v' }, empty: '', zero: 0, no: false, nil: null },
  { a: 0, b: [], n: -1.5, map: {} },
  { a: { b: 'nested' }, metadata: { name: 'web' }, spec: { replicas: 2, version: 'latest' } },
  { a: withPrototype, b: withPrototype },
  JSON.parse('{"__proto__": {"x": 1}, "constructor": "c", "a": {"prototype": "p", "toString": "t"}}') as unknown,
  { a: 'é€😀'.repeat(3), b: new Date(0) },
];

describe('fast paths are chosen for the common shapes', () => {
  const fast = [
    '{{ .a }}', '{{ $.a.b }}', '{{ . }}', '{{ $ }}', '{{ 3 }}', '{{ "x" }}', '{{ .a.b.c.d.e }}', '{{- .a -}}',
    '{{ .a | default "x" }}', '{{ default "x" .a }}', '{{ printf "%s-%03d" .a 3 }}', '{{ .a | upper | quote }}',
    '{{ eq .a "b" }}', '{{ .a | toString }}', '{{ printf .a }}', 'x{{ .a }}y', '{{ .a }}-{{ .b }}',
    '{{ if .a }}A{{ else if .b }}B{{ else }}C{{ end }}', '{{ if eq .a "latest" }}Always{{ else }}IfNotPresent{{ end }}', '{{/* only a comment */}}',
  ];
  for (const source of fast) {
    test(`${source} has a fast path`, () => assert.equal(compile(source).isFast, true));
  }
  const general = [
    '{{ with .a }}{{ . }}{{ end }}', '{{ range .list }}{{ . }}{{ end }}', '{{ $x := .a }}{{ $x }}', '{{ and .a .b }}', '{{ or .a "x" }}',
    '{{ printf "%s" (upper .a) }}', '{{ if $x := .a }}{{ $x }}{{ end }}', '{{ .a | and .b }}', '{{ (index .list 0).a }}',
  ];
  for (const source of general) {
    test(`${source} uses the evaluator`, () => assert.equal(compile(source).isFast, false));
  }
});

describe('fast paths give exactly what the evaluator gives', () => {
  const sources = [
    '{{ .a }}', '{{ .b.c.d }}', '{{ $.a }}', '{{ . }}', '{{ .map }}', '{{ .list }}', '{{ .nil }}', '{{ .missing }}', '{{ .missing.deeper }}',
    '{{ .a | default "fallback" }}', '{{ .zero | default 7 }}', '{{ default .n .a }}', '{{ printf "%s:%v" .a .n }}', '{{ printf "%d" .a }}',
    '{{ printf "%s%%%v" .a .map }}', '{{ printf "%-s|%+v|% v" .a .n .list }}', '{{ printf "%5s|%.1v" .a .n }}', '{{ .a | printf "<%s>" }}', '{{ printf "none" }}',
    '{{ .a | upper }}', '{{ .n | toString }}', '{{ .map | toJson }}', '{{ eq .a "x" }}', 'name-{{ .a }}-{{ .n }}', '{{ .list }}/{{ .map }}',
    '{{ if eq .a "x" }}yes{{ else }}no{{ end }}', '{{ if .a }}{{ .a }}{{ else if .n }}{{ .n }}{{ end }}', '{{ .constructor }}',
    '{{ .a.toString }}', '{{ .a.prototype }}', '{{ .__proto__ }}', '{{ .a.inherited }}', '{{ .a.name }}', '{{ .a.own }}', '{{ .b }}',
  ];
  for (const source of sources) {
    test(source, () => {
      const template = compile(source);
      assert.equal(template.isFast, true);
      for (const data of samples) assertSameAsEvaluator(template, data);
    });
  }

  test('prototype keys and inherited properties resolve as missing', () => {
    const data = { a: withPrototype, spec: {} };
    for (const source of ['{{ .constructor }}', '{{ .spec.toString }}', '{{ .__proto__ }}', '{{ .spec.constructor.name }}', '{{ .a.inherited }}', '{{ .a.name }}', '{{ $.spec.hasOwnProperty }}']) {
      assert.equal(compile(source).render(data), undefined, source);
      assert.equal(compile(`[${source}]`).render(data), '[]', source);
    }
    assert.equal(compile('{{ .a.own }}').render(data), 'mine');
  });

  test('limits fail at the same place: steps, output bytes, printf length', () => {
    const data = { a: 'x'.repeat(40), n: 5 };
    const cases: [string, Partial<TemplateLimits>][] = [
      ['{{ .a }}{{ .a }}{{ .a }}', { maxSteps: 2 }],
      ['{{ .a | default "d" }}', { maxSteps: 1 }],
      ['{{ .a }}{{ .a }}{{ .a }}', { maxOutputBytes: 100 }],
      ['{{ .a }}', { maxOutputBytes: 39 }],
      ['{{ printf "%s%s%s" .a .a .a }}', { maxOutputBytes: 100 }],
      ['{{ if .a }}{{ .a }}{{ end }}', { maxSteps: 2 }],
      ['{{ eq .deep .copy }}', { maxDepth: 3 }],
      ['{{ printf "%v" .deep }}', { maxDepth: 3 }],
      ['x{{ .deep }}', { maxDepth: 3 }],
      ['{{ .deep }}', { maxDepth: 3 }],
      ['{{ .deep | default 1 }}', { maxDepth: 3 }],
    ];
    for (const [source, over] of cases) {
      const deep = { a: { b: { c: { d: { e: 1 } } } } };
      const outcome = assertSameAsEvaluator(compile(source, over), { ...data, deep, copy: structuredClone(deep) });
      assert.match(outcome, /^error E_TEMPLATE_LIMIT/, source);
    }
  });

  test('a getter that throws in the data becomes the same TemplateError', () => {
    const data = {
      get a(): string {
        throw new Error('boom');
      },
    };
    for (const source of ['{{ .a }}', 'x{{ .a }}', '{{ .a | default "d" }}', '{{ printf "%s" .a }}', '{{ if .a }}y{{ end }}']) {
      assert.match(assertSameAsEvaluator(compile(source), data), /^error E_TEMPLATE_EXEC .*boom/, source);
    }
  });
});

describe('objects and lists of compileValue', () => {
  const keys = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8'];
  test('every templated key of a wide object can be missing, and the others keep their order', () => {
    for (let missing = 0; missing < keys.length; missing++) {
      const tree = Object.fromEntries(keys.map((key, i) => [key, i === missing ? '{{ .none }}' : `{{ .v }}${i}`]));
      const expected = Object.fromEntries(keys.flatMap((key, i) => (i === missing ? [] : [[key, `x${i}`]])));
      const out = compileValue({ fixed: 'f', ...tree, last: 'l' }).render({ v: 'x' });
      assert.deepEqual(out, { fixed: 'f', ...expected, last: 'l' });
      assert.deepEqual(Object.keys(out as object), ['fixed', ...Object.keys(expected), 'last']);
    }
  });

  test('objects render fresh each time, with integer-like keys first as in any object', () => {
    const compiled = compileValue({ b: '{{ .v }}', 10: 'ten', a: { c: 'static', d: ['x', '{{ .none }}', '{{ .v }}'] } });
    const first = compiled.render({ v: 1 }) as Record<string, unknown>;
    assert.deepEqual(Object.keys(first), ['10', 'b', 'a']);
    assert.deepEqual(first, { b: 1, 10: 'ten', a: { c: 'static', d: ['x', 1] } });
    (first['a'] as Record<string, unknown>)['c'] = 'changed';
    ((first['a'] as Record<string, unknown>)['d'] as unknown[]).push('more');
    assert.deepEqual(compiled.render({ v: 2 }), { b: 2, 10: 'ten', a: { c: 'static', d: ['x', 2] } });
  });

  test('a static subtree is copied, never shared', () => {
    const compiled = compileValue({ probe: { httpGet: { path: '/healthz' }, periods: [10, 20] } });
    const first = compiled.render({}) as { probe: { httpGet: object; periods: number[] } };
    const second = compiled.render({}) as typeof first;
    assert.notEqual(first.probe, second.probe);
    assert.notEqual(first.probe.httpGet, second.probe.httpGet);
    assert.notEqual(first.probe.periods, second.probe.periods);
    assert.deepEqual(first, second);
  });
});

describe('reads are shared within a render', () => {
  test('a path used by many leaves is looked up once per render, and afresh in the next render', () => {
    let lookups = 0;
    const data = (name: string): Record<string, unknown> => ({
      get metadata(): unknown {
        lookups++;
        return { name };
      },
    });
    const compiled = compileValue({ a: '{{ .metadata.name }}', b: ['{{ .metadata.name }}-x', { c: '{{ .metadata.name | default "d" }}' }] });
    assert.deepEqual(compiled.render(data('one')), { a: 'one', b: ['one-x', { c: 'one' }] });
    assert.equal(lookups, 1);
    assert.deepEqual(compiled.render(data('two')), { a: 'two', b: ['two-x', { c: 'two' }] });
    assert.equal(lookups, 2);
  });

  test('a read table gives every distinct path and prefix one slot', () => {
    const table = new ReadTable();
    const state: RenderState = createState(limits, { maxLength: 100, maxDepth: 8, now: Date.now }, 0);
    table.reader(['spec', 'resources', 'cpu']);
    table.reader(['spec', 'resources', 'memory']);
    table.reader(['spec', 'replicas']);
    assert.equal(table.size, 5);
    assert.equal(table.reader(['constructor'])(state, {}), undefined);
    assert.equal(table.size, 5);
  });
});

/** Templates of the fast grammar (and a few that are not), over a small set of data keys. */
const grammar = fc.letrec((tie) => ({
  operand: fc.constantFrom('.', '$', '.a', '.b', '.a.b', '.b.c.d', '$.n', '.list', '.map', '.missing', '.a.constructor', '.toString', '"s"', '"%v"', '3', '-1', '2.5', 'true', '""'),
  call: fc
    .tuple(fc.constantFrom(...TEMPLATE_FUNCTION_NAMES), fc.array(tie('operand'), { maxLength: 3 }))
    .map(([name, args]) => {
      const fn = lookupFunction(name);
      const min = fn?.minArgs ?? 0;
      const list = [...(args as string[])];
      while (list.length < min) list.push('.a');
      return [name, ...list.slice(0, Math.min(fn?.maxArgs ?? 3, Math.max(min, list.length)))].join(' ');
    }),
  pipeline: fc.oneof(
    tie('operand'),
    tie('call'),
    fc.tuple(tie('operand'), fc.constantFrom('upper', 'len', 'toJson', 'quote', 'default "d"', 'default .b', 'add 1', 'printf "%v"', 'toString', 'not', 'empty', 'eq "s"')).map(([a, f]) => `${a as string} | ${f}`),
  ),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('text', ' ', '-', 'é'),
    tie('pipeline').map((p) => `{{ ${p as string} }}`),
    fc.tuple(tie('pipeline'), tie('list'), tie('list')).map(([p, a, b]) => `{{ if ${p as string} }}${a as string}{{ else }}${b as string}{{ end }}`),
    fc.tuple(tie('pipeline'), tie('list'), tie('pipeline'), tie('list')).map(([p, a, q, b]) => `{{ if ${p as string} }}${a as string}{{ else if ${q as string} }}${b as string}{{ end }}`),
    fc.tuple(tie('pipeline'), tie('list')).map(([p, a]) => `{{ with ${p as string} }}${a as string}{{ end }}`),
  ),
  list: fc.array(tie('node'), { maxLength: 3 }).map((nodes) => (nodes as string[]).join('')),
}));
const source = fc.oneof(grammar.pipeline.map((p) => `{{ ${p as string} }}`), grammar.list);
const leaf = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(withPrototype), fc.date({ noInvalidDate: true }));
const data = fc.record({ a: leaf, b: leaf, n: leaf, list: leaf, map: leaf }, { requiredKeys: [] });
const smallLimits = fc.record({ maxSteps: fc.integer({ min: 1, max: 40 }), maxOutputBytes: fc.integer({ min: 1, max: 300 }) }, { requiredKeys: [] });

describe('property: fast path = evaluator', () => {
  test('for random templates, data and limits: same value or error, same steps and bytes', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(source, data, smallLimits, (text, input, over) => {
        let template: Template;
        try {
          template = compile(text, over);
        } catch (error) {
          assert.ok(error instanceof TemplateError);
          return;
        }
        assertSameAsEvaluator(template, input);
      }),
      { numRuns: 3000 },
    );
  });

  test('compileValue = every leaf rendered by the evaluator in one shared state, missing leaves dropped', { timeout: 120_000 }, () => {
    /** The reference: the straightforward tree walk over the evaluator. */
    const reference = (tree: unknown, input: unknown, over: Partial<TemplateLimits>): unknown => {
      const resolved = resolveLimits({ ...limits, ...over }, undefined);
      const state = createState(resolved, { maxLength: resolved.maxOutputBytes, maxDepth: resolved.maxDepth, now: Date.now }, 0);
      const walk = (node: unknown, path: string): unknown => {
        if (typeof node === 'string') return node.includes('{{') ? compileInternal(node, path, resolved).renderIn(state, input) : node;
        if (Array.isArray(node)) return node.map((item, i) => walk(item, childPath(path, i))).filter((item) => item !== undefined);
        if (typeof node !== 'object' || node === null) return node;
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(node)) {
          const rendered = walk(value, childPath(path, key));
          if (rendered !== undefined) out[key] = rendered;
        }
        return out;
      };
      return walk(tree, 'v');
    };
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        source,
        fc.constantFrom('fixed', 1, true, null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('k', 'name', 'x1', 'y', '2', 'z', 'w', 'q', 'app.io/v'), tie('node'), { maxKeys: 9 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, data, smallLimits, (value, input, over) => {
        let compiled;
        try {
          compiled = compileValue(value, { name: 'v', limits: { ...limits, ...over } });
        } catch (error) {
          assert.ok(error instanceof TemplateError);
          return;
        }
        assert.equal(attempt(() => compiled.render(input)), attempt(() => reference(value, input, over)));
      }),
      { numRuns: 1500 },
    );
  });
});
