/**
 * `dependsOn` in its three forms, and the checks that need every CRD: unknown names, dependencies on disabled
 * CRDs, cycles, and finally the start order (graph/).
 */
import type { Dependency, DependencyCondition } from './types.js';
import type { Field } from './crd-entries.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import { isMap } from './schema-check.js';
import { didYouMean, nearest } from './suggest.js';
import { findCycles, formatCycle, subgraph, topologicalSort } from '../graph/index.js';

/** A dependency with the place it is written, for problems found later. */
export interface DependencyRef extends Dependency {
  readonly origin: Origin;
  readonly path: Path;
  /** Whether `path` is a map key (`dependsOn: {db: healthy}`) rather than a list item. */
  readonly isKey: boolean;
}

/** Reads a checked `dependsOn` field: `[a, b]`, `{a: healthy}`, `{a: {condition: healthy}}`. Duplicates are problems. */
export function readDependsOn(field: Field | undefined, problems: ProblemList): DependencyRef[] {
  if (field === undefined) return [];
  const refs: DependencyRef[] = [];
  const add = (name: string, condition: DependencyCondition, path: Path, isKey: boolean): void => {
    if (refs.some((ref) => ref.name === name)) {
      problems.add(field.origin, path, 'duplicate-dependency', `"${name}" is listed twice in dependsOn`, isKey ? { at: 'key' } : {});
      return;
    }
    refs.push({ name, condition, origin: field.origin, path, isKey });
  };
  const { value } = field;
  if (Array.isArray(value)) {
    value.forEach((name: unknown, index) => {
      if (typeof name === 'string') add(name, 'started', [...field.path, index], false);
    });
  } else if (isMap(value)) {
    for (const [name, spec] of Object.entries(value)) {
      const condition = typeof spec === 'string' ? spec : isMap(spec) ? spec.condition : undefined;
      if (spec !== undefined) add(name, condition === 'healthy' ? 'healthy' : 'started', [...field.path, name], true);
    }
  }
  return refs;
}

/** What the graph checks need to know about one CRD. */
export interface GraphNode {
  readonly name: string;
  readonly enabled: boolean;
  readonly dependsOn: readonly DependencyRef[];
}

/**
 * Checks the dependencies of all CRDs together and returns the stable start order of the enabled ones
 * (`undefined` when there is a cycle). A dependency of an enabled CRD on a disabled one is an error: the
 * dependent could never start.
 */
export function checkGraph(nodes: readonly GraphNode[], problems: ProblemList): string[] | undefined {
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const names = [...byName.keys()];
  for (const node of nodes) {
    for (const ref of node.dependsOn) {
      const target = byName.get(ref.name);
      const where = ref.isKey ? { at: 'key' as const } : {};
      if (target === undefined) {
        const suggestion = nearest(ref.name, names.filter((n) => n !== node.name));
        problems.add(ref.origin, ref.path, 'unknown-dependency', `${node.name} depends on "${ref.name}", which is not a CRD of this definition${didYouMean(suggestion)}`, {
          ...where,
          ...(suggestion === undefined ? {} : { suggestion }),
        });
      } else if (node.enabled && !target.enabled) {
        problems.add(ref.origin, ref.path, 'disabled-dependency', `${node.name} depends on "${ref.name}", which is disabled (enabled: false); enable it or disable ${node.name}`, where);
      }
    }
  }
  const graph = new Map(nodes.map((node) => [node.name, node.dependsOn.map((ref) => ref.name)]));
  const cycles = findCycles(graph);
  for (const cycle of cycles) {
    const [first, second] = cycle;
    const ref = byName.get(first ?? '')?.dependsOn.find((r) => r.name === second);
    if (ref !== undefined) problems.add(ref.origin, ref.path, 'dependency-cycle', `dependency cycle: ${formatCycle(cycle)}`, ref.isKey ? { at: 'key' } : {});
  }
  if (cycles.length > 0) return undefined;
  const sorted = topologicalSort(subgraph(graph, (name) => byName.get(name)?.enabled === true));
  return sorted.ok ? [...sorted.order] : undefined;
}
