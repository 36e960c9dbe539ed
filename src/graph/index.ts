/** The dependency graph of CRDs: stable ordering, reverse order for shutdown, cycles reported as paths. */
export { unknownDependencies, subgraph, dependents, reverseOrder } from './graph.js';
export type { DependencyGraph, UnknownDependency } from './graph.js';
export { topologicalSort } from './topological-sort.js';
export type { SortResult } from './topological-sort.js';
export { findCycles, findCycle, formatCycle } from './cycles.js';
