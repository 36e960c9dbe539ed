/**
 * Runs a list of external calls (definition/external-types.ts) for one custom resource, in declaration order:
 * each call's conditions, URL, body and headers see the custom resource and the results of the calls before it
 * (`.external.<name>`). An HTTP result is `{status, body, headers, error, called}` (strings and a header map), as
 * Orkestra's HTTP results are; a `prometheus` call's is `{result, raw, error, called}` (prometheus-query.ts); a
 * `redis`, `postgres`, `mongo` or `kafka` call's is its protocol client's map (external-protocol-call.ts), made with
 * the rendered `url` and `query` and the credential; a skipped call has `called: "false"` and the rest empty.
 *
 * A call fails when it gets no complete response (network error, deadline, body over the limit) or a status
 * other than `expectedStatus` (any 2xx when not set). A failed call with `continueOnError` keeps its `.error`
 * and the run goes on (the user asked for that); otherwise the run throws an {@link ExternalCallError} that
 * names the call and the reason: never the URL, the headers or the response body (the cycle's error reaches
 * the Ready condition, Events and logs).
 *
 * A call's own `retryBackoff` makes a failed call again within the run, after its waits on the runtime's clock
 * (external-attempts.ts), and `sleep` waits before each request; both end at once when the reconcile's signal
 * aborts (stop() never waits on them). A call with `fires.reconcile: false` is not made (a skipped result).
 *
 * The credential of `auth.secretRef` is read from its Secret for each call (a rotated Secret is used at once)
 * and sent in a header (a protocol client gets it as the password); it is never part of a result, a cache key or a
 * message.
 */
import type { ExternalCall } from '../definition/types.js';
import { isClientProtocol } from '../definition/external-types.js';
import { failedProtocol, protocolAttempt, SKIPPED_PROTOCOL, type ProtocolResult } from './external-protocol-call.js';
import type { ProtocolLookup } from './external-protocols.js';
import { KatalogError } from '../errors.js';
import type { KubeObject } from '../kube/resource.js';
import { compileConditions, compileTemplate, type CompiledConditions, type CompiledTemplate, type TemplateData, type TemplateDialect, type UserNote } from '../template/index.js';
import { ExternalHttpFailure, externalRequest, type ExternalHttpRequest, type ExternalHttpResponse } from './external-http.js';
import type { Clock } from '../util/clock.js';
import { attempts, waitFor } from './external-attempts.js';
import { failedPrometheus, prometheusQueryUrl, prometheusResult, SKIPPED_PROMETHEUS, type PrometheusResult } from './prometheus-query.js';

export type { PrometheusResult } from './prometheus-query.js';
export type { ProtocolResult } from './external-protocol-call.js';

/** What `.external.<name>` holds for an `http` call. */
export interface HttpResult {
  readonly status: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly error: string;
  readonly called: 'true' | 'false';
}

/** What `.external.<name>` holds: an `http`, a `prometheus` or a protocol client's call's result. */
export type ExternalResult = HttpResult | PrometheusResult | ProtocolResult;

/** A call failed and the cycle fails with it (retried with backoff). The message names the call only. */
export class ExternalCallError extends KatalogError {
  /** Private (not an own property), so that a logger printing the error never prints a response body. */
  #results: Readonly<Record<string, ExternalResult>> = {};

  constructor(
    readonly call: string,
    readonly reason: string,
  ) {
    super('E_EXTERNAL', `external call "${call}" failed: ${reason}`);
  }

  /** The results of the run up to and including the failed call (status fields may still read them). */
  get results(): Readonly<Record<string, ExternalResult>> {
    return this.#results;
  }

  /** Records the run's results (by the runner). */
  withResults(results: Readonly<Record<string, ExternalResult>>): this {
    this.#results = results;
    return this;
  }
}

/** Reads one key of a Secret as text; undefined when the Secret or the key is missing. */
export type SecretReader = (name: string, namespace: string, key: string, signal: AbortSignal) => Promise<string | undefined>;

export interface ExternalCallsOptions {
  /** Where the calls are written, for template names (`spec.crds.web.operatorBox.external`). */
  readonly name: string;
  readonly calls: readonly ExternalCall[];
  readonly dialect?: TemplateDialect | undefined;
  /** The definition's user-defined notes the templates may call. */
  readonly notes?: readonly UserNote[] | undefined;
  readonly readSecret: SecretReader;
  readonly now: () => number;
  /** The HTTP client (tests may count requests through it); default node:http. */
  readonly request?: ((input: ExternalHttpRequest) => Promise<ExternalHttpResponse>) | undefined;
  /** Most cached results kept (calls with cacheFor); the oldest go first. Default 1,000. */
  readonly cacheEntries?: number;
  /** The clock of `sleep` and of retry waits; default the system clock. */
  readonly clock?: Clock | undefined;
  /** Hears each retry of a call with its own retryBackoff (for the metric); the name only, never the URL. */
  readonly onRetry?: ((call: string) => void) | undefined;
  /** The clients of `redis`, `postgres`, `mongo`, `kafka` calls (external-protocols.ts); a call without one fails. */
  readonly protocols?: ProtocolLookup | undefined;
}

