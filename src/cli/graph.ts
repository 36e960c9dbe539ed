/**
 * `katalog graph <file>`: the order in which the runtime starts the CRDs (dependencies first, ties in declaration
 * order; the reverse is the stop order), as numbered text or, with `--dot`, as a Graphviz digraph whose edges point
 * from a CRD to what it depends on.
 */
import type { CrdDefinition, Definition } from '../index.js';
import { COMMON_OPTIONS, FILE_OPTIONS, parse } from './args.js';
import { EXIT } from './exit-codes.js';
import type { CommandIo } from './io.js';
import { loadOne } from './load.js';

function dependencyText(crd: CrdDefinition): string {
  if (crd.dependsOn.length === 0) return '';
  return `  (after ${crd.dependsOn.map((dep) => (dep.condition === 'healthy' ? `${dep.name} is healthy` : `${dep.name} has started`)).join(', ')})`;
}

/** The numbered start order, then the disabled CRDs. */
export function graphText(definition: Definition): string {
  const width = String(definition.order.length).length;
  const lines = definition.order.map((name, index) => {
    const crd = definition.crds.get(name);
    return `${String(index + 1).padStart(width)}. ${name}${crd === undefined ? '' : dependencyText(crd)}`;
  });
  const disabled = [...definition.crds.values()].filter((crd) => !crd.enabled).map((crd) => crd.name);
  if (disabled.length > 0) lines.push(`disabled (never started): ${disabled.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

function quoted(name: string): string {
  return JSON.stringify(name);
}

/** A Graphviz digraph: one node per CRD (disabled ones dashed), an edge from each CRD to each dependency. */
export function graphDot(definition: Definition): string {
  const lines = [`digraph ${quoted(definition.name)} {`, '  rankdir=BT;', '  node [shape=box];'];
  for (const crd of definition.crds.values()) {
    const kind = `${crd.apiTypes.kind}${crd.apiTypes.group === '' ? '' : `.${crd.apiTypes.group}`}`;
    lines.push(`  ${quoted(crd.name)} [label=${quoted(`${crd.name}\n${kind}`)}${crd.enabled ? '' : ', style=dashed'}];`);
  }
  for (const crd of definition.crds.values()) {
    for (const dep of crd.dependsOn) lines.push(`  ${quoted(crd.name)} -> ${quoted(dep.name)} [label=${quoted(dep.condition)}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

export async function graphCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse({ args: [...argv], options: { ...COMMON_OPTIONS, ...FILE_OPTIONS, dot: { type: 'boolean' } } });
  const { definition } = await loadOne(positionals, values.katalog, io);
  io.out(values.dot === true ? graphDot(definition) : graphText(definition));
  return EXIT.ok;
}
