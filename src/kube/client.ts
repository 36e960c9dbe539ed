/**
 * The only door to the API server. Every request katalog makes goes through {@link KubeClient}, which takes
 * `@kubernetes/client-node`'s configuration and authentication (so every auth method a KubeConfig supports works)
 * but sends and reads plain JSON itself, over its own kept-alive {@link Transport}: no typed serializer in between,
 * so no field of a custom resource is ever dropped, `continue` tokens survive on every kind, and connections are
 * reused. {@link KubeClient.close} ends them all.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { KubeError, toError } from '../errors.js';
import { sleep, systemClock, type Clock } from '../util/clock.js';
import { TokenBucket } from '../util/token-bucket.js';
import { VERSION } from '../util/version.js';
import { collectionPath, objectPath, type KubeObject, type ResourceRef } from './resource.js';
import { withoutManagedFields } from './managed-fields-cut.js';
import { Transport, type TransportOptions } from './transport.js';
import { readWatchLines } from './watch-lines.js';

/** Query parameters; undefined values are left out. */
type Query = Readonly<Record<string, string | number | boolean | undefined>>;

interface RequestOptions {
  readonly query?: Query;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly signal?: AbortSignal | undefined;
  /** The answer is parsed without its `metadata.managedFields` where they can be cut safely (managed-fields-cut.ts). */
  readonly withoutManagedFields?: boolean | undefined;
}

export interface ListOptions {
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  readonly limit?: number;
  readonly continue?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface ListPage {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
  readonly continue: string | undefined;
}

export interface WatchOptions {
  readonly namespace?: string | undefined;
  readonly resourceVersion?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  readonly timeoutSeconds?: number;
  readonly allowWatchBookmarks?: boolean;
  /**
   * A streaming list: the server first sends its state as ADDED events, then a bookmark annotated
   * `k8s.io/initial-events-end` (with `allowWatchBookmarks`), then the changes. Sent with
   * `resourceVersionMatch=NotOlderThan`, which kube-apiserver requires with it.
   */
  readonly sendInitialEvents?: boolean;
  /**
   * Events' objects arrive without `metadata.managedFields`, cut from each event's text before it is parsed
   * (kube/managed-fields-cut.ts; where the cut is not certain, the event is parsed whole and keeps them). For caches
   * that drop the field anyway: it is not built only to be dropped. Default false.
   */
  readonly withoutManagedFields?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** A running watch: `done` settles once, when the stream ends (cleanly, with an error, or through `abort()`). */
export interface WatchHandle {
  readonly done: Promise<{ error: Error | undefined }>;
  abort(): void;
}

export type PatchType = 'merge' | 'json' | 'strategic';

const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface KubeClientOptions {
  /** Sent as `User-Agent`; default `katalog/<version>`. */
  readonly userAgent?: string;
  /**
   * Client-side rate limit of requests (watches excepted): `qps` per second with bursts of `burst`. Off by default,
   * as in controller-runtime since v0.15: the API server's priority and fairness is the better throttle.
   */
  readonly rateLimit?: { readonly qps: number; readonly burst: number };
  /** Time source of the rate limit. */
  readonly clock?: Clock;
  /** The HTTP client under the requests (default node:http; see transport.ts for why undici is not the default). */
  readonly transport?: TransportOptions;
}

/** JSON over HTTP to one API server, with errors that say which request failed and why. */
export class KubeClient {
  readonly kubeConfig: KubeConfig;
  /** The connection pool every request and watch of this client uses. */
  readonly transport: Transport;
  private readonly userAgent: string;
  private readonly bucket: TokenBucket | undefined;
  private readonly clock: Clock;
  private readonly readHeaders: Readonly<Record<string, string>>;
  /** Header sets of requests with a body, by Content-Type. */
  private readonly bodyHeaders = new Map<string, Readonly<Record<string, string>>>();

  constructor(kubeConfig: KubeConfig, options: KubeClientOptions = {}) {
    this.kubeConfig = kubeConfig;
    this.transport = new Transport(kubeConfig, options.transport);
    this.userAgent = options.userAgent ?? `katalog/${VERSION}`;
    this.readHeaders = Object.freeze({ Accept: 'application/json', 'User-Agent': this.userAgent });
    this.clock = options.clock ?? systemClock;
    this.bucket = options.rateLimit === undefined ? undefined : new TokenBucket({ ...options.rateLimit, clock: this.clock });
  }

  /** The API server's URL, for messages. */
  get server(): string {
    return this.kubeConfig.getCurrentCluster()?.server ?? '(no cluster)';
  }

