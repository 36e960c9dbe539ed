/**
 * The wire under {@link KubeClient}: kept-alive connection pools per client (so per runtime), closed by
 * {@link Transport.close}. client-node's own transport opens a new TCP (and TLS) connection for every request; this
 * one reuses them.
 *
 * Requests go over a kept-alive node:http(s) agent by default. An undici pool (transport-undici.ts, `engine:
 * 'undici'`) costs the operator's thread less per request in bench/transport.ts, but in bench/scale (100 CRDs x 1,000)
 * it raised the runtime's peak RSS from 483 to 636 MiB for the same throughput and CPU, so it is not the default
 * (docs/performance.md#the-transport-undici-against-nodehttp). With undici, each connection takes up to
 * {@link DEFAULT_PIPELINING} requests: GETs may be pipelined, writes are only queued (undici writes a non-idempotent request on a connection with nothing else in flight), and
 * only a GET whose connection closed before any answer is sent again. Watches stream over a node:http agent of their
 * own: a watch holds its connection for minutes, and nothing may queue behind it; the watch reader takes node:http's
 * response stream.
 *
 * Credentials still come from client-node: every request asks the KubeConfig for its options
 * (`applyToHTTPSOptions`, public in client-node 1.x and 2.x; reused while they cannot change, see credentials.ts),
 * so tokens that exec plugins or OIDC refresh stay current, and a change of TLS material (an exec plugin's rotated
 * client certificate) opens new pools. A cluster with a `proxy-url` keeps the proxy agent client-node builds for it,
 * with node:http for requests too.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions as HttpsRequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { Credentials } from './credentials.js';
import { IdleSocketSweeper } from './idle-sockets.js';
import { HeaderLists } from './request-headers.js';
import { AbortError, UnansweredError, UndiciPool } from './transport-undici.js';

/** Idle connections are closed after this long; servers usually keep them 5–90 s. */
const IDLE_SOCKET_MS = 30_000;
/** Idle connections kept per pool; more than the runtime's usual concurrency. */
const MAX_IDLE_SOCKETS = 64;
/**
 * Requests a connection takes before undici opens another: a request ready just as the connection's previous
 * answer ended waits for it instead of opening a second connection (bench/transport.ts; docs/performance.md).
 */
const DEFAULT_PIPELINING = 2;
/** Errors that mean an idle kept-alive connection was closed by the server as we reused it. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export interface TransportRequest {
  readonly method: string;
  /** Path and query string, e.g. `/api/v1/namespaces?limit=5`. */
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface TransportResponse {
  readonly status: number;
  readonly text: string;
}

/** Which HTTP client sends the requests (watches always use node:http). */
export type TransportEngine = 'undici' | 'node:http';

export interface TransportOptions {
  /** Default `node:http`; clusters with a `proxy-url` always use node:http with client-node's proxy agent. */
  readonly engine?: TransportEngine;
  /** Requests queued per connection with undici (GETs pipelined, writes only queued); default 2. */
  readonly pipelining?: number;
}

/** TLS options that decide which pool a request may use. */
const TLS_FIELDS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;
type TlsOptions = Pick<HttpsRequestOptions, (typeof TLS_FIELDS)[number]>;

/** A kept-alive HTTP(S) connection pool to the API server of one KubeConfig. */
export class Transport {
  private agent: HttpAgent | undefined;
  private undici: UndiciPool | undefined;
  private readonly retiredUndici: UndiciPool[] = [];
  private readonly engine: TransportEngine;
  private readonly pipelining: number;
  private tls: TlsOptions = {};
  /** The credentials the current pool was last checked against (reused ones need no second look). */
  private checked: HttpsRequestOptions | undefined;
  private readonly retired: HttpAgent[] = [];
  /** Closes the idle connections of the current and retired agents (one per agent). */
  private readonly sweepers = new Map<HttpAgent, IdleSocketSweeper>();
  private readonly streams = new Set<ClientRequest>();
  private closed = false;
  private readonly secure: boolean;
  private readonly url: URL;
  /** The URL's path without its trailing slash, put before every request's path. */
  private readonly base: string;
  private readonly proxied: boolean;
  private readonly credentials: Credentials;
  private readonly headerLists: HeaderLists;

  constructor(kubeConfig: KubeConfig, options: TransportOptions = {}) {
    this.credentials = new Credentials(kubeConfig);
    const cluster = kubeConfig.getCurrentCluster();
    this.url = new URL(cluster?.server ?? 'http://localhost');
    this.secure = this.url.protocol === 'https:';
    this.base = basePath(this.url);
    this.headerLists = new HeaderLists(this.url.host);
    this.proxied = cluster?.proxyUrl !== undefined && cluster.proxyUrl !== '';
    this.engine = this.proxied ? 'node:http' : (options.engine ?? 'node:http');
    this.pipelining = options.pipelining ?? DEFAULT_PIPELINING;
  }

