/**
 * Operands of the fast paths (fast-paths.ts): a literal, the dot, `$`, or fields of the dot or `$`,
 * compiled into readers of the data that share what they read within a render. At the top of a template
 * (the only place the fast paths run) the dot and `$` are both the data. Fields read own properties only,
 * and `__proto__`, `constructor` and `prototype` are always missing, exactly as in the evaluator.
 */
import type { Command, Expression } from './ast.js';
import type { RenderState } from './state.js';
import { isForbiddenKey } from './values.js';

/** Reads an operand in a render, from the data or from the values already read in this render. */
export type Read = (state: RenderState, data: unknown) => unknown;

/** {@link ReadTable.slotOf} for the path of the data itself (`.` or `$`). */
export const DATA = -1;
/** {@link ReadTable.slotOf} for a path with a forbidden key, which is always missing; in an {@link Operand}: a literal. */
export const CONSTANT = -2;

/** An operand as a slot of a {@link ReadTable} (or {@link DATA}), or a constant (when the slot is {@link CONSTANT}). */
export interface Operand {
  readonly slot: number;
  readonly constant: unknown;
  readonly pos: number;
}

/** Marks a read slot whose path was read and found missing (an empty slot means: not read yet). */
const MISSING: unique symbol = Symbol('missing');

/** An own property of a map; anything else (a list, a scalar, a missing key) is missing. Keys are never forbidden here. */
function own(container: unknown, key: string): unknown {
  if (typeof container !== 'object' || container === null || Array.isArray(container)) return undefined;
  return Object.hasOwn(container, key) ? (container as Record<string, unknown>)[key] : undefined;
}

/**
 * The distinct data paths that the fast paths of one compiled tree (or one template) read, and their
 * prefixes, each with a slot in {@link RenderState.reads}. Within a render each path is read from the
 * data at most once: `.metadata.name` used by six leaves costs one lookup, and `.spec.resources.cpu`
 * and `.spec.resources.memory` share the lookups of `.spec` and `.spec.resources`. Rendering never
 * changes the data, so a repeated read would give the same value (for JSON-like data: a getter in the
 * data runs once per render instead of once per use).
 */
export class ReadTable {
  private readonly byPath = new Map<string, number>();
  private readonly parents: number[] = [];
  private readonly keys: string[] = [];

  /** How many slots a render needs. */
  get size(): number {
    return this.keys.length;
  }

  /** A reader of `.a.b.c` (own properties only; a forbidden key anywhere makes the path missing). */
  reader(path: readonly string[]): Read {
    const slot = this.slotOf(path);
    if (slot === DATA) return (_state, data) => data;
    if (slot === CONSTANT) return () => undefined;
    return (state, data) => this.read(state, data, slot);
  }

  /** The slot of a path for {@link ReadTable.read}, or {@link DATA} for the data itself, {@link CONSTANT} for a path with a forbidden key. */
  slotOf(path: readonly string[]): number {
    if (path.length === 0) return DATA;
    if (path.some(isForbiddenKey)) return CONSTANT;
    let slot = -1;
    for (let i = 0; i < path.length; i++) slot = this.slot(path.slice(0, i + 1), slot);
    return slot;
  }

  private slot(path: readonly string[], parent: number): number {
    const id = JSON.stringify(path);
    const known = this.byPath.get(id);
    if (known !== undefined) return known;
    const slot = this.keys.length;
    this.byPath.set(id, slot);
    this.parents.push(parent);
    this.keys.push(path[path.length - 1] ?? '');
    return slot;
  }

  /** The value of an operand (its fields spread out, so that no object is needed per read). */
  value(state: RenderState, data: unknown, slot: number, constant: unknown): unknown {
    return slot >= 0 ? this.read(state, data, slot) : slot === DATA ? data : constant;
  }

  /** The value at a slot's path (a slot from {@link ReadTable.slotOf}, not DATA or NEVER), read at most once per render. */
  read(state: RenderState, data: unknown, slot: number): unknown {
    const reads = state.reads;
    const cached = reads[slot];
    if (cached !== undefined) return cached === MISSING ? undefined : cached;
    const parent = this.parents[slot] ?? -1;
    const container = parent < 0 ? data : this.read(state, data, parent);
    const value = own(container, this.keys[slot] ?? '');
    reads[slot] = value === undefined ? MISSING : value;
    return value;
  }
}

/** The path of an operand that reads the data (`.`, `$`, `.a.b`, `$.a.b`), or `undefined`. */
export function operandPath(expression: Expression | undefined): readonly string[] | undefined {
  switch (expression?.kind) {
    case 'dot':
    case 'root':
      return [];
    case 'fields':
      return expression.base.kind === 'dot' || expression.base.kind === 'root' ? expression.path : undefined;
    default:
      return undefined;
  }
}

/** A reader for an operand the fast paths handle, or `undefined` for anything else (variables, calls, pipelines). */
export function operand(expression: Expression | undefined, table: ReadTable): Read | undefined {
  if (expression?.kind === 'literal') {
    const value = expression.value;
    return () => value;
  }
  const path = operandPath(expression);
  return path === undefined ? undefined : table.reader(path);
}

/** An operand the fast paths handle as a slot or a constant, or `undefined` for anything else. */
export function operandOf(expression: Expression | undefined, table: ReadTable): Operand | undefined {
  if (expression === undefined) return undefined;
  if (expression.kind === 'literal') return { slot: CONSTANT, constant: expression.value, pos: expression.pos };
  const path = operandPath(expression);
  return path === undefined ? undefined : { slot: table.slotOf(path), constant: undefined, pos: expression.pos };
}

/** The operand of a command that is a single operand (`nil` alone is not a command), or `undefined`. */
export function commandOperand(command: Command | undefined): Expression | undefined {
  if (command?.args.length !== 1) return undefined;
  const [head] = command.args;
  if (head?.kind === 'literal' && head.value === null) return undefined;
  return head?.kind === 'function' ? undefined : head;
}