  /** Sends one request and returns the parsed JSON body; throws {@link KubeError} on a non-2xx answer or no answer. */
  async request<T = unknown>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    // The header sets are built once per client and shared (the transport copies them); the length of the body is
    // counted by the HTTP client as it encodes it, so it is not counted here a second time.
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers = body === undefined ? this.readHeaders : this.writeHeaders(options.contentType ?? 'application/json');
    const wait = this.bucket?.reserve() ?? 0;
    if (wait > 0) await sleep(this.clock, wait, options.signal);
    let response;
    try {
      response = await this.transport.request({ method, path: path + queryString(options.query), headers, body, signal: options.signal });
    } catch (error) {
      const cause = toError(error);
      throw new KubeError(`${method} ${path} on ${this.server} failed: ${cause.message}`, {}, { cause });
    }
    const { status, text } = response;
    if (status < 200 || status > 299) throw statusError(method, path, status, text);
    if (text === '') return undefined as T;
    try {
      return JSON.parse(options.withoutManagedFields === true ? withoutManagedFields(text, 'object') : text) as T;
    } catch (error) {
      throw new KubeError(`${method} ${path}: the answer is not JSON`, { status }, { cause: error });
    }
  }

  private writeHeaders(contentType: string): Readonly<Record<string, string>> {
    let headers = this.bodyHeaders.get(contentType);
    if (headers === undefined) {
      headers = Object.freeze({ ...this.readHeaders, 'Content-Type': contentType });
      // katalog itself sends four content types; a caller of request() may send others, which are not all kept.
      if (this.bodyHeaders.size < 16) this.bodyHeaders.set(contentType, headers);
    }
    return headers;
  }

  /** Closes every connection of this client (idle, in use and watching). Requests after this fail. Idempotent. */
  close(): void {
    this.transport.close();
  }

  /** One page of a list. */
  async list(ref: ResourceRef, options: ListOptions = {}): Promise<ListPage> {
    const list = await this.request<{ items?: KubeObject[]; metadata?: { resourceVersion?: string; continue?: string } }>(
      'GET',
      collectionPath(ref, options.namespace),
      {
        query: {
          labelSelector: options.labelSelector,
          fieldSelector: options.fieldSelector,
          limit: options.limit,
          continue: options.continue,
        },
        signal: options.signal,
      },
    );
    const items = list.items ?? [];
    for (const item of items) {
      // Lists of built-in kinds omit kind and apiVersion on their items; put them back so every object is whole.
      item.apiVersion ??= ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
      item.kind ??= ref.kind;
    }
    const token = list.metadata?.continue;
    return { items, resourceVersion: list.metadata?.resourceVersion ?? '', continue: token === undefined || token === '' ? undefined : token };
  }

  /** Reads one object; `undefined` when it does not exist. */
  async get(ref: ResourceRef, name: string, namespace?: string, signal?: AbortSignal): Promise<KubeObject | undefined> {
    try {
      return await this.request<KubeObject>('GET', objectPath(ref, name, namespace), { signal });
    } catch (error) {
      if (error instanceof KubeError && error.status === 404) return undefined;
      throw error;
    }
  }

  async create(ref: ResourceRef, object: KubeObject, options: { fieldManager?: string; signal?: AbortSignal } = {}): Promise<KubeObject> {
    return this.request<KubeObject>('POST', collectionPath(ref, object.metadata?.namespace), {
      body: object,
      query: { fieldManager: options.fieldManager },
      signal: options.signal,
    });
  }

  /**
   * Server-side apply (`application/apply-patch+yaml`; JSON is YAML). With `withoutManagedFields`, the answer comes
   * back without its `metadata.managedFields` (cut before parsing where that is safe; for callers that drop them).
   */
  async apply(
    ref: ResourceRef,
    object: KubeObject,
    options: { fieldManager: string; force?: boolean; subresource?: string; signal?: AbortSignal | undefined; withoutManagedFields?: boolean },
  ): Promise<KubeObject> {
    const name = object.metadata?.name ?? '';
    return this.request<KubeObject>('PATCH', objectPath(ref, name, object.metadata?.namespace, options.subresource), {
      body: object,
      contentType: 'application/apply-patch+yaml',
      query: { fieldManager: options.fieldManager, force: options.force },
      signal: options.signal,
      withoutManagedFields: options.withoutManagedFields,
    });
  }

  /** A patch (merge by default); `withoutManagedFields` as for {@link KubeClient.apply}. */
  async patch(
    ref: ResourceRef,
    name: string,
    namespace: string | undefined,
    patch: unknown,
    options: { type?: PatchType; subresource?: string; fieldManager?: string; signal?: AbortSignal | undefined; withoutManagedFields?: boolean } = {},
  ): Promise<KubeObject> {
    return this.request<KubeObject>('PATCH', objectPath(ref, name, namespace, options.subresource), {
      body: patch,
      contentType: PATCH_CONTENT_TYPES[options.type ?? 'merge'],
      query: { fieldManager: options.fieldManager },
      signal: options.signal,
      withoutManagedFields: options.withoutManagedFields,
    });
  }

  async replace(ref: ResourceRef, object: KubeObject, options: { subresource?: string; signal?: AbortSignal } = {}): Promise<KubeObject> {
    const name = object.metadata?.name ?? '';
    return this.request<KubeObject>('PUT', objectPath(ref, name, object.metadata?.namespace, options.subresource), {
      body: object,
      signal: options.signal,
    });
  }

