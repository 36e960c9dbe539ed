/**
 * Closes the connections of a kept-alive node:http(s) agent that stayed idle (in its free list) for `idleMs`.
 *
 * Node's own agent option `timeout` does the same by re-arming the socket's time-out on every request: the answer
 * sets it to 0 and the agent sets it back when the socket goes free, two timer objects per request (2.7 % of the
 * operator's busy samples in bench/peers). Here a socket only has the moment it went free recorded, and one
 * unreferenced timer per agent, armed while any socket is idle, closes those idle for `idleMs` or more. A socket in
 * use is never touched.
 */
import type { Agent } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export class IdleSocketSweeper {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly freedAt = new WeakMap<Socket, number>();
  private stopped = false;

  constructor(
    private readonly agent: Agent,
    private readonly idleMs: number,
  ) {
    agent.on('free', this.onFree);
  }

  /** Clears the timer (the agent's sockets are the caller's to destroy). */
  stop(): void {
    this.stopped = true;
    this.agent.off('free', this.onFree);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly onFree = (socket: Socket): void => {
    this.freedAt.set(socket, performance.now());
    if (this.timer === undefined && !this.stopped) this.arm(this.idleMs);
  };

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.sweep(), ms);
    this.timer.unref();
  }

  private sweep(): void {
    this.timer = undefined;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const list of Object.values(this.agent.freeSockets)) {
      // destroy() takes the socket out of the free list (the agent's close listener): iterate over a copy.
      for (const socket of [...(list ?? [])]) {
        const idleFor = now - (this.freedAt.get(socket) ?? now);
        if (idleFor >= this.idleMs) socket.destroy();
        else next = Math.min(next, this.idleMs - idleFor);
      }
    }
    if (next !== Number.POSITIVE_INFINITY && !this.stopped) this.arm(Math.max(1, Math.ceil(next)));
  }
}
