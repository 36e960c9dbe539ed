#!/usr/bin/env node
/**
 * The `katalog` command (package `bin`): `validate`, `graph`, `rbac` and `run`. It stands on the public surface of
 * the package only, like an example. Exit codes are in exit-codes.ts and docs/cli.md.
 */
import { EXIT } from './exit-codes.js';
import { HELP, OVERVIEW } from './help.js';
import type { CommandIo } from './io.js';

type Command = (argv: readonly string[], io: CommandIo) => Promise<number>;

// Loaded on demand: help and unknown commands answer without loading the library.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  validate: async () => (await import('./validate.js')).validateCommand,
  graph: async () => (await import('./graph.js')).graphCommand,
  rbac: async () => (await import('./rbac.js')).rbacCommand,
  run: async () => {
    const { runCommand } = await import('./run.js');
    return (argv, io) => runCommand(argv, io, process);
  },
};

async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.err : io.out)(OVERVIEW);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (load === undefined) {
    io.err(`katalog: unknown command "${name}"\n\n${OVERVIEW}`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(HELP[name] ?? OVERVIEW);
    return EXIT.ok;
  }
  const { UsageError } = await import('./args.js');
  const { DefinitionError } = await import('../index.js');
  const { problemLines } = await import('./show-problems.js');
  try {
    return await (await load())(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`katalog ${name}: ${error.message}\n${(HELP[name] ?? '').split('\n')[0] ?? ''}\n`);
      return EXIT.usage;
    }
    if (error instanceof DefinitionError) {
      io.err(problemLines(error, io.cwd));
      io.err(`katalog ${name}: the definition has ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}\n`);
      return EXIT.definition;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`katalog ${name}: ${message}\n`);
    return EXIT.runtime;
  }
}

const io: CommandIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
  // The binary is a host program: the environment enters here, and reaches the runtime only as its `env` option.
  // eslint-disable-next-line no-restricted-properties
  env: process.env,
};
process.exitCode = await main(process.argv.slice(2), io);
