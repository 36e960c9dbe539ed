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
const usage: CpuUsage = (process as unknown as { threadCpuUsage?: CpuUsage }).threadCpuUsage?.bind(process) ?? (() => process.cpuUsage());

/** Milliseconds of CPU (user + system) used so far by this thread (or process, see above); only differences mean something. */
export function threadCpuMs(): number {
  const { user, system } = usage();
  return (user + system) / 1000;
}
