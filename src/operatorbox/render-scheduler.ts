/**
 * Takes turns between the template renders of every CRD of a runtime, so that one CRD's expensive templates
 * cannot starve the others or stall the event loop.
 *
 * A render is synchronous and bounded by its limits (`maxRenderMs` among them). While renders are cheap they run
 * at once, inline. Once the renders of one event-loop turn add up to more than a slice (5 ms), or while others are
 * waiting, a render waits for its turn instead: turns run one per event-loop iteration (`setImmediate`), so I/O
 * (answers of the API server, watch events, timers) is handled between any two of them, and they rotate between
 * the CRDs that are waiting (round robin), so a CRD with one render to do waits for at most one render of each
 * other CRD, however many that CRD has queued.
 *
 * A render longer than the slice also makes its CRD **rest** for three times as long as it took before its next
 * turn: a CRD whose renders are expensive gets at most about a quarter of the event loop, and the rest goes to
 * everything else (other CRDs' reconciles, their I/O, the inspection API), which otherwise would get only the
 * short moments between two expensive renders. Renders that fit in the slice never rest.
 *
 * Renders are timed by the CPU the thread spent in them, not by wall time: on a loaded machine (or when the
 * operating system gives the core to another process in the middle of a cheap render) wall time grows without the
 * render being expensive, and resting a CRD for it would only add latency. A render that really computes for more
 * than the slice uses that CPU wherever it runs. (The rest itself is a wall-time wait.) The CPU clock is read at the
 * end only when the wall time passed the slice: a render that took less wall time cannot have used more of this
 * thread's CPU, so its wall time stands for its cost (an upper bound), and the CPU clock, a system call, is asked once
 * per render instead of twice.
 */
import { threadCpuMs } from '../util/thread-cpu.js';

/** Render CPU time of one event-loop turn, in ms, after which renders queue for their turn. */
export const RENDER_SLICE_MS = 5;
/** A CRD rests this many times the CPU time of a render longer than the slice. */
export const REST_FACTOR = 3;

interface Turn {
  readonly render: () => unknown;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class RenderScheduler {
  /** Waiting turns by CRD; the Map's order is the rotation (a CRD that had a turn moves to the back). */
  private readonly queues = new Map<string, Turn[]>();
  private pumping = false;
  /** A CRD may not have its next turn before this `performance.now()` (it rests after an expensive render). */
  private readonly rests = new Map<string, number>();
  /** Set while every waiting CRD rests: the timer that wakes the pump when the first rest ends. */
  private sleeping: ReturnType<typeof setTimeout> | undefined;
  /** Render CPU time spent inline since the last `setImmediate` reset. */
  private spent = 0;
  private resetScheduled = false;

  constructor(private readonly sliceMs: number = RENDER_SLICE_MS) {}

  /** Turns waiting now (all CRDs). */
  get waiting(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  /**
   * Runs `render` for `crd` now or at its turn, and settles with its result or its error. A turn whose `signal`
   * fired meanwhile is not run: it rejects with the signal's reason.
   */
  run<T>(crd: string, render: () => T, signal?: AbortSignal): Promise<T> {
    if (!this.pumping && this.queues.size === 0 && this.spent <= this.sliceMs && !this.resting(crd, performance.now())) {
      const wall = performance.now();
      const cpu = threadCpuMs();
      try {
        return Promise.resolve(render());
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      } finally {
        const took = this.cost(wall, cpu);
        this.account(took);
        this.rest(crd, took);
      }
    }
    return new Promise<T>((resolve, reject) => {
      const queue = this.queues.get(crd) ?? [];
      queue.push({ render, signal, resolve: resolve as (value: unknown) => void, reject });
      this.queues.set(crd, queue);
      if (this.sleeping !== undefined && !this.resting(crd, performance.now())) {
        // The pump sleeps until a resting CRD may go on, but this CRD need not wait for that.
        clearTimeout(this.sleeping);
        this.sleeping = undefined;
        setImmediate(() => this.turn());
        return;
      }
      this.pump();
    });
  }

  /** What a render that started at `wall` (performance.now()) and `cpu` (threadCpuMs()) cost, in ms (see above). */
  private cost(wall: number, cpu: number): number {
    const elapsed = performance.now() - wall;
    return elapsed <= this.sliceMs ? elapsed : threadCpuMs() - cpu;
  }

  private account(ms: number): void {
    this.spent += ms;
    if (this.resetScheduled) return;
    this.resetScheduled = true;
    setImmediate(() => {
      this.resetScheduled = false;
      this.spent = 0;
    });
  }

  private resting(crd: string, now: number): boolean {
    const until = this.rests.get(crd);
    if (until === undefined) return false;
    if (until > now) return true;
    this.rests.delete(crd);
    return false;
  }

  /** `took` is the render's CPU time; the rest is wall time from now. */
  private rest(crd: string, took: number): void {
    if (took > this.sliceMs) this.rests.set(crd, performance.now() + REST_FACTOR * took);
  }

  /** Runs the next turn in the next event-loop iteration, then the one after, until no one waits. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => this.turn());
  }

  /** Runs the first waiting turn of the first CRD in the rotation that is not resting. */
  private turn(): void {
    const now = performance.now();
    let chosen: [string, Turn[]] | undefined;
    let wake = Number.POSITIVE_INFINITY;
    for (const entry of this.queues) {
      if (!this.resting(entry[0], now)) {
        chosen = entry;
        break;
      }
      wake = Math.min(wake, this.rests.get(entry[0]) ?? now);
    }
    if (chosen === undefined) {
      if (this.queues.size === 0) {
        this.pumping = false;
        return;
      }
      // Every waiting CRD rests: come back when the first one may go on (still pumping meanwhile).
      this.sleeping = setTimeout(() => {
        this.sleeping = undefined;
        this.turn();
      }, Math.max(1, Math.ceil(wake - now)));
      return;
    }
    const [crd, queue] = chosen;
    const turn = queue.shift();
    this.queues.delete(crd);
    if (queue.length > 0) this.queues.set(crd, queue);
    if (turn !== undefined) {
      if (turn.signal?.aborted === true) turn.reject(turn.signal.reason);
      else {
        const wall = performance.now();
        const cpu = threadCpuMs();
        try {
          turn.resolve(turn.render());
        } catch (error) {
          turn.reject(error);
        }
        this.rest(crd, this.cost(wall, cpu));
      }
    }
    this.pumping = false;
    if (this.queues.size > 0) this.pump();
  }
}
