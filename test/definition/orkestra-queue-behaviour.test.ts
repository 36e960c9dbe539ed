// Orkestra's queue.behaviour (documentation/reference/schema/02-katalog/14-queue.md) and retryBackoff in the model:
// unconditional rules fold into the bound (onLimit drop is katalog's rule, onThreshold lowers it to its percentage),
// conditional drops and a limit that does not drop are kept as rules; katalog.dev/v1 writes the same fields. A
// behaviour without maxDepth, a bad percentage or condition, a maxAttempts below 1 are errors at their line.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeDefinition, parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { DefinitionError } from '../../src/errors.js';

function katalog(queue: string): string {
  return `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: q }
spec:
  crds:
    ingestor:
      apiTypes: { group: demo.orkestra.io, version: v1, kind: Ingestor, plural: ingestors }
      operatorBox:
        reconciler:
          queue:
${queue}`;
}

const crdOf = (queue: string) => parseDefinition(katalog(queue), { source: 'q.yaml' }).crds.get('ingestor');
const depthOf = (queue: string): number | undefined => crdOf(queue)?.settings.maxDepth?.value;
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

function problemsOf(queue: string): { line: number | undefined; message: string }[] {
  try {
    parseDefinition(katalog(queue), { source: 'q.yaml' });
  } catch (error) {
    if (error instanceof DefinitionError) return error.problems.map((p) => ({ line: p.line, message: p.message }));
    throw error;
  }
  return assert.fail('expected problems');
}

