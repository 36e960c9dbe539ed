/** Loading the one definition a subcommand works on; a DefinitionError is left to main, which prints it and exits 1. */
import { loadDefinition, type Definition } from '../index.js';
import { definitionFiles } from './args.js';
import type { CommandIo } from './io.js';

/** The definition named on the command line (or found in the working directory). */
export async function loadOne(positionals: readonly string[], flagged: readonly string[] | undefined, io: CommandIo): Promise<{ file: string; definition: Definition }> {
  const [file = ''] = definitionFiles(positionals, flagged, io.cwd, true);
  return { file, definition: await loadDefinition(file) };
}
