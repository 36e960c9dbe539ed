/**
 * One control-plane binary as a child process: started with its arguments, its stderr kept (the last lines only)
 * for error messages, stopped with SIGTERM and, after a grace period, SIGKILL. A `process` `exit` listener kills it
 * if the test process ends without `stop()`, so that no kube-apiserver or etcd outlives the tests that started it;
 * `stop()` removes that listener again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { KatalogError } from '../../errors.js';

const TAIL_LINES = 40;

export class ControlPlaneProcess {
  private readonly child: ChildProcess;
  private readonly tail: string[] = [];
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;
  private readonly killOnExit = (): void => {
    this.child.kill('SIGKILL');
  };

  /** Starts `path` with `args`; a binary that cannot be spawned shows up through {@link exitedEarly}. */
  constructor(
    readonly name: string,
    path: string,
    args: readonly string[],
  ) {
    this.child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
      }
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise<void>((resolve) => {
      // 'error' (spawn failed: ENOENT, EACCES) may come without 'exit'; both end the process's life here.
      this.child.once('error', (error) => {
        this.tail.push(`spawn failed: ${error.message}`);
        this.exitInfo ??= { code: null, signal: null };
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve();
      });
    });
    process.on('exit', this.killOnExit);
  }

  /** Undefined while running; otherwise a sentence saying how it ended, with its last output lines. */
  exitedEarly(): string | undefined {
    if (this.exitInfo === undefined) return undefined;
    const how = this.exitInfo.signal !== null ? `was killed by ${this.exitInfo.signal}` : `exited with code ${String(this.exitInfo.code)}`;
    return `${this.name} ${how}; its last output:\n${this.lastOutput()}`;
  }

  /** The last lines it wrote to stdout and stderr. */
  lastOutput(): string {
    return this.tail.join('\n');
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. Idempotent. */
  async stop(graceMs = 10_000): Promise<void> {
    process.off('exit', this.killOnExit);
    if (this.exitInfo === undefined) {
      this.child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const forced = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.child.kill('SIGKILL');
          resolve();
        }, graceMs);
      });
      await Promise.race([this.exited, forced]);
      clearTimeout(timer);
      await this.exited;
    }
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

/** Throws a KatalogError when `process` has ended (while it should be starting or serving). */
export function assertRunning(process: ControlPlaneProcess): void {
  const early = process.exitedEarly();
  if (early !== undefined) throw new KatalogError('E_CONTROL_PLANE', early);
}