interface CompiledCall {
  readonly call: ExternalCall;
  readonly url: CompiledTemplate;
  readonly query: CompiledTemplate | undefined;
  readonly body: CompiledTemplate | undefined;
  readonly headers: ReadonlyArray<readonly [string, CompiledTemplate]>;
  readonly conditions: CompiledConditions;
}

const SKIPPED: HttpResult = Object.freeze({ status: '', body: '', headers: Object.freeze({}), error: '', called: 'false' });

export class ExternalCalls {
  private readonly compiled: readonly CompiledCall[];
  private readonly cache = new Map<string, { readonly result: ExternalResult; readonly until: number }>();

  /** Compiles the calls' templates; throws a TemplateError when one does not compile. */
  constructor(private readonly options: ExternalCallsOptions) {
    const dialect = { ...(options.dialect === undefined ? {} : { dialect: options.dialect }), ...(options.notes === undefined ? {} : { notes: options.notes }), now: options.now };
    this.compiled = options.calls.map((call, index) => {
      const name = `${options.name}[${index}]`;
      return {
        call,
        url: compileTemplate(call.url, { name: `${name}.url`, ...dialect }),
        query: call.query === undefined ? undefined : compileTemplate(call.query, { name: `${name}.query`, ...dialect }),
        body: call.body === undefined ? undefined : compileTemplate(call.body, { name: `${name}.body`, ...dialect }),
        headers: Object.entries(call.headers).map(([header, value]) => [header, compileTemplate(value, { name: `${name}.headers.${header}`, ...dialect })] as const),
        conditions: compileConditions({ when: call.when, anyOf: call.anyOf }, { name, ...dialect }),
      };
    });
  }

  get size(): number {
    return this.compiled.length;
  }

  /**
   * Runs the calls for `object` over `data` (the template data built so far); resolves with every result by
   * name, `earlier` included (results of calls that ran before, such as a gate's shared calls). Throws an
   * {@link ExternalCallError} for a failed call without `continueOnError`; `onSoftFailure` hears the others.
   */
  async run(
    object: KubeObject,
    data: TemplateData,
    signal: AbortSignal,
    earlier: Readonly<Record<string, ExternalResult>> = {},
    onSoftFailure?: (error: ExternalCallError) => void,
  ): Promise<Record<string, ExternalResult>> {
    const results: Record<string, ExternalResult> = { ...earlier };
    for (const compiled of this.compiled) {
      const { call } = compiled;
      const view = { ...data, external: results };
      const verdict = call.firesAtReconcile === false ? { ok: false } : compiled.conditions.evaluate(view);
      if (!verdict.ok) {
        results[call.name] = call.protocol === 'http' ? SKIPPED : call.protocol === 'prometheus' ? SKIPPED_PROMETHEUS : SKIPPED_PROTOCOL;
        continue;
      }
      const result = await attempts(call, signal, { clock: this.options.clock, onRetry: this.options.onRetry }, () => this.callOnce(compiled, object, view, signal));
      results[call.name] = result;
      if (result.error === '') continue;
      const error = new ExternalCallError(call.name, result.error).withResults(results);
      if (!call.continueOnError) throw error;
      onSoftFailure?.(error);
    }
    return results;
  }

