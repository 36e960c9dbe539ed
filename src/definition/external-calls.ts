/**
 * `external` lists (operatorBox, preReconcile, gates) → the model's calls. Checked offline: a name is unique in
 * the results it joins (`taken`: the box's calls, or a gate's shared and own calls), a literal URL is http(s),
 * header names are HTTP tokens, durations parse, templates compile. A `prometheus` call needs a `query` and is a
 * GET: `method` other than GET, `body` and `expectedStatus` are errors there, as `query` is on an `http` call.
 * A client protocol's call (`redis`, `postgres`, `mongo`, `kafka`) needs a `query` (Orkestra's `ValidateCall`
 * words) and has none of the HTTP fields; its `url` is a connection string, not checked here (the client reads it);
 * `poolSize` belongs to those calls only.
 */
import { DEFAULT_EXTERNAL_MAX_BYTES, DEFAULT_EXTERNAL_TIMEOUT_MS, isClientProtocol, type ExternalCall, type ExternalProtocol } from './external-types.js';
import { checkClientProtocolFields } from './external-protocol-fields.js';
import type { Loose } from './operator-box.js';
import { formatPath, type Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { ExternalCallInput } from './schema-operator-box.js';
import { normalizeConditions } from './conditions.js';
import { toPlain } from './freeze.js';
import { checkTemplates } from './template-check.js';
import { formatDuration, parseDuration } from '../util/duration.js';
import { readRetry, readSleep, waitsToInput } from './external-waits.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function duration(text: string | undefined, fallback: number | undefined, origin: Origin, path: Path, problems: ProblemList): number | undefined {
  if (text === undefined) return fallback;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) {
    problems.add(origin, path, 'invalid-value', `"${text}" is not a positive duration (such as 500ms, 5s, 1m)`);
    return fallback;
  }
  return ms;
}

/**
 * Normalises one `external` list at `path`; `taken` holds the result names already in use where these results
 * land, and gains this list's names. Undefined when the list is absent.
 */
export function normalizeExternalCalls(
  list: readonly (Loose<ExternalCallInput> | undefined)[] | undefined,
  origin: Origin,
  path: Path,
  problems: ProblemList,
  taken: Set<string> = new Set(),
): ExternalCall[] | undefined {
  if (list === undefined) return undefined;
  const calls: ExternalCall[] = [];
  list.forEach((input, index) => {
    if (input?.name === undefined || input.url === undefined) return;
    const at = [...path, index];
    const protocol = input.protocol ?? 'http';
    checkTemplates({ url: input.url, query: input.query, body: input.body, headers: input.headers, when: input.when, anyOf: input.anyOf }, at, origin, problems);
    checkProtocolFields(input, protocol, origin, at, problems);
    if (taken.has(input.name)) problems.add(origin, [...at, 'name'], 'duplicate-name', `a call named "${input.name}" is already declared here; .external.${input.name} would hold two results`);
    taken.add(input.name);
    if (!isClientProtocol(protocol) && !input.url.includes('{{') && !/^https?:\/\/[^/]/i.test(input.url)) problems.add(origin, [...at, 'url'], 'invalid-value', 'an external call URL must start with http:// or https://');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.headers ?? {})) {
      if (value === undefined) continue;
      if (!TOKEN.test(name)) problems.add(origin, [...at, 'headers', name], 'invalid-value', `"${name}" is not a valid HTTP header name`);
      headers[name] = value;
    }
    const auth = input.auth?.secretRef;
    const timeoutMs = duration(input.timeout, DEFAULT_EXTERNAL_TIMEOUT_MS, origin, [...at, 'timeout'], problems) ?? DEFAULT_EXTERNAL_TIMEOUT_MS;
    const sleepMs = readSleep(input, origin, at, problems);
    const retry = readRetry(input, timeoutMs, origin, at, problems);
    if (input.auth?.header !== undefined && !TOKEN.test(input.auth.header)) problems.add(origin, [...at, 'auth', 'header'], 'invalid-value', `"${input.auth.header}" is not a valid HTTP header name`);
    calls.push({
      name: input.name,
      protocol,
      url: input.url,
      query: protocol === 'http' ? undefined : input.query,
      ...(input.poolSize === undefined || !isClientProtocol(protocol) ? {} : { poolSize: input.poolSize }),
      method: input.method ?? 'GET',
      headers,
      body: input.body,
      timeoutMs,
      maxResponseBytes: input.maxResponseBytes ?? DEFAULT_EXTERNAL_MAX_BYTES,
      expectedStatus: input.expectedStatus,
      continueOnError: input.continueOnError ?? false,
      cacheForMs: duration(input.cacheFor, undefined, origin, [...at, 'cacheFor'], problems),
      auth:
        auth?.name === undefined || auth.key === undefined
          ? undefined
          : { secretRef: { name: auth.name, namespace: auth.namespace, key: auth.key }, header: input.auth?.header },
      when: normalizeConditions(input.when, origin, [...at, 'when'], problems),
      anyOf: normalizeConditions(input.anyOf, origin, [...at, 'anyOf'], problems),
      ...(sleepMs === undefined ? {} : { sleepMs }),
      ...(retry === undefined ? {} : { retry }),
      ...(input.fires?.reconcile === false ? { firesAtReconcile: false } : {}),
      path: formatPath(at),
    });
  });
  return calls;
}

