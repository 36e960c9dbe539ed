/**
 * External calls in the normalised definition (Orkestra's `external:` blocks): HTTP requests made before a
 * reconcile (`operatorBox.external`, Orkestra's `hooks.external` too) or before the pre-reconcile gates
 * (`preReconcile.external` and each gate's own), whose results the templates and conditions read as
 * `.external.<name>.status` / `.body` / `.headers` / `.error` / `.called` (HTTP), `.result` / `.raw` / `.error` /
 * `.called` (a Prometheus instant query), or the map of a protocol client (`redis`, `postgres`, `mongo`, `kafka`:
 * operatorbox/external-protocol.ts). Re-exported by types.ts.
 */
import type { Condition } from './types.js';

export const EXTERNAL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ExternalMethod = (typeof EXTERNAL_METHODS)[number];

/**
 * `http` (the default): one request as written; `prometheus`: an instant query, `GET <url>/api/v1/query?query=…`;
 * the others (Orkestra's stateful protocols) are made by a protocol client: a built-in one or the host's
 * (`externalProtocols` option), with the call's rendered `url` and `query`.
 */
export const EXTERNAL_PROTOCOLS = ['http', 'prometheus', 'redis', 'postgres', 'mongo', 'kafka'] as const;
export type ExternalProtocol = (typeof EXTERNAL_PROTOCOLS)[number];

/** The protocols a protocol client makes (not katalog's HTTP client). */
export const CLIENT_PROTOCOLS = ['redis', 'postgres', 'mongo', 'kafka'] as const;
export type ClientProtocol = (typeof CLIENT_PROTOCOLS)[number];

/** True for a protocol a protocol client makes. */
export function isClientProtocol(protocol: ExternalProtocol): protocol is ClientProtocol {
  return protocol !== 'http' && protocol !== 'prometheus';
}

/** The largest `poolSize` a call may ask for. */
export const MAX_EXTERNAL_POOL_SIZE = 64;

/** Default time a call may take, request to last byte (Orkestra's hooks.external default). */
export const DEFAULT_EXTERNAL_TIMEOUT_MS = 5000;
/** Default largest response body a call accepts; a larger one fails the call (it is never truncated). */
export const DEFAULT_EXTERNAL_MAX_BYTES = 64 * 1024;
/** The largest `maxResponseBytes` a definition may ask for. */
export const MAX_EXTERNAL_MAX_BYTES = 4 * 1024 * 1024;

/** The longest `sleep` a call may ask for, and the longest a call's retries may take in all (the default reconcileTimeout). */
export const MAX_EXTERNAL_WAIT_MS = 5 * 60_000;

/**
 * A call's own `retryBackoff` (Orkestra's `RetryBackoffConfig` on an external call): a failed attempt is made
 * again within the same cycle after `initialMs`, then `× multiplier` each time up to `maxMs`, until `maxAttempts`
 * attempts (the first included) have failed. Orkestra's defaults fill what the document leaves out.
 */
export interface ExternalRetry {
  readonly maxAttempts: number;
  readonly initialMs: number;
  readonly maxMs: number;
  readonly multiplier: number;
}

/** Orkestra's defaults for an external call's `retryBackoff` (pkg/types: initial 500ms, max 30s, ×2, 3 attempts). */
export const DEFAULT_EXTERNAL_RETRY: ExternalRetry = Object.freeze({ maxAttempts: 3, initialMs: 500, maxMs: 30_000, multiplier: 2 });

/** The waits between the attempts of `retry`, in order (one fewer than the attempts). */
export function retryDelays(retry: ExternalRetry): number[] {
  const delays: number[] = [];
  let delay = retry.initialMs;
  for (let attempt = 1; attempt < retry.maxAttempts; attempt += 1) {
    delays.push(delay);
    delay = Math.min(retry.maxMs, delay * retry.multiplier);
  }
  return delays;
}

/** Where a call's credential comes from: one key of a Secret, read for each call (a rotation is seen at once). */
export interface ExternalAuth {
  readonly secretRef: {
    readonly name: string;
    /** Absent: the namespace of the custom resource being reconciled. */
    readonly namespace: string | undefined;
    readonly key: string;
  };
  /** The header the credential goes into: absent = `Authorization: Bearer <credential>`; else `<header>: <credential>`. */
  readonly header: string | undefined;
}

/**
 * One call. `url`, `body`, `query` and header values are templates over the custom resource and earlier results.
 * A `prometheus` call is a GET with no body and no `expectedStatus` (the loader refuses them); a client protocol's
 * call has a `query` and none of the HTTP fields (`method`, `headers`, `body`, `expectedStatus`,
 * `maxResponseBytes`, `auth.header`).
 */
export interface ExternalCall {
  /** The key under `.external`. */
  readonly name: string;
  readonly protocol: ExternalProtocol;
  /** `http`: the request URL; `prometheus`: the server's base URL (or its `/api/v1/query` endpoint); others: the connection string. */
  readonly url: string;
  /** The PromQL of a `prometheus` call, the command / statement / topic of a client protocol's; undefined for `http`. */
  readonly query: string | undefined;
  /** A client protocol's most connections per server (Orkestra's `poolSize`); undefined = the client's default. */
  readonly poolSize?: number;
  readonly method: ExternalMethod;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** The status that means success; absent = any 2xx. */
  readonly expectedStatus: number | undefined;
  /** true: a failed call leaves its `.error` set and the cycle goes on; false (default): the cycle fails. */
  readonly continueOnError: boolean;
  /** Reuse a result for this long (same call, same rendered URL, body and headers); absent = call every time. */
  readonly cacheForMs: number | undefined;
  readonly auth: ExternalAuth | undefined;
  /** The call is made only when these hold (all `when`, one of `anyOf`); a skipped call has `.called` "false". */
  readonly when: readonly Condition[];
  readonly anyOf: readonly Condition[];
  /** A delay before each request of the call (Orkestra's `sleep`), on the runtime's clock; absent = none. */
  readonly sleepMs?: number;
  /** Retry a failed call within the cycle; absent = one attempt (the cycle's retry is the runtime's). */
  readonly retry?: ExternalRetry;
  /** false: the call is not made at reconcile (`fires.reconcile: false`); its result reads `called: "false"`. */
  readonly firesAtReconcile?: boolean;
  /** The document path of the call, for messages. */
  readonly path: string;
}

/** What a gate does when one of its calls fails: `open` lets the object through, `closed` fails the cycle. */
export type GateFailPolicy = 'open' | 'closed';
