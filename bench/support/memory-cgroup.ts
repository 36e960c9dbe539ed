// A memory cgroup for one bench process, so that it runs as in a container with a memory limit: the kernel caps
// the process's memory, and Node sizes its heap from the limit (it reads the cgroup's limit at start-up, as in a
// pod). Linux only, and only where this process may create cgroups (root, cgroup v1 or v2); otherwise `create`
// throws and says why. Used by bench/scale's `container=MiB`.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface MemoryCgroup {
  readonly path: string;
  /** The command and arguments that run `argv` inside the cgroup (a shell joins it, then execs). */
  wrap(argv: readonly string[]): [string, string[]];
  /** The most memory the cgroup's processes used at once (the kernel's count: anonymous and page cache), bytes. */
  peak(): number | undefined;
  /** How many times the limit was hit (v1: failcnt) or the OOM killer ran (v2: oom_kill). */
  limitHits(): number;
  remove(): void;
}

const V2_ROOT = '/sys/fs/cgroup';
const V1_ROOT = '/sys/fs/cgroup/memory';

function ownCgroup(controller: string): string {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  for (const line of lines) {
    const [, controllers, path] = line.split(':');
    if (controllers === undefined || path === undefined) continue;
    if (controller === '' ? controllers === '' : controllers.split(',').includes(controller)) return path;
  }
  return '/';
}

function readNumber(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const value = Number(readFileSync(file, 'utf8').trim());
  return Number.isFinite(value) ? value : undefined;
}

export function createMemoryCgroup(name: string, limitBytes: number): MemoryCgroup {
  const v2 = existsSync(join(V2_ROOT, 'cgroup.controllers'));
  const parent = v2 ? join(V2_ROOT, ownCgroup('')) : join(V1_ROOT, ownCgroup('memory'));
  const path = join(parent, name);
  try {
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, v2 ? 'memory.max' : 'memory.limit_in_bytes'), String(limitBytes));
    // With swap accounting (v1), swap counts against the limit too, as in a pod; without it there is no swap to count.
    if (!v2 && existsSync(join(path, 'memory.memsw.limit_in_bytes'))) writeFileSync(join(path, 'memory.memsw.limit_in_bytes'), String(limitBytes));
  } catch (error) {
    throw new Error(`cannot create the memory cgroup ${path} (needs Linux, root and a writable cgroup hierarchy): ${String(error)}`);
  }
  return {
    path,
    wrap: (argv) => ['/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', path, ...argv]],
    peak: () => readNumber(join(path, v2 ? 'memory.peak' : 'memory.max_usage_in_bytes')),
    limitHits: () => {
      if (!v2) return readNumber(join(path, 'memory.failcnt')) ?? 0;
      const events = existsSync(join(path, 'memory.events')) ? readFileSync(join(path, 'memory.events'), 'utf8') : '';
      return Number(/^oom_kill (\d+)$/m.exec(events)?.[1] ?? 0);
    },
    remove: () => {
      try {
        rmdirSync(path);
      } catch {
        // Left behind only while a process of it still runs (the bench stops the operator first); nothing to report.
      }
    },
  };
}
