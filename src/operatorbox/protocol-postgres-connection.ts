/**
 * One session with a PostgreSQL server: the socket (TCP, TLS as `sslmode` asks, or a Unix socket), the startup and
 * authentication the server asks for (trust, cleartext, md5, SCRAM-SHA-256), and one statement at a time with the
 * extended query protocol (results as text). Anything that leaves the protocol in an unknown state (an abort, a
 * result over the limit, a socket error) destroys the socket: a session is never reused mid-query.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, checkServerIdentity } from 'node:tls';
import { ScramSha256Client } from './protocol-postgres-auth.js';
import { md5PasswordDigest } from './protocol-postgres-auth.js';
import { MessageChannel } from './protocol-postgres-channel.js';
import { PostgresFailure, PostgresServerError, serverError } from './protocol-postgres-errors.js';
import type { PostgresTarget } from './protocol-postgres-url.js';
import {
  cancelRequestMessage,
  extendedQueryMessages,
  parseAuthentication,
  parseBackendKeyData,
  parseDataRow,
  parseErrorFields,
  parseRowDescription,
  parseSaslMechanisms,
  saslInitialResponseMessage,
  saslResponseMessage,
  passwordMessage,
  sslRequestMessage,
  startupMessage,
  terminateMessage,
  type ColumnDescription,
} from './protocol-postgres-wire.js';

export interface QueryResult {
  readonly columns: readonly ColumnDescription[];
  readonly rows: readonly (readonly (string | null)[])[];
}

export interface ConnectionLimits {
  /** The largest single message accepted from the server. */
  readonly maxMessageBytes: number;
  /** The most DataRow bytes one result may hold. */
  readonly maxResultBytes: number;
}

/** How one connection attempt uses TLS: none, asked for (plain when the server says no), or required. */
type TlsAttempt = { readonly tls: 'none' } | { readonly tls: 'try' | 'must'; readonly verify: 'none' | 'ca' | 'full' };

/** The attempts of each sslmode, in order (pgx's fallbacks: prefer falls back to plain, allow to TLS). */
function attempts(target: PostgresTarget): TlsAttempt[] {
  if (target.host.startsWith('/')) return [{ tls: 'none' }];
  switch (target.sslMode) {
    case 'disable':
      return [{ tls: 'none' }];
    case 'allow':
      return [{ tls: 'none' }, { tls: 'must', verify: 'none' }];
    case 'prefer':
      return [{ tls: 'try', verify: 'none' }, { tls: 'none' }];
    case 'require':
      return [{ tls: 'must', verify: 'none' }];
    case 'verify-ca':
      return [{ tls: 'must', verify: 'ca' }];
    case 'verify-full':
      return [{ tls: 'must', verify: 'full' }];
  }
}

function socketOf(target: PostgresTarget): Socket {
  return target.host.startsWith('/') ? netConnect({ path: `${target.host}/.s.PGSQL.${target.port}` }) : netConnect({ host: target.host, port: target.port });
}

/** Resolves once `socket` is connected; destroys it and rejects on error or abort. */
function connected(socket: Socket, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      socket.destroy();
      reject(new PostgresFailure('the call was aborted while connecting'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    socket.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    });
  });
}

/** Sends SSLRequest and reads the one-byte answer: true = `S`, false = `N`. */
function askForTls(socket: Socket): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      cleanup();
      socket.pause();
      // More than the one byte before the handshake would be data injected ahead of TLS (CVE-2021-23222).
      if (chunk.length !== 1 || (chunk[0] !== 0x53 && chunk[0] !== 0x4e)) reject(new PostgresFailure('the server answered the TLS request with something other than S or N'));
      else resolve(chunk[0] === 0x53);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onClose = (): void => {
      cleanup();
      reject(new PostgresFailure('the server closed the connection at the TLS request'));
    };
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.write(sslRequestMessage());
  });
}

