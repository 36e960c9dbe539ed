/**
 * Cycle reporting. A cycle is reported as the closed path a person can follow in the definition:
 * `[a, b, c, a]` means a depends on b, b on c, and c on a. Every consecutive pair is a real edge.
 */
import type { DependencyGraph } from './graph.js';

/**
 * One cycle per strongly connected component that contains a cycle (a self-dependency counts), so independent
 * cycles are all reported at once. Each cycle starts at the earliest-declared node of its component and follows
 * the earliest-declared dependency that stays on a cycle; components come in declaration order of that first node.
 * Unknown dependencies are ignored. Returns `[]` for an acyclic graph.
 */
export function findCycles(graph: DependencyGraph): string[][] {
  const components = stronglyConnectedComponents(graph);
  const cycles: string[][] = [];
  for (const component of components) {
    const first = component[0];
    if (first === undefined) continue;
    const members = new Set(component);
    if (component.length === 1 && !(graph.get(first) ?? []).includes(first)) continue;
    cycles.push(cycleThrough(graph, first, members));
  }
  const position = new Map([...graph.keys()].map((node, i) => [node, i]));
  return cycles.sort((a, b) => (position.get(a[0] ?? '') ?? 0) - (position.get(b[0] ?? '') ?? 0));
}

/** The first cycle found, or `undefined` when the graph is acyclic. */
export function findCycle(graph: DependencyGraph): string[] | undefined {
  return findCycles(graph)[0];
}

/** Formats a cycle the way error messages print it: `a → b → a`. */
export function formatCycle(cycle: readonly string[]): string {
  return cycle.join(' → ');
}

/**
 * A shortest closed path from `start` back to itself inside one strongly connected component (breadth-first,
 * neighbours in declaration order), so the reported cycle is short and stable.
 */
function cycleThrough(graph: DependencyGraph, start: string, members: ReadonlySet<string>): string[] {
  const previous = new Map<string, string>();
  const queue: string[] = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] ?? start;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at)) path.push(at);
        path.push(start);
        // path is start, node, ..., start read backwards from node; put it in dependency direction.
        return [start, ...path.slice(1, -1).reverse(), start];
      }
      if (!previous.has(next) && next !== start) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/**
 * Tarjan's algorithm, iterative (no recursion limit on deep chains). Each component lists its nodes in
 * declaration order; components are returned in no particular order.
 */
function stronglyConnectedComponents(graph: DependencyGraph): string[][] {
  const position = new Map([...graph.keys()].map((node, i) => [node, i]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter);
    counter++;
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame === undefined) break;
      const dependencies = (graph.get(frame.node) ?? []).filter((d) => graph.has(d));
      const dependency = dependencies[frame.next];
      if (dependency !== undefined) {
        frame.next++;
        if (!index.has(dependency)) {
          index.set(dependency, counter);
          low.set(dependency, counter);
          counter++;
          stack.push(dependency);
          onStack.add(dependency);
          work.push({ node: dependency, next: 0 });
        } else if (onStack.has(dependency)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(dependency) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (;;) {
          const member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          component.push(member);
          if (member === frame.node) break;
        }
        components.push(component.sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0)));
      }
    }
  }
  return components;
}
