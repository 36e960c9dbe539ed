/**
 * One connection to a Redis server (node:net, or node:tls for `rediss://`): opened with `AUTH` when the target has
 * a password and `SELECT` when its database is not 0, then one command at a time. An idle connection is unref'd
 * (it never keeps the process alive) and ref'd again while a command is out.
 *
 * Every failure is a {@link RedisFailure} whose reason names what happened (a socket error code, the server's
 * error code, a closed connection) and never the host, the URL or the password. An abort of the signal destroys
 * the socket at once (a command whose reply is still coming cannot be reused): the reason is `aborted` and the
 * caller says why (its deadline, or the reconcile ending).
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { encodeCommand, RespError, RespParser, RespProtocolError, type RespValue } from './protocol-redis-resp.js';
import type { RedisTarget } from './protocol-redis-url.js';

/** A call that got no usable reply; `reason` is safe to show. */
export class RedisFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RedisFailure';
  }
}

/** The reason of a failure caused by the caller's signal. */
export const ABORTED = 'aborted';

interface Waiting {
  readonly resolve: (value: RespValue) => void;
  readonly reject: (failure: RedisFailure) => void;
}

export class RedisConnection {
  private readonly parser: RespParser;
  private waiting: Waiting | undefined;
  private gone = false;

  private constructor(
    private readonly socket: Socket,
    maxReplyBytes: number,
    private readonly onGone: (connection: RedisConnection) => void,
  ) {
    this.parser = new RespParser(maxReplyBytes);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => this.fail(new RedisFailure(socketReason(error))));
    socket.on('close', () => this.fail(new RedisFailure('the server closed the connection')));
  }

  /** Connects to `target` and authenticates; rejects with a RedisFailure (ABORTED when `signal` aborts first). */
  static async open(target: RedisTarget, maxReplyBytes: number, signal: AbortSignal, onGone: (connection: RedisConnection) => void): Promise<RedisConnection> {
    if (signal.aborted) throw new RedisFailure(ABORTED);
    const socket = await connected(target, signal);
    const connection = new RedisConnection(socket, maxReplyBytes, onGone);
    try {
      if (target.password !== undefined) {
        const auth = await connection.command(target.username === undefined ? ['AUTH', target.password] : ['AUTH', target.username, target.password], signal);
        if (auth instanceof RespError) throw new RedisFailure(`AUTH failed (${auth.code})`);
      }
      if (target.db !== 0) {
        const select = await connection.command(['SELECT', String(target.db)], signal);
        if (select instanceof RespError) throw new RedisFailure(`SELECT ${target.db} failed (${select.code})`);
      }
    } catch (error) {
      connection.destroy();
      throw error;
    }
    return connection;
  }

  /** True once the connection is closed (by either side); it is never used again. */
  get closed(): boolean {
    return this.gone;
  }

  /** Sends one command and resolves with its reply (an error reply too); rejects with a RedisFailure. */
  command(args: readonly string[], signal: AbortSignal): Promise<RespValue> {
    if (this.gone) return Promise.reject(new RedisFailure('the server closed the connection'));
    if (this.waiting !== undefined) return Promise.reject(new Error('RedisConnection: one command at a time'));
    if (signal.aborted) return Promise.reject(new RedisFailure(ABORTED));
    this.socket.ref();
    return new Promise<RespValue>((resolve, reject) => {
      const onAbort = (): void => this.fail(new RedisFailure(ABORTED));
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting = {
        resolve: (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        reject: (failure) => {
          signal.removeEventListener('abort', onAbort);
          reject(failure);
        },
      };
      this.socket.write(encodeCommand(args));
    });
  }

  /** Marks the connection idle: it no longer keeps the process alive. */
  rest(): void {
    if (!this.gone) this.socket.unref();
  }

  /** Closes the connection now; a command still out fails. */
  destroy(): void {
    this.fail(new RedisFailure('the connection was closed'));
  }

  private received(chunk: Buffer): void {
    let replies: RespValue[];
    try {
      replies = this.parser.push(chunk);
    } catch (error) {
      this.fail(new RedisFailure(error instanceof RespProtocolError ? error.reason : 'the reply could not be read'));
      return;
    }
    for (const reply of replies) {
      const waiting = this.waiting;
      // A reply nobody asked for (a push after SUBSCRIBE, say): the connection's state is unknown, so it goes.
      if (waiting === undefined) {
        this.fail(new RedisFailure('the server sent a reply nobody asked for'));
        return;
      }
      this.waiting = undefined;
      waiting.resolve(reply);
    }
  }

  private fail(failure: RedisFailure): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(failure);
    if (this.gone) return;
    this.gone = true;
    this.socket.destroy();
    this.onGone(this);
  }
}

function connected(target: RedisTarget, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket =
      target.path !== undefined
        ? netConnect({ path: target.path })
        : target.tls
          ? tlsConnect({ host: target.host, port: target.port, ...(isIP(target.host) === 0 ? { servername: target.host } : {}) })
          : netConnect({ host: target.host, port: target.port });
    const settle = (error: RedisFailure | undefined): void => {
      signal.removeEventListener('abort', onAbort);
      socket.removeListener('error', onError);
      socket.removeListener(target.tls ? 'secureConnect' : 'connect', onConnect);
      if (error === undefined) {
        resolve(socket);
        return;
      }
      socket.destroy();
      reject(error);
    };
    const onAbort = (): void => settle(new RedisFailure(ABORTED));
    const onError = (error: NodeJS.ErrnoException): void => settle(new RedisFailure(`the connection failed (${errorCode(error)})`));
    const onConnect = (): void => settle(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once(target.tls ? 'secureConnect' : 'connect', onConnect);
  });
}

function socketReason(error: NodeJS.ErrnoException): string {
  return `the connection failed (${errorCode(error)})`;
}

/** A socket or TLS error's code (`ECONNREFUSED`, `CERT_HAS_EXPIRED`…): a fixed word, never the message (it names the host). */
function errorCode(error: NodeJS.ErrnoException): string {
  const code = typeof error.code === 'string' && /^[A-Z0-9_]{1,60}$/.test(error.code) ? error.code : undefined;
  return code ?? 'socket error';
}