function startTls(socket: Socket, target: PostgresTarget, verify: 'none' | 'ca' | 'full'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({
      socket,
      host: target.host,
      ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
      rejectUnauthorized: verify !== 'none',
      checkServerIdentity: verify === 'full' ? checkServerIdentity : () => undefined,
    });
    secure.once('secureConnect', () => {
      secure.off('error', reject);
      resolve(secure);
    });
    secure.once('error', (error) => {
      secure.destroy();
      reject(error);
    });
  });
}

export class PostgresConnection {
  private backendKey: { readonly processId: number; readonly secretKey: number } | undefined;
  private busy = false;

  private constructor(
    private readonly socket: Socket,
    private readonly channel: MessageChannel,
    private readonly target: PostgresTarget,
    private readonly limits: ConnectionLimits,
  ) {}

  /** Connects and authenticates as `target` says; the signal destroys a half-open socket. */
  static async open(target: PostgresTarget, signal: AbortSignal, limits: ConnectionLimits): Promise<PostgresConnection> {
    const plans = attempts(target);
    let lastError: unknown;
    for (const plan of plans) {
      try {
        return await PostgresConnection.attempt(target, plan, signal, limits);
      } catch (error) {
        lastError = error;
        // A wrong password or an abort ends here; any other failure may succeed with the next TLS choice.
        if (signal.aborted || (error instanceof PostgresServerError && error.sqlState === '28P01')) break;
      }
    }
    throw lastError;
  }

