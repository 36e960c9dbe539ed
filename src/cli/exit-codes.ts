/** The exit codes of the `katalog` command, the same for every subcommand (docs/cli.md). */
export const EXIT = Object.freeze({
  /** Success; for `run`, a graceful stop after SIGINT or SIGTERM. */
  ok: 0,
  /** The definition has problems (or cannot be read). */
  definition: 1,
  /** Wrong arguments: unknown command or option, missing file, bad value. */
  usage: 2,
  /** `run` could not run: the API server is unreachable, the code module is invalid, the port is taken... */
  runtime: 3,
  /** `run` was interrupted a second time while stopping and exited without waiting (128 + SIGINT). */
  forced: 130,
});
