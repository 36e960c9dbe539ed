/**
 * Collecting problems. Every check appends to one {@link ProblemList} instead of throwing, so a definition is
 * reported in full; the loader throws one `DefinitionError` at the end. An {@link Origin} says which document a
 * value came from, so a problem is placed in the right file even after a Komposer merged several of them.
 */
import type { DefinitionProblem } from '../errors.js';
import type { DefinitionSource } from './types.js';
import type { TemplateDialect, UserNote } from '../template/index.js';
import { formatPath, type Path } from './path.js';
import { positionInContent, type PositionIndex, type Position } from './positions.js';

/** The document a value came from. */
export interface Origin {
  /** The file (or the caller's `source` label); `undefined` for an object given without a source. */
  readonly file: string | undefined;
  /** Positions of that document; `undefined` for object input. */
  readonly positions: PositionIndex | undefined;
  /** Directory that relative paths in this document are resolved against. */
  readonly baseDir: string;
  /** `komposer` for the inline `spec.crds` of a Komposer, else `definition`. */
  readonly source: DefinitionSource;
  /** Template dialect of the document: `orkestra` for an Orkestra apiVersion, else katalog's (the default). */
  readonly dialect?: TemplateDialect;
  /** The user-defined notes of the definition being loaded (Orkestra documents; filled before templates are checked). */
  readonly notes?: NoteHolder;
}

/** The notes of one load, shared by the origins of its Orkestra documents (definition/notes.ts fills it). */
export interface NoteHolder {
  list: readonly UserNote[];
}

export interface ReportOptions {
  /** Point at the key of a map entry rather than its value (unknown fields, bad names). */
  readonly at?: 'key' | 'value';
  readonly suggestion?: string;
  /** A position inside the string at `path` (1-based, within its content), for template errors. */
  readonly within?: { readonly line: number; readonly column: number };
}

/** The problems found so far, in the order found. */
export class ProblemList {
  readonly items: DefinitionProblem[] = [];

  /** Records a problem at `path` of the document `origin`. */
  add(origin: Origin, path: Path, code: string, message: string, options: ReportOptions = {}): void {
    const where = locate(origin, path, options);
    // A value spliced in from another file (`include`) is placed in that file.
    const file = origin.positions?.find(path)?.position.file ?? origin.file;
    this.items.push({
      code,
      path: formatPath(path),
      message,
      ...(file === undefined ? {} : { file }),
      ...(where === undefined ? {} : { line: where.line, column: where.column }),
      ...(options.suggestion === undefined ? {} : { suggestion: options.suggestion }),
    });
  }

  /** Records problems that already carry their place (YAML syntax errors). */
  push(...problems: readonly DefinitionProblem[]): void {
    this.items.push(...problems);
  }

  get size(): number {
    return this.items.length;
  }
}

function locate(origin: Origin, path: Path, options: ReportOptions): Position | undefined {
  const found = origin.positions?.find(path);
  if (found === undefined) return undefined;
  const { position, exact } = found;
  if (!exact) return position.key ?? position.value;
  if (options.within !== undefined) return positionInContent(position, options.within.line, options.within.column);
  if (options.at === 'key') return position.key ?? position.value;
  return position.value;
}