  private static async attempt(target: PostgresTarget, plan: TlsAttempt, signal: AbortSignal, limits: ConnectionLimits): Promise<PostgresConnection> {
    let socket = socketOf(target);
    await connected(socket, signal);
    const onAbort = (): void => {
      socket.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      if (plan.tls !== 'none') {
        const accepted = await askForTls(socket);
        if (accepted) socket = await startTls(socket, target, plan.verify);
        else if (plan.tls === 'must') throw new PostgresFailure(`the server does not accept TLS (sslmode=${target.sslMode})`);
        else socket.resume();
      }
      const connection = new PostgresConnection(socket, new MessageChannel(socket, limits.maxMessageBytes), target, limits);
      await connection.startup();
      return connection;
    } catch (error) {
      socket.destroy();
      throw signal.aborted ? new PostgresFailure('the call was aborted while connecting') : error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async startup(): Promise<void> {
    const { target } = this;
    this.socket.write(startupMessage({ user: target.user, database: target.database, ...target.runtimeParams, client_encoding: 'UTF8' }));
    let scram: ScramSha256Client | undefined;
    let scramVerified = false;
    const password = (): string => {
      if (target.password === undefined) throw new PostgresFailure('the server asks for a password and the call has none (none in the URL, no auth.secretRef)');
      return target.password;
    };
    for (;;) {
      const message = await this.channel.next();
      if (message.type === 'E') throw serverError(parseErrorFields(message.body));
      if (message.type === 'K') this.backendKey = parseBackendKeyData(message.body);
      if (message.type === 'Z') return;
      if (message.type !== 'R') continue; // NegotiateProtocolVersion and the like change nothing for 3.0 without options
      const { kind, data } = parseAuthentication(message.body);
      if (kind === 0) {
        if (scram !== undefined && !scramVerified) throw new PostgresFailure('the server ended SCRAM-SHA-256 without proving it knows the password');
      } else if (kind === 3) {
        this.socket.write(passwordMessage(password()));
      } else if (kind === 5) {
        this.socket.write(passwordMessage(md5PasswordDigest(target.user, password(), data.subarray(0, 4))));
      } else if (kind === 10) {
        const mechanisms = parseSaslMechanisms(data);
        if (!mechanisms.includes('SCRAM-SHA-256')) throw new PostgresFailure(`the server offers SASL mechanisms katalog's client does not do (${mechanisms.join(', ').slice(0, 80)})`);
        scram = new ScramSha256Client(password());
        this.socket.write(saslInitialResponseMessage('SCRAM-SHA-256', Buffer.from(scram.clientFirst(), 'utf8')));
      } else if (kind === 11 && scram !== undefined) {
        this.socket.write(saslResponseMessage(Buffer.from(await scram.clientFinal(data.toString('utf8')), 'utf8')));
      } else if (kind === 12 && scram !== undefined) {
        scram.verifyServerFinal(data.toString('utf8'));
        scramVerified = true;
      } else {
        throw new PostgresFailure(`the server asks for an authentication katalog's client does not do (Authentication request ${kind})`);
      }
    }
  }

  /** False once the socket failed or the server said something between calls. */
  reusable(): boolean {
    return !this.busy && this.channel.drainIdle();
  }

  /** Keeps the process alive (in a call) or not (idle in the pool). */
  setIdle(idle: boolean): void {
    if (idle) this.socket.unref();
    else this.socket.ref();
  }

  /** Calls `listener` once the socket is closed (by the server, an error or us). */
  onClose(listener: () => void): void {
    if (this.socket.destroyed) queueMicrotask(listener);
    else this.socket.once('close', listener);
  }

  /**
   * Runs one statement. A server error rejects with a {@link PostgresServerError} and leaves the session usable;
   * an abort, a result over `maxResultBytes` or a socket failure destroys the session (and asks the server to
   * cancel the statement).
   */
  async query(sql: string, signal: AbortSignal): Promise<QueryResult> {
    if (signal.aborted) throw new PostgresFailure('the call was aborted');
    this.busy = true;
    const onAbort = (): void => this.abandon();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      this.socket.write(extendedQueryMessages(sql));
      let columns: ColumnDescription[] = [];
      const rows: (string | null)[][] = [];
      let bytes = 0;
      let failure: PostgresServerError | undefined;
      for (;;) {
        const message = this.channel.poll() ?? (await this.channel.next());
        if (message.type === 'T') columns = parseRowDescription(message.body);
        else if (message.type === 'D') {
          bytes += message.body.length;
          if (bytes > this.limits.maxResultBytes) {
            this.abandon();
            throw new PostgresFailure(`the result is over the limit of ${this.limits.maxResultBytes} bytes`);
          }
          rows.push(parseDataRow(message.body));
        } else if (message.type === 'E') failure = serverError(parseErrorFields(message.body));
        else if (message.type === 'Z') {
          this.busy = false;
          if (failure !== undefined) throw failure;
          return { columns, rows };
        }
        // ParseComplete, BindComplete, NoData, CommandComplete, EmptyQueryResponse: nothing to keep.
      }
    } catch (error) {
      if (this.busy) this.abandon();
      throw signal.aborted ? new PostgresFailure('the call was aborted') : error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Destroys the session mid-statement and asks the server (on a new connection) to cancel that statement. */
  private abandon(): void {
    if (this.socket.destroyed) return;
    this.socket.destroy();
    const key = this.backendKey;
    if (key === undefined || !this.busy) return;
    // Best effort, never awaited: the call already failed; the cancel only stops the statement on the server
    // sooner. Its failure changes nothing for the call, so it is dropped with a written reason (this one).
    const cancel = socketOf(this.target);
    cancel.unref();
    cancel.setTimeout(2_000, () => cancel.destroy());
    cancel.on('error', () => cancel.destroy());
    cancel.once('connect', () => cancel.end(cancelRequestMessage(key.processId, key.secretKey)));
  }

  /** Destroys the socket at once. */
  destroy(): void {
    this.socket.destroy();
  }

  /**
   * Sends Terminate and closes; resolves when the socket is closed (destroyed after `graceMs`). A session in a
   * call is abandoned instead (destroyed, its statement cancelled): the server reads no Terminate mid-statement.
   */
  end(graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.once('close', () => resolve());
      if (this.busy) return this.abandon();
      const timer = setTimeout(() => this.socket.destroy(), graceMs);
      timer.unref();
      this.socket.end(terminateMessage());
    });
  }
}
