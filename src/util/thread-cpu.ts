/**
 * CPU time spent by the JavaScript thread, for measuring what a piece of synchronous work cost without counting the
 * time the operating system gave to other processes meanwhile (a loaded machine stretches wall time, not CPU time).
 */

type CpuUsage = () => { readonly user: number; readonly system: number };

/**
 * `process.threadCpuUsage` (Node 23.9 and later) counts this thread alone. Node 20 and 22 only have
 * `process.cpuUsage`, which adds the process's other threads (V8's concurrent GC helpers, libuv's pool): still CPU,
 * never time spent waiting for a core.
 */
const threadUsage = (process as unknown as { threadCpuUsage?: CpuUsage }).threadCpuUsage?.bind(process);
const usage: CpuUsage = threadUsage ?? (() => process.cpuUsage());

/** Whether `threadCpuMs` counts this thread alone (Node 23.9+) rather than the whole process. */
export const PER_THREAD_CPU = threadUsage !== undefined;

/** Milliseconds of CPU (user + system) used so far by this thread (or process, see above); only differences mean something. */
export function threadCpuMs(): number {
  const { user, system } = usage();
  return (user + system) / 1000;
}

/**
 * The CPU this thread spent since `cpuAt` (a `threadCpuMs()` reading) and `wallAt` (a `performance.now()` reading
 * taken with it). Where only the process's clock exists (Node 20, 22), it is capped at the wall time that passed:
 * the other threads running beside this one (concurrent GC, the libuv pool) would count otherwise, and this thread
 * cannot have used more CPU than the time that went by.
 */
export function cpuMsSince(cpuAt: number, wallAt: number): number {
  const cpu = threadCpuMs() - cpuAt;
  return PER_THREAD_CPU ? cpu : Math.min(cpu, performance.now() - wallAt);
}
