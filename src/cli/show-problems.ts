/** Turning a failed load into what the user reads: every problem as `file:line:column: path: message`. */
import { isAbsolute, relative } from 'node:path';
import { DefinitionError, formatProblem, type DefinitionProblem } from '../index.js';

/** The path of `file` relative to `cwd` when it lies below it (as CI annotations expect), else as it is. */
export function displayPath(file: string, cwd: string): string {
  const shown = relative(cwd, file);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? file : shown;
}

/** The problem with its file shown relative to `cwd`. */
export function localProblem(problem: DefinitionProblem, cwd: string): DefinitionProblem {
  return problem.file === undefined ? problem : { ...problem, file: displayPath(problem.file, cwd) };
}

/** One line per problem of a DefinitionError. */
export function problemLines(error: DefinitionError, cwd: string): string {
  return error.problems.map((problem) => `${formatProblem(localProblem(problem, cwd))}\n`).join('');
}
