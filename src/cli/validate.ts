/**
 * `katalog validate <file>…`: loads every file the way the runtime would (schema, unknown fields, durations,
 * dependencies and cycles, templates, Komposer imports, Motifs) and reports every problem of every file.
 */
import { DefinitionError, formatProblem, loadDefinition, type DefinitionProblem } from '../index.js';
import { COMMON_OPTIONS, definitionFiles, FILE_OPTIONS, parse } from './args.js';
import { EXIT } from './exit-codes.js';
import type { CommandIo } from './io.js';
import { displayPath, localProblem } from './show-problems.js';

/** One file's verdict in `--json` output. */
interface FileResult {
  readonly file: string;
  readonly valid: boolean;
  /** Names of the CRDs the file defines (enabled or not), when it is valid. */
  readonly crds: readonly string[];
  readonly problems: readonly DefinitionProblem[];
}

async function check(file: string, cwd: string): Promise<FileResult> {
  const shown = displayPath(file, cwd);
  try {
    const definition = await loadDefinition(file);
    return { file: shown, valid: true, crds: [...definition.crds.keys()], problems: [] };
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return { file: shown, valid: false, crds: [], problems: error.problems.map((problem) => localProblem(problem, cwd)) };
  }
}

export async function validateCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse({ args: [...argv], options: { ...COMMON_OPTIONS, ...FILE_OPTIONS, json: { type: 'boolean' } } });
  const files = definitionFiles(positionals, values.katalog, io.cwd, false);
  const results: FileResult[] = [];
  for (const file of files) results.push(await check(file, io.cwd));
  const invalid = results.filter((result) => !result.valid);
  if (values.json === true) {
    io.out(`${JSON.stringify({ valid: invalid.length === 0, files: results }, null, 2)}\n`);
  } else {
    for (const result of results) {
      for (const problem of result.problems) io.out(`${formatProblem(problem)}\n`);
    }
    for (const result of results) {
      if (result.valid) io.err(`${result.file}: ok (${result.crds.length} CRD${result.crds.length === 1 ? '' : 's'})\n`);
    }
    if (invalid.length > 0) {
      const count = invalid.reduce((sum, result) => sum + result.problems.length, 0);
      io.err(`${count} problem${count === 1 ? '' : 's'} in ${invalid.length} of ${results.length} file${results.length === 1 ? '' : 's'}\n`);
    }
  }
  return invalid.length === 0 ? EXIT.ok : EXIT.definition;
}
