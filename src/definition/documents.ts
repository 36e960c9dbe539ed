/**
 * Reading documents: one YAML file (imported by a Komposer or a CRD entry) into a value with its origin, and
 * telling which kind of document a value is. Files are read synchronously so that `parseDefinition` stays sync.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Path } from './path.js';
import { parseYamlSource } from './positions.js';
import type { NoteHolder, Origin, ProblemList } from './problems.js';
import { describeValue, isMap } from './schema-check.js';
import { didYouMean, nearest } from './suggest.js';

export const DOCUMENT_KINDS = ['Katalog', 'Komposer', 'Motif'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** State of one load: problems, files read, Motifs already read (a Motif imported twice is read once). */
export interface LoadContext {
  readonly problems: ProblemList;
  readonly files: string[];
  readonly motifs: Map<string, unknown>;
  /**
   * false: the text was parsed with neither `source` nor `baseDir`, so relative paths resolve against the working
   * directory; features that only make sense beside a file (an external call's `include`) refuse instead.
   */
  readonly baseDirGiven?: boolean;
  /** The user-defined notes of this load (made by the first Orkestra document lifted). */
  notes?: NoteHolder;
}

/** A document read from a file. */
export interface ReadDocument {
  readonly value: unknown;
  readonly origin: Origin;
}

/**
 * Reads and parses the file `written` (relative to the directory of `from`), named at `path` of `from`.
 * Returns `undefined`, with problems recorded, when the file cannot be read or is not valid YAML.
 */
export function readDocument(written: string, from: Origin, path: Path, context: LoadContext): ReadDocument | undefined {
  const file = resolve(from.baseDir, written);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    context.problems.add(from, path, 'unreadable-file', `cannot read "${written}": ${readReason(error)}`);
    return undefined;
  }
  context.files.push(file);
  const source = parseYamlSource(text, file);
  if (source.problems.length > 0) {
    context.problems.push(...source.problems);
    return undefined;
  }
  return { value: source.value, origin: { file, positions: source.positions, baseDir: dirname(file), source: 'definition' } };
}

function readReason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** The `kind` of a document, or `undefined` (with a problem) when it is not a map or has no valid kind. */
export function documentKind(value: unknown, origin: Origin, problems: ProblemList): DocumentKind | undefined {
  if (!isMap(value)) {
    problems.add(origin, [], 'invalid-type', `a definition must be a map with apiVersion, kind, metadata and spec, got ${describeValue(value)}`);
    return undefined;
  }
  const kind = value.kind;
  if (kind === undefined || kind === null) {
    problems.add(origin, ['kind'], 'missing-field', 'missing required field "kind" in the document (Katalog, Komposer or Motif)');
    return undefined;
  }
  if (typeof kind === 'string' && (DOCUMENT_KINDS as readonly string[]).includes(kind)) return kind as DocumentKind;
  const suggestion = typeof kind === 'string' ? nearest(kind, DOCUMENT_KINDS) : undefined;
  problems.add(origin, ['kind'], 'invalid-value', `must be one of "Katalog", "Komposer", "Motif", got ${describeValue(kind)}${didYouMean(suggestion)}`, {
    ...(suggestion === undefined ? {} : { suggestion }),
  });
  return undefined;
}
