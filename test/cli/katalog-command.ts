// Runs the `katalog` command as a user does: a child process (through tsx, as in development), with its stdout,
// stderr and exit code.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

// Absolute, so that the command also runs from another working directory.
const TSX = import.meta.resolve('tsx');
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `katalog <args>`; the caller owns the child. */
export function startKatalog(args: readonly string[], cwd = process.cwd()): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', TSX, MAIN, ...args], { cwd, stdio: 'pipe' });
}

/** Runs `katalog <args>` to completion (killed after 300 s, generous for a loaded machine). */
export async function katalog(args: readonly string[], cwd?: string): Promise<CommandResult> {
  const child = startKatalog(args, cwd);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}
