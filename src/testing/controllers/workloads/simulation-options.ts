/** What the simulated workload controllers do, and how to steer them (see docs/testing.md). */

/** Options of the simulated workload controllers (`startTestApiServer({ simulateWorkloads })`). */
export interface WorkloadSimulationOptions {
  /** Time (on the server's clock) from a workload's change until its Pods run and its replicas are ready (default 100 ms). */
  readyAfterMs?: number;
  /**
   * Time (on the server's clock) a Job's Pods run before they end, and the Job completes or fails (default 100 ms):
   * from its start, or from the replacement of a Pod deleted while it ran.
   */
  jobDurationMs?: number;
  /**
   * Time (on the server's clock) a Pod deleted gracefully takes to stop before the simulated kubelet removes it
   * (default 100 ms; never longer than the Pod's grace period; 0: as soon as it is marked).
   */
  podTerminationMs?: number;
  /** Every workload fails to become ready and every Job fails (default false; per object: {@link SIMULATE_ANNOTATION}). */
  fail?: boolean;
}

/**
 * Annotation that steers one object: `fail` makes a workload's Pods crash (never ready) and a Job fail; `succeed`
 * overrides the `fail` option for this object.
 */
export const SIMULATE_ANNOTATION = 'testing.katalog.dev/simulate';

/** The simulated node every Pod is scheduled on. */
export const SIMULATED_NODE = 'katalog-testing-node';

/** Resolved options. */
export interface Simulation {
  readonly readyAfterMs: number;
  readonly jobDurationMs: number;
  readonly podTerminationMs: number;
  readonly fail: boolean;
}

export function resolveSimulation(options: WorkloadSimulationOptions): Simulation {
  const delay = (value: number | undefined, name: string): number => {
    if (value === undefined) return 100;
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`simulateWorkloads.${name} must be a number >= 0, got ${String(value)}`);
    return value;
  };
  return {
    readyAfterMs: delay(options.readyAfterMs, 'readyAfterMs'),
    jobDurationMs: delay(options.jobDurationMs, 'jobDurationMs'),
    podTerminationMs: delay(options.podTerminationMs, 'podTerminationMs'),
    fail: options.fail ?? false,
  };
}

/** Whether this object is to fail: its annotation, else the option. */
export function shouldFail(object: Record<string, unknown>, simulation: Simulation): boolean {
  const metadata = object['metadata'] as { annotations?: Record<string, unknown> } | undefined;
  const value = metadata?.annotations?.[SIMULATE_ANNOTATION];
  if (value === 'fail') return true;
  if (value === 'succeed') return false;
  return simulation.fail;
}
