import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, compileValue, DEFAULT_TEMPLATE_LIMITS, type TemplateLimits } from '../../src/template/index.js';

function limited(source: string, limits: Partial<TemplateLimits>, data: Record<string, unknown> = {}): unknown {
  return compileTemplate(source, { name: 'limited', limits }).render(data);
}

function assertLimit(run: () => unknown, reason: RegExp, line?: number, column?: number): void {
  assert.throws(run, (error: { code?: string; reason?: string; template?: string; line?: number; column?: number }) => {
    assert.equal(error.code, 'E_TEMPLATE_LIMIT');
    assert.match(error.reason ?? '', reason);
    assert.equal(error.template, 'limited');
    if (line !== undefined) assert.equal(error.line, line);
    if (column !== undefined) assert.equal(error.column, column);
    return true;
  });
}

describe('limits', () => {
  test('defaults', () => {
    assert.deepEqual({ ...DEFAULT_TEMPLATE_LIMITS }, { maxOutputBytes: 1048576, maxRangeIterations: 10000, maxDepth: 64, maxSteps: 1000000, maxRenderMs: 250 });
    assert.ok(Object.isFrozen(DEFAULT_TEMPLATE_LIMITS));
  });

  test('output size, counted in UTF-8 bytes', () => {
    assert.equal(limited('{{ range 5 }}ab{{ end }}', { maxOutputBytes: 10 }), 'ababababab');
    assertLimit(() => limited('{{ range 6 }}ab{{ end }}', { maxOutputBytes: 10 }), /output larger than the limit of 10 bytes/, 1, 14);
    assertLimit(() => limited('x{{ "ééééé" }}', { maxOutputBytes: 10 }), /output larger/, 1, 2);
    assertLimit(() => limited('{{ .s }}', { maxOutputBytes: 4 }, { s: 'hello' }), /output larger/);
  });

  test('the default output limit stops a runaway template', () => {
    assertLimit(() => compileTemplate('{{ range 10000 }}{{ printf "%1000d" 1 }}{{ end }}', { name: 'limited' }).render({}), /output larger than the limit of 1048576 bytes/);
  });

  test('strings built by functions are bounded by the output limit', () => {
    const limits = { maxOutputBytes: 1000 };
    assertLimit(() => limited('{{ $s := "xxxxxxxxxx" }}{{ $s = replace "x" $s $s }}{{ $s = replace "x" $s $s }}{{ $s = replace "x" $s $s }}', limits), /replace/);
    assertLimit(() => limited('{{ len (printf "%2000s" "x") }}', limits), /larger than the limit/);
    assertLimit(() => limited('{{ len (join "," .l) }}', limits, { l: Array.from({ length: 600 }, () => 'ab') }), /join/);
    assertLimit(() => limited('{{ len (toJson .l) }}', limits, { l: Array.from({ length: 600 }, () => 'ab') }), /JSON/);
    assertLimit(() => limited('{{ len (b64enc .s) }}', limits, { s: 'x'.repeat(900) }), /b64enc/);
    assertLimit(() => limited('{{ len (quote .s) }}', limits, { s: '\n'.repeat(600) }), /quote/);
  });

  test('range iterations per render, over all loops', () => {
    assert.equal(limited('{{ range 3 }}{{ range 3 }}.{{ end }}{{ end }}', { maxRangeIterations: 12 }), '.........');
    assertLimit(() => limited('{{ range 3 }}{{ range 3 }}.{{ end }}{{ end }}', { maxRangeIterations: 11 }), /more than 11 range iterations/, 1, 14);
    assertLimit(() => limited('{{ range .l }}{{ end }}', { maxRangeIterations: 2 }, { l: [1, 2, 3] }), /range iterations/, 1, 1);
    assertLimit(() => limited('{{ range $k, $v := .m }}{{ end }}', { maxRangeIterations: 1 }, { m: { a: 1, b: 2 } }), /range iterations/);
  });

  test('the iteration budget is per render, not per template', () => {
    const template = compileTemplate('{{ range 3 }}x{{ end }}', { limits: { maxRangeIterations: 3 } });
    for (let i = 0; i < 5; i++) assert.equal(template.render({}), 'xxx');
  });

  test('nesting depth at compile time', () => {
    const nest = (n: number): string => '{{ if true }}'.repeat(n) + 'x' + '{{ end }}'.repeat(n);
    assert.doesNotThrow(() => compileTemplate(nest(5), { limits: { maxDepth: 5 } }));
    assert.throws(() => compileTemplate(nest(6), { name: 'limited', limits: { maxDepth: 5 } }), { code: 'E_TEMPLATE_LIMIT', line: 1, column: 69 });
    const parens = (n: number): string => `{{ ${'('.repeat(n)}1${')'.repeat(n)} }}`;
    assert.equal(compileTemplate(parens(5), { limits: { maxDepth: 5 } }).render({}), 1);
    assert.throws(() => compileTemplate(parens(6), { limits: { maxDepth: 5 } }), { code: 'E_TEMPLATE_LIMIT' });
    assert.throws(() => compileTemplate(nest(100_000)), { code: 'E_TEMPLATE_LIMIT' });
  });

  test('depth of values printed, compared or copied', () => {
    const nested = (): unknown => {
      let deep: unknown = 'leaf';
      for (let i = 0; i < 10; i++) deep = [deep];
      return deep;
    };
    const deep = nested();
    const limits = { maxDepth: 5 };
    assertLimit(() => limited('{{ toJson .d }}', limits, { d: deep }), /nested deeper than the limit of 5/);
    assertLimit(() => limited('x{{ .d }}', limits, { d: deep }), /nested deeper/);
    assertLimit(() => limited('{{ .d }}', limits, { d: deep }), /nested deeper/);
    assertLimit(() => limited('{{ eq .d .e }}', limits, { d: deep, e: nested() }), /nested deeper/);
    assert.equal(limited('{{ len .d }}', limits, { d: deep }), 1);
  });

  test('a cyclic value cannot hang a render', () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle['self'] = cycle;
    assertLimit(() => limited('{{ toJson . }}', {}, cycle), /nested deeper/);
    assert.equal(limited('{{ .self.self.self.name }}', {}, cycle), 'loop');
  });

  test('evaluation steps per render', () => {
    // the range action, its operand, then one step per turn
    assert.equal(limited('{{ range 10 }}{{ end }}', { maxSteps: 12 }), '');
    assertLimit(() => limited('{{ range 10 }}{{ end }}', { maxSteps: 11 }), /more than 11 evaluation steps/, 1, 1);
    assertLimit(() => limited('{{ range 10 }}{{ . }}{{ end }}', { maxSteps: 15 }), /more than 15 evaluation steps/);
    assertLimit(() => limited('{{ range 1000 }}{{ range 1000 }}{{ end }}{{ end }}', { maxRangeIterations: 1e9, maxSteps: 50_000 }), /evaluation steps/);
  });

  test('the default step limit stops a runaway loop', () => {
    const source = '{{ range 1000 }}{{ range 1000 }}{{ range 1000 }}{{ end }}{{ end }}{{ end }}';
    assertLimit(() => compileTemplate(source, { name: 'limited', limits: { maxRangeIterations: Infinity, maxRenderMs: Infinity } }).render({}), /more than 1000000 evaluation steps/);
  });

  test('render time: a render that does expensive work in few steps is stopped soon after maxRenderMs', () => {
    // Each turn serialises a 500-element list: a few steps, but most of a millisecond of work. Unbounded: seconds.
    const list = Array.from({ length: 500 }, (_, i) => ({ index: i, name: `item-${i}` }));
    const source = '{{ range 9999 }}{{ $x := toJson $.list }}{{ end }}';
    const started = performance.now();
    assertLimit(() => limited(source, { maxRenderMs: 50 }, { list }), /the render took longer than the limit of 50ms/, 1, 1);
    const took = performance.now() - started;
    // The clock is read every 32 steps (about 8 turns here): the overrun is a few turns, far below the unbounded run.
    assert.ok(took < 1000, `stopped after ${Math.round(took)}ms`);
    assert.equal(limited('{{ range 3 }}{{ $x := toJson $.list }}{{ end }}ok', { maxRenderMs: 10_000 }, { list }), 'ok');
  });

  test('compileValue shares one budget across the leaves of a tree', () => {
    const tree = { a: '{{ range 3 }}x{{ end }}', b: ['{{ range 3 }}y{{ end }}'] };
    assert.deepEqual(compileValue(tree, { limits: { maxRangeIterations: 6 } }).render({}), { a: 'xxx', b: ['yyy'] });
    assert.throws(() => compileValue(tree, { name: 'root', limits: { maxRangeIterations: 5 } }).render({}), { code: 'E_TEMPLATE_LIMIT', template: 'root.b[0]' });
  });

  test('invalid limit options are rejected', () => {
    for (const bad of [0, -1, Number.NaN]) {
      assert.throws(() => compileTemplate('x', { limits: { maxSteps: bad } }), { code: 'E_TEMPLATE_LIMIT', reason: /limits.maxSteps must be a positive number/ });
    }
  });
});
