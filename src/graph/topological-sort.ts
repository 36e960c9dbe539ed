/**
 * Stable topological sort (Kahn's algorithm). Among the nodes whose dependencies are all placed, the one declared
 * first is placed next, so an unrelated declaration never reorders a graph and ties read like the file.
 */
import type { DependencyGraph } from './graph.js';
import { findCycles } from './cycles.js';

/** The outcome of sorting: an order, or (when the graph is cyclic) one real cycle per cyclic component. */
export type SortResult =
  | { readonly ok: true; readonly order: readonly string[] }
  | { readonly ok: false; readonly cycles: readonly (readonly string[])[] };

/**
 * Orders the nodes so that every node comes after all of its dependencies; ties are broken by declaration order.
 * Dependencies that are not nodes of the graph are ignored (check them with `unknownDependencies`).
 * A cyclic graph yields `{ ok: false, cycles }` with each cycle written as a closed path `[a, b, a]`.
 * O((V + E) · log V).
 */
export function topologicalSort(graph: DependencyGraph): SortResult {
  const index = new Map<string, number>();
  const names: string[] = [];
  for (const node of graph.keys()) {
    index.set(node, names.length);
    names.push(node);
  }
  const remaining = names.map(() => 0);
  const dependentsOf: number[][] = names.map(() => []);
  for (const [node, dependencies] of graph) {
    const at = index.get(node) ?? 0;
    for (const dependency of new Set(dependencies)) {
      const from = index.get(dependency);
      if (from === undefined) continue;
      remaining[at] = (remaining[at] ?? 0) + 1;
      dependentsOf[from]?.push(at);
    }
  }
  const ready = new MinHeap();
  remaining.forEach((count, at) => {
    if (count === 0) ready.push(at);
  });
  const order: string[] = [];
  for (let at = ready.pop(); at !== undefined; at = ready.pop()) {
    order.push(names[at] ?? '');
    for (const next of dependentsOf[at] ?? []) {
      const left = (remaining[next] ?? 0) - 1;
      remaining[next] = left;
      if (left === 0) ready.push(next);
    }
  }
  if (order.length === names.length) return { ok: true, order };
  return { ok: false, cycles: findCycles(graph) };
}

/** A binary min-heap of declaration indices. */
class MinHeap {
  private readonly items: number[] = [];

  push(value: number): void {
    const items = this.items;
    items.push(value);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const p = items[parent] ?? 0;
      if (p <= value) break;
      items[at] = p;
      at = parent;
    }
    items[at] = value;
  }

  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && (items[right] ?? 0) < (items[left] ?? 0) ? right : left;
      const c = items[child] ?? 0;
      if (c >= last) break;
      items[at] = c;
      at = child;
    }
    items[at] = last;
    return top;
  }
}
