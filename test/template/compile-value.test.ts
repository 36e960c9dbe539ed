import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { compileValue, compileValueCollect, type TemplateData } from '../../src/template/index.js';

const data: TemplateData = {
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: { replicas: 2, image: 'nginx', tag: '1.25', ports: [80, 443], resources: { cpu: '100m' }, debug: false },
};

describe('compileValue', () => {
  test('renders every template leaf and copies the rest', () => {
    const tree = {
      apiVersion: 'apps/v1',
      metadata: { name: '{{ .metadata.name }}-web', labels: { app: '{{ .metadata.labels.app }}', fixed: 'yes' } },
      spec: {
        replicas: '{{ .spec.replicas }}',
        paused: '{{ .spec.debug }}',
        image: '{{ printf "%s:%s" .spec.image .spec.tag }}',
        ports: '{{ .spec.ports }}',
        resources: '{{ .spec.resources }}',
        args: ['--port', '{{ index .spec.ports 0 }}', 8080, true, null],
      },
    };
    const compiled = compileValue(tree, { name: 'deploy' });
    assert.equal(compiled.templateCount, 8);
    assert.deepEqual(compiled.render(data), {
      apiVersion: 'apps/v1',
      metadata: { name: 'web-web', labels: { app: 'web', fixed: 'yes' } },
      spec: {
        replicas: 2,
        paused: false,
        image: 'nginx:1.25',
        ports: [80, 443],
        resources: { cpu: '100m' },
        args: ['--port', 80, 8080, true, null],
      },
    });
  });

  test('returns a new tree each time, never sharing with the definition or the data', () => {
    const tree = { fixed: { a: [1, 2] }, copied: '{{ .spec.resources }}' };
    const compiled = compileValue(tree);
    const first = compiled.render(data) as { fixed: { a: number[] }; copied: Record<string, unknown> };
    const second = compiled.render(data) as typeof first;
    assert.notEqual(first, second);
    assert.notEqual(first.fixed, tree.fixed);
    assert.notEqual(first.fixed.a, second.fixed.a);
    first.copied['cpu'] = 'changed';
    assert.equal((data['spec'] as { resources: { cpu: string } }).resources.cpu, '100m');
  });

  test('missing single-action leaves drop their key or list item', () => {
    const tree = { keep: 'x', drop: '{{ .spec.missing }}', list: ['a', '{{ .spec.missing }}', 'b'], nil: '{{ .spec.none }}' };
    assert.deepEqual(compileValue(tree).render({ spec: { none: null } }), { keep: 'x', list: ['a', 'b'], nil: null });
  });

  test('text templates render to strings, even when empty', () => {
    assert.deepEqual(compileValue({ a: 'x{{ .spec.missing }}' }).render(data), { a: 'x' });
  });

  test('keys are never templated', () => {
    assert.deepEqual(compileValue({ '{{ .metadata.name }}': 'v' }).render(data), { '{{ .metadata.name }}': 'v' });
  });

  test('scalars and strings without actions work at the root', () => {
    assert.equal(compileValue('{{ .spec.replicas }}').render(data), 2);
    assert.equal(compileValue('plain').render(data), 'plain');
    assert.equal(compileValue(5).render(data), 5);
    assert.equal(compileValue(null).render(data), null);
    assert.equal(compileValue(undefined).render(data), undefined);
    assert.equal(compileValue({ a: 1 }).templateCount, 0);
  });

  test('a __proto__ key in the definition stays an ordinary key', () => {
    const tree = JSON.parse('{"__proto__": {"polluted": "{{ .metadata.name }}"}}') as unknown;
    const out = compileValue(tree).render(data) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { polluted: 'web' });
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  test('leaf templates are named by their path', () => {
    const tree = { spec: { containers: [{ image: '{{ .a' }], labels: { 'app.kubernetes.io/name': '{{ nope }}' } } };
    assert.throws(() => compileValue(tree, { name: 'entry' }), { code: 'E_TEMPLATE_SYNTAX', template: 'entry.spec.containers[0].image' });
    assert.throws(() => compileValue(tree), { template: 'spec.containers[0].image' });
    assert.throws(() => compileValue({ a: '{{ div 1 0 }}' }, { name: 'e' }).render(data), { code: 'E_TEMPLATE_EXEC', template: 'e.a', column: 4 });
  });

  test('compileValueCollect reports every failing leaf', () => {
    const errors: TemplateError[] = [];
    const tree = { a: '{{ .a', b: ['ok {{ .b }}', '{{ nope 1 }}'], c: { 'x y': '{{ end }}' } };
    const compiled = compileValueCollect(tree, { name: 'root' }, (error) => errors.push(error));
    assert.deepEqual(
      errors.map((e) => [e.template, e.code]),
      [
        ['root.a', 'E_TEMPLATE_SYNTAX'],
        ['root.b[1]', 'E_TEMPLATE_FUNCTION'],
        ['root.c["x y"]', 'E_TEMPLATE_SYNTAX'],
      ],
    );
    assert.equal(compiled.templateCount, 1);
    assert.deepEqual(compiled.render({ b: 'B' }), { a: '{{ .a', b: ['ok B', '{{ nope 1 }}'], c: { 'x y': '{{ end }}' } });
  });

  test('a value that contains itself is reported, not followed', () => {
    const tree: Record<string, unknown> = { a: '{{ .x }}' };
    tree['self'] = tree;
    const errors: TemplateError[] = [];
    compileValueCollect(tree, { name: 'r' }, (e) => errors.push(e));
    assert.deepEqual(errors.map((e) => [e.template, e.reason]), [['r.self', 'the value contains itself']]);
  });

  test('a shared (not cyclic) subtree is fine', () => {
    const shared = { v: '{{ .metadata.name }}' };
    assert.deepEqual(compileValue({ a: shared, b: shared }).render(data), { a: { v: 'web' }, b: { v: 'web' } });
  });

  test('trees deeper than maxDepth are rejected', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10; i++) deep = { d: deep };
    assert.throws(() => compileValue(deep, { name: 'r', limits: { maxDepth: 5 } }), { code: 'E_TEMPLATE_LIMIT' });
  });
});
