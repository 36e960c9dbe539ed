/**
 * The Redis client's connections, pooled per target (server, user, password, database): at most `size`
 * connections each (a call's `poolSize`, default 2 as Orkestra's `ExternalCallSpec.PoolSize` documents), idle
 * ones reused, a caller over the limit waiting in line until one is free or its signal aborts. A connection the
 * server closes while idle leaves the pool. `close()` closes every connection, busy or idle, and the pools stay
 * usable (a later call opens new connections), so a client shared by a runtime and an admission router survives
 * the first one's stop.
 */
import { ABORTED, RedisConnection, RedisFailure } from './protocol-redis-connection.js';
import type { RedisTarget } from './protocol-redis-url.js';

/** Orkestra's documented default of `poolSize` (pkg/types/external.go). */
export const DEFAULT_REDIS_POOL_SIZE = 2;

interface Waiter {
  readonly wake: () => void;
}

interface Pool {
  readonly all: Set<RedisConnection>;
  readonly idle: RedisConnection[];
  readonly waiters: Waiter[];
  opening: number;
}

export class RedisPools {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly maxReplyBytes: number) {}

  /** A connection to `target` for one command; give it back with {@link release}. Rejects with a RedisFailure. */
  async acquire(target: RedisTarget, size: number, signal: AbortSignal): Promise<RedisConnection> {
    const pool = this.poolOf(target.key);
    for (;;) {
      if (signal.aborted) throw new RedisFailure(ABORTED);
      const idle = pool.idle.pop();
      if (idle !== undefined) {
        if (!idle.closed) return idle;
        continue;
      }
      if (pool.all.size + pool.opening < size) return this.open(pool, target, signal);
      await waitTurn(pool, signal);
    }
  }

  /** Gives a connection back: kept for the next call when `reuse`, else closed. */
  release(target: RedisTarget, connection: RedisConnection, reuse: boolean): void {
    const pool = this.pools.get(target.key);
    if (!reuse || connection.closed || pool === undefined || !pool.all.has(connection)) {
      connection.destroy();
      return;
    }
    connection.rest();
    pool.idle.push(connection);
    pool.waiters.shift()?.wake();
  }

  /** Connections open now, over every target (for tests and `close`). */
  get size(): number {
    let open = 0;
    for (const pool of this.pools.values()) open += pool.all.size;
    return open;
  }

  /** Closes every connection; waiting callers try again (and open new ones). */
  close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    for (const pool of pools) {
      for (const connection of [...pool.all]) connection.destroy();
      for (const waiter of pool.waiters.splice(0)) waiter.wake();
    }
    return Promise.resolve();
  }

  private poolOf(key: string): Pool {
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = { all: new Set(), idle: [], waiters: [], opening: 0 };
      this.pools.set(key, pool);
    }
    return pool;
  }

  private async open(pool: Pool, target: RedisTarget, signal: AbortSignal): Promise<RedisConnection> {
    pool.opening += 1;
    let connection: RedisConnection;
    try {
      connection = await RedisConnection.open(target, this.maxReplyBytes, signal, (gone) => this.gone(pool, gone));
    } catch (error) {
      pool.waiters.shift()?.wake();
      throw error;
    } finally {
      pool.opening -= 1;
    }
    if (connection.closed) throw new RedisFailure('the server closed the connection');
    pool.all.add(connection);
    return connection;
  }

  private gone(pool: Pool, connection: RedisConnection): void {
    if (!pool.all.delete(connection)) return;
    const at = pool.idle.indexOf(connection);
    if (at !== -1) pool.idle.splice(at, 1);
    pool.waiters.shift()?.wake();
  }
}

/** Resolves when the pool may have room (a connection came back or went), or rejects when `signal` aborts. */
function waitTurn(pool: Pool, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const waiter: Waiter = {
      wake: () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
    };
    const onAbort = (): void => {
      const at = pool.waiters.indexOf(waiter);
      if (at !== -1) pool.waiters.splice(at, 1);
      reject(new RedisFailure(ABORTED));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pool.waiters.push(waiter);
  });
}
