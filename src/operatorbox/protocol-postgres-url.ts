/**
 * The connection string of a `protocol: postgres` call, read as Orkestra's client reads it (pgx's ParseConfig):
 * a URL `postgres://` or `postgresql://` `[user[:password]@][host][:port][/database][?key=value&…]`, or a
 * keyword/value string `host=… port=… user=… password=… dbname=… sslmode=…` (values may be single-quoted, with
 * `\'` and `\\` escapes). A `host` starting with `/` is a Unix-socket directory. Defaults as pgx's, except that
 * nothing is read from the environment (no PGHOST, no ~/.pgpass): host `localhost`, port 5432, user the process's
 * user, database the user, `sslmode=prefer`. Parameters other than the connection's own are sent to the server as
 * run-time parameters (`application_name`, `search_path`, `options`…), as pgx does. A credential from
 * `auth.secretRef`, when non-empty, replaces the password of the string. Errors never quote the string.
 */
import { userInfo } from 'node:os';

export type SslMode = 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';
const SSL_MODES: readonly SslMode[] = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** Where and as whom to connect. */
export interface PostgresTarget {
  /** A host name or IP address, or a Unix-socket directory (starts with `/`). */
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string | undefined;
  /** '' = the server's default (the user's name). */
  readonly database: string;
  readonly sslMode: SslMode;
  /** `connect_timeout` in ms (0 = none): bounds the connection and authentication within the call's timeout. */
  readonly connectTimeoutMs: number;
  /** Sent in the StartupMessage. */
  readonly runtimeParams: Readonly<Record<string, string>>;
}

/** A string that cannot be read; `reason` names the part, never its value. */
export class PostgresUrlError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PostgresUrlError';
  }
}

/** pgx's own settings: read or ignored here, never sent to the server. */
const IGNORED = new Set(['statement_cache_capacity', 'description_cache_capacity', 'default_query_exec_mode', 'min_read_buffer_size', 'prefer_simple_protocol', 'sslsni']);
/** Settings katalog does not honour: a file path, an environment lookup or several servers. */
const REFUSED: Readonly<Record<string, string>> = {
  sslcert: 'a client certificate file',
  sslkey: 'a client key file',
  sslrootcert: 'a CA file (verify-ca and verify-full use Node\'s CA store)',
  sslpassword: 'a client key password',
  passfile: 'a password file',
  service: 'a service file entry',
  servicefile: 'a service file',
  hostaddr: 'hostaddr',
  krbsrvname: 'Kerberos',
  krbspn: 'Kerberos',
  gssencmode: 'GSSAPI encryption',
  target_session_attrs: 'target_session_attrs (one server only)',
};

function decode(text: string, part: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new PostgresUrlError(`the ${part} is not valid percent-encoding`);
  }
}

/** key/value pairs of the URL form, the path and authority split out. */
function urlSettings(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  const rest = text.slice(text.indexOf('://') + 3);
  const queryAt = rest.indexOf('?');
  const beforeQuery = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const slashAt = beforeQuery.indexOf('/');
  const authority = slashAt < 0 ? beforeQuery : beforeQuery.slice(0, slashAt);
  const path = slashAt < 0 ? '' : beforeQuery.slice(slashAt + 1);
  const atAt = authority.lastIndexOf('@');
  const userinfo = atAt < 0 ? undefined : authority.slice(0, atAt);
  const hostport = atAt < 0 ? authority : authority.slice(atAt + 1);
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    settings.set('user', decode(colon < 0 ? userinfo : userinfo.slice(0, colon), 'user'));
    if (colon >= 0) settings.set('password', decode(userinfo.slice(colon + 1), 'password'));
  }
  if (hostport.includes(',')) throw new PostgresUrlError('several hosts are not supported (one server per call)');
  if (hostport !== '') {
    const bracket = hostport.startsWith('[') ? hostport.indexOf(']') : -1;
    if (hostport.startsWith('[') && bracket < 0) throw new PostgresUrlError('the host has an unclosed [');
    const colon = bracket >= 0 ? hostport.indexOf(':', bracket) : hostport.lastIndexOf(':');
    const host = colon < 0 ? hostport : hostport.slice(0, colon);
    if (host !== '') settings.set('host', decode(bracket >= 0 ? host.slice(1, -1) : host, 'host'));
    if (colon >= 0) settings.set('port', hostport.slice(colon + 1));
  }
  if (path !== '') settings.set('dbname', decode(path, 'database'));
  if (queryAt >= 0) {
    for (const pair of rest.slice(queryAt + 1).split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      if (equals < 0) throw new PostgresUrlError('a query parameter has no =');
      const key = decode(pair.slice(0, equals).replace(/\+/g, ' '), 'query parameter');
      settings.set(key, decode(pair.slice(equals + 1).replace(/\+/g, ' '), `value of ${key}`));
    }
  }
  return settings;
}

