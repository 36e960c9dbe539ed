/**
 * The built-in client of `protocol: postgres` external calls (docs/orkestra-compatibility.md#postgres): PostgreSQL's
 * wire protocol on node:net / node:tls with node:crypto for authentication, no dependency. Each call runs its
 * rendered `query` as one statement (the extended query protocol, no parameters bound: the templates render the
 * SQL, as in Orkestra) on a pooled session for its URL and credential, and resolves with Orkestra's result map
 * (protocol-postgres-result.ts). A failure resolves with `error` set, as Orkestra's Fetch does:
 * `postgres: query: is required`, `postgres: invalid url: <part>`, `postgres: connect: <what>`,
 * `postgres: query: <what>`; the reason never holds the URL, the password, the server's message text or row data.
 */
import type { ExternalProtocolClient, ExternalProtocolRequest } from './external-protocol.js';
import { PostgresConnection, type ConnectionLimits } from './protocol-postgres-connection.js';
import { PostgresFailure, PostgresServerError, failureReason } from './protocol-postgres-errors.js';
import { PostgresPool } from './protocol-postgres-pool.js';
import { postgresErrorResult, postgresResult } from './protocol-postgres-result.js';
import { PostgresUrlError, parsePostgresUrl, type PostgresTarget } from './protocol-postgres-url.js';

/** Orkestra's default `poolSize` (pkg/types/external.go). */
export const DEFAULT_POSTGRES_POOL_SIZE = 2;

/** Options of the built-in Postgres client ({@link postgresProtocol}). */
export interface PostgresProtocolOptions {
  /** How long an unused pooled session is kept, in ms. Default 60,000. */
  readonly idleMs?: number;
  /** The most DataRow bytes one result may hold; a larger result fails the call. Default 4 MiB. */
  readonly maxResultBytes?: number;
}

/** What a call failed at, and why. */
function failed(stage: 'connect' | 'query', reason: string): Record<string, unknown> {
  return postgresErrorResult(`postgres: ${stage}: ${reason}`);
}

/**
 * A Postgres protocol client: one pool per connection string and credential. `close()` ends every session (those
 * in a call fail) and leaves no socket or timer behind; the client stays usable: a later call opens a new pool, as
 * the protocol seam asks (a client shared by a runtime and an admission router is closed by each).
 */
export function postgresProtocol(options: PostgresProtocolOptions = {}): ExternalProtocolClient {
  const idleMs = options.idleMs ?? 60_000;
  const maxResultBytes = options.maxResultBytes ?? 4 * 1024 * 1024;
  const limits: ConnectionLimits = { maxResultBytes, maxMessageBytes: maxResultBytes + 1024 };
  const pools = new Map<string, PostgresPool>();

  const poolFor = (key: string, target: PostgresTarget, size: number): PostgresPool => {
    const existing = pools.get(key);
    if (existing !== undefined) {
      existing.resize(size);
      return existing;
    }
    const pool = new PostgresPool(
      size,
      idleMs,
      (signal) => PostgresConnection.open(target, signal, limits),
      () => {
        if (pools.get(key) === pool) pools.delete(key);
      },
    );
    pools.set(key, pool);
    return pool;
  };

  const run = async (request: ExternalProtocolRequest): Promise<Record<string, unknown>> => {
    if (request.query.trim() === '') return postgresErrorResult('postgres: query: is required');
    let target: PostgresTarget;
    try {
      target = parsePostgresUrl(request.url, request.credential);
    } catch (error) {
      return postgresErrorResult(`postgres: invalid url: ${error instanceof PostgresUrlError ? error.reason : 'it cannot be read'}`);
    }
    const size = request.poolSize !== undefined && request.poolSize > 0 ? request.poolSize : DEFAULT_POSTGRES_POOL_SIZE;
    const pool = poolFor(`${request.url}\u0000${request.credential ?? ''}`, target, size);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), request.timeoutMs);
    const connectTimer = target.connectTimeoutMs > 0 ? setTimeout(() => deadline.abort(), target.connectTimeoutMs) : undefined;
    const onAbort = (): void => deadline.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    if (request.signal.aborted) deadline.abort();
    const whyAborted = (stage: string): string =>
      request.signal.aborted ? 'the call was cancelled' : `no ${stage} within ${connectTimer !== undefined && stage === 'connection' ? `connect_timeout (${target.connectTimeoutMs} ms) or ` : ''}${request.timeoutMs} ms`;
    try {
      let connection: PostgresConnection;
      try {
        connection = await pool.acquire(deadline.signal);
      } catch (error) {
        return failed('connect', deadline.signal.aborted ? whyAborted('connection') : failureReason(error));
      }
      clearTimeout(connectTimer);
      try {
        const result = await connection.query(request.query, deadline.signal);
        pool.release(connection, true);
        return postgresResult(result);
      } catch (error) {
        // A server error leaves the session at ReadyForQuery; anything else destroyed it.
        const serverAnswered = error instanceof PostgresServerError && !error.fatal;
        pool.release(connection, serverAnswered);
        if (deadline.signal.aborted && !serverAnswered) return failed('query', whyAborted('answer'));
        return failed('query', error instanceof PostgresFailure ? error.reason : failureReason(error));
      }
    } finally {
      clearTimeout(timer);
      clearTimeout(connectTimer);
      request.signal.removeEventListener('abort', onAbort);
    }
  };

  return {
    fetch: run,
    async close(): Promise<void> {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((pool) => pool.close()));
    },
  };
}
