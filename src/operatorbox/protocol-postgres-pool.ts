/**
 * The sessions kept for one connection string and credential: at most `size` open at once (Orkestra's
 * `poolSize`, default 2), idle ones reused in last-in-first-out order, callers beyond `size` waiting in order for
 * one to come back. An idle session does not keep the process alive (its socket is unref'd) and is ended after
 * `idleMs`; `close()` ends every session, idle or in a call, and rejects the waiters.
 */
import type { PostgresConnection } from './protocol-postgres-connection.js';
import { PostgresFailure } from './protocol-postgres-errors.js';

interface Waiter {
  readonly resolve: (connection: PostgresConnection) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

export class PostgresPool {
  private readonly idle: { readonly connection: PostgresConnection; readonly timer: NodeJS.Timeout }[] = [];
  private readonly all = new Set<PostgresConnection>();
  private readonly waiters: Waiter[] = [];
  private opening = 0;
  private closed = false;

  constructor(
    private size: number,
    private readonly idleMs: number,
    private readonly connect: (signal: AbortSignal) => Promise<PostgresConnection>,
    private readonly onEmpty: () => void,
  ) {}

  /** The most sessions open at once; a later call's `poolSize` replaces an earlier one's. */
  resize(size: number): void {
    this.size = size;
  }

  /** Sessions open (idle, in a call or connecting). */
  get open(): number {
    return this.all.size + this.opening;
  }

  /** A session for one call: an idle one, a new one while under `size`, else the next one released. */
  async acquire(signal: AbortSignal): Promise<PostgresConnection> {
    if (this.closed) throw new PostgresFailure('the client is closed');
    for (let entry = this.idle.pop(); entry !== undefined; entry = this.idle.pop()) {
      clearTimeout(entry.timer);
      if (entry.connection.reusable()) {
        entry.connection.setIdle(false);
        return entry.connection;
      }
      entry.connection.destroy();
    }
    if (this.open < this.size) return this.openOne(signal);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(new PostgresFailure(`the call was aborted while waiting for one of the ${this.size} pooled connections`));
      };
      const waiter: Waiter = { resolve, reject, signal, onAbort };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Gives a session back: kept when `reusable` (and the pool is open), else destroyed and its place freed. */
  release(connection: PostgresConnection, reusable: boolean): void {
    if (!reusable || this.closed || !connection.reusable() || this.open > this.size) {
      connection.destroy();
      this.all.delete(connection);
      this.serveNextWaiter();
      this.checkEmpty();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(connection);
      return;
    }
    connection.setIdle(true);
    const timer = setTimeout(() => this.expire(connection), this.idleMs);
    timer.unref();
    this.idle.push({ connection, timer });
  }

  /** Ends every session and rejects every waiter; resolves once every socket is closed. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0, this.waiters.length)) {
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new PostgresFailure('the client is closed'));
    }
    for (const entry of this.idle.splice(0, this.idle.length)) clearTimeout(entry.timer);
    await Promise.all([...this.all].map((connection) => connection.end(1_000)));
  }

  private async openOne(signal: AbortSignal): Promise<PostgresConnection> {
    this.opening += 1;
    let connection: PostgresConnection;
    try {
      connection = await this.connect(signal);
    } catch (error) {
      this.opening -= 1;
      this.serveNextWaiter();
      this.checkEmpty();
      throw error;
    }
    this.opening -= 1;
    if (this.closed) {
      connection.destroy();
      throw new PostgresFailure('the client is closed');
    }
    this.all.add(connection);
    connection.onClose(() => this.forget(connection));
    return connection;
  }

  /** A waiter gets a new session when a place became free. */
  private serveNextWaiter(): void {
    if (this.closed || this.open >= this.size) return;
    const waiter = this.waiters.shift();
    if (waiter === undefined) return;
    waiter.signal.removeEventListener('abort', waiter.onAbort);
    this.openOne(waiter.signal).then(waiter.resolve, waiter.reject);
  }

  private expire(connection: PostgresConnection): void {
    const at = this.idle.findIndex((entry) => entry.connection === connection);
    if (at >= 0) this.idle.splice(at, 1);
    this.all.delete(connection);
    void connection.end(1_000).then(() => this.checkEmpty());
  }

  /** A session closed by the server or an error: its place is freed. */
  private forget(connection: PostgresConnection): void {
    const at = this.idle.findIndex((entry) => entry.connection === connection);
    if (at >= 0) {
      const [entry] = this.idle.splice(at, 1);
      if (entry !== undefined) clearTimeout(entry.timer);
    }
    if (this.all.delete(connection)) this.serveNextWaiter();
    this.checkEmpty();
  }

  private checkEmpty(): void {
    if (!this.closed && this.open === 0 && this.waiters.length === 0) this.onEmpty();
  }
}
