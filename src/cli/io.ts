/**
 * What a subcommand writes to and where it runs: results go to `out` (stdout), progress and errors to `err`
 * (stderr). Passing them in keeps the commands free of process globals, apart from `run`'s signal handling.
 */
export interface CommandIo {
  /** Writes to standard output (results). */
  readonly out: (text: string) => void;
  /** Writes to standard error (progress, warnings, errors). */
  readonly err: (text: string) => void;
  /** The working directory relative paths resolve against and problems are shown relative to. */
  readonly cwd: string;
  /**
   * The environment `run` hands the runtime as its `env` option (KATALOG_WORKERS and friends, docs/settings.md);
   * absent: none. Only the `katalog` binary's entry point reads `process.env`, as a host program does.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}
