/**
 * The built-in client of `protocol: redis` external calls (docs/orkestra-compatibility.md#redis-calls), with no
 * dependency: RESP2 over node:net / node:tls, pooled connections. It runs what Orkestra's client runs
 * (orkspace/orkestra `pkg/external/redis.go`): the call's `query` is one command line, split on spaces with
 * double quotes grouping an argument (`HGET "my hash" field`; the quotes are dropped, there are no escapes), sent
 * as is, and its reply becomes Orkestra's result map:
 *
 * - `result`: the reply as Go's `%v` prints it: a string as is, an integer in decimal, an array as `[a b c]`
 *   (nested the same way), a nil inside an array as `<nil>`;
 * - `raw`: `{value: <the reply>}` (strings, numbers, null, arrays; an integer beyond 2^53 as its digits);
 * - `error`: "" on success; `called`: "true".
 *
 * Failures (as Orkestra, the call's `error`, never a rejection): a nil reply (`GET` of a missing key) is
 * `redis: nil`; an error reply is `redis: the server answered an error (WRONGTYPE)` (its code; the full text,
 * which may quote the command's arguments, only in `raw.error` for templates); a connection that fails, a
 * timeout (`redis: no reply within 500 ms`), a bad URL, AUTH refused. No reason carries the URL, host or password.
 */
import type { ExternalProtocolClient, ExternalProtocolRequest } from './external-protocol.js';
import { ABORTED, RedisFailure } from './protocol-redis-connection.js';
import { DEFAULT_REDIS_POOL_SIZE, RedisPools } from './protocol-redis-pool.js';
import { RespError, type RespValue } from './protocol-redis-resp.js';
import { redisTarget } from './protocol-redis-url.js';

export interface RedisProtocolOptions {
  /** The largest reply accepted, in bytes (default 1 MiB); a larger one fails the call and closes its connection. */
  readonly maxReplyBytes?: number;
}

/** What `.external.<name>` holds for a `redis` call (a type, not an interface: it is a string-keyed map). */
export type RedisResult = {
  readonly result: string;
  readonly raw: Readonly<Record<string, unknown>>;
  readonly error: string;
  readonly called: 'true' | 'false';
};

export const DEFAULT_REDIS_MAX_REPLY_BYTES = 1024 * 1024;

/**
 * Commands after which a connection's state is no longer the pool's (another database, a transaction, a
 * subscription, another user): the connection is closed after the reply instead of being reused.
 */
const STATEFUL = new Set(['SELECT', 'AUTH', 'HELLO', 'MULTI', 'EXEC', 'DISCARD', 'WATCH', 'UNWATCH', 'SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE', 'MONITOR', 'CLIENT', 'RESET', 'QUIT', 'READONLY', 'READWRITE', 'SYNC', 'PSYNC', 'REPLCONF']);

/** A new Redis client with its own pools (the runtime and the admission router each make one, and close it). */
export function redisProtocol(options: RedisProtocolOptions = {}): ExternalProtocolClient {
  const pools = new RedisPools(options.maxReplyBytes ?? DEFAULT_REDIS_MAX_REPLY_BYTES);
  return {
    fetch: (request) => redisFetch(pools, request),
    close: () => pools.close(),
  };
}

async function redisFetch(pools: RedisPools, request: ExternalProtocolRequest): Promise<RedisResult> {
  const args = splitCommand(request.query);
  if (args.length === 0) return failed('redis: query: is empty');
  const target = redisTarget(request.url, request.credential);
  if (typeof target === 'string') return failed(`redis: ${target}`);
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, request.timeoutMs);
  const onAbort = (): void => deadline.abort();
  request.signal.addEventListener('abort', onAbort, { once: true });
  if (request.signal.aborted) deadline.abort();
  try {
    const connection = await pools.acquire(target, request.poolSize ?? DEFAULT_REDIS_POOL_SIZE, deadline.signal);
    let reply: RespValue;
    try {
      reply = await connection.command(args, deadline.signal);
    } catch (error) {
      pools.release(target, connection, false);
      throw error;
    }
    pools.release(target, connection, !STATEFUL.has((args[0] ?? '').toUpperCase()));
    return resultOf(reply);
  } catch (error) {
    if (!(error instanceof RedisFailure)) throw error;
    if (error.reason !== ABORTED) return failed(`redis: ${error.reason}`);
    return failed(timedOut ? `redis: no reply within ${request.timeoutMs} ms` : 'redis: the call was cancelled');
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', onAbort);
  }
}

function resultOf(reply: RespValue): RedisResult {
  if (reply === null) return { result: '', raw: { value: null }, error: 'redis: nil', called: 'true' };
  if (reply instanceof RespError) return { result: '', raw: { error: reply.message }, error: `redis: the server answered an error (${reply.code})`, called: 'true' };
  return { result: goText(reply), raw: { value: plain(reply) }, error: '', called: 'true' };
}

function failed(reason: string): RedisResult {
  return { result: '', raw: {}, error: reason, called: 'true' };
}

/** The reply as Go's `fmt.Sprintf("%v", …)` prints what go-redis returns for it. */
export function goText(value: RespValue): string {
  if (value === null) return '<nil>';
  if (value instanceof RespError) return value.message;
  if (Array.isArray(value)) return `[${value.map(goText).join(' ')}]`;
  return String(value);
}

function plain(value: RespValue): unknown {
  if (value instanceof RespError) return value.message;
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

/** Orkestra's `splitCommand`: split on spaces, double quotes group an argument and are dropped, no escapes. */
export function splitCommand(query: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of query) {
    if (char === '"') quoted = !quoted;
    else if (char === ' ' && !quoted) {
      if (current !== '') parts.push(current);
      current = '';
    } else current += char;
  }
  if (current !== '') parts.push(current);
  return parts;
}
