/**
 * A dependency graph: each node maps to the nodes it depends on. The map's insertion order is the declaration
 * order, which breaks ties everywhere (sorting, cycle reporting), so every answer here is deterministic.
 * Pure functions only: nothing here reads files, clocks or the environment.
 */

/** Node → its dependencies, in declaration order. Dependencies that are not nodes are "unknown". */
export type DependencyGraph = ReadonlyMap<string, readonly string[]>;

/** A dependency on a name that is not a node of the graph. */
export interface UnknownDependency {
  readonly node: string;
  readonly dependency: string;
}

/** Every dependency that names no node, in declaration order (node order, then dependency order). */
export function unknownDependencies(graph: DependencyGraph): UnknownDependency[] {
  const unknown: UnknownDependency[] = [];
  for (const [node, dependencies] of graph) {
    for (const dependency of dependencies) if (!graph.has(dependency)) unknown.push({ node, dependency });
  }
  return unknown;
}

/**
 * The graph restricted to `keep`: nodes not kept are removed, and so are edges to them.
 * Used to order only the enabled CRDs.
 */
export function subgraph(graph: DependencyGraph, keep: (node: string) => boolean): Map<string, readonly string[]> {
  const result = new Map<string, readonly string[]>();
  for (const [node, dependencies] of graph) {
    if (keep(node)) result.set(node, dependencies.filter((d) => graph.has(d) && keep(d)));
  }
  return result;
}

/**
 * Node → the nodes that depend on it directly, in declaration order. Unknown dependencies are ignored.
 * The runtime uses it to find what to activate once a dependency is satisfied.
 */
export function dependents(graph: DependencyGraph): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const node of graph.keys()) result.set(node, []);
  for (const [node, dependencies] of graph) {
    for (const dependency of new Set(dependencies)) result.get(dependency)?.push(node);
  }
  return result;
}

/** The shutdown order: the reverse of a start order (dependents stop before what they depend on). */
export function reverseOrder(order: readonly string[]): string[] {
  return [...order].reverse();
}