  private async callOnce(compiled: CompiledCall, object: KubeObject, view: TemplateData, signal: AbortSignal): Promise<ExternalResult> {
    const { call } = compiled;
    if (isClientProtocol(call.protocol)) return this.protocolOnce(compiled, object, view, signal);
    const fail = call.protocol === 'prometheus' ? failedPrometheus : failed;
    const base = compiled.url.renderString(view);
    const url = compiled.query === undefined ? base : prometheusQueryUrl(base, compiled.query.renderString(view));
    if (url === undefined) return fail('the URL did not render to a valid URL');
    const body = compiled.body?.renderString(view);
    const headers: Record<string, string> = {};
    for (const [name, template] of compiled.headers) headers[name] = template.renderString(view);
    const key = call.cacheForMs === undefined ? undefined : JSON.stringify([call.name, call.method, url, body ?? null, headers]);
    const now = this.options.now();
    const hit = this.cached(key, now);
    if (hit !== undefined) return hit;
    if (call.auth !== undefined) {
      const credential = await this.credential(call, object, signal);
      if (typeof credential !== 'string') return fail(credential.failed);
      if (call.auth.header === undefined) headers['authorization'] = `Bearer ${credential}`;
      else headers[call.auth.header] = credential;
    }
    if (call.sleepMs !== undefined && !(await waitFor(call.sleepMs, signal, this.options.clock))) return fail('the reconcile was cancelled');
    let response: ExternalHttpResponse;
    try {
      response = await (this.options.request ?? externalRequest)({ url, method: call.method, headers, body, timeoutMs: call.timeoutMs, maxResponseBytes: call.maxResponseBytes, signal });
    } catch (error) {
      if (error instanceof ExternalHttpFailure) return fail(error.reason);
      throw error;
    }
    const result = call.protocol === 'prometheus' ? prometheusResult(response) : httpResult(call, response);
    // Only successes are kept: a failure is looked at again on the next attempt.
    if (key !== undefined && result.error === '' && call.cacheForMs !== undefined) this.remember(key, result, now + call.cacheForMs);
    return result;
  }

  /** A protocol client's call: the rendered url and query, the credential, one attempt (external-protocol-call.ts). */
  private async protocolOnce(compiled: CompiledCall, object: KubeObject, view: TemplateData, signal: AbortSignal): Promise<ProtocolResult> {
    const { call } = compiled;
    const url = compiled.url.renderString(view);
    const query = compiled.query?.renderString(view) ?? '';
    const key = call.cacheForMs === undefined ? undefined : JSON.stringify([call.name, call.protocol, url, query]);
    const now = this.options.now();
    const hit = this.cached(key, now);
    if (hit !== undefined) return hit as ProtocolResult;
    const credential = call.auth === undefined ? undefined : await this.credential(call, object, signal);
    if (typeof credential === 'object') return failedProtocol(credential.failed);
    if (call.sleepMs !== undefined && !(await waitFor(call.sleepMs, signal, this.options.clock))) return failedProtocol('the reconcile was cancelled');
    const request = { call: call.name, url, query, credential, timeoutMs: call.timeoutMs, poolSize: call.poolSize, signal };
    const result = await protocolAttempt(call.protocol, this.options.protocols?.get(call.protocol), request);
    if (key !== undefined && result.error === '' && call.cacheForMs !== undefined) this.remember(key, result, now + call.cacheForMs);
    return result;
  }

  /** The credential of the call's `auth.secretRef`, or why it cannot be had (a safe reason). */
  private async credential(call: ExternalCall, object: KubeObject, signal: AbortSignal): Promise<string | { readonly failed: string }> {
    if (call.auth === undefined) return { failed: 'the call has no auth' };
    const { name, key } = call.auth.secretRef;
    const namespace = call.auth.secretRef.namespace ?? object.metadata?.namespace;
    if (namespace === undefined) return { failed: `auth.secretRef of a cluster-scoped custom resource needs a namespace` };
    const credential = await this.options.readSecret(name, namespace, key, signal);
    return credential ?? { failed: `Secret ${namespace}/${name} has no key "${key}"` };
  }

  /** A cached result of `key` still fresh at `now`; an expired one is dropped. */
  private cached(key: string | undefined, now: number): ExternalResult | undefined {
    if (key === undefined) return undefined;
    const hit = this.cache.get(key);
    if (hit !== undefined && hit.until > now) return hit.result;
    this.cache.delete(key);
    return undefined;
  }

  private remember(key: string, result: ExternalResult, until: number): void {
    const limit = this.options.cacheEntries ?? 1000;
    while (this.cache.size >= limit) {
      const oldest = this.cache.keys().next();
      if (oldest.done === true) break;
      this.cache.delete(oldest.value);
    }
    this.cache.set(key, { result, until });
  }
}

function httpResult(call: ExternalCall, response: ExternalHttpResponse): HttpResult {
  const ok = call.expectedStatus === undefined ? response.status >= 200 && response.status < 300 : response.status === call.expectedStatus;
  return {
    status: String(response.status),
    body: response.body,
    headers: response.headers,
    error: ok ? '' : `HTTP status ${response.status}${call.expectedStatus === undefined ? ' (expected 2xx)' : ` (expected ${call.expectedStatus})`}`,
    called: 'true',
  };
}

function failed(reason: string): HttpResult {
  return { status: '', body: '', headers: {}, error: reason, called: 'true' };
}
