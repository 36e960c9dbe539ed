/**
 * One undici connection pool to one API server with one set of TLS material: the request half of
 * {@link Transport}. Each request is dispatched with a handler that only collects the answer's bytes (no response
 * stream, no header object built for the caller), which is where undici is cheaper per request than node:http.
 *
 * Writes are never pipelined: undici sends a non-idempotent request (POST, PUT, PATCH, DELETE) only on a
 * connection with nothing else in flight, so a broken connection never leaves a write unanswered behind another
 * request, and undici never resends one on its own. Only GETs may share a connection when `pipelining` > 1.
 */
import { Pool, type Dispatcher } from 'undici';
import type { OutgoingHttpHeaders } from 'node:http';
import type { RequestOptions as HttpsRequestOptions } from 'node:https';

/** How long an idle connection is kept when the server does not say (its `Keep-Alive: timeout=` wins). */
const IDLE_SOCKET_MS = 30_000;

export interface PoolRequest {
  readonly method: string;
  /** Path and query string, including the server URL's base path. */
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** TLS options of the pool's connections (client-node's `applyToHTTPSOptions` answer). */
export type PoolTls = Pick<HttpsRequestOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'rejectUnauthorized' | 'servername'>;

export class UndiciPool {
  private readonly pool: Pool;

  /** `pipelining`: GETs in flight per connection (1 = none). */
  constructor(origin: string, tls: PoolTls, pipelining: number) {
    this.pool = new Pool(origin, {
      connections: null,
      pipelining,
      keepAliveTimeout: IDLE_SOCKET_MS,
      keepAliveMaxTimeout: IDLE_SOCKET_MS,
      connect: tls as Record<string, unknown>,
    });
  }

  /** Connections open now (in use and idle). */
  get openSockets(): number {
    return this.pool.stats.connected;
  }

  /** Sends a request and collects its whole answer. */
  request(request: PoolRequest): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const handler = new CollectingHandler(resolve, reject);
      const options: Dispatcher.DispatchOptions = {
        method: request.method as Dispatcher.HttpMethod,
        path: request.path,
        headers: request.headers as Record<string, string>,
        body: request.body ?? null,
      };
      const signal = request.signal;
      if (signal !== undefined) {
        if (signal.aborted) {
          reject(new AbortError(signal.reason));
          return;
        }
        const onAbort = (): void => handler.abort(new AbortError(signal.reason));
        signal.addEventListener('abort', onAbort, { once: true });
        handler.release = () => signal.removeEventListener('abort', onAbort);
      }
      this.pool.dispatch(options, handler);
    });
  }

  /** Ends every connection at once; requests in flight fail. */
  destroy(): Promise<void> {
    return this.pool.destroy();
  }

  /** Closes every connection once the requests in flight are answered; new requests fail. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Collects an answer's bytes; settles once. */
class CollectingHandler implements Dispatcher.DispatchHandler {
  release: () => void = () => undefined;
  private controller: Dispatcher.DispatchController | undefined;
  private pendingAbort: Error | undefined;
  private status = 0;
  private readonly chunks: Buffer[] = [];
  private settled = false;

  constructor(
    private readonly resolve: (answer: { status: number; text: string }) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  abort(error: Error): void {
    if (this.controller === undefined) this.pendingAbort = error;
    else this.controller.abort(error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.pendingAbort !== undefined) controller.abort(this.pendingAbort);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.status = statusCode;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    this.release();
    const { chunks } = this;
    this.resolve({ status: this.status, text: chunks.length === 1 ? (chunks[0]?.toString('utf8') ?? '') : Buffer.concat(chunks).toString('utf8') });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.release();
    const lost = this.status === 0 && (error as { code?: unknown }).code === 'UND_ERR_SOCKET';
    this.reject(lost ? new UnansweredError(error) : error);
  }
}

/** The error of a request whose AbortSignal fired. */
export class AbortError extends Error {
  override readonly name = 'AbortError';
  constructor(reason: unknown) {
    super(`the request was aborted${reason instanceof Error ? `: ${reason.message}` : ''}`, { cause: reason });
  }
}

/** The error of a request whose connection the server closed before any byte of an answer came back. */
export class UnansweredError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}
