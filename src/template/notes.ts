/**
 * User-defined notes (Orkestra's `notes:`): named template functions without arguments that a definition
 * declares. Calling `{{ serviceHost }}` renders the note's `expression` against the whole data of the render
 * (`$`, not the current dot), trims the text, and gives `true`/`false` as booleans and anything else as text.
 * Notes may call built-in functions and each other; a cycle is an error at compile time with its chain.
 *
 * A table is compiled once per list of notes (the frozen list of a definition) and shared by every template
 * compiled with it. Pure: no I/O, no clock.
 */
import type { TemplateError } from '../errors.js';
import { linkProgram, type Program } from './evaluator.js';
import { asTemplateError, type TemplateSourceInfo } from './failure.js';
import { parseTemplate } from './parser.js';
import { lookupFunction } from './functions.js';
import { DEFAULT_TEMPLATE_LIMITS } from './limits.js';
import type { RenderState } from './state.js';
import type { TemplateDialect } from './dialect.js';

/** One user-defined note: its name (what templates call) and the template it renders. */
export interface UserNote {
  /** What templates call: `{{ name }}` (an identifier; no arguments). */
  readonly name: string;
  /** The template the call renders against the whole data (`$`). */
  readonly expression: string;
}

/** A compile problem of one note: the note's name and the error, positioned inside its expression. */
export interface NoteProblem {
  readonly name: string;
  readonly error: TemplateError;
}

interface LinkedNote {
  readonly program: Program;
  readonly slots: number;
}

/** The compiled notes of one definition. */
export class NoteTable {
  readonly problems: readonly NoteProblem[];
  /** Whether a note takes the name of a built-in function (the fast paths, which know built-ins, then stand aside). */
  readonly shadows: boolean;
  private readonly linked = new Map<string, LinkedNote>();
  private readonly calls = new Map<string, Set<string>>();
  private readonly names: ReadonlySet<string>;
  private compiling: string | undefined;

  constructor(notes: readonly UserNote[], dialect: TemplateDialect | undefined) {
    this.names = new Set(notes.map((note) => note.name));
    this.shadows = notes.some((note) => lookupFunction(note.name, dialect) !== undefined);
    const problems: NoteProblem[] = [];
    for (const note of notes) {
      const info: TemplateSourceInfo = { name: `notes.${note.name}`, source: note.expression, ...(dialect === undefined ? {} : { dialect }), notes: this };
      this.compiling = note.name;
      this.calls.set(note.name, new Set());
      try {
        const parsed = parseTemplate(info, DEFAULT_TEMPLATE_LIMITS.maxDepth);
        this.linked.set(note.name, { program: linkProgram(parsed, info, DEFAULT_TEMPLATE_LIMITS.maxOutputBytes), slots: parsed.slotCount });
      } catch (error) {
        problems.push({ name: note.name, error: asTemplateError(error, info, 0) });
      } finally {
        this.compiling = undefined;
      }
    }
    for (const chain of this.cycles()) {
      const [first] = chain;
      if (first === undefined) continue;
      const info: TemplateSourceInfo = { name: `notes.${first}`, source: '' };
      problems.push({ name: first, error: asTemplateError(new Error(`notes call each other in a cycle: ${chain.join(' → ')}`), info, 0) });
    }
    this.problems = problems;
  }

  /** Whether `name` is a note of this table (it then wins over a built-in function of the same name). */
  has(name: string): boolean {
    return this.names.has(name);
  }

  /** Records that the note being compiled calls `name` (for the cycle check). The linker calls it. */
  referenced(name: string): void {
    if (this.compiling !== undefined) this.calls.get(this.compiling)?.add(name);
  }

  /**
   * Renders note `name` against `state.root` in the caller's render (same budget), restoring the caller's
   * output and variables afterwards. Throws the note's own TemplateError on failure.
   */
  evaluate(name: string, state: RenderState): unknown {
    const note = this.linked.get(name);
    if (note === undefined) throw new Error(`note ${JSON.stringify(name)} did not compile`);
    const out = state.out;
    const vars = state.vars;
    state.out = '';
    state.vars = note.slots > 0 ? new Array<unknown>(note.slots) : [];
    let text: string;
    try {
      note.program.execute(state, state.root);
      text = state.out;
    } finally {
      state.out = out;
      state.vars = vars;
    }
    const trimmed = text.trim();
    return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
  }

  /** Each cycle of calls once, as the chain of names from its first note back to it. */
  private cycles(): string[][] {
    const found: string[][] = [];
    const done = new Set<string>();
    const visit = (name: string, chain: string[]): void => {
      const at = chain.indexOf(name);
      if (at >= 0) {
        found.push([...chain.slice(at), name]);
        return;
      }
      if (done.has(name)) return;
      chain.push(name);
      for (const next of this.calls.get(name) ?? []) visit(next, chain);
      chain.pop();
      done.add(name);
    };
    for (const name of this.calls.keys()) visit(name, []);
    return found;
  }
}

const TABLES = new WeakMap<readonly UserNote[], Map<TemplateDialect | undefined, NoteTable>>();

/**
 * The compiled table of `notes` (cached per list and dialect, so that the templates of a definition share one),
 * or `undefined` for an empty list. Problems are in {@link NoteTable.problems}; compiling a template against a
 * table with problems fails with the first of them.
 */
export function noteTable(notes: readonly UserNote[] | undefined, dialect: TemplateDialect | undefined): NoteTable | undefined {
  if (notes === undefined || notes.length === 0) return undefined;
  let byDialect = TABLES.get(notes);
  if (byDialect === undefined) {
    byDialect = new Map();
    TABLES.set(notes, byDialect);
  }
  let table = byDialect.get(dialect);
  if (table === undefined) {
    table = new NoteTable(notes, dialect);
    byDialect.set(dialect, table);
  }
  return table;
}

/** The compile problems of a list of notes (syntax, unknown functions, arguments, cycles); empty when it is sound. */
export function checkNotes(notes: readonly UserNote[], dialect?: TemplateDialect): readonly NoteProblem[] {
  return noteTable(notes, dialect)?.problems ?? [];
}

/** Whether `name` is a function of the dialect: a note by that name shadows it. */
export function isBuiltinFunction(name: string, dialect: TemplateDialect | undefined): boolean {
  return lookupFunction(name, dialect) !== undefined;
}
