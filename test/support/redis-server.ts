// A real redis-server for the Redis protocol tests: Debian's, unpacked into the git-ignored .tools/redis by
// scripts/fetch-redis.sh (fetched once when missing; never a redis-server from PATH). Listens on 127.0.0.1 only, on
// a free port, without persistence; `stop()` ends the process, `restart()` brings it back on the same port.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT, type Tool } from './tools.js';

export const REDIS_SERVER = join(ROOT, '.tools', 'redis', 'usr', 'bin', 'redis-server');
const REDIS_CLI = join(ROOT, '.tools', 'redis', 'usr', 'bin', 'redis-cli');
const LIBS = join(ROOT, '.tools', 'redis', 'usr', 'lib');

/** The binary, fetched by scripts/fetch-redis.sh when missing, or the reason it could not be had. */
export function redisBinary(): Tool {
  if (existsSync(REDIS_SERVER)) return { path: REDIS_SERVER };
  const fetched = spawnSync(join(ROOT, 'scripts', 'fetch-redis.sh'), { encoding: 'utf8', timeout: 180_000 });
  if (existsSync(REDIS_SERVER)) return { path: REDIS_SERVER };
  return { reason: `redis-server could not be fetched (scripts/fetch-redis.sh: ${(fetched.stderr || fetched.error?.message || 'no output').trim()})` };
}

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Runs one command through redis-cli (test setup: SET, DEL…); its output. */
  command(...args: string[]): Promise<string>;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

export interface RedisServerOptions {
  /** `requirepass`: the server then needs AUTH. */
  readonly password?: string;
}

/** Starts redis-server on a free port of 127.0.0.1 and waits until it answers PING (generous deadline). */
export async function startRedisServer(binary: string, options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'];
    if (options.password !== undefined) args.push('--requirepass', options.password);
    child = spawn(binary, args, { stdio: 'ignore', env: { ...process.env, LD_LIBRARY_PATH: libraryPath() } });
    await untilAnswers(port, options.password);
  };
  await launch();
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGKILL');
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    command: (...args) => cli(port, args, options.password),
    stop,
    restart: launch,
  };
}

function libraryPath(): string {
  const dirs = existsSync(LIBS) ? readdirSync(LIBS).map((entry) => join(LIBS, entry)) : [];
  return [...dirs, LIBS, process.env['LD_LIBRARY_PATH'] ?? ''].filter((dir) => dir !== '').join(':');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function untilAnswers(port: number, password: string | undefined): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await cli(port, ['PING'], password)) === 'PONG') return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One command through Debian's redis-cli (independent of the client under test); its output, trimmed. */
function cli(port: number, args: readonly string[], password: string | undefined): Promise<string> {
  const auth = password === undefined ? [] : ['--no-auth-warning', '-a', password];
  return new Promise((resolve, reject) => {
    execFile(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...auth, ...args], { env: { ...process.env, LD_LIBRARY_PATH: libraryPath() }, timeout: 10_000 }, (error, stdout) => {
      if (error !== null) reject(error);
      else resolve(stdout.trim());
    });
  });
}