  /** Deletes an object; resolves `false` when it was already gone. */
  async delete(
    ref: ResourceRef,
    name: string,
    namespace?: string,
    options: { propagationPolicy?: 'Background' | 'Foreground' | 'Orphan'; signal?: AbortSignal | undefined } = {},
  ): Promise<boolean> {
    try {
      await this.request('DELETE', objectPath(ref, name, namespace), {
        body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: options.propagationPolicy ?? 'Background' },
        signal: options.signal,
      });
      return true;
    } catch (error) {
      if (error instanceof KubeError && error.status === 404) return false;
      throw error;
    }
  }

  /**
   * Opens a watch stream. Every event goes to `onEvent` (exceptions thrown there, and lines that are not JSON, end
   * the stream with that error rather than being swallowed). The handle's `done` settles once: with no error when
   * the server ends the stream, with the error otherwise; `abort()` settles it with no error.
   */
  watch(ref: ResourceRef, options: WatchOptions, onEvent: (type: WatchEventType, object: KubeObject) => void): WatchHandle {
    const controller = new AbortController();
    let settle: (result: { error: Error | undefined }) => void = () => undefined;
    const done = new Promise<{ error: Error | undefined }>((resolve) => {
      settle = resolve;
    });
    let settled = false;
    const finish = (error: Error | undefined): void => {
      if (settled) return;
      settled = true;
      controller.abort();
      settle({ error });
    };
    const path =
      collectionPath(ref, options.namespace) +
      queryString({
        watch: true,
        resourceVersion: options.resourceVersion,
        ...(options.sendInitialEvents === true ? { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' } : {}),
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        timeoutSeconds: options.timeoutSeconds,
        allowWatchBookmarks: options.allowWatchBookmarks,
      });
    this.transport
      .stream(path, this.readHeaders, controller.signal)
      .then(async (res) => {
        if (settled) {
          res.destroy();
          return;
        }
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          const text = await readText(res);
          finish(statusError('GET', path, status, text));
          return;
        }
        readWatchLines(
          res,
          (event) => {
            if (settled) return;
            onEvent(event.type as WatchEventType, event.object as KubeObject);
          },
          finish,
          options.withoutManagedFields === true,
        );
      })
      .catch((error: unknown) => {
        if (!settled) finish(new KubeError(`watch ${path} on ${this.server} failed: ${toError(error).message}`, {}, { cause: error }));
      });
    return { done, abort: () => finish(undefined) };
  }
}

/** Names and values that URLSearchParams writes as they are (letters, digits, `*-._`). */
const PLAIN = /^[\w.*-]*$/;

/**
 * `?a=1&b=2` from the defined values, or '' when there are none, encoded as URLSearchParams encodes them. The usual
 * query (`fieldManager=katalog&force=true`, or nothing) needs no encoding and is written directly: no
 * URLSearchParams and no entry arrays for every request.
 */
function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  let text = '';
  for (const name in query) {
    const value = query[name];
    if (value === undefined) continue;
    const written = String(value);
    if (!PLAIN.test(name) || !PLAIN.test(written)) return encodedQuery(query);
    text += `${text === '' ? '?' : '&'}${name}=${written}`;
  }
  return text;
}

function encodedQuery(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

async function readText(res: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  for await (const chunk of res) text += String(chunk);
  return text;
}

/**
 * Builds the error for a non-2xx answer: the request, the HTTP status, the `reason` of its Kubernetes `Status` body
 * and the reasons of its causes (`FieldValueInvalid`…). The Status `message` is left out on purpose: the API server
 * quotes the offending values there (`Invalid value: "…"`), which come from the objects we send, and a KubeError's
 * message ends in logs, status conditions and the inspection API.
 */
function statusError(method: Method, path: string, status: number, text: string): KubeError {
  let reason: string | undefined;
  const causes = new Set<string>();
  try {
    const body = JSON.parse(text) as { reason?: unknown; details?: { causes?: unknown } };
    if (typeof body.reason === 'string' && body.reason !== '') reason = body.reason;
    const listed = body.details?.causes;
    if (Array.isArray(listed)) {
      for (const cause of listed as unknown[]) {
        const kind = (cause as { reason?: unknown } | null)?.reason;
        if (typeof kind === 'string' && /^[A-Za-z]{1,64}$/.test(kind)) causes.add(kind);
      }
    }
  } catch {
    // not a Status body: the status code says enough
  }
  const because = causes.size === 0 ? '' : ` (${[...causes].join(', ')})`;
  return new KubeError(`${method} ${path}: ${status}${reason === undefined ? '' : ` ${reason}`}${because}`, { status, reason });
}

/** True for errors that mean "the resourceVersion is too old": HTTP 410 or a watch ERROR event with code 410. */
export function isGone(error: unknown): boolean {
  if (error instanceof KubeError) return error.status === 410;
  const candidate = error as { statusCode?: unknown; code?: unknown } | undefined;
  return candidate?.statusCode === 410 || candidate?.code === 410;
}