/** The fields one protocol has and the other has not, each error at the field. */
function checkProtocolFields(input: Loose<ExternalCallInput>, protocol: ExternalProtocol, origin: Origin, at: Path, problems: ProblemList): void {
  if (isClientProtocol(protocol)) {
    checkClientProtocolFields(input, protocol, origin, at, problems);
    return;
  }
  if (input.poolSize !== undefined) problems.add(origin, [...at, 'poolSize'], 'invalid-value', 'poolSize is only meaningful for stateful protocols (redis, postgres, mongo, kafka)');
  if (protocol === 'http') {
    if (input.query !== undefined) problems.add(origin, [...at, 'query'], 'invalid-value', '`query` belongs to `protocol: prometheus` calls; an http call sends its URL and body');
    return;
  }
  if (input.query === undefined) problems.add(origin, [...at, 'query'], 'missing-field', 'a `protocol: prometheus` call needs a `query` (PromQL)');
  const reason = 'a `protocol: prometheus` call is an instant query (GET <url>/api/v1/query?query=…)';
  if (input.method !== undefined && input.method !== 'GET') problems.add(origin, [...at, 'method'], 'invalid-value', `${reason}; it has no method`);
  if (input.body !== undefined) problems.add(origin, [...at, 'body'], 'invalid-value', `${reason}; it has no body`);
  if (input.expectedStatus !== undefined) problems.add(origin, [...at, 'expectedStatus'], 'invalid-value', `${reason}; any 2xx with status "success" is a success`);
}

/** A call written back as katalog.dev/v1 input (defaults left out); loading it gives an equal call. */
export function externalCallToInput(call: ExternalCall): Record<string, unknown> {
  const conditions = (list: ExternalCall['when']): unknown[] => list.map((condition) => toPlain(condition));
  return {
    name: call.name,
    ...(call.protocol === 'http' ? {} : { protocol: call.protocol }),
    url: call.url,
    ...(call.query === undefined ? {} : { query: call.query }),
    ...(call.poolSize === undefined ? {} : { poolSize: call.poolSize }),
    ...(call.method === 'GET' ? {} : { method: call.method }),
    ...(Object.keys(call.headers).length === 0 ? {} : { headers: { ...call.headers } }),
    ...(call.body === undefined ? {} : { body: call.body }),
    ...(call.timeoutMs === DEFAULT_EXTERNAL_TIMEOUT_MS ? {} : { timeout: formatDuration(call.timeoutMs) }),
    ...(call.maxResponseBytes === DEFAULT_EXTERNAL_MAX_BYTES ? {} : { maxResponseBytes: call.maxResponseBytes }),
    ...(call.expectedStatus === undefined ? {} : { expectedStatus: call.expectedStatus }),
    ...(call.continueOnError ? { continueOnError: true } : {}),
    ...(call.cacheForMs === undefined ? {} : { cacheFor: formatDuration(call.cacheForMs) }),
    ...(call.auth === undefined
      ? {}
      : {
          auth: {
            secretRef: { name: call.auth.secretRef.name, ...(call.auth.secretRef.namespace === undefined ? {} : { namespace: call.auth.secretRef.namespace }), key: call.auth.secretRef.key },
            ...(call.auth.header === undefined ? {} : { header: call.auth.header }),
          },
        }),
    ...(call.when.length === 0 ? {} : { when: conditions(call.when) }),
    ...(call.anyOf.length === 0 ? {} : { anyOf: conditions(call.anyOf) }),
    ...waitsToInput(call),
  };
}
