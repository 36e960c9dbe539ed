// A real PostgreSQL server for the Postgres client's tests: Debian's postgresql-15 from .tools/postgres (fetched by
// scripts/fetch-postgres.sh when missing; never a server found on PATH), one per test file. Postgres refuses to run
// as root, so as root (the machine, CI) initdb and the server run as `nobody` through setpriv, in a temporary
// directory owned by that user. The server listens on 127.0.0.1 at a free port, with fsync off and TLS on (a
// throwaway self-signed certificate), and pg_hba.conf gives each test user one authentication method.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '../../src/testing/tls.js';
import { ROOT } from './tools.js';

const TOOLS = join(ROOT, '.tools', 'postgres');
const BIN = join(TOOLS, 'usr', 'lib', 'postgresql', '15', 'bin');
const LIBS = join(TOOLS, 'usr', 'lib', 'x86_64-linux-gnu');
const NOBODY = 65_534;

/** The users pg_hba.conf sets up, each with its password and authentication method. */
export const PG_USERS = {
  trust: { user: 'postgres', password: '' },
  cleartext: { user: 'clear_user', password: 'clear pw' },
  md5: { user: 'md5_user', password: 'md5-pw' },
  scram: { user: 'scram_user', password: 'scr@m:pw/é' },
  tlsOnly: { user: 'tls_user', password: 'tls-pw' },
} as const;

const HBA = `local all all trust
hostssl all tls_user 127.0.0.1/32 scram-sha-256
hostnossl all tls_user 127.0.0.1/32 reject
host all postgres 127.0.0.1/32 trust
host all clear_user 127.0.0.1/32 password
host all md5_user 127.0.0.1/32 md5
host all all 127.0.0.1/32 scram-sha-256
`;

