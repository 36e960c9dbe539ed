import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { topologicalSort, findCycles, findCycle, formatCycle, unknownDependencies, subgraph, dependents, reverseOrder } from '../../src/graph/index.js';

function graphOf(entries: Array<[string, string[]]>): Map<string, string[]> {
  return new Map(entries);
}

describe('topologicalSort', () => {
  const cases: Array<{ name: string; graph: Array<[string, string[]]>; order: string[] }> = [
    { name: 'empty graph', graph: [], order: [] },
    { name: 'no edges keeps declaration order', graph: [['c', []], ['a', []], ['b', []]], order: ['c', 'a', 'b'] },
    { name: 'dependency declared later moves first', graph: [['web', ['db']], ['db', []]], order: ['db', 'web'] },
    {
      name: 'ties broken by declaration order, not alphabetically',
      graph: [['zeta', ['base']], ['alpha', ['base']], ['base', []]],
      order: ['base', 'zeta', 'alpha'],
    },
    {
      name: 'earliest-declared ready node is picked each time',
      graph: [['d', ['b']], ['c', []], ['b', []], ['a', ['c']]],
      order: ['c', 'b', 'd', 'a'],
    },
    { name: 'diamond', graph: [['top', ['l', 'r']], ['l', ['bottom']], ['r', ['bottom']], ['bottom', []]], order: ['bottom', 'l', 'r', 'top'] },
    { name: 'duplicate edges count once', graph: [['a', ['b', 'b']], ['b', []]], order: ['b', 'a'] },
    { name: 'unknown dependencies are ignored', graph: [['a', ['ghost']], ['b', []]], order: ['a', 'b'] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(topologicalSort(graphOf(c.graph)), { ok: true, order: c.order });
    });
  }

  test('a cyclic graph yields its cycles', () => {
    const result = topologicalSort(graphOf([['a', ['b']], ['b', ['a']], ['c', []]]));
    assert.deepEqual(result, { ok: false, cycles: [['a', 'b', 'a']] });
  });
});

describe('findCycles', () => {
  const cases: Array<{ name: string; graph: Array<[string, string[]]>; cycles: string[][] }> = [
    { name: 'acyclic', graph: [['a', ['b']], ['b', []]], cycles: [] },
    { name: 'self-dependency', graph: [['a', ['a']]], cycles: [['a', 'a']] },
    { name: 'two nodes', graph: [['a', ['b']], ['b', ['a']]], cycles: [['a', 'b', 'a']] },
    { name: 'three nodes, starts at earliest declared', graph: [['x', []], ['c', ['a']], ['a', ['b']], ['b', ['c']]], cycles: [['c', 'a', 'b', 'c']] },
    {
      name: 'two independent cycles are both reported, in declaration order',
      graph: [['p', ['q']], ['a', ['b']], ['b', ['a']], ['q', ['p']]],
      cycles: [['p', 'q', 'p'], ['a', 'b', 'a']],
    },
    { name: 'shortest cycle of a component', graph: [['a', ['b', 'c']], ['b', ['c']], ['c', ['a']]], cycles: [['a', 'c', 'a']] },
    { name: 'node leading into a cycle is not part of it', graph: [['entry', ['a']], ['a', ['b']], ['b', ['a']]], cycles: [['a', 'b', 'a']] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(findCycles(graphOf(c.graph)), c.cycles);
    });
  }

  test('findCycle returns the first one or undefined; formatCycle prints arrows', () => {
    assert.equal(findCycle(graphOf([['a', []]])), undefined);
    const cycle = findCycle(graphOf([['a', ['b']], ['b', ['a']]]));
    assert.equal(formatCycle(cycle ?? []), 'a → b → a');
  });

  test('deep chains do not overflow the stack', () => {
    const size = 20_000;
    const graph = new Map<string, string[]>();
    for (let i = 0; i < size; i++) graph.set(`n${i}`, [`n${(i + 1) % size}`]);
    const cycles = findCycles(graph);
    assert.equal(cycles.length, 1);
    assert.equal(cycles[0]?.length, size + 1);
  });
});

