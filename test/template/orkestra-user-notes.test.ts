// User-defined notes in the template module: what a call renders, against which data, and what fails to compile.
// Semantics from Orkestra (orkspace/orkestra pkg/types/types_notes.go @ eacb2604bc775f58156f6f49907c4e5d494ebf30:
// a note is a named template expression, callable by name, that may call built-ins and other notes) and its
// examples (iAlexeze/orkestra examples/intermediate/09-notes @ 440aaa87969698ca9593970587cd93a8c6e3bfd2).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { checkNotes, compileConditions, compileTemplate, compileValue, type UserNote } from '../../src/template/index.js';

const NOTES: readonly UserNote[] = [
  { name: 'serviceHost', expression: '{{ .metadata.name }}.{{ .metadata.namespace }}.svc.cluster.local' },
  { name: 'fullImage', expression: '{{ .spec.image }}:{{ .spec.tag | default "latest" }}' },
  { name: 'appLabel', expression: '{{ .metadata.namespace }}-{{ .metadata.name }}' },
  { name: 'isBig', expression: '  {{ gt .spec.replicas 3 }}\n' },
  { name: 'bigHost', expression: '{{ if isBig }}big-{{ end }}{{ serviceHost }}' },
];
const data = { metadata: { name: 'web', namespace: 'shop' }, spec: { image: 'nginx', replicas: 5, items: ['a', 'b'] } };
const compile = (source: string, notes: readonly UserNote[] = NOTES) => compileTemplate(source, { name: 't', dialect: 'orkestra', notes });

describe('user-defined notes', () => {
  test('a note renders its expression against the custom resource (09-notes/03-motifs)', () => {
    assert.equal(compile('{{ serviceHost }}').render(data), 'web.shop.svc.cluster.local');
    assert.equal(compile('{{ fullImage }}').render(data), 'nginx:latest');
    assert.equal(compile('app={{ appLabel }}').render(data), 'app=shop-web');
  });

  test('"true" and "false" (trimmed) are booleans; other results are text', () => {
    assert.equal(compile('{{ isBig }}').render(data), true);
    assert.equal(compile('{{ isBig }}').render({ ...data, spec: { ...data.spec, replicas: 1 } }), false);
    assert.equal(compile('{{ if isBig }}yes{{ else }}no{{ end }}').render({ ...data, spec: { ...data.spec, replicas: 1 } }), 'no');
  });

  test('notes call notes and built-ins; a piped note result feeds a built-in', () => {
    assert.equal(compile('{{ bigHost }}').render(data), 'big-web.shop.svc.cluster.local');
    assert.equal(compile('{{ serviceHost | upper }}').render(data), 'WEB.SHOP.SVC.CLUSTER.LOCAL');
  });

  test('inside range and with, a note still reads the whole custom resource, not the dot', () => {
    assert.equal(compile('{{ range .spec.items }}{{ . }}:{{ appLabel }};{{ end }}').render(data), 'a:shop-web;b:shop-web;');
    assert.equal(compile('{{ with .spec }}{{ appLabel }}{{ end }}').render(data), 'shop-web');
  });

  test('the caller keeps its own variables and output around a note call', () => {
    assert.equal(compile('{{ $x := "v" }}[{{ appLabel }}]{{ $x }}').render(data), '[shop-web]v');
  });

  test('a note shadowing a built-in wins over it, also where fast paths would read the built-in', () => {
    const notes = [{ name: 'upper', expression: 'shadowed' }];
    assert.equal(compile('{{ upper }}', notes).render(data), 'shadowed');
    assert.throws(() => compile('{{ upper "x" }}', notes), /wrong number of arguments for upper: want 0 \(a note takes no arguments\), got 1/);
  });

  test('in values and conditions compiled with the notes', () => {
    const value = compileValue({ host: '{{ serviceHost }}', big: '{{ isBig }}' }, { dialect: 'orkestra', notes: NOTES });
    assert.deepEqual(value.render(data), { host: 'web.shop.svc.cluster.local', big: true });
    const conditions = compileConditions({ when: [{ field: '{{ isBig }}', operator: 'eq', value: 'true' }] }, { dialect: 'orkestra', notes: NOTES });
    assert.equal(conditions.evaluate(data).ok, true);
  });

  test('a note is an unknown function where the notes are not given', () => {
    assert.throws(() => compileTemplate('{{ serviceHost }}', { dialect: 'orkestra' }), (error: unknown) => error instanceof TemplateError && /function "serviceHost" not defined/.test(error.reason));
  });

  test('a cycle is a compile problem naming its chain', () => {
    const problems = checkNotes([
      { name: 'alpha', expression: '{{ beta }}' },
      { name: 'beta', expression: 'x{{ gamma }}' },
      { name: 'gamma', expression: '{{ alpha }}' },
      { name: 'self', expression: '{{ self }}' },
    ], 'orkestra');
    const reasons = problems.map((problem) => problem.error.reason);
    assert.ok(reasons.some((reason) => reason.includes('alpha → beta → gamma → alpha')), reasons.join('; '));
    assert.ok(reasons.some((reason) => reason.includes('self → self')), reasons.join('; '));
    assert.throws(() => compile('{{ alpha }}', [{ name: 'alpha', expression: '{{ alpha }}' }]), /cycle: alpha → alpha/);
  });

  test('a note whose expression does not compile is a problem of that note, positioned in it', () => {
    const [problem] = checkNotes([{ name: 'broken', expression: 'a {{ nope .x }}' }], 'orkestra');
    assert.equal(problem?.name, 'broken');
    assert.match(problem?.error.reason ?? '', /function "nope" not defined/);
    assert.equal(problem?.error.column, 6);
  });

  test('a note failing while it renders names the note', () => {
    const notes = [{ name: 'bad', expression: '{{ toBool "maybe" }}' }];
    assert.throws(() => compile('{{ bad }}', notes).render(data), (error: unknown) => error instanceof TemplateError && error.template === 'notes.bad');
  });

  test('note calls share the render budget of the template that calls them', () => {
    const notes = [{ name: 'loop', expression: '{{ range .spec.items }}{{ . }}{{ end }}' }];
    const template = compileTemplate('{{ range .spec.items }}{{ loop }}{{ end }}', { dialect: 'orkestra', notes, limits: { maxSteps: 10 } });
    assert.throws(() => template.render({ spec: { items: Array.from({ length: 20 }, (_, i) => i) } }), /evaluation steps/);
  });
});
