/**
 * The two moves of the Orkestra lift (orkestra-lift.ts): refusing a feature by name, and moving a field to where
 * katalog's shape has it, positions included.
 */
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { LoadContext } from './documents.js';
import { refusalMessage, type Refusal } from './orkestra-features.js';

type Map = Record<string, unknown>;

/** What the lift steps share: where problems go and how positions follow moves. */
export interface Lift {
  readonly origin: Origin;
  readonly problems: ProblemList;
  readonly context: LoadContext;
}

/** Reports a refused feature at `path` and removes it from `parent`. */
export function refuse(lift: Lift, parent: Map, key: string, path: Path, refusal: Refusal): void {
  lift.problems.add(lift.origin, [...path, key], 'orkestra-unsupported', refusalMessage(refusal, key), { at: 'key' });
  delete parent[key];
}

/** Moves `from[fromKey]` to `to[toKey]`, positions included; a value already there is a conflict (reported). */
export function move(lift: Lift, from: Map, fromKey: string, fromPath: Path, to: Map, toKey: string, toPath: Path, conflict: string): void {
  if (!Object.hasOwn(from, fromKey)) return;
  const value = from[fromKey];
  delete from[fromKey];
  if (Object.hasOwn(to, toKey) && to[toKey] !== undefined && to[toKey] !== null) {
    lift.problems.add(lift.origin, [...fromPath, fromKey], 'generation-conflict', conflict, { at: 'key' });
    return;
  }
  to[toKey] = value;
  lift.origin.positions?.alias([...fromPath, fromKey], [...toPath, toKey]);
}
