/**
 * User-defined notes of Orkestra documents (`notes:` at the top of a Katalog, Komposer or Motif): read and
 * checked in the lift, merged into one list per definition (local over imported), and compiled once at load so
 * that a bad expression, a call of an unknown function and a cycle are load problems at the note's place.
 *
 * Forms: a list of `{name, description, expression, shadow}` (iAlexeze/orkestra examples) or
 * `{functions: [...]}` (orkspace/orkestra's NoteRegistry), whose `include` names a fragment with a `functions:`
 * list put before the inline ones (Orkestra's ExpandNotesInclude; include.ts's rules: one level, problems placed
 * in the fragment's file).
 */
import { checkNotes, isBuiltinFunction, type UserNote } from '../template/index.js';
import { expandListInclude } from './include.js';
import type { Lift } from './orkestra-lift-steps.js';
import type { Path } from './path.js';
import type { NoteHolder, Origin, ProblemList } from './problems.js';
import { isMap } from './schema-check.js';
import { nearest, didYouMean } from './suggest.js';

type Map = Record<string, unknown>;

/** A note as a document declares it, with where (for problems). */
export interface DeclaredNote {
  readonly note: UserNote;
  readonly origin: Origin;
  readonly path: Path;
  /** Where it comes from, for conflict messages: `"motifs/motif.yaml"` or a file name. */
  readonly from: string;
}

const NOTE_FIELDS = ['name', 'description', 'expression', 'shadow'];
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `notes.include` (the `{functions: [...]}` form): the fragment's `functions:` first, then the inline ones. */
export function expandNotesInclude(lift: Lift, doc: Map): void {
  if (isMap(doc.notes)) expandListInclude(lift, doc.notes, ['notes'], 'notes', 'functions');
}

/** Reads and removes `doc.notes` of a lifted Orkestra document; problems for what is malformed. */
export function takeNotes(doc: Map, origin: Origin, problems: ProblemList, from: string): DeclaredNote[] {
  if (!Object.hasOwn(doc, 'notes')) return [];
  const block = doc.notes;
  delete doc.notes;
  let list: unknown = block;
  let listPath: Path = ['notes'];
  if (block === null || block === undefined) return [];
  if (isMap(block)) {
    for (const key of Object.keys(block)) {
      if (key !== 'functions') {
        problems.add(origin, ['notes', key], 'unknown-field', `unknown field "${key}" in notes (a list of notes, or functions: [...])${didYouMean(nearest(key, ['functions']))}`, { at: 'key' });
      }
    }
    list = block.functions ?? [];
    listPath = ['notes', 'functions'];
  }
  if (!Array.isArray(list)) {
    problems.add(origin, listPath, 'invalid-type', 'notes must be a list of {name, expression} (or functions: [...])');
    return [];
  }
  const notes: DeclaredNote[] = [];
  list.forEach((item: unknown, index) => {
    const path = [...listPath, index];
    const note = readNote(item, path, origin, problems);
    if (note === undefined) return;
    if (notes.some((other) => other.note.name === note.name)) {
      problems.add(origin, [...path, 'name'], 'duplicate-note', `note "${note.name}" is declared twice in this document`);
      return;
    }
    notes.push({ note, origin, path, from });
  });
  return notes;
}

function readNote(item: unknown, path: Path, origin: Origin, problems: ProblemList): UserNote | undefined {
  if (!isMap(item)) {
    problems.add(origin, path, 'invalid-type', 'a note must be a map with name and expression');
    return undefined;
  }
  for (const key of Object.keys(item)) {
    if (NOTE_FIELDS.includes(key)) continue;
    const suggestion = nearest(key, NOTE_FIELDS);
    problems.add(origin, [...path, key], 'unknown-field', `unknown field "${key}" in a note${didYouMean(suggestion)}`, { at: 'key', ...(suggestion === undefined ? {} : { suggestion }) });
  }
  const { name, expression, shadow, description } = item;
  let ok = true;
  if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
    problems.add(origin, [...path, 'name'], name === undefined ? 'missing-field' : 'invalid-value', 'a note needs a name that templates can call: letters, digits and _, not starting with a digit');
    ok = false;
  }
  if (typeof expression !== 'string') {
    problems.add(origin, [...path, 'expression'], expression === undefined ? 'missing-field' : 'invalid-type', 'a note needs an expression (a template, for example "{{ .metadata.name }}.svc")');
    ok = false;
  }
  if (shadow !== undefined && typeof shadow !== 'boolean') {
    problems.add(origin, [...path, 'shadow'], 'invalid-type', 'shadow must be true or false');
    ok = false;
  }
  if (description !== undefined && typeof description !== 'string') {
    problems.add(origin, [...path, 'description'], 'invalid-type', 'description must be a string');
  }
  if (!ok || typeof name !== 'string' || typeof expression !== 'string') return undefined;
  if (shadow !== true && isBuiltinFunction(name, 'orkestra')) {
    problems.add(origin, [...path, 'name'], 'note-shadows-builtin', `note "${name}" has the name of a built-in function; add shadow: true to replace the built-in in this definition, or rename the note`);
    return undefined;
  }
  return { name, expression };
}

/**
 * Merges notes: `own` (the document's) win over `imported` groups without a word; two imported groups declaring
 * the same name with different expressions is a conflict unless `own` declares it. Identical declarations merge.
 */
export function mergeNotes(own: readonly DeclaredNote[], imported: readonly (readonly DeclaredNote[])[], problems: ProblemList): DeclaredNote[] {
  const merged = [...own];
  const ownNames = new Set(own.map((declared) => declared.note.name));
  const seen = new Map<string, DeclaredNote>();
  for (const group of imported) {
    for (const declared of group) {
      const name = declared.note.name;
      if (ownNames.has(name)) continue;
      const earlier = seen.get(name);
      if (earlier === undefined) {
        seen.set(name, declared);
        merged.push(declared);
      } else if (earlier.note.expression !== declared.note.expression) {
        problems.add(declared.origin, [...declared.path, 'name'], 'note-conflict', `note "${name}" is declared both in ${earlier.from} and in ${declared.from}; rename one, or declare "${name}" in the importing document's own notes to choose`);
      }
    }
  }
  return merged;
}

/**
 * Makes `notes` the definition's notes: compiles them (problems at each note's expression, cycles included)
 * and fills `holder`, which the template checks and the CRDs of the definition read.
 */
export function settleNotes(notes: readonly DeclaredNote[], holder: NoteHolder, problems: ProblemList): void {
  const list = notes.map((declared) => declared.note);
  for (const problem of checkNotes(list, 'orkestra')) {
    const declared = notes.find((candidate) => candidate.note.name === problem.name);
    if (declared === undefined) continue;
    const cycle = problem.error.reason.includes('cycle');
    problems.add(declared.origin, [...declared.path, cycle ? 'name' : 'expression'], cycle ? 'note-cycle' : 'template-syntax', `invalid note "${problem.name}": ${problem.error.reason}`, {
      ...(cycle ? {} : { within: { line: problem.error.line, column: problem.error.column } }),
    });
  }
  holder.list = list;
}