describe('queue.behaviour', () => {
  test('onLimit drop: the bound is maxDepth (katalog drops at its bound)', () => {
    assert.equal(depthOf('            maxDepth: 100\n            behaviour: { onLimit: { drop: true } }\n'), 100);
  });

  test('onThreshold: the bound is the percentage of maxDepth, rounded up; with onLimit too, the threshold fires first', () => {
    assert.equal(depthOf('            maxDepth: 500\n            behaviour: { onThreshold: { value: 70 } }\n'), 350);
    assert.equal(depthOf('            maxDepth: 3\n            behaviour: { onThreshold: { value: 50, drop: true } }\n'), 2);
    assert.equal(depthOf('            maxDepth: 500\n            behaviour:\n              onThreshold: { value: 80 }\n              onLimit: { drop: true }\n'), 400);
  });

  test('conditions on a drop: kept as rules over the custom resource (or → anyOf, the shorthand lifted); the bound stays', () => {
    const crd = crdOf('            maxDepth: 500\n            behaviour:\n              onLimit:\n                when:\n                  - { field: "{{ .spec.tier }}", equals: "batch" }\n                or:\n                  - { field: spec.size, greaterThan: 10 }\n');
    assert.equal(crd?.settings.maxDepth?.value, 500);
    assert.deepEqual(plain(crd?.queueBehaviour), {
      unbounded: true,
      drops: [
        {
          rule: 'onLimit',
          percent: 100,
          when: [{ field: '{{ .spec.tier }}', operator: 'eq', value: 'batch' }],
          anyOf: [{ field: 'spec.size', operator: 'gt', value: 10 }],
          path: 'spec.crds.ingestor.queue.behaviour.onLimit',
        },
      ],
    });
  });

  test('onLimit without drop: true does not drop (keys wait past maxDepth); a conditional threshold under a dropping limit stays bounded', () => {
    assert.deepEqual(plain(crdOf('            maxDepth: 5\n            behaviour: { onLimit: {} }\n')?.queueBehaviour), { unbounded: true, drops: [] });
    assert.deepEqual(plain(crdOf('            maxDepth: 5\n            behaviour: { onLimit: { drop: false } }\n')?.queueBehaviour), { unbounded: true, drops: [] });
    const both = crdOf('            maxDepth: 500\n            behaviour:\n              onLimit: { drop: true }\n              onThreshold:\n                value: 80\n                when: [{ field: spec.tier, equals: batch }]\n');
    assert.equal(both?.settings.maxDepth?.value, 500);
    assert.equal(both?.queueBehaviour?.unbounded, false);
    assert.deepEqual(both?.queueBehaviour?.drops.map((d) => [d.rule, d.percent]), [['onThreshold', 80]]);
    // An unconditional threshold is the lowest bound: a conditional limit above it never acts.
    const lowered = crdOf('            maxDepth: 500\n            behaviour:\n              onLimit: { when: [{ field: spec.tier, equals: batch }] }\n              onThreshold: { value: 70 }\n');
    assert.equal(lowered?.settings.maxDepth?.value, 350);
    assert.equal(lowered?.queueBehaviour, undefined);
  });

  test('a condition that cannot work is an error at its line', () => {
    const problems = problemsOf('            maxDepth: 5\n            behaviour:\n              onLimit:\n                when:\n                  - { field: "{{ .spec.tier", equals: "batch" }\n');
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.equal(problems[0]?.line, 15);
    const noValue = problemsOf('            maxDepth: 5\n            behaviour:\n              onThreshold:\n                value: 50\n                when:\n                  - { field: spec.tier, operator: eq }\n');
    assert.match(noValue[0]?.message ?? '', /needs a value/);
    assert.equal(noValue[0]?.line, 16);
  });

  test('a behaviour without maxDepth, a percentage out of range, another rule: errors that say what', () => {
    assert.match(problemsOf('            behaviour: { onLimit: { drop: true } }\n')[0]?.message ?? '', /needs queue\.maxDepth/);
    assert.match(problemsOf('            maxDepth: 10\n            behaviour: { onThreshold: { value: 0 } }\n')[0]?.message ?? '', /whole percentage from 1 to 100/);
    assert.match(problemsOf('            maxDepth: 10\n            behaviour: { onFull: { drop: true } }\n')[0]?.message ?? '', /^queue\.behaviour\.onFull \("onFull"\) is not supported/);
  });

  test('retryBackoff: the shorthand is the initial delay, the full form in ms, maxAttempts kept; katalog.dev/v1 writes it too', () => {
    const retryOf = (queue: string) => crdOf(queue)?.retryBackoff;
    assert.deepEqual(retryOf('            retryBackoff: 5s\n'), { baseDelayMs: 5000 });
    assert.deepEqual(retryOf('            retryBackoff: { initial: 1s, max: 1m, multiplier: 1.5 }\n'), { baseDelayMs: 1000, maxDelayMs: 60000, multiplier: 1.5 });
    assert.deepEqual(retryOf('            retryBackoff: { initial: 1s, maxAttempts: 3 }\n'), { baseDelayMs: 1000, maxAttempts: 3 });
    assert.deepEqual(retryOf('            retryBackoff: { maxAttempts: 2 }\n'), { maxAttempts: 2 });
    assert.match(problemsOf('            retryBackoff: { initial: 1m, max: 1s }\n')[0]?.message ?? '', /must not be shorter than initial/);
    const zero = problemsOf('            retryBackoff: { initial: 1s, maxAttempts: 0 }\n');
    assert.equal(zero[0]?.line, 11);
    assert.match(zero[0]?.message ?? '', /at least 1, got 0/);
    const own = parseDefinition(
      'apiVersion: katalog.dev/v1\nkind: Katalog\nmetadata: { name: q }\nspec:\n  crds:\n    a:\n      apiTypes: { group: x.io, version: v1, kind: A, plural: as }\n      queue: { retryBackoff: { initial: 2s, maxAttempts: 4 } }\n',
      { source: 'k.yaml' },
    );
    assert.deepEqual(own.crds.get('a')?.retryBackoff, { baseDelayMs: 2000, maxAttempts: 4 });
  });

  test('katalog.dev/v1 writes the same behaviour (anyOf, operator form); it needs maxDepth; it survives definitionToInput', () => {
    const own = (queue: string): string =>
      `apiVersion: katalog.dev/v1\nkind: Katalog\nmetadata: { name: q }\nspec:\n  crds:\n    a:\n      apiTypes: { group: x.io, version: v1, kind: A, plural: as }\n      queue:\n${queue}`;
    const text = own('        maxDepth: 4\n        behaviour:\n          onThreshold: { value: 50, anyOf: [{ field: spec.tier, operator: eq, value: batch }] }\n');
    const definition = parseDefinition(text, { source: 'k.yaml' });
    const behaviour = definition.crds.get('a')?.queueBehaviour;
    assert.deepEqual(behaviour?.drops.map((d) => [d.rule, d.percent, d.anyOf.length]), [['onThreshold', 50, 1]]);
    assert.equal(behaviour?.unbounded, true);
    const again = normalizeDefinition(definitionToInput(definition), { source: 'again.yaml' });
    assert.deepEqual(plain(again.crds.get('a')?.queueBehaviour), plain(behaviour));
    try {
      parseDefinition(own('        behaviour: { onLimit: { drop: true } }\n'), { source: 'k.yaml' });
      assert.fail('expected problems');
    } catch (error) {
      assert.ok(error instanceof DefinitionError);
      assert.match(error.problems[0]?.message ?? '', /needs queue\.maxDepth/);
      assert.equal(error.problems[0]?.line, 9);
    }
  });
});
