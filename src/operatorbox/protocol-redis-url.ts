/**
 * A `protocol: redis` call's `url`, read as Orkestra reads it (go-redis `ParseURL`, then Orkestra's fallback in
 * `pkg/external/redis.go`):
 *
 * - `redis://[[user][:password]@][host][:port][/db]`: TCP, host default `localhost`, port default 6379, db 0;
 * - `rediss://…`: the same over TLS (the server's certificate is verified against the host name);
 * - `unix://[[user][:password]@]/path/to/socket[?db=N]`: a unix socket;
 * - anything without `://` is a bare `host[:port]` (Orkestra's fallback), db 0, no TLS.
 *
 * The query string may carry `db` only (go-redis has more options; katalog refuses the rest rather than ignore
 * them). The call's credential (`auth.secretRef`), when there is one, replaces the URL's password, as in Orkestra.
 * A URL that cannot be read gives a fixed reason that never quotes the URL (it may hold a password).
 */
import { createHash } from 'node:crypto';

/** Where and how to connect; `key` identifies a pool (the password only as a hash). */
export interface RedisTarget {
  readonly tls: boolean;
  readonly host: string;
  readonly port: number;
  /** A unix socket path; host and port are unused then. */
  readonly path: string | undefined;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly db: number;
  readonly key: string;
}

export const DEFAULT_REDIS_PORT = 6379;

/** The target of `url` with `credential` as the password; a string is the reason it cannot be read. */
export function redisTarget(url: string, credential: string | undefined): RedisTarget | string {
  const text = url.trim();
  if (text === '') return 'invalid url (it rendered empty)';
  if (!text.includes('://')) return bare(text, credential);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'invalid url';
  }
  const scheme = parsed.protocol;
  if (scheme !== 'redis:' && scheme !== 'rediss:' && scheme !== 'unix:') return 'invalid url (the scheme must be redis://, rediss:// or unix://)';
  for (const name of parsed.searchParams.keys()) {
    if (name !== 'db') return `invalid url (option "${name.replace(/[^A-Za-z0-9_-]/g, '?').slice(0, 30)}" is not supported; only db)`;
  }
  const username = parsed.username === '' ? undefined : decodeURIComponent(parsed.username);
  const password = credential ?? (parsed.password === '' ? undefined : decodeURIComponent(parsed.password));
  const dbText = parsed.searchParams.get('db') ?? (scheme === 'unix:' ? '' : parsed.pathname.replace(/^\//, ''));
  const db = database(dbText);
  if (db === undefined) return 'invalid url (the database number is not a whole number)';
  if (scheme === 'unix:') {
    const path = decodeURIComponent(parsed.pathname);
    if (path === '' || path === '/') return 'invalid url (a unix:// URL needs the socket path)';
    return target({ tls: false, host: '', port: 0, path, username, password, db });
  }
  const port = parsed.port === '' ? DEFAULT_REDIS_PORT : Number(parsed.port);
  const host = parsed.hostname === '' ? 'localhost' : parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  return target({ tls: scheme === 'rediss:', host, port, path: undefined, username, password, db });
}

function bare(text: string, credential: string | undefined): RedisTarget | string {
  const match = /^(\[[^\]]+\]|[^:/?#@\s]+)(?::(\d{1,5}))?$/.exec(text);
  if (match === null) return 'invalid url (neither a redis:// URL nor host:port)';
  const host = (match[1] ?? '').replace(/^\[(.*)\]$/, '$1');
  const port = match[2] === undefined ? DEFAULT_REDIS_PORT : Number(match[2]);
  return target({ tls: false, host, port, path: undefined, username: undefined, password: credential, db: 0 });
}

function database(text: string): number | undefined {
  if (text === '') return 0;
  if (!/^\d{1,4}$/.test(text)) return undefined;
  return Number(text);
}

function target(fields: Omit<RedisTarget, 'key'>): RedisTarget | string {
  if (fields.path === undefined && (!Number.isInteger(fields.port) || fields.port < 1 || fields.port > 65535)) return 'invalid url (the port is out of range)';
  const secret = fields.password === undefined ? '-' : createHash('sha256').update(fields.password).digest('base64');
  const key = JSON.stringify([fields.tls, fields.host, fields.port, fields.path ?? null, fields.username ?? null, fields.db, secret]);
  return { ...fields, key };
}