  /** Connections open now (in use and idle), for tests and benchmarks. */
  get openSockets(): number {
    const count = (agent: HttpAgent): number =>
      [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)].reduce((sum, list) => sum + (list?.length ?? 0), 0);
    const undici = [this.undici, ...this.retiredUndici].reduce((sum, pool) => sum + (pool?.openSockets ?? 0), 0);
    return undici + [this.agent, ...this.retired].reduce((sum, agent) => sum + (agent === undefined ? 0 : count(agent)), 0);
  }

  /**
   * Sends a request and reads the whole answer. An idle connection the server closed just as it was reused is
   * retried once on a fresh one (the request never reached the server's handler).
   */
  async request(request: TransportRequest): Promise<TransportResponse> {
    if (this.engine === 'undici') return this.undiciRequest(request);
    try {
      return await this.once(request);
    } catch (error) {
      if (!(error instanceof StaleSocketError)) throw error;
      return this.once(request);
    }
  }

  /** Opens a streaming GET (a watch); the caller reads the answer and aborts or ends it. Closed by `close()` too. */
  async stream(path: string, headers: OutgoingHttpHeaders, signal: AbortSignal): Promise<IncomingMessage> {
    const options = this.options('GET', path, headers, undefined, signal, await this.credentials.options());
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = this.send(options, signal);
      this.streams.add(req);
      req.on('close', () => this.streams.delete(req));
      req.on('response', resolve);
      req.on('error', reject);
      req.on('close', () => reject(closedError(signal)));
      req.end();
    });
  }

  /** Ends every connection, streaming or idle. Requests after this fail. Idempotent. */
  close(): void {
    this.closed = true;
    for (const req of this.streams) req.destroy();
    this.streams.clear();
    this.agent?.destroy();
    for (const agent of this.retired) agent.destroy();
    this.retired.length = 0;
    for (const sweeper of this.sweepers.values()) sweeper.stop();
    this.sweepers.clear();
    // destroy() rejects only for a pool already destroyed: nothing is left open then.
    for (const pool of [this.undici, ...this.retiredUndici]) pool?.destroy().catch(() => undefined);
    this.retiredUndici.length = 0;
  }

  private async undiciRequest(request: TransportRequest): Promise<TransportResponse> {
    const { headers, pool } = await this.undiciOptions(request);
    const sent = { method: request.method, path: this.base + request.path, headers, body: request.body, signal: request.signal };
    try {
      return await pool.request(sent);
    } catch (error) {
      // Only a GET is sent again: a write may have reached the server's handler before the connection broke.
      if (!(error instanceof UnansweredError) || request.method !== 'GET' || this.closed) throw this.closedOr(error);
      return pool.request(sent).catch((retried: unknown) => Promise.reject(this.closedOr(retried)));
    }
  }

  private closedOr(error: unknown): unknown {
    return this.closed && !(error instanceof AbortError) ? new Error('the Kubernetes client is closed', { cause: error }) : error;
  }

  private async undiciOptions(request: TransportRequest): Promise<{ headers: OutgoingHttpHeaders; pool: UndiciPool }> {
    if (this.closed) throw new Error('the Kubernetes client is closed');
    request.signal?.throwIfAborted();
    const given = await this.credentials.options();
    if (this.closed) throw new Error('the Kubernetes client is closed');
    const headers: OutgoingHttpHeaders = { ...(given.headers as OutgoingHttpHeaders | undefined), ...request.headers };
    if (given.auth !== undefined && given.auth !== null) headers['Authorization'] = `Basic ${Buffer.from(given.auth).toString('base64')}`;
    this.matchTls(given);
    this.undici ??= new UndiciPool(this.url.origin, this.tls, this.pipelining);
    return { headers, pool: this.undici };
  }

  /**
   * One exchange. Credentials that are reused (credentials.ts) are taken without waiting: no promise and no turn of
   * the event loop between the call and the request's first bytes.
   */
  private once(request: TransportRequest): Promise<TransportResponse> {
    const given = this.credentials.reused();
    if (given === undefined) return this.credentials.options().then((fresh) => this.exchange(request, fresh));
    return this.exchange(request, given);
  }

  private exchange(request: TransportRequest, given: HttpsRequestOptions): Promise<TransportResponse> {
    return new Promise<TransportResponse>((resolve, reject) => {
      const body = request.body;
      // Throws (so rejects) when the client is closed or the signal fired.
      const options = this.options(request.method, request.path, request.headers, body === undefined ? undefined : Buffer.byteLength(body), request.signal, given);
      let settled = false;
      const fail = (error: Error): void => {
        settled = true;
        reject(error);
      };
      const req = this.send(options, request.signal);
      req.on('error', (error: NodeJS.ErrnoException) => {
        // An abort destroys the request, which then fails with "socket hang up": say it was the abort.
        if (request.signal?.aborted === true) fail(new AbortError(request.signal.reason));
        else fail(req.reusedSocket && error.code !== undefined && STALE_SOCKET_CODES.has(error.code) ? new StaleSocketError(error) : error);
      });
      // Settles a request destroyed without an error (an abort). Every request closes, so the error (a stack
      // capture) is only made when nothing settled the request before.
      req.on('close', () => {
        if (!settled) fail(closedError(request.signal));
      });
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          settled = true;
          resolve({ status: res.statusCode ?? 0, text: chunks.length === 1 ? (chunks[0]?.toString('utf8') ?? '') : Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end(body);
    });
  }

  /** Starts a request; `signal` destroys it, unless its answer was already read and the connection handed back. */
  private send(options: RequestOptions, signal: AbortSignal | undefined): ClientRequest {
    const req = this.secure ? httpsRequest(options) : httpRequest(options);
    if (signal === undefined) return req;
    // Destroyed without an error object: the socket may already be detached from the request (the answer read in
    // full, 'end' not emitted yet), and an error would then be emitted on a socket nobody listens to.
    const onAbort = (): void => {
      req.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const release = (): void => signal.removeEventListener('abort', onAbort);
    req.on('close', release);
    req.on('response', (res: IncomingMessage) => res.on('end', release));
    if (signal.aborted) onAbort();
    return req;
  }

  /**
   * Request options with the credentials `given`, on the pool that matches their TLS material.
   *
   * node:http copies a request's options three times (the request, the agent's copy, merged with the agent's own
   * options), and each copy costs more the more fields there are: so the options hold only what node:http reads
   * (`host`, not `protocol` and `hostname`), and the headers go as a list built once (request-headers.ts). node:http
   * cannot add `Content-Length` to a list, so the list carries it: a DELETE's (or GET's) body is otherwise framed by
   * nothing, and the server would read it as the next request. Through a proxy (client-node's agent, which may set
   * headers of its own), the options are as node:http documents them in full.
   */
  private options(
    method: string,
    path: string,
    headers: OutgoingHttpHeaders,
    bodyLength: number | undefined,
    signal: AbortSignal | undefined,
    given: HttpsRequestOptions,
  ): RequestOptions {
    // The signal is watched by `send`, not given to node:http: node:http would destroy the socket when the signal
    // fires after the answer was read, and the socket may then be serving another request from the pool.
    if (this.closed) throw new Error('the Kubernetes client is closed');
    signal?.throwIfAborted();
    if (this.proxied) {
      const options: RequestOptions = {
        protocol: this.url.protocol,
        hostname: this.url.hostname,
        port: this.url.port,
        path: this.base + path,
        method,
        headers: { ...given.headers, ...headers, ...(bodyLength === undefined ? {} : { 'Content-Length': bodyLength }) },
        agent: given.agent as HttpAgent | undefined,
      };
      if (given.auth !== undefined && given.auth !== null) options.auth = given.auth;
      return options;
    }
    const agent = this.pool(given);
    return { host: this.url.hostname, port: this.url.port, path: this.base + path, method, headers: this.headerLists.list(given, headers, bodyLength), agent };
  }

  /**
   * Keeps the current pools when `given` carries the TLS material they were opened with; otherwise retires them
   * (a retired undici pool closes once its requests are answered) so the next request opens new ones.
   */
  private matchTls(given: HttpsRequestOptions): void {
    const open = this.agent !== undefined || this.undici !== undefined;
    if (open && (given === this.checked || sameTls(this.tls, given))) {
      this.checked = given;
      return;
    }
    this.checked = given;
    if (this.agent !== undefined) this.retired.push(this.agent);
    if (this.undici !== undefined) {
      this.retiredUndici.push(this.undici);
      // close() rejects only for a pool already closed or destroyed: nothing is left open then.
      this.undici.close().catch(() => undefined);
    }
    this.agent = undefined;
    this.undici = undefined;
    const tls: TlsOptions = {};
    for (const field of TLS_FIELDS) if (given[field] !== undefined) Object.assign(tls, { [field]: given[field] });
    this.tls = tls;
  }

  private pool(given: HttpsRequestOptions): HttpAgent {
    this.matchTls(given);
    if (this.agent !== undefined) return this.agent;
    const tls = this.tls;
    // No `timeout` option: the sweeper closes idle connections without a socket timer per request (idle-sockets.ts).
    // The agent's options are copied into every request's (see `options`): `scheduling` is left at its default
    // ('lifo'), and `maxFreeSockets` is set on the agent, where node:http reads it.
    const common = { keepAlive: true, keepAliveMsecs: 30_000 };
    const agent = this.secure ? new HttpsAgent({ ...common, ...tls }) : new HttpAgent(common);
    agent.maxFreeSockets = MAX_IDLE_SOCKETS;
    this.sweepers.set(agent, new IdleSocketSweeper(agent, IDLE_SOCKET_MS));
    this.agent = agent;
    return agent;
  }
}

/** The error of a request sent on a reused connection that the server had closed. */
class StaleSocketError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}

function closedError(signal: AbortSignal | undefined): Error {
  return signal?.aborted === true ? new AbortError(signal.reason) : new Error('the connection closed before the answer was complete');
}

function basePath(url: URL): string {
  return url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
}

function sameTls(current: TlsOptions, given: HttpsRequestOptions): boolean {
  return TLS_FIELDS.every((field) => sameValue(current[field], given[field]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (typeof a === 'string' && Buffer.isBuffer(b)) return b.equals(Buffer.from(a));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  return false;
}
