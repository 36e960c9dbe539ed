// Orkestra's queue.behaviour (documentation/reference/schema/02-katalog/14-queue.md) as katalog's queue bound:
// onLimit drop is katalog's rule, onThreshold lowers the bound to its percentage of maxDepth; conditional drops,
// a limit that does not drop, a behaviour without maxDepth and a bad percentage are errors at their line.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
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

const depthOf = (queue: string): number | undefined => parseDefinition(katalog(queue), { source: 'q.yaml' }).crds.get('ingestor')?.settings.maxDepth?.value;

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

  test('conditions on a drop are refused by name, at their line', () => {
    const problems = problemsOf('            maxDepth: 500\n            behaviour:\n              onLimit:\n                when:\n                  - { field: "{{ .spec.tier }}", equals: "batch" }\n');
    assert.equal(problems.length, 2, JSON.stringify(problems));
    const conditional = problems.find((p) => p.message.startsWith('conditional queue drops (queue.behaviour.onLimit.when)'));
    assert.equal(conditional?.line, 14);
    assert.match(conditional?.message ?? '', /docs\/orkestra-compatibility\.md#queue$/);
    assert.ok(problems.some((p) => p.message.startsWith('queue.behaviour.onLimit without drop: true is not supported')));
  });

  test('a behaviour without maxDepth, a percentage out of range, another rule: errors that say what', () => {
    assert.match(problemsOf('            behaviour: { onLimit: { drop: true } }\n')[0]?.message ?? '', /needs queue\.maxDepth/);
    assert.match(problemsOf('            maxDepth: 10\n            behaviour: { onThreshold: { value: 0 } }\n')[0]?.message ?? '', /whole percentage from 1 to 100/);
    assert.match(problemsOf('            maxDepth: 10\n            behaviour: { onFull: { drop: true } }\n')[0]?.message ?? '', /^queue\.behaviour\.onFull \("onFull"\) is not supported/);
  });

  test('retryBackoff: the shorthand is the initial delay, the full form in ms; maxAttempts refused; katalog.dev/v1 writes it too', () => {
    const retryOf = (queue: string) => parseDefinition(katalog(queue), { source: 'q.yaml' }).crds.get('ingestor')?.retryBackoff;
    assert.deepEqual(retryOf('            retryBackoff: 5s\n'), { baseDelayMs: 5000 });
    assert.deepEqual(retryOf('            retryBackoff: { initial: 1s, max: 1m, multiplier: 1.5 }\n'), { baseDelayMs: 1000, maxDelayMs: 60000, multiplier: 1.5 });
    const refused = problemsOf('            retryBackoff: { initial: 1s, maxAttempts: 3 }\n');
    assert.match(refused[0]?.message ?? '', /^queue\.retryBackoff\.maxAttempts \("maxAttempts"\) is not supported by katalog: .*never gives up/);
    assert.equal(refused[0]?.line, 11);
    assert.match(problemsOf('            retryBackoff: { initial: 1m, max: 1s }\n')[0]?.message ?? '', /must not be shorter than initial/);
    const own = parseDefinition(
      'apiVersion: katalog.dev/v1\nkind: Katalog\nmetadata: { name: q }\nspec:\n  crds:\n    a:\n      apiTypes: { group: x.io, version: v1, kind: A, plural: as }\n      queue: { retryBackoff: { initial: 2s } }\n',
      { source: 'k.yaml' },
    );
    assert.deepEqual(own.crds.get('a')?.retryBackoff, { baseDelayMs: 2000 });
  });
});