describe('helpers', () => {
  test('unknownDependencies lists names that are not nodes, in order', () => {
    assert.deepEqual(unknownDependencies(graphOf([['a', ['x', 'b']], ['b', ['y']]])), [
      { node: 'a', dependency: 'x' },
      { node: 'b', dependency: 'y' },
    ]);
  });
  test('subgraph drops nodes and the edges to them', () => {
    const result = subgraph(graphOf([['a', ['b', 'c']], ['b', []], ['c', []]]), (n) => n !== 'c');
    assert.deepEqual([...result], [['a', ['b']], ['b', []]]);
  });
  test('dependents inverts the edges', () => {
    const result = dependents(graphOf([['a', ['c']], ['b', ['c', 'c']], ['c', []]]));
    assert.deepEqual([...result], [['a', []], ['b', []], ['c', ['a', 'b']]]);
  });
  test('reverseOrder does not mutate its input', () => {
    const order = ['a', 'b', 'c'];
    assert.deepEqual(reverseOrder(order), ['c', 'b', 'a']);
    assert.deepEqual(order, ['a', 'b', 'c']);
  });
});

/** A random graph over n0..n(size-1): edges as pairs of indices. */
const randomGraph = fc.integer({ min: 1, max: 25 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    edges: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: size * 3 }),
    names: fc.shuffledSubarray([...Array(size).keys()], { minLength: size, maxLength: size }),
  }),
);

function build(names: number[], edges: Array<[number, number]>, acyclic: boolean): Map<string, string[]> {
  // Declaration order is a random permutation; in the acyclic case an edge always points to a lower rank.
  const graph = new Map<string, string[]>(names.map((n) => [`n${n}`, []]));
  for (const [from, to] of edges) {
    if (acyclic && from <= to) continue;
    graph.get(`n${from}`)?.push(`n${to}`);
  }
  return graph;
}

describe('properties', () => {
  test('any DAG sorts so that every edge points backwards, and the order is a permutation', () => {
    fc.assert(
      fc.property(randomGraph, ({ edges, names }) => {
        const graph = build(names, edges, true);
        const result = topologicalSort(graph);
        assert.ok(result.ok);
        assert.deepEqual([...result.order].sort(), [...graph.keys()].sort());
        const at = new Map(result.order.map((n, i) => [n, i]));
        for (const [node, deps] of graph) {
          for (const dep of deps) assert.ok((at.get(dep) ?? Infinity) < (at.get(node) ?? -1), `${dep} before ${node}`);
        }
      }),
    );
  });

  test('the order is the lexicographically smallest by declaration index (stable)', () => {
    fc.assert(
      fc.property(randomGraph, ({ edges, names }) => {
        const graph = build(names, edges, true);
        const result = topologicalSort(graph);
        assert.ok(result.ok);
        // Greedy reference: at each step the earliest-declared node whose dependencies are placed.
        const placed = new Set<string>();
        const expected: string[] = [];
        while (expected.length < graph.size) {
          for (const [node, deps] of graph) {
            if (!placed.has(node) && deps.every((d) => placed.has(d))) {
              placed.add(node);
              expected.push(node);
              break;
            }
          }
        }
        assert.deepEqual(result.order, expected);
      }),
    );
  });

  test('any graph with a cycle reports real cycles: each consecutive pair is an edge', () => {
    fc.assert(
      fc.property(randomGraph, fc.nat(), ({ size, edges, names }, pick) => {
        const graph = build(names, edges, false);
        // Force at least one cycle: close a back edge along a random pair.
        const a = `n${pick % size}`;
        const b = `n${(pick * 7 + 3) % size}`;
        graph.get(a)?.push(b);
        graph.get(b)?.push(a);
        const cycles = findCycles(graph);
        assert.ok(cycles.length > 0);
        for (const cycle of cycles) {
          assert.ok(cycle.length >= 2);
          assert.equal(cycle[0], cycle[cycle.length - 1]);
          assert.equal(new Set(cycle.slice(0, -1)).size, cycle.length - 1, 'a cycle visits each node once');
          for (let i = 0; i + 1 < cycle.length; i++) {
            assert.ok(graph.get(cycle[i] ?? '')?.includes(cycle[i + 1] ?? ''), `${cycle[i]} → ${cycle[i + 1]} is an edge`);
          }
        }
        assert.equal(topologicalSort(graph).ok, false);
      }),
    );
  });
});
