/**
 * The public entry points of the definition loader: YAML text, a file, or an already-parsed object in; a
 * deeply frozen {@link Definition} out, or a `DefinitionError` listing every problem (with file, line and
 * column for YAML input).
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DefinitionError, type DefinitionProblem } from '../errors.js';
import type { Definition } from './types.js';
import { parseYamlSource, type PositionIndex } from './positions.js';
import { ProblemList, type Origin } from './problems.js';
import type { LoadContext } from './documents.js';
import { normalizeDocument } from './normalize-document.js';
import { deepFreeze, FrozenMap } from './freeze.js';
import { checkNames } from './name-checks.js';

/** Where the input came from. */
export interface DefinitionSourceOptions {
  /**
   * The file the text or object came from. Used in problems (`file`), listed first in `Definition.files`, and
   * (when `baseDir` is not given) its directory resolves relative paths (`crdFile`, Komposer files, Motifs).
   */
  readonly source?: string;
  /** Directory that relative paths resolve against. Default: the directory of `source`, else the working directory. */
  readonly baseDir?: string;
}

const BRAND = Symbol.for('katalog.definition');

/** Whether `value` is a Definition produced by this loader (and therefore already valid and frozen). */
export function isDefinition(value: unknown): value is Definition {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, BRAND);
}

/**
 * Parses and validates a Katalog or Komposer written in YAML. Komposer files and Motifs are read synchronously,
 * relative to the file that names them. Throws `DefinitionError` with every problem found.
 */
export function parseDefinition(text: string, options: DefinitionSourceOptions = {}): Definition {
  const parsed = parseYamlSource(text, options.source);
  if (parsed.problems.length > 0) throw new DefinitionError(parsed.problems);
  return build(parsed.value, options, parsed.positions);
}

/** Reads the file at `path` and parses it with {@link parseDefinition}; problems name the file by its absolute path. */
export async function loadDefinition(path: string): Promise<Definition> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as { code?: unknown }).code === 'ENOENT' ? 'file not found' : error instanceof Error ? error.message : String(error);
    throw new DefinitionError([{ code: 'unreadable-file', path: '', message: `cannot read the definition: ${reason}`, file }], { cause: error });
  }
  return parseDefinition(text, { source: file });
}

/**
 * Validates and normalises a definition given as an object (for example built in code or parsed from JSON).
 * Problems carry paths but no lines. A Definition this loader produced is returned as it is.
 */
export function normalizeDefinition(input: unknown, options: DefinitionSourceOptions = {}): Definition {
  if (isDefinition(input)) return input;
  return build(input, options, undefined);
}

/**
 * Problems grouped by file (in the order files were first mentioned), then by line and column, so the list reads
 * like the files. Problems without a line keep their relative order, after the placed ones of their file.
 */
function inReadingOrder(problems: readonly DefinitionProblem[]): DefinitionProblem[] {
  const fileRank = new Map<string | undefined, number>();
  for (const problem of problems) if (!fileRank.has(problem.file)) fileRank.set(problem.file, fileRank.size);
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => {
      const byFile = (fileRank.get(a.problem.file) ?? 0) - (fileRank.get(b.problem.file) ?? 0);
      if (byFile !== 0) return byFile;
      const [la, lb] = [a.problem.line, b.problem.line];
      if (la !== undefined && lb !== undefined) {
        if (la !== lb) return la - lb;
        const byColumn = (a.problem.column ?? 0) - (b.problem.column ?? 0);
        return byColumn !== 0 ? byColumn : a.index - b.index;
      }
      if (la !== undefined) return -1;
      if (lb !== undefined) return 1;
      return a.index - b.index;
    })
    .map(({ problem }) => problem);
}

function build(value: unknown, options: DefinitionSourceOptions, positions: PositionIndex | undefined): Definition {
  const baseDir = resolve(options.baseDir ?? (options.source === undefined ? process.cwd() : dirname(resolve(options.source))));
  const origin: Origin = { file: options.source, positions, baseDir, source: 'definition' };
  const context: LoadContext = { problems: new ProblemList(), files: options.source === undefined ? [] : [options.source], motifs: new Map(), baseDirGiven: options.source !== undefined || options.baseDir !== undefined };
  const definition = normalizeDocument(value, origin, context);
  checkNames(value, origin, context.problems);
  if (context.problems.size > 0 || definition === undefined) throw new DefinitionError(inReadingOrder(context.problems.items));
  const result = { ...definition, crds: new FrozenMap(definition.crds) };
  Object.defineProperty(result, BRAND, { value: true, enumerable: false });
  return deepFreeze(result);
}