export interface PostgresServer {
  readonly port: number;
  /** The directory of the server's Unix socket (`.s.PGSQL.<port>`). */
  readonly socketDir: string;
  /** A connection URL for `who` with its password (`postgres://user:pw@127.0.0.1:port/postgres`). */
  url(who: keyof typeof PG_USERS, query?: string): string;
  /** The server's log so far (for a failing test's message). */
  log(): string;
  stop(): Promise<void>;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The command line, run as `nobody` when we are root. */
function command(program: string, args: readonly string[]): [string, string[]] {
  return asRoot ? ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', program, ...args]] : [program, [...args]];
}

/** The binaries, or why they cannot be had (the tests then skip with it). */
export function postgresBinaries(): { readonly bin?: string; readonly reason?: string } {
  if (!existsSync(join(BIN, 'postgres'))) {
    const fetched = spawnSync(join(ROOT, 'scripts', 'fetch-postgres.sh'), { encoding: 'utf8', timeout: 300_000 });
    if (!existsSync(join(BIN, 'postgres'))) return { reason: `PostgreSQL could not be fetched (scripts/fetch-postgres.sh: ${(fetched.stderr || fetched.error?.message || 'no output').trim()})` };
  }
  if (runs(BIN, LIBS)) return { bin: BIN };
  // A checkout under a directory `nobody` cannot enter (/root): a copy in the temporary directory, made once.
  const copy = join(tmpdir(), 'katalog-postgres-15');
  const copiedBin = join(copy, 'usr', 'lib', 'postgresql', '15', 'bin');
  if (!existsSync(join(copiedBin, 'postgres'))) {
    const copied = spawnSync('cp', ['-a', TOOLS, copy], { encoding: 'utf8' });
    if (copied.status !== 0) return { reason: `.tools/postgres could not be copied where nobody can run it: ${copied.stderr.trim()}` };
    chmodSync(copy, 0o755);
  }
  if (runs(copiedBin, join(copy, 'usr', 'lib', 'x86_64-linux-gnu'))) return { bin: copiedBin };
  return { reason: `postgres --version fails as ${asRoot ? 'nobody' : 'this user'} (from .tools/postgres and from ${copy})` };
}

/** Whether `postgres --version` runs from `bin` as the user the server will run as. */
function runs(bin: string, libs: string): boolean {
  const [program, args] = command(join(bin, 'postgres'), ['--version']);
  return spawnSync(program, args, { env: { ...process.env, LD_LIBRARY_PATH: libs }, timeout: 60_000 }).status === 0;
}

/** The libraries beside the binaries `bin` (.tools/postgres or its copy). */
function libsOf(bin: string): string {
  return join(bin, '..', '..', '..', 'x86_64-linux-gnu');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function own(path: string): void {
  if (asRoot) chownSync(path, NOBODY, NOBODY);
}

/** Waits for the server's "ready to accept connections" log line (a generous deadline: the machine may be loaded). */
async function waitReady(child: ChildProcess, output: () => string, deadlineMs: number): Promise<void> {
  const started = Date.now();
  while (!/ready to accept connections/.test(output())) {
    if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode}):\n${output()}`);
    if (Date.now() - started > deadlineMs) throw new Error(`postgres was not ready within ${deadlineMs} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Initialises a cluster and starts it; `setup` runs SQL as the superuser before the users' passwords are used
 * (it is given the trust URL). The caller stops it in `after`.
 */
export async function startPostgres(bin: string, setup: (superuserUrl: string) => Promise<void>): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'katalog-pg-'));
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  for (const path of [data, sockets]) {
    mkdirSync(path, { mode: 0o700 });
    own(path);
  }
  const env = { ...process.env, LD_LIBRARY_PATH: libsOf(bin), LC_ALL: 'C', TZ: 'UTC' };
  const [initProgram, initArgs] = command(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  const init = spawnSync(initProgram, initArgs, { encoding: 'utf8', env, timeout: 180_000 });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status ?? init.signal ?? init.error?.message}):\n${init.stderr}`);
  }
  const tls = await selfSignedCertificate();
  for (const [name, content] of [['server.crt', tls.cert], ['server.key', tls.key], ['pg_hba.conf', HBA]] as const) {
    const path = join(data, name);
    writeFileSync(path, content, { mode: 0o600 });
    own(path);
  }
  const port = await freePort();
  const [program, args] = command(join(bin, 'postgres'), ['-D', data, '-k', sockets, '-h', '127.0.0.1', '-p', String(port), '-c', 'fsync=off', '-c', 'ssl=on', '-c', 'max_connections=40', '-c', 'password_encryption=scram-sha-256']);
  const child = spawn(program, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // fast shutdown
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = (who: keyof typeof PG_USERS, query = ''): string => {
    const { user, password } = PG_USERS[who];
    const auth = password === '' ? user : `${user}:${encodeURIComponent(password)}`;
    return `postgres://${auth}@127.0.0.1:${port}/postgres${query === '' ? '' : `?${query}`}`;
  };
  try {
    await waitReady(child, () => output, 120_000);
    await setup(url('trust', 'sslmode=disable'));
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, socketDir: sockets, url, log: () => output, stop };
}

/** The SQL that creates the test users with their passwords (md5_user's stored as md5, the others as SCRAM). */
export function userSetupStatements(): string[] {
  const quote = (text: string): string => `'${text.replace(/'/g, "''")}'`;
  return [
    `CREATE ROLE clear_user LOGIN PASSWORD ${quote(PG_USERS.cleartext.password)}`,
    `CREATE ROLE scram_user LOGIN PASSWORD ${quote(PG_USERS.scram.password)}`,
    `CREATE ROLE tls_user LOGIN PASSWORD ${quote(PG_USERS.tlsOnly.password)}`,
    // SET cannot precede CREATE ROLE in one statement: the md5 user is created by a DO block that sets it locally.
    `DO $$ BEGIN SET LOCAL password_encryption = 'md5'; CREATE ROLE md5_user LOGIN PASSWORD ${quote(PG_USERS.md5.password)}; END $$`,
  ];
}
