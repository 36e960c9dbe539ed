/**
 * Argument parsing on node:util's parseArgs, with one error type for every usage mistake, and the resolution of
 * the definition file: a positional argument, `-f`/`--katalog` (as Orkestra's `ork` spells it), or
 * `./katalog.yaml` / `./komposer.yaml` in the working directory.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in the command line; the command prints its message and the usage line, and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The options every subcommand takes besides its own. */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** The options of subcommands that read definition files. */
export const FILE_OPTIONS = {
  katalog: { type: 'string', short: 'f', multiple: true },
} as const satisfies Options;

/** parseArgs in strict mode with positionals; its errors become {@link UsageError}s. */
export function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ strict: true, allowPositionals: true, ...config });
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

const DEFAULT_FILES = ['katalog.yaml', 'komposer.yaml'];

/**
 * The definition files named on the command line (positionals and `-f`), or the first of `./katalog.yaml` and
 * `./komposer.yaml` that exists. `single` refuses more than one.
 */
export function definitionFiles(positionals: readonly string[], flagged: readonly string[] | undefined, cwd: string, single: boolean): string[] {
  const files = [...positionals, ...(flagged ?? [])];
  if (files.length === 0) {
    const found = DEFAULT_FILES.find((name) => existsSync(resolve(cwd, name)));
    if (found === undefined) throw new UsageError(`no definition file given, and neither ./katalog.yaml nor ./komposer.yaml exists`);
    files.push(found);
  }
  if (single && files.length > 1) throw new UsageError(`expected one definition file, got ${files.length}: ${files.join(', ')}`);
  return files.map((file) => resolve(cwd, file));
}

/** A port number (0 = any free port). */
export function portOf(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port: expected a number from 0 to 65535, got "${text}"`);
  return port;
}