/** key=value pairs of the keyword/value form. */
function keywordSettings(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  let at = 0;
  const skipSpace = (): void => {
    while (at < text.length && /\s/.test(text.charAt(at))) at += 1;
  };
  for (skipSpace(); at < text.length; skipSpace()) {
    const equals = text.indexOf('=', at);
    if (equals < 0) throw new PostgresUrlError('a keyword/value setting has no =');
    const key = text.slice(at, equals).trim();
    if (key === '' || /\s/.test(key)) throw new PostgresUrlError('a keyword/value setting has no keyword before =');
    at = equals + 1;
    skipSpace();
    let value = '';
    if (text.charAt(at) === "'") {
      at += 1;
      for (;;) {
        if (at >= text.length) throw new PostgresUrlError(`the quoted value of ${key} is not closed`);
        const char = text.charAt(at);
        if (char === "'") break;
        if (char === '\\' && at + 1 < text.length) at += 1;
        value += text.charAt(at);
        at += 1;
      }
      at += 1;
    } else {
      while (at < text.length && !/\s/.test(text.charAt(at))) {
        if (text.charAt(at) === '\\' && at + 1 < text.length) at += 1;
        value += text.charAt(at);
        at += 1;
      }
    }
    settings.set(key, value);
  }
  return settings;
}

function processUser(): string {
  try {
    return userInfo().username;
  } catch {
    throw new PostgresUrlError('it names no user and the process has no user name');
  }
}

/** Reads `text` (a URL or keyword/value string); `credential`, when non-empty, is the password. */
export function parsePostgresUrl(text: string, credential: string | undefined): PostgresTarget {
  const trimmed = text.trim();
  const settings = /^postgres(ql)?:\/\//i.test(trimmed) ? urlSettings(trimmed) : trimmed.includes('=') ? keywordSettings(trimmed) : undefined;
  if (settings === undefined) throw new PostgresUrlError('it is neither a postgres:// URL nor keyword=value settings');
  const take = (key: string): string | undefined => {
    const value = settings.get(key);
    settings.delete(key);
    return value;
  };
  const host = take('host') ?? 'localhost';
  if (host.includes(',')) throw new PostgresUrlError('several hosts are not supported (one server per call)');
  const portText = take('port') ?? '5432';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65_535) throw new PostgresUrlError('the port is not a number from 1 to 65535');
  const user = take('user') || processUser();
  const database = take('dbname') ?? take('database') ?? '';
  settings.delete('database');
  const written = take('password');
  const sslText = take('sslmode') ?? 'prefer';
  const sslMode = SSL_MODES.find((mode) => mode === sslText);
  if (sslMode === undefined) throw new PostgresUrlError(`sslmode must be one of ${SSL_MODES.join(', ')}`);
  const timeoutText = take('connect_timeout') ?? '0';
  if (!/^\d+$/.test(timeoutText)) throw new PostgresUrlError('connect_timeout is not a whole number of seconds');
  const runtimeParams: Record<string, string> = {};
  for (const [key, value] of settings) {
    const refused = REFUSED[key];
    if (refused !== undefined) throw new PostgresUrlError(`the setting ${key} (${refused}) is not supported`);
    if (!IGNORED.has(key)) runtimeParams[key] = value;
  }
  return {
    host,
    port,
    user,
    password: credential !== undefined && credential !== '' ? credential : written,
    database,
    sslMode,
    connectTimeoutMs: Number(timeoutText) * 1000,
    runtimeParams,
  };
}
