/**
 * The seam between external calls (external-calls.ts) and the clients of Orkestra's non-HTTP protocols (`redis`,
 * `postgres`, `mongo`, `kafka`). The runtime ships built-in clients for some protocols; a host registers its own
 * through the `externalProtocols` option of `createRuntime` and of the admission router, replacing a built-in or
 * adding one katalog lacks.
 */

/** One call of a protocol client: everything the call's definition and the reconcile decide, rendered. */
export interface ExternalProtocolRequest {
  /** The call's name (the key under `.external`), for messages; never the URL. */
  readonly call: string;
  /** The rendered `url` (it may carry a password: never put it into a result, an error or a log). */
  readonly url: string;
  /** The rendered `query` (Orkestra's `query:`: a command, a SQL statement, a topic…); '' when absent. */
  readonly query: string;
  /** The credential read from `auth.secretRef`, if the call has one; never logged, never part of a result. */
  readonly credential: string | undefined;
  /** The call's timeout: the whole call, connection included, must end within it. */
  readonly timeoutMs: number;
  /** The call's `poolSize` (most connections kept to one server); undefined = the client's default. */
  readonly poolSize: number | undefined;
  /** Aborted when the reconcile's or the admission request's budget ends, or the runtime stops. */
  readonly signal: AbortSignal;
}

/**
 * A client of one protocol. The runtime calls `fetch` once per attempt of a call (retries, `cacheFor`, conditions
 * and `continueOnError` are the runtime's), and `close` once when it stops.
 */
export interface ExternalProtocolClient {
  /**
   * Makes the call and resolves with Orkestra's result map for this protocol (what `.external.<name>` holds).
   * A failure of the call (connection refused, timeout, a server error reply) is not a rejection: it resolves with
   * a map whose `error` is a non-empty string, as Orkestra's Fetch does; that string never carries the URL or the
   * credential. A rejection is treated as a failure of the call whose reason is the error's message.
   */
  fetch(request: ExternalProtocolRequest): Promise<Readonly<Record<string, unknown>>>;
  /** Closes pooled connections; called by `runtime.stop()` and the admission router's `close()`. */
  close?(): Promise<void>;
}
